"""Discord's REST routes the emulator serves, in one table (method, path, handler) that reads
like the route list of Discord's API reference, and the HTTP side of every request: the body
(JSON or multipart with files), the bot's authorization, the ``rest_delay`` of a network, and
refusals answered with Discord's error body and kept in ``refusals``."""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from emulator.activities import Activities
from emulator.api import UNKNOWN_CHANNEL, Call, Refused, error_response, json_response
from emulator.channels import Channels
from emulator.commands import Commands
from emulator.gateway import Gateway
from emulator.interactions import Interactions
from emulator.messages import Messages
from emulator.models import Attachment, Refusal, Request
from emulator.state import State
from emulator.webhooks import Webhooks

if TYPE_CHECKING:
    from emulator.interactions import Interaction


@dataclass(frozen=True)
class Route:
    """``method path`` answered by ``handler(emulator, call)``; ``{name}`` segments of the
    path are its parameters."""

    method: str
    path: str
    handler: Callable[..., Any]

    def match(self, method: str, parts: list[str]) -> dict[str, str] | None:
        """The path's parameters if this route serves ``method`` on ``parts``, else None."""
        template = self.path.strip("/").split("/")
        if method != self.method or len(template) != len(parts):
            return None
        params: dict[str, str] = {}
        for expected, actual in zip(template, parts, strict=True):
            if expected.startswith("{") and expected.endswith("}"):
                params[expected[1:-1]] = actual
            elif expected != actual:
                return None
        return params


#: Every route the emulator serves, grouped as Discord's reference groups them (the first
#: route that matches answers, so ``@me`` comes before ``{user.id}``).
ROUTES: tuple[Route, ...] = (
    # Users and the application
    Route("GET", "/users/@me", State.get_current_user),
    Route("POST", "/users/@me/channels", Channels.create_dm),
    Route("GET", "/users/{user.id}", State.get_user),
    Route("GET", "/guilds/{guild.id}/members/{user.id}", State.get_guild_member),
    Route("GET", "/applications/@me", State.get_current_application),
    Route("GET", "/oauth2/applications/@me", State.get_current_application),
    Route("GET", "/applications/{application.id}/activity-instances/{instance_id}",
          Activities.get_activity_instance),
    # Gateway
    Route("GET", "/gateway", Gateway.get_gateway),
    Route("GET", "/gateway/bot", Gateway.get_gateway_bot),
    # Application commands
    Route("GET", "/applications/{application.id}/commands", Commands.get_global_commands),
    Route("PUT", "/applications/{application.id}/commands", Commands.overwrite_global_commands),
    Route("GET", "/applications/{application.id}/guilds/{guild.id}/commands",
          Commands.get_guild_commands),
    Route("PUT", "/applications/{application.id}/guilds/{guild.id}/commands",
          Commands.overwrite_guild_commands),
    # Interactions: the response, then follow-ups and edits through the interaction's webhook
    Route("POST", "/interactions/{interaction.id}/{interaction.token}/callback",
          Interactions.create_interaction_response),
    Route("POST", "/webhooks/{application.id}/{interaction.token}", Webhooks.execute_webhook),
    Route("GET", "/webhooks/{application.id}/{interaction.token}/messages/{message.id}",
          Webhooks.get_webhook_message),
    Route("PATCH", "/webhooks/{application.id}/{interaction.token}/messages/{message.id}",
          Webhooks.edit_webhook_message),
    Route("DELETE", "/webhooks/{application.id}/{interaction.token}/messages/{message.id}",
          Webhooks.delete_webhook_message),
    # Channels and threads
    Route("GET", "/channels/{channel.id}", Channels.get_channel),
    Route("PATCH", "/channels/{channel.id}", Channels.modify_channel),
    Route("POST", "/channels/{channel.id}/messages/{message.id}/threads",
          Channels.start_thread_from_message),
    Route("POST", "/channels/{channel.id}/threads", Channels.start_thread_without_message),
    Route("PUT", "/channels/{channel.id}/thread-members/{user.id}", Channels.add_thread_member),
    # Messages
    Route("POST", "/channels/{channel.id}/messages", Messages.create_message),
    Route("GET", "/channels/{channel.id}/messages/{message.id}", Messages.get_message),
    Route("PATCH", "/channels/{channel.id}/messages/{message.id}", Messages.edit_message),
    Route("DELETE", "/channels/{channel.id}/messages/{message.id}", Messages.delete_message),
    Route("PUT", "/channels/{channel.id}/messages/pins/{message.id}", Messages.pin_message),
    Route("DELETE", "/channels/{channel.id}/messages/pins/{message.id}", Messages.unpin_message),
    Route("PUT", "/channels/{channel.id}/pins/{message.id}", Messages.pin_message),
    Route("DELETE", "/channels/{channel.id}/pins/{message.id}", Messages.unpin_message),
)


class Rest:
    """The REST side; part of ``Emulator``."""

    def _setup_rest(self, rest_delay: float) -> None:
        #: Seconds added to every REST answer (a network round trip).
        self.rest_delay = rest_delay
        #: Every REST request received, in order.
        self.requests: list[Request] = []
        #: Every request refused as Discord would refuse it.
        self.refusals: list[Refusal] = []

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            files: list[Attachment] = []
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.name and part.name.startswith("files["):
                    data = await part.read()
                    files.append(
                        Attachment(
                            part.filename or "file",
                            bytes(data),
                            part.headers.get("Content-Type", "application/octet-stream"),
                        )
                    )
            return payload, files
        if request.can_read_body:
            text = await request.text()
            return (json.loads(text) if text else None), []
        return None, []

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        method = request.method
        try:
            payload, files = await self._read_body(request)
        except ConnectionResetError:  # the bot died mid-request (a crash test): nobody to answer
            return web.Response(status=499)
        parts = path.strip("/").split("/")
        interaction = self._interaction_of(parts)
        channel_id = int(parts[1]) if parts[0] == "channels" and parts[1].isdigit() else None
        sent = Request(
            method, path, payload, tuple(f.filename for f in files), time.perf_counter(),
            None if interaction is None else interaction.id, channel_id,
        )
        self.requests.append(sent)
        self._record("request", sent, interaction)
        if self.rest_delay:
            await asyncio.sleep(self.rest_delay / 2)  # the request's way here
        is_webhook = parts[0] in ("interactions", "webhooks")
        bearer = self.bearer_answer(method, parts, request.headers.get("Authorization"))
        if bearer is not None:  # a user's OAuth2 token (``emulator.oauth2``)
            response = bearer
        elif not is_webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            response = error_response(401, "401: Unauthorized")
        else:
            try:
                if channel_id is not None:
                    self.require_access(channel_id)  # 50001 where the bot is not
                response = await self._route(method, parts, request.query, payload, files)
            except Refused as refused:
                response = json_response(refused.body, status=refused.status)
                if method != "GET":
                    self._refuse(method, path, refused, interaction)
            except LookupError as exc:
                refused = Refused(404, UNKNOWN_CHANNEL, f"Unknown: {exc}")
                response = json_response(refused.body, status=404)
                if method != "GET":
                    self._refuse(method, path, refused, interaction)
        if self.rest_delay:
            await asyncio.sleep(self.rest_delay / 2)  # the answer's way back
        return response

    async def _route(
        self,
        method: str,
        parts: list[str],
        query: Mapping[str, str],
        payload: Any,
        files: list[Attachment],
    ) -> web.StreamResponse:
        for route in ROUTES:
            params = route.match(method, parts)
            if params is not None:
                response = route.handler(self, Call(params, payload, files, query))
                return await response if inspect.isawaitable(response) else response
        return error_response(
            404, f"404: the emulator does not implement {method} /{'/'.join(parts)}")

    def _refuse(self, method: str, path: str, refused: Refused,
                interaction: Interaction | None) -> None:
        refusal = Refusal(method, path, refused.status, refused.code, refused.body,
                          None if interaction is None else interaction.id)
        self.refusals.append(refusal)
        self._record("refused", refusal, interaction)

    def _interaction_of(self, parts: list[str]) -> Interaction | None:
        """The interaction a callback or webhook route answers."""
        if parts[0] == "interactions" and len(parts) > 2:
            return self._by_token.get(parts[2])
        if parts[0] == "webhooks" and len(parts) > 2:
            return self._by_token.get(parts[2])
        return None
