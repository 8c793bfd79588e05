"""A local Discord: enough of Discord's REST API and gateway for the real discord.py client to
connect, with Python methods that play the users (see ``emulator.server`` and the README's
"The Discord emulator"). It imports nothing of the bot."""

from emulator.api import EPHEMERAL
from emulator.commands import HiddenCommand
from emulator.interactions import ComponentGone, Interaction
from emulator.models import Attachment, EmuUser, Event, Message, Refusal, Request
from emulator.permissions import (
    ADMINISTRATOR,
    BOT_PERMISSIONS,
    MANAGE_GUILD,
    USE_EXTERNAL_APPS,
)
from emulator.server import Emulator, running_emulator

__all__ = [
    "ADMINISTRATOR",
    "BOT_PERMISSIONS",
    "EPHEMERAL",
    "MANAGE_GUILD",
    "USE_EXTERNAL_APPS",
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
