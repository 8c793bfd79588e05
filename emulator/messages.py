"""Messages: created (by a channel post, an interaction's answer or a follow-up) and edited, with
Discord's limits (``limits``), their attachments, whom each creation notifies (``mentions``), and
nonces: a message posted again with the same ``nonce`` and ``enforce_nonce`` within
``nonce_seconds`` is the first one, not a second message."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from emulator import limits, mentions
from emulator.api import (
    CANNOT_MESSAGE_USER,
    DM_CHANNEL,
    EPHEMERAL,
    LOADING,
    PUBLIC_THREAD,
    UNKNOWN_MESSAGE,
    Call,
    Refused,
    json_response,
    now_iso,
)
from emulator.models import Attachment, Message
from emulator.permissions import (
    CANNOT_EDIT_OTHERS,
    MANAGE_MESSAGES,
    PIN_MESSAGES,
    READ_MESSAGE_HISTORY,
    to_send,
)

if TYPE_CHECKING:
    from emulator.interactions import Interaction

#: How long a message nonce stays unique ("the past few minutes").
NONCE_SECONDS = 5 * 60.0


class Messages:
    """Messages and their files; part of ``Emulator``."""

    def _setup_messages(self, nonce_seconds: float) -> None:
        self.nonce_seconds = nonce_seconds
        #: (channel, author, nonce) -> (message id, when it was created).
        self._nonces: dict[tuple[int, int, str], tuple[int, float]] = {}

    def _message(self, channel_id: int, message_id: int) -> Message:
        self._channel_payload(channel_id)
        message = self.messages.get(message_id)
        if message is None or message.channel_id != channel_id:
            raise Refused(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def _check_message(
        self, payload: dict[str, Any], files: list[Attachment], *, creating: bool
    ) -> None:
        """Discord's limits on a message body (``limits``)."""
        if limits.oversized(files):
            raise Refused(413, limits.TOO_LARGE, "Request entity too large")
        errors = limits.FormErrors()
        limits.check_message(payload, files, creating=creating, errors=errors)
        if errors:
            raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        if creating and limits.is_empty(payload, files):
            raise Refused(400, limits.EMPTY_MESSAGE, "Cannot send an empty message")

    def _post_in_channel(
        self, channel_id: int, payload: dict[str, Any], files: list[Attachment]
    ) -> Message:
        """``POST /channels/{id}/messages``: permissions, limits, then the nonce (a message
        sent again with the same nonce is the first one)."""
        channel = self._channel_payload(channel_id)
        if channel["type"] != DM_CHANNEL:
            self._require(channel_id, to_send(channel["type"] == PUBLIC_THREAD, bool(files)))
        elif int(channel["recipients"][0]["id"]) in self.dms_closed:
            raise Refused(403, CANNOT_MESSAGE_USER, "Cannot send messages to this user")
        self._check_message(payload, files, creating=True)
        nonce = payload.get("nonce")
        key = None
        if nonce is not None and payload.get("enforce_nonce"):
            key = (channel_id, self.bot_user.id, str(nonce))
            now = time.perf_counter()
            seen = self._nonces.get(key)
            if seen is not None and now - seen[1] <= self.nonce_seconds:
                first = self.messages.get(seen[0])
                if first is not None:
                    return first
        message = self._create_message(channel_id, payload, files)
        if key is not None:
            self._nonces[key] = (message.id, time.perf_counter())
        return message

    def _attachments(self, files: list[Attachment]) -> list[dict[str, Any]]:
        return [
            {
                "id": str(self._next_id()),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"http://{self.host}:{self.port}/attachments/{f.filename}",
                "proxy_url": f"http://{self.host}:{self.port}/attachments/{f.filename}",
                "content_type": f.content_type,
            }
            for f in files
        ]

    def _create_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[Attachment],
        *,
        interaction: Interaction | None = None,
        flags: int | None = None,
    ) -> Message:
        message_id = self._next_id()
        flag_bits = int(payload.get("flags") or 0) if flags is None else flags
        content = payload.get("content") or ""
        notified = mentions.notified_users(
            content, payload.get("allowed_mentions"), webhook=interaction is not None,
            author_id=self.bot_user.id, ephemeral=bool(flag_bits & EPHEMERAL),
        )
        members = self.members_of(channel_id)
        if members is not None:  # a DM or group DM: nobody outside it is notified
            notified = notified & members
        data: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self.bot_user.payload(),
            "content": content,
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": self._user_payloads(notified),
            "mention_roles": [],
            "attachments": self._attachments(files),
            "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [],
            "pinned": False,
            "type": 0 if interaction is None else 20,
            "flags": flag_bits,
        }
        if self.guild_of(channel_id) is not None:
            data["guild_id"] = str(self.guild_of(channel_id))
        if payload.get("nonce") is not None:
            data["nonce"] = payload["nonce"]
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": dict(interaction.owners),
            }
        message = Message(
            id=message_id,
            channel_id=channel_id,
            author=self.bot_user,
            data=data,
            files=list(files),
            ephemeral=bool(flag_bits & EPHEMERAL),
            interaction_id=None if interaction is None else interaction.id,
            notified=notified,
        )
        self.messages[message_id] = message
        if channel_id in self.channels:
            self.channels[channel_id]["last_message_id"] = str(message_id)
        if interaction is not None:
            interaction.messages.append(message)
        self._record("message", message, interaction, notified=notified)
        return message

    def _edit_message(
        self,
        message: Message,
        payload: dict[str, Any],
        files: list[Attachment],
        interaction: Interaction | None,
    ) -> Message:
        data = dict(message.data)
        for key in ("content", "embeds", "components"):
            if key in payload:
                data[key] = payload[key] or ([] if key != "content" else "")
        if "content" in payload:
            # The mentions are parsed again (and notify nobody: only creation notifies).
            parsed = mentions.notified_users(
                data["content"] or "", payload.get("allowed_mentions"),
                webhook=message.interaction_id is not None or interaction is not None,
                author_id=self.bot_user.id, ephemeral=False,
            )
            data["mentions"] = self._user_payloads(parsed)
        if "flags" in payload and payload["flags"] is not None:
            data["flags"] = int(payload["flags"])
        # Editing a "thinking…" placeholder turns it into a normal message.
        data["flags"] = int(data.get("flags") or 0) & ~LOADING
        # Attachments: keep those listed by id (discord.py sends the list), add the new files.
        kept_files = list(message.files)
        if "attachments" in payload:
            keep_ids = {str(a.get("id")) for a in payload["attachments"] if "filename" not in a}
            old = data.get("attachments") or []
            kept = [a for a in old if a["id"] in keep_ids]
            pairs = zip(message.files, old, strict=False)
            kept_files = [f for f, a in pairs if a["id"] in keep_ids]
            data["attachments"] = kept + self._attachments(files)
            kept_files += files
        elif files:
            data["attachments"] = (data.get("attachments") or []) + self._attachments(files)
            kept_files += files
        data["edited_timestamp"] = now_iso()
        message.data = data
        message.files = kept_files
        if interaction is not None and message.interaction_id is None:
            message.interaction_id = interaction.id
        self._record("edit", message, interaction)
        return message

    # ----- routes (``emulator.routes``) --------------------------------------------------------

    def create_message(self, call: Call) -> Any:
        channel_id = call.snowflake("channel.id")
        return json_response(self._post_in_channel(channel_id, call.payload or {}, call.files).data)

    def get_message(self, call: Call) -> Any:
        channel_id = call.snowflake("channel.id")
        self._require(channel_id, READ_MESSAGE_HISTORY)
        return json_response(self._message(channel_id, call.snowflake("message.id")).data)

    def edit_message(self, call: Call) -> Any:
        message = self._message(call.snowflake("channel.id"), call.snowflake("message.id"))
        if message.author != self.bot_user:
            raise Refused(403, CANNOT_EDIT_OTHERS,
                          "Cannot edit a message authored by another user")
        self._check_message(call.payload or {}, call.files, creating=False)
        return json_response(self._edit_message(message, call.payload or {}, call.files, None).data)

    def pin_message(self, call: Call) -> Any:
        return self._set_pinned(call, True)

    def unpin_message(self, call: Call) -> Any:
        return self._set_pinned(call, False)

    def _set_pinned(self, call: Call, pinned: bool) -> Any:
        channel_id = call.snowflake("channel.id")
        message = self._message(channel_id, call.snowflake("message.id"))
        self._require(channel_id, PIN_MESSAGES)
        message.data["pinned"] = pinned
        return web.Response(status=204)

    def delete_message(self, call: Call) -> Any:
        channel_id = call.snowflake("channel.id")
        message = self._message(channel_id, call.snowflake("message.id"))
        if message.author != self.bot_user:
            self._require(channel_id, MANAGE_MESSAGES)
        self.messages.pop(message.id, None)
        self._record("delete", message)
        return web.Response(status=204)
