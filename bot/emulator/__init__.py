"""The local Discord emulator (DESIGN.md §7): see ``bot.emulator.server``."""

from bot.emulator.permissions import ADMINISTRATOR, BOT_PERMISSIONS, MANAGE_GUILD
from bot.emulator.server import (
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
