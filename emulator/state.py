"""The world the bot lives in: the application and its bot user, the local users, the servers
(guilds) with their channels and members, and the payloads Discord describes them with.

Every local user is a member of every server. The bot is installed in each server (a guild
install) unless the server is made with ``add_guild(..., bot=False)``; user installs, DMs and
group DMs between users are ``installs``'.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from emulator.api import (
    DM_CHANNEL,
    MISSING_ACCESS,
    PUBLIC_THREAD,
    SHARD_SHIFT,
    TEXT_CHANNEL,
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MEMBER,
    UNKNOWN_USER,
    Call,
    Refused,
    json_response,
)
from emulator.models import EmuUser, Message
from emulator.permissions import MEMBER_PERMISSIONS, VIEW_CHANNEL


class State:
    """Users, servers, channels and members; part of ``Emulator``."""

    def _setup_state(self, users: Iterable[str], guild_name: str, channel_name: str) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        # Servers a shard apart: with ``shards`` shards, the n-th server is on shard n % shards.
        self._guild_ids = itertools.count(1_000_000_000 << SHARD_SHIFT, 1 << SHARD_SHIFT)
        self.bot_user = EmuUser(self._next_id(), "boardgames", bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[str, EmuUser] = {}
        for name in users:
            self.add_user(name)
        self.owner = next(iter(self.users.values()), self.bot_user)
        #: Server id -> name; every user is a member of every server but those ``leave``
        #: took them out of (``outsiders``: server id -> user ids).
        self.guilds: dict[int, str] = {}
        self.outsiders: dict[int, set[int]] = {}
        #: Channel id -> Discord's channel object: text channels, threads, direct messages.
        self.channels: dict[int, dict[str, Any]] = {}
        #: The first server and its channel (``add_guild`` makes more).
        self.guild_id, self.channel_id = self.add_guild(guild_name, channel_name)
        self.messages: dict[int, Message] = {}
        #: Users whose privacy settings refuse direct messages from the bot (``refuse_dms``).
        self.dms_closed: set[int] = set()

    def _next_id(self) -> int:
        return next(self._ids)

    def add_guild(self, name: str, channel_name: str = "games", *,
                  bot: bool = True) -> tuple[int, int]:
        """A new server with a text channel: (server id, channel id). Consecutive servers are
        on consecutive shards (``shard_of``). ``bot=False``: a server that never added the
        bot (its users may still use the app they installed on their account)."""
        guild_id = next(self._guild_ids)
        channel_id = self._next_id()
        self.guilds[guild_id] = name
        if bot:
            self.bot_guild_ids.add(guild_id)
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": TEXT_CHANNEL,
            "guild_id": str(guild_id),
            "name": channel_name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        return guild_id, channel_id

    @property
    def guild_name(self) -> str:
        return self.guilds[self.guild_id]

    def guild_of(self, channel_id: int) -> int | None:
        """The server of a channel or thread (None: a direct message)."""
        guild = self.channels.get(channel_id, {}).get("guild_id")
        return None if guild is None else int(guild)

    def leave(self, name_or_user: str | EmuUser, guild_id: int | None = None) -> None:
        """The user is no longer a member of the server (the first one by default): Get Guild
        Member answers 404 for them and the server's payload lists them no more."""
        user = self.user(name_or_user)
        self.outsiders.setdefault(guild_id or self.guild_id, set()).add(user.id)

    def is_member(self, user_id: int, guild_id: int) -> bool:
        known = user_id == self.bot_user.id or any(u.id == user_id for u in self.users.values())
        return known and user_id not in self.outsiders.get(guild_id, set())

    async def hide_channel(self, name_or_user: str | EmuUser, channel_id: int) -> None:
        """A member overwrite on a server's text channel denies the user View Channel (as a
        moderator's edit of the channel's permissions would), told to the bot by
        CHANNEL_UPDATE. Discord resolves a member's permissions in a channel from the server's
        roles, then the channel's overwrites (@everyone's, the roles', the member's last); a
        thread has its parent's (discord-api-docs, topics/permissions, "Permission
        Overwrites"). The bot's library does that resolution from these payloads."""
        user = self.user(name_or_user)
        channel = self.channels[channel_id]
        channel["permission_overwrites"] = [
            *(o for o in channel["permission_overwrites"] if o["id"] != str(user.id)),
            {"id": str(user.id), "type": 1, "allow": "0", "deny": str(VIEW_CHANNEL)},
        ]
        await self._dispatch("CHANNEL_UPDATE", channel, guild_id=int(channel["guild_id"]))

    def add_user(self, name: str) -> EmuUser:
        user = EmuUser(self._next_id(), name.lower())
        self.users[user.name] = user
        return user

    def refuse_dms(self, name_or_user: str | EmuUser, refused: bool = True) -> None:
        """The user closes (or opens again) their direct messages to the bot, as Discord's
        privacy setting "Allow direct messages from server members" does: the DM channel
        can still be opened, but a message in it is refused with 403 / 50007."""
        user = self.user(name_or_user)
        if refused:
            self.dms_closed.add(user.id)
        else:
            self.dms_closed.discard(user.id)

    def dm_channel_of(self, name_or_user: str | EmuUser) -> int | None:
        """The id of the bot's DM channel with the user, if the bot opened one."""
        wanted = str(self.user(name_or_user).id)
        for channel in self.channels.values():
            if channel["type"] == DM_CHANNEL and channel["recipients"][0]["id"] == wanted:
                return int(channel["id"])
        return None

    def user(self, name_or_user: str | EmuUser) -> EmuUser:
        if isinstance(name_or_user, EmuUser):
            return name_or_user
        name = name_or_user.lstrip("@").lower()
        try:
            return self.users[name]
        except KeyError:
            raise LookupError(f"no local user {name!r}; users: {', '.join(self.users)}") from None

    def channel_messages(self, channel_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == PUBLIC_THREAD]

    # ----- payloads ------------------------------------------------------------------------------

    def _member_payload(self, user: EmuUser) -> dict[str, Any]:
        return {
            "user": user.payload(),
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
        }

    def _guild_payload(self, guild_id: int) -> dict[str, Any]:
        members = [self._member_payload(u) for u in (self.bot_user, *self.users.values())
                   if self.is_member(u.id, guild_id)]
        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id],
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": len(members),
            "members": members,
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [c for c in self.channels.values()
                         if c["type"] == TEXT_CHANNEL and c["guild_id"] == str(guild_id)],
            "threads": [c for c in self.threads() if c["guild_id"] == str(guild_id)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "afk_timeout": 300,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
        }

    def _user_payloads(self, user_ids: Iterable[int]) -> list[dict[str, Any]]:
        wanted = set(user_ids)
        return [u.payload() for u in self.users.values() if u.id in wanted]

    def _application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Local emulator application",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "rpc_origins": [],
        }

    def _channel_payload(self, channel_id: int) -> dict[str, Any]:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise Refused(404, UNKNOWN_CHANNEL, "Unknown Channel") from None

    # ----- routes (``emulator.routes``) --------------------------------------------------------

    def get_current_user(self, call: Call) -> Any:
        return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    def get_user(self, call: Call) -> Any:
        uid = call.params["user.id"]
        found = [u for u in (self.bot_user, *self.users.values()) if str(u.id) == uid]
        if not found:
            raise Refused(404, UNKNOWN_USER, "Unknown User")
        return json_response(found[0].payload())

    def get_guild_member(self, call: Call) -> Any:
        """Get Guild Member (discord-api-docs, resources/guild): the member object of a user
        of a server the bot is in; 404 Unknown Member for anyone else. It needs no privileged
        intent."""
        guild_id = int(call.params["guild.id"])
        if guild_id not in self.guilds:
            raise Refused(404, UNKNOWN_GUILD, "Unknown Guild")
        if guild_id not in self.bot_guild_ids:
            raise Refused(403, MISSING_ACCESS, "Missing Access")
        uid = call.params["user.id"]
        found = [u for u in (self.bot_user, *self.users.values()) if str(u.id) == uid]
        if not found or not self.is_member(found[0].id, guild_id):
            raise Refused(404, UNKNOWN_MEMBER, "Unknown Member")
        return json_response(self._member_payload(found[0]))

    def get_current_application(self, call: Call) -> Any:
        return json_response(self._application_payload())
