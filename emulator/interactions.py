"""Interactions: the users' side (a slash command, an autocomplete, a button press sent to the
bot) and the bot's answers, with Discord's timing: an interaction is acknowledged once, within
3 seconds (else 404 / 10062, or 400 / 40060 for a second answer); its token then serves
follow-ups and edits for 15 minutes (then 401 / 50027 Invalid Webhook Token; the clock is
``emu.now()``, which ``emu.advance`` moves on). The first follow-up of a deferred answer edits
the "thinking…" placeholder, so it notifies nobody.

Interactions carry where they happen (``installs``): ``context``, ``authorizing_integration_owners``
and ``app_permissions``; ``member`` in a server, ``user`` in a DM or group DM. In a server
without the bot a member lacking Use External Apps gets every answer ephemeral. Follow-ups are
``webhooks``'; modals ``modals``'."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from emulator import limits
from emulator.activities import LAUNCH_ACTIVITY
from emulator.api import (
    ALREADY_ACKNOWLEDGED,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EPHEMERAL,
    GUILD_INSTALL,
    LOADING,
    MESSAGE_COMPONENT,
    UNKNOWN_INTERACTION,
    Call,
    Refused,
    json_response,
)
from emulator.events import PATIENCE
from emulator.models import Attachment, EmuUser, Event, Message

if TYPE_CHECKING:
    from emulator.server import Emulator

#: An interaction must be acknowledged this many seconds after it is sent.
ACK_DEADLINE = 3.0
#: An interaction token answers follow-ups this long.
TOKEN_LIFETIME = 15 * 60.0


class ComponentGone(LookupError):
    """A press on a button the message no longer has (taken off by an edit): Discord checks a
    component interaction against the message and refuses it (50035, COMPONENT_VALIDATION_FAILED:
    the user reads "This interaction failed"); the bot never hears of it."""


@dataclass
class Interaction:
    """An interaction the emulator sent to the bot, and what the bot answered."""

    id: int
    token: str
    type: int
    user: EmuUser
    channel_id: int
    payload: dict[str, Any]
    sent_at: float
    emulator: Emulator
    callback_type: int | None = None
    callback_at: float | None = None
    #: Autocomplete choices (callback type 8).
    choices: list[dict[str, Any]] | None = None
    original_id: int | None = None
    messages: list[Message] = field(default_factory=list)
    #: Every event that answers this interaction, in order.
    events: list[Event] = field(default_factory=list)
    #: ``authorizing_integration_owners`` and ``context`` as sent.
    owners: dict[str, str] = field(default_factory=dict)
    context: int = 0
    #: When it was sent on the emulator's clock (``emu.now()``, which ``advance`` moves).
    born: float = 0.0
    #: Discord makes every answer ephemeral (a server without the bot, no Use External Apps).
    forced_ephemeral: bool = False
    #: Follow-up messages created with its token.
    follow_ups: int = 0
    #: The modal the bot opened in answer (callback type 9), if any.
    modal: dict[str, Any] | None = None
    _acked: asyncio.Future | None = None

    async def acknowledged(self, timeout: float = PATIENCE) -> int:
        """The callback type once the bot has answered (4 message, 5 defer, 6 deferred update,
        7 update, 8 autocomplete)."""
        assert self._acked is not None
        return await asyncio.wait_for(asyncio.shield(self._acked), timeout)

    async def reply(
        self, predicate: Callable[[Message], bool] | None = None, timeout: float = PATIENCE
    ) -> Message:
        """The first visible answer of this interaction (not a "thinking…" placeholder) that
        satisfies ``predicate``: the callback message, an edit of the original, or a follow-up."""
        return (await self.reply_event(predicate, timeout)).data

    async def reply_event(
        self, predicate: Callable[[Message], bool] | None = None, timeout: float = PATIENCE
    ) -> Event:
        """Like ``reply``, but the event itself (``.at`` is when the emulator received it)."""

        def matches(event: Event) -> bool:
            if event.kind not in ("message", "edit") or event.interaction_id != self.id:
                return False
            message: Message = event.data
            if message.flags & LOADING:
                return False
            return predicate is None or predicate(message)

        # This interaction's own events first (the whole log grows long in a benchmark).
        for event in self.events:
            if matches(event):
                return event
        return await self.emulator.wait_for(matches, since=len(self.emulator.events),
                                            timeout=timeout)


class Interactions:
    """Interactions sent and answered; part of ``Emulator``."""

    def _setup_interactions(self, ack_deadline: float, token_lifetime: float) -> None:
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}

    # ----- the users' side -----------------------------------------------------------------------

    async def slash(
        self,
        user: str | EmuUser,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        channel: int | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        """``user`` runs ``/path`` (e.g. ``"play alak"``) with ``options`` in ``channel``."""
        member = self.user(user)
        where = channel or self.channel_id
        data, owners = self._command_data(member, path, options or {}, locale=locale,
                                          channel_id=where)
        return await self._send_interaction(
            APPLICATION_COMMAND, member, where, data, locale=locale, owners=owners
        )

    async def autocomplete(
        self,
        user: str | EmuUser,
        path: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel: int | None = None,
        locale: str = "en-US",
        timeout: float = PATIENCE,
    ) -> list[dict[str, Any]]:
        """The choices the bot suggests while ``user`` types ``options[focused]``."""
        member = self.user(user)
        where = channel or self.channel_id
        data, owners = self._command_data(member, path, options, focused=focused, locale=locale,
                                          channel_id=where)
        interaction = await self._send_interaction(
            AUTOCOMPLETE, member, where, data, locale=locale, owners=owners
        )
        await interaction.acknowledged(timeout)
        return interaction.choices or []

    async def click(
        self,
        user: str | EmuUser,
        message: Message,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        locale: str = "en-US",
    ) -> Interaction:
        """``user`` presses a button of ``message`` (by custom_id or by label)."""
        if custom_id is None:
            if label is None:
                raise ValueError("give the button's custom_id or its label")
            custom_id = message.button(label)["custom_id"]
        current = self.messages.get(message.id, message)
        if custom_id not in {button.get("custom_id") for button in current.buttons()}:
            raise ComponentGone(f"message {message.id} has no button {custom_id!r} any more")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(
            MESSAGE_COMPONENT, self.user(user), current.channel_id, data,
            message=current, locale=locale, owners=self._message_owners(current),
        )

    def _message_owners(self, message: Message) -> dict[str, str]:
        """A component's ``authorizing_integration_owners``: those of the interaction that made
        its message; a message the bot posted itself is the server's (or its DM's) install."""
        metadata = message.data.get("interaction_metadata")
        if metadata is not None:
            return dict(metadata.get("authorizing_integration_owners") or {})
        guild = self.guild_of(message.channel_id)
        return {str(GUILD_INSTALL): "0" if guild is None else str(guild)}

    async def _send_interaction(
        self,
        itype: int,
        user: EmuUser,
        channel_id: int,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        locale: str = "en-US",
        owners: dict[str, str],
    ) -> Interaction:
        if channel_id not in self.channels:
            raise LookupError(f"no channel {channel_id}")
        members = self.private_members.get(channel_id)
        if members is not None and user.id not in members:
            raise LookupError(f"{user.name} is not in the conversation {channel_id}")
        interaction_id = self.snowflake_now()  # its age is in its id, as on Discord
        token = "itoken-" + secrets.token_urlsafe(24)
        guild_id = self.guild_of(channel_id)
        context = self.context_of(channel_id)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel_id),
            "channel": self.interaction_channel(user, channel_id),
            "token": token,
            "version": 1,
            "locale": locale,
            "app_permissions": str(self.app_permissions_for(user, channel_id)),
            "entitlements": [],
            "authorizing_integration_owners": owners,
            "context": context,
            "attachment_size_limit": limits.ATTACHMENT_BYTES_MAX,
        }
        if guild_id is not None:  # a server: the member, with their permissions
            payload.update({
                "guild_id": str(guild_id),
                "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
                "member": {**self._member_payload(user),
                           "permissions": str(self.permissions_of(user))},
                "guild_locale": "en-US",
            })
        else:  # a DM or group DM: the user
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = message.data
        interaction = Interaction(
            id=interaction_id,
            token=token,
            type=itype,
            user=user,
            channel_id=channel_id,
            payload=payload,
            sent_at=time.perf_counter(),
            emulator=self,
            owners=owners,
            context=context,
            born=self.now(),
            forced_ephemeral=self.forced_ephemeral(user, channel_id),
            _acked=asyncio.get_running_loop().create_future(),
        )
        self.interactions[interaction_id] = interaction
        self._by_token[token] = interaction
        await self._dispatch("INTERACTION_CREATE", payload, guild_id=guild_id)
        return interaction

    # ----- the bot's answers ---------------------------------------------------------------------

    async def _interaction_callback(
        self, interaction_id: int, token: str, payload: Any, files: list[Attachment]
    ) -> web.Response:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise Refused(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if interaction.callback_type is not None:
            raise Refused(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        if self.now() - interaction.born > self.ack_deadline:
            # Too late: Discord has told the user the application did not respond.
            raise Refused(404, UNKNOWN_INTERACTION, "Unknown interaction")
        kind = int(payload["type"])
        data = payload.get("data") or {}
        if interaction.forced_ephemeral and kind in (4, 5):
            # USE_EXTERNAL_APPS missing: Discord shows the answer to the user alone.
            data = {**data, "flags": int(data.get("flags") or 0) | EPHEMERAL}
        if kind == 9:
            self._check_modal(interaction, data)
        elif kind in (4, 7):
            self._check_message(data, files, creating=kind == 4)
        elif kind == 8:
            errors = limits.FormErrors()
            limits.check_choices(list(data.get("choices") or []), errors)
            if errors:
                raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
        elif kind == LAUNCH_ACTIVITY:
            self._check_launch(interaction)  # ``emulator.activities``
        elif kind not in (5, 6):
            raise Refused(400, limits.INVALID_FORM_BODY,
                          f"the emulator does not implement callback type {kind}")
        source = interaction.payload.get("message")
        if kind in (6, 7) and source is None:
            raise Refused(400, limits.INVALID_FORM_BODY, "Interaction has no message to update")
        interaction.callback_type = kind
        interaction.callback_at = time.perf_counter()
        resource: dict[str, Any] = {"type": kind}
        response_message: Message | None = None
        if kind == 4:  # channel message with source
            response_message = self._create_message(
                interaction.channel_id, data, files, interaction=interaction
            )
            interaction.original_id = response_message.id
        elif kind == 5:  # deferred: a "thinking…" placeholder becomes the original response
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            response_message = self._create_message(
                interaction.channel_id, {}, [], interaction=interaction, flags=flags
            )
            interaction.original_id = response_message.id
        elif kind in (6, 7):  # (deferred) update of the clicked message
            assert source is not None
            target = self.messages[int(source["id"])]
            interaction.original_id = target.id
            if kind == 7:
                response_message = self._edit_message(target, data, files, interaction)
        elif kind == 8:  # autocomplete result
            interaction.choices = list(data.get("choices") or [])
        elif kind == 9:  # a modal, for the user to fill in (``submit_modal``)
            interaction.modal = data
        elif kind == LAUNCH_ACTIVITY:
            resource["activity_instance"] = {"id": self._launch_for(interaction).instance_id}
        if response_message is not None:
            resource["message"] = response_message.data
        self._record("callback", interaction, interaction)
        assert interaction._acked is not None
        if not interaction._acked.done():
            interaction._acked.set_result(kind)
        original = interaction.original_id
        body = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": None if original is None else str(original),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(
                    response_message is not None and response_message.ephemeral
                ),
            },
            "resource": resource,
        }
        if "activity_instance" in resource:
            body["interaction"]["activity_instance_id"] = resource["activity_instance"]["id"]
        return json_response(body)

    # ----- routes (``emulator.routes``) --------------------------------------------------------

    async def create_interaction_response(self, call: Call) -> Any:
        return await self._interaction_callback(
            call.snowflake("interaction.id"), call.params["interaction.token"], call.payload,
            call.files,
        )
