"""The gateway: one websocket session per shard (HELLO, IDENTIFY, READY, GUILD_CREATE,
heartbeats, RESUME refused), and dispatches routed to the shard of their server, as Discord
routes them."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from emulator.api import API_VERSION, Call, json_response, shard_of
from emulator.events import PATIENCE

#: Seconds between the bot's heartbeats (Discord's HELLO says 41.25 s).
HEARTBEAT_INTERVAL = 41.25
#: How long the emulator takes to acknowledge a heartbeat. discord.py's keep-alive thread
#: records when it sent a heartbeat only once the event loop reports the send done; an
#: acknowledgment handled before that is measured from the previous heartbeat, 41 s earlier
#: ("Can't keep up, websocket is 41 s behind"). Any real network is slower than this.
HEARTBEAT_ACK_DELAY = 0.05


@dataclass
class _Gateway:
    """One gateway session of the bot: shard ``shard`` of ``count``, its sequence number."""

    ws: web.WebSocketResponse
    shard: int
    count: int
    seq: int = 0


class Gateway:
    """The bot's gateway sessions; part of ``Emulator``."""

    def _setup_gateway(self, shards: int, heartbeat_interval: float) -> None:
        #: The shard count ``/gateway/bot`` recommends (bots may IDENTIFY with their own).
        self.shard_count = shards
        self.heartbeat_interval = heartbeat_interval
        #: Close codes of the bot's gateway connections, as they end.
        self.gateway_closes: list[int | None] = []
        self._background: set[asyncio.Task] = set()
        #: The bot's gateway sessions, by shard number.
        self._gateways: dict[int, _Gateway] = {}
        self._sessions = itertools.count(1)
        self._ready = asyncio.Event()
        self.identified_count = 0

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    async def wait_until_connected(self, timeout: float = PATIENCE) -> None:
        """Wait until a bot has identified and received its guilds."""
        await asyncio.wait_for(self._ready.wait(), timeout)

    def shard_sessions(self) -> dict[int, int]:
        """Shard number -> shard count of the bot's connected gateway sessions."""
        return {shard: gw.count for shard, gw in self._gateways.items() if not gw.ws.closed}

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        hello = {"heartbeat_interval": round(self.heartbeat_interval * 1000)}
        await ws.send_str(json.dumps({"op": 10, "d": hello}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            op = payload.get("op")
            if op == 1:  # heartbeat: acknowledged after a network's delay (HEARTBEAT_ACK_DELAY)
                self._record("heartbeat", payload.get("d"))
                self._soon(HEARTBEAT_ACK_DELAY, self._send_if_open, ws, {"op": 11})
            elif op == 2:  # identify
                if payload["d"].get("token", "").removeprefix("Bot ") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                shard, count = payload["d"].get("shard") or (0, 1)
                if not 0 <= shard < count:
                    await ws.close(code=4010, message=b"Invalid shard.")
                    break
                await self._identify(ws, shard, count)
            elif op == 6:  # resume: we keep no sessions, so ask for a fresh identify
                await ws.send_str(json.dumps({"op": 9, "d": False}))
        self.gateway_closes.append(ws.close_code)
        self._record("gateway_closed", ws.close_code)
        for shard, gateway in list(self._gateways.items()):
            if gateway.ws is ws:
                del self._gateways[shard]
        if not self._gateways:
            self._ready.clear()
        return ws

    def _soon(self, delay: float, function: Callable[..., Any], *args: Any) -> None:
        """``await function(*args)`` after ``delay`` seconds, in the background."""

        async def later() -> None:
            await asyncio.sleep(delay)
            await function(*args)

        task = asyncio.create_task(later())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    @staticmethod
    async def _send_if_open(ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(json.dumps(data))

    async def _identify(self, ws: web.WebSocketResponse, shard: int, count: int) -> None:
        """A session for ``shard`` of ``count``: its READY, then a GUILD_CREATE per server of
        that shard. A new session of a shard replaces the one before (as a reconnect does)."""
        self.identified_count += 1
        previous = self._gateways.get(shard)
        self._gateways[shard] = _Gateway(ws, shard, count)
        if previous is not None and previous.ws is not ws and not previous.ws.closed:
            await previous.ws.close()
        guilds = [g for g in self.guilds
                  if g in self.bot_guild_ids and shard_of(g, count) == shard]
        await self._dispatch(
            "READY",
            {
                "v": API_VERSION,
                "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "shard": [shard, count],
                "session_id": f"session-{next(self._sessions)}",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            },
            ws=ws,
        )
        for guild_id in guilds:
            await self._dispatch("GUILD_CREATE", self._guild_payload(guild_id), ws=ws)
        self._ready.set()
        self._record("identified", {"count": self.identified_count, "shard": [shard, count]})

    async def _dispatch(
        self,
        event: str,
        data: Any,
        *,
        ws: web.WebSocketResponse | None = None,
        guild_id: int | None = None,
    ) -> None:
        """Send an event on ``ws``, else on the session of the shard of ``guild_id`` (a
        direct message's: shard 0), as Discord routes them."""
        def route(gateway: _Gateway) -> bool:
            if ws is not None:
                return gateway.ws is ws
            return shard_of(guild_id, gateway.count) == gateway.shard

        gateway = next(filter(route, self._gateways.values()), None)
        if gateway is None or gateway.ws.closed:
            raise ConnectionError(
                "no bot is connected to the emulator"
                + ("" if guild_id is None else f" for server {guild_id}'s shard")
            )
        gateway.seq += 1
        await gateway.ws.send_str(
            json.dumps({"op": 0, "t": event, "s": gateway.seq, "d": data}))

    # ----- routes (``emulator.routes``) --------------------------------------------------------

    def get_gateway(self, call: Call) -> Any:
        return json_response({"url": self.gateway_url})

    def get_gateway_bot(self, call: Call) -> Any:
        return json_response({
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": {
                "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1,
            },
        })
