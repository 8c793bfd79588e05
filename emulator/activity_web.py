"""Where an Activity is served: the origin Discord calls ``<application id>.discordsays.com``,
here a second loopback port. Everything on it is proxied to the Activity's URL mapping target
(``activity_url``), as Discord's proxy does, except the emulated client's own page under
``/.emulator/`` (``activity_page``), which frames the Activity and carries its messages to
``activity_client``.

Why the client page shares the Activity's origin: the Embedded App SDK accepts messages only
from its own origin or from Discord's (``src/Discord.ts``, ``getAllowedOrigins``); the emulator
is not Discord's origin, so its client sits on the Activity's. It still posts to the Activity's
origin only, and listens to the Activity's frame only.

What the proxy follows (discord-api-docs ``activities/development-guides/local-development.mdx``
"URL Mapping" and ``networking.mdx``): the root mapping ``/`` goes to the target; requests under
``/.proxy/`` (the prefix the docs' examples fetch through) go to the same target; websockets are
proxied; the sandbox "is enforced by a Content Security Policy" limiting requests "only to your
own app's proxy", with exceptions for Discord's API (here ``connect-src 'self'`` and the
emulator's ``/api/``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web
from multidict import CIMultiDict

from emulator import activity_page
from emulator.activity_client import ActivityClient

if TYPE_CHECKING:
    from emulator.activities import ActivityInstance

#: Headers that belong to one hop, not to the request or answer carried through the proxy.
HOP_BY_HOP = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
    "transfer-encoding", "upgrade", "host", "content-length", "content-encoding",
})
#: Seconds between keep-alive comments on an idle event stream.
KEEP_ALIVE = 15.0


class ActivityWeb:
    """The Activity's origin: the URL-mapping proxy and the client page; part of
    ``Emulator``."""

    def _setup_activity_web(self) -> None:
        self._activity_runner: web.AppRunner | None = None
        self._proxy_client: aiohttp.ClientSession | None = None
        #: The Activity origin's port (0 until started; nothing when no ``activity_url``).
        self.activity_port = 0

    @property
    def activity_origin(self) -> str:
        return f"http://{self.host}:{self.activity_port}"

    async def _start_activity_web(self) -> None:
        if self.activity_url is None:
            return
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/.emulator/client/{session}", self._client_page)
        app.router.add_get("/.emulator/client.js", self._client_script)
        app.router.add_post("/.emulator/rpc/{session}", self._client_rpc)
        app.router.add_post("/.emulator/consent/{session}", self._client_consent)
        app.router.add_get("/.emulator/events/{session}", self._client_events)
        app.router.add_route("*", "/{path:.*}", self._proxy)
        self._proxy_client = aiohttp.ClientSession(auto_decompress=True)
        # A closed page cancels its handler: its event stream's end is its user leaving.
        self._activity_runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0,
                                              handler_cancellation=True)
        await self._activity_runner.setup()
        site = web.TCPSite(self._activity_runner, self.host, self.activity_port)
        await site.start()
        self.activity_port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _close_activity_web(self) -> None:
        for client in self.activity_clients.values():
            client.outbox.put_nowait(None)  # ends its event stream
        if self._activity_runner is not None:
            await self._activity_runner.cleanup()
            self._activity_runner = None
        if self._proxy_client is not None:
            await self._proxy_client.close()
            self._proxy_client = None

    # ----- addresses ---------------------------------------------------------------------------

    def activity_frame_url(self, client: ActivityClient) -> str:
        """The iframe's address: the Activity's root, with the query Discord gives it."""
        return f"{self.activity_origin}/?{urlencode(client.frame_query())}"

    def activity_page_url(self, client: ActivityClient) -> str:
        """The emulated client's page framing the Activity for ``client``'s user."""
        if self.activity_url is None:
            raise LookupError("no Activity URL is configured (the emulator's activity_url)")
        return f"{self.activity_origin}/.emulator/client/{client.session_id}"

    def _where(self, instance: ActivityInstance) -> str:
        channel = self.channels.get(instance.channel_id, {})
        name = channel.get("name")
        return f"#{name}" if name else f"channel {instance.channel_id}"

    # ----- the client page ---------------------------------------------------------------------

    def _client_of(self, request: web.Request) -> ActivityClient:
        client = self.activity_clients.get(request.match_info["session"])
        if client is None:
            raise web.HTTPNotFound(text="no such Activity client (open one with /activity)")
        return client

    async def _client_page(self, request: web.Request) -> web.Response:
        client = self._client_of(request)
        client.reopen()  # a reload connects afresh
        text = activity_page.page(client.session_id, self.activity_frame_url(client),
                                  self._where(client.instance), client.user.name)
        return web.Response(text=text, content_type="text/html")

    async def _client_script(self, request: web.Request) -> web.Response:
        return web.Response(text=activity_page.SCRIPT, content_type="text/javascript")

    async def _client_rpc(self, request: web.Request) -> web.Response:
        client = self._client_of(request)
        body = await request.json()
        return web.json_response(client.receive(body.get("message")).payload())

    async def _client_consent(self, request: web.Request) -> web.Response:
        client = self._client_of(request)
        body = await request.json()
        answer = client.consent(str(body.get("nonce")), bool(body.get("granted")))
        return web.json_response(answer.payload())

    async def _client_events(self, request: web.Request) -> web.StreamResponse:
        """The events no command asked for, as a server-sent event stream; when the page goes
        away, its user leaves the Activity."""
        client = self._client_of(request)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-cache"})
        await response.prepare(request)
        try:
            while client.closed is None:
                try:
                    message = await asyncio.wait_for(client.outbox.get(), KEEP_ALIVE)
                except TimeoutError:
                    await response.write(b": keep-alive\n\n")
                    continue
                if message is None:
                    break
                await response.write(f"data: {json.dumps(message)}\n\n".encode())
        except ConnectionResetError:
            pass
        finally:  # also when cancelled: the page went away
            client.disconnect()
        return response

    # ----- the URL-mapping proxy ---------------------------------------------------------------

    def _target(self, request: web.Request) -> str:
        path = request.match_info["path"]
        if path == ".proxy" or path.startswith(".proxy/"):
            path = path[len(".proxy"):].lstrip("/")
        assert self.activity_url is not None
        target = f"{self.activity_url.rstrip('/')}/{path}"
        return f"{target}?{request.query_string}" if request.query_string else target

    def _security_policy(self) -> str:
        return f"connect-src 'self' http://{self.host}:{self.port}/api/"

    async def _proxy(self, request: web.Request) -> web.StreamResponse:
        target = self._target(request)
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._proxy_websocket(request, target)
        assert self._proxy_client is not None
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        body = await request.read()
        try:
            async with self._proxy_client.request(
                    request.method, target, headers=headers, data=body or None,
                    allow_redirects=False) as upstream:
                content = await upstream.read()
                answer_headers: CIMultiDict[str] = CIMultiDict(
                    (k, v) for k, v in upstream.headers.items() if k.lower() not in HOP_BY_HOP)
                status = upstream.status
        except aiohttp.ClientError as failed:
            return web.Response(status=502, text=f"the Activity at {target} did not answer: "
                                                 f"{failed}")
        answer_headers["Content-Security-Policy"] = self._security_policy()
        return web.Response(status=status, body=content, headers=answer_headers)

    async def _proxy_websocket(self, request: web.Request, target: str) -> web.StreamResponse:
        assert self._proxy_client is not None
        downstream = web.WebSocketResponse()
        await downstream.prepare(request)
        headers = {k: v for k, v in request.headers.items() if k.lower() == "cookie"}
        try:
            async with self._proxy_client.ws_connect("ws" + target[4:],
                                                     headers=headers) as upstream:
                pumps = [asyncio.create_task(_pump(downstream, upstream)),
                         asyncio.create_task(_pump(upstream, downstream))]
                await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
                for pump in pumps:
                    pump.cancel()
        except aiohttp.ClientError:
            pass
        await downstream.close()
        return downstream


async def _pump(source: Any, sink: Any) -> None:
    """Carry a websocket's messages on to the other side until it closes."""
    async for message in source:
        if message.type == aiohttp.WSMsgType.TEXT:
            await sink.send_str(message.data)
        elif message.type == aiohttp.WSMsgType.BINARY:
            await sink.send_bytes(message.data)
        else:
            break
    with contextlib.suppress(ConnectionResetError):
        await sink.close()
