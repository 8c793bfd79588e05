"""Channels and threads: reading and editing a channel, starting a thread (from a message, which
starts at most one: 400 / 160004 after), adding a member to a thread, and opening a direct
message channel. What each needs of the bot's permissions follows Discord's channel reference and
threads topic (View Channel, which every channel route needs, is checked before the route)."""

from __future__ import annotations

import contextlib
from typing import Any

from aiohttp import web

from emulator import limits
from emulator.api import (
    DM_CHANNEL,
    PUBLIC_THREAD,
    THREAD_ALREADY_CREATED,
    UNKNOWN_USER,
    WRONG_CHANNEL_TYPE,
    Call,
    Refused,
    json_response,
    now_iso,
)
from emulator.models import Message
from emulator.permissions import (
    CREATE_PUBLIC_THREADS,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)

#: The auto-archive delays Discord accepts, in minutes.
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


class Channels:
    """Channels, threads and direct messages; part of ``Emulator``."""

    async def _create_thread(
        self, parent_id: int, payload: dict[str, Any], message: Message | None
    ) -> dict[str, Any]:
        parent = self._channel_payload(parent_id)
        if parent.get("guild_id") is None or parent["type"] == PUBLIC_THREAD:
            raise Refused(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
        self._require(parent_id, CREATE_PUBLIC_THREADS)
        errors = limits.FormErrors()
        limits.check_thread_name(payload.get("name"), errors)
        if errors:
            raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        if message is not None and message.id in self.channels:
            # A message starts one thread, which has the message's id.
            raise Refused(400, THREAD_ALREADY_CREATED,
                          "A thread has already been created for this message")
        thread_id = message.id if message is not None else self._next_id()
        thread = {
            "id": str(thread_id),
            "type": int(payload.get("type", PUBLIC_THREAD)),
            "guild_id": parent["guild_id"],
            "parent_id": str(parent_id),
            "owner_id": str(self.bot_user.id),
            "name": payload["name"],
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(payload.get("auto_archive_duration") or 10080),
                "archive_timestamp": now_iso(),
                "locked": False,
                "create_timestamp": now_iso(),
            },
        }
        self.channels[thread_id] = thread
        self._record("thread", thread)
        with contextlib.suppress(ConnectionError):  # no bot listening (it was just killed)
            await self._dispatch("THREAD_CREATE", {**thread, "newly_created": True},
                                 guild_id=int(parent["guild_id"]))
        return thread

    def _dm_channel(self, recipient_id: int) -> dict[str, Any]:
        for channel_id, channel in self.channels.items():
            # The bot's own DM with the user, not a DM between two users.
            if (channel["type"] == DM_CHANNEL and channel_id not in self.private_members
                    and channel["recipients"][0]["id"] == str(recipient_id)):
                return channel
        recipient = next((u for u in self.users.values() if u.id == recipient_id), None)
        if recipient is None:
            raise Refused(404, UNKNOWN_USER, "Unknown User")
        channel_id = self._next_id()
        channel = {
            "id": str(channel_id),
            "type": DM_CHANNEL,
            "recipients": [recipient.payload()],
            "last_message_id": None,
        }
        self.channels[channel_id] = channel
        return channel

    # ----- routes (``emulator.routes``) --------------------------------------------------------

    def get_channel(self, call: Call) -> Any:
        return json_response(self._channel_payload(call.snowflake("channel.id")))

    def modify_channel(self, call: Call) -> Any:
        channel_id = call.snowflake("channel.id")
        channel = self._channel_payload(channel_id)
        body = call.payload or {}
        # A server's channel needs Manage Channels (resources/channel, "Modify Channel").
        # In a thread, taking it (unlocked) out of the archive needs Send Messages; its
        # creator may also rename it, archive it and set its auto-archive delay
        # (topics/threads, "Editing & Deleting Threads"); anything else needs Manage Threads.
        if channel["type"] != PUBLIC_THREAD:
            self._require(channel_id, MANAGE_CHANNELS)
        elif set(body) == {"archived"} and body["archived"] is False:
            self._require(channel_id, SEND_MESSAGES)
        elif not (channel.get("owner_id") == str(self.bot_user.id)
                  and set(body) <= {"name", "archived", "auto_archive_duration"}):
            self._require(channel_id, MANAGE_THREADS)
        duration = body.get("auto_archive_duration")
        if duration is not None and duration not in AUTO_ARCHIVE_DURATIONS:
            errors = limits.FormErrors()
            errors.add(("auto_archive_duration",), "BASE_TYPE_CHOICES",
                       "Value must be one of (60, 1440, 4320, 10080).")
            raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        if "name" in body:
            errors = limits.FormErrors()
            limits.check_thread_name(body["name"], errors)
            if errors:
                raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        for key in ("name", "archived", "locked", "auto_archive_duration"):
            if key in body:
                if key == "name":
                    channel["name"] = body[key]
                else:
                    channel["thread_metadata"][key] = body[key]
        return json_response(channel)

    async def start_thread_from_message(self, call: Call) -> Any:
        channel_id = call.snowflake("channel.id")
        message = self._message(channel_id, call.snowflake("message.id"))
        return json_response(await self._create_thread(channel_id, call.payload or {}, message))

    async def start_thread_without_message(self, call: Call) -> Any:
        return json_response(
            await self._create_thread(call.snowflake("channel.id"), call.payload or {}, None))

    def add_thread_member(self, call: Call) -> Any:
        channel_id = call.snowflake("channel.id")
        self._channel_payload(channel_id)
        # Adding a member needs the right to talk in the thread.
        self._require(channel_id, SEND_MESSAGES_IN_THREADS)
        return web.Response(status=204)

    def create_dm(self, call: Call) -> Any:
        return json_response(self._dm_channel(int(call.payload["recipient_id"])))
