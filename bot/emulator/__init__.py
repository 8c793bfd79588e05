"""The local Discord emulator (DESIGN.md §7): see ``bot.emulator.server``."""

from bot.emulator.server import (
    ADMINISTRATOR,
    EPHEMERAL,
    MANAGE_GUILD,
    Attachment,
    Emulator,
    EmuUser,
    Event,
    HiddenCommand,
    Interaction,
    Message,
    running_emulator,
)

__all__ = [
    "ADMINISTRATOR",
    "EPHEMERAL",
    "MANAGE_GUILD",
    "Attachment",
    "EmuUser",
    "Emulator",
    "Event",
    "HiddenCommand",
    "Interaction",
    "Message",
    "running_emulator",
]
