"""Follow-up messages: what the bot sends and edits with an interaction's token after its first
answer (discord-api-docs, interactions/receiving-and-responding, "Followup Messages"). A token
serves 15 minutes on the emulator's clock (401 / 50027 after); one never acknowledged dies with
the 3 s deadline (404 / 10015). The first follow-up of a deferred answer edits the "thinking…"
placeholder. Where only the user's install authorizes the interaction, at most 5 follow-ups are
created (400 / 40094); a member without Use External Apps in a server without the bot gets them
ephemeral."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from emulator.api import (
    EPHEMERAL,
    INVALID_WEBHOOK_TOKEN,
    LOADING,
    MAX_FOLLOW_UPS,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    USER_INSTALL,
    Call,
    Refused,
    json_response,
)
from emulator.models import Message

if TYPE_CHECKING:
    from emulator.interactions import Interaction

#: Follow-ups an interaction authorized only by a user's install may create.
USER_INSTALL_FOLLOW_UPS_MAX = 5


class Webhooks:
    """Follow-ups and edits through an interaction's token; part of ``Emulator``."""

    def _live_interaction(self, token: str) -> Interaction:
        """The interaction of a webhook token that still works: acknowledged in time, and less
        than 15 minutes old (Discord answers Unknown Webhook otherwise)."""
        interaction = self._by_token.get(token)
        if interaction is None:
            raise Refused(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        age = self.now() - interaction.born
        if interaction.callback_type is None and age > self.ack_deadline:
            raise Refused(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        if age > self.token_lifetime:
            raise Refused(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return interaction

    def _webhook_target(self, interaction: Interaction, target: str) -> Message:
        if target == "@original":
            message = self.messages.get(interaction.original_id or 0)
        else:
            message = self.messages.get(int(target)) if target.isdigit() else None
            if message is not None and message.interaction_id != interaction.id:
                message = None
        if message is None:
            raise Refused(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def execute_webhook(self, call: Call) -> Any:
        interaction = self._live_interaction(call.params["interaction.token"])
        body, files = call.payload or {}, call.files
        if interaction.forced_ephemeral:
            body = {**body, "flags": int(body.get("flags") or 0) | EPHEMERAL}
        original = self.messages.get(interaction.original_id or 0)
        if interaction.callback_type == 5 and original and original.flags & LOADING:
            # Discord: the first follow-up after a deferred reply edits the "thinking…"
            # placeholder (no new message, so nobody is notified), which keeps the
            # deferral's ephemeral flag.
            self._check_message(body, files, creating=False)
            body = {**body, "flags": original.flags & EPHEMERAL}
            message = self._edit_message(original, body, files, interaction)
        else:
            self._check_message(body, files, creating=True)
            if (set(interaction.owners) == {str(USER_INSTALL)}
                    and interaction.follow_ups >= USER_INSTALL_FOLLOW_UPS_MAX):
                raise Refused(400, MAX_FOLLOW_UPS,
                              "This interaction has hit the maximum number of follow up messages")
            interaction.follow_ups += 1
            message = self._create_message(
                interaction.channel_id, body, files, interaction=interaction
            )
        if call.query.get("wait") in ("true", "1", "True"):
            return json_response(message.data)
        return web.Response(status=204)

    def get_webhook_message(self, call: Call) -> Any:
        interaction = self._live_interaction(call.params["interaction.token"])
        return json_response(self._webhook_target(interaction, call.params["message.id"]).data)

    def edit_webhook_message(self, call: Call) -> Any:
        interaction = self._live_interaction(call.params["interaction.token"])
        message = self._webhook_target(interaction, call.params["message.id"])
        self._check_message(call.payload or {}, call.files, creating=False)
        return json_response(
            self._edit_message(message, call.payload or {}, call.files, interaction).data)

    def delete_webhook_message(self, call: Call) -> Any:
        interaction = self._live_interaction(call.params["interaction.token"])
        message = self._webhook_target(interaction, call.params["message.id"])
        self.messages.pop(message.id, None)
        self._record("delete", message)
        return web.Response(status=204)
