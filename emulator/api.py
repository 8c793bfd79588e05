"""Discord's numbers and shapes shared by every part of the emulator: the API version, message
flags, error codes, channel, interaction and option types, the shard formula, and how an answer
or a refusal is written."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from emulator.models import Attachment

API_VERSION = 10
#: Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: Discord's error codes.
UNKNOWN_GUILD = 10004
UNKNOWN_CHANNEL = 10003
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
#: A direct message to a user whose privacy settings refuse it.
CANNOT_MESSAGE_USER = 50007
THREAD_ALREADY_CREATED = 160004
#: 400: an action the channel's type does not allow (a thread in a DM).
WRONG_CHANNEL_TYPE = 50024
#: 403: the bot cannot see the channel (it is not in the DM, group DM or server).
MISSING_ACCESS = 50001
#: 401: an interaction token older than 15 minutes.
INVALID_WEBHOOK_TOKEN = 50027
#: 400: a user-installed app's sixth follow-up of one interaction.
MAX_FOLLOW_UPS = 40094
#: Channel types (Discord API). Private threads (12) are not modelled yet.
TEXT_CHANNEL = 0
DM_CHANNEL = 1
GROUP_DM = 3
PUBLIC_THREAD = 11
#: Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
#: Interaction context types: where an interaction happens.
GUILD_CONTEXT = 0
BOT_DM = 1
PRIVATE_CHANNEL = 2
#: Application integration types: how the app was installed.
GUILD_INSTALL = 0
USER_INSTALL = 1
#: Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE = range(1, 9)
NUMBER = 10
#: Discord's snowflakes keep their creation time above bit 22; shards split on it.
SHARD_SHIFT = 22


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord sends a server's events to; a direct message's is shard 0."""
    return 0 if guild_id is None else (guild_id >> SHARD_SHIFT) % count


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body only when Content-Type is exactly "application/json";
    # web.json_response appends "; charset=utf-8", so the header is set by hand.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def error_response(status: int, message: str, code: int = 0) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)


class Refused(Exception):
    """Raised inside a route to answer with Discord's error body."""

    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code = status, code
        self.body: dict[str, Any] = {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


@dataclass(frozen=True)
class Call:
    """One REST request as its route's handler sees it: the path's parameters (named as in
    Discord's route list, e.g. ``channel.id``), the JSON body, the files and the query."""

    params: dict[str, str]
    payload: Any
    files: list[Attachment]
    query: Mapping[str, str]

    def snowflake(self, name: str) -> int:
        """A snowflake parameter of the path (``call.snowflake("channel.id")``)."""
        return int(self.params[name])
