"""The local Discord emulator (DESIGN.md §7): see ``bot.emulator.server``."""

from bot.emulator.server import (
    EPHEMERAL,
    Attachment,
    Emulator,
    EmuUser,
    Event,
    Interaction,
    Message,
    running_emulator,
)

__all__ = [
    "EPHEMERAL",
    "Attachment",
    "EmuUser",
    "Emulator",
    "Event",
    "Interaction",
    "Message",
    "running_emulator",
]
