"""The local Discord emulator (DESIGN.md §7): see ``emulator.server``."""

from emulator.permissions import ADMINISTRATOR, BOT_PERMISSIONS, MANAGE_GUILD
from emulator.server import (
    EPHEMERAL,
    Attachment,
    ComponentGone,
    Emulator,
    EmuUser,
    Event,
    HiddenCommand,
    Interaction,
    Message,
    Refusal,
    Request,
    running_emulator,
)

__all__ = [
    "ADMINISTRATOR",
    "BOT_PERMISSIONS",
    "EPHEMERAL",
    "MANAGE_GUILD",
    "Attachment",
    "ComponentGone",
    "EmuUser",
    "Emulator",
    "Event",
    "HiddenCommand",
    "Interaction",
    "Message",
    "Refusal",
    "Request",
    "running_emulator",
]
