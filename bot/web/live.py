"""Telling open pages that their game changed: the store publishes the events of each
committed transaction in this process (``Store.events``); every event of a game wakes the
pages watching it, which then fetch their state again (what changed is never sent: each
viewer sees only what their seat may see). Other processes' commits reach this one through
``wake``: the bot passes on the database's wake-ups (PostgreSQL's LISTEN/NOTIFY,
``ShardClaim.on_any_wake``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence

from aiohttp import WSMsgType, web

from bot.core.events import Committed, EventStream, GameEvent

#: What ends a page's socket from its side.
CLOSING = (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR)


class Watch:
    """One page's subscription: ``changed`` is set when its game changed since it was last
    cleared."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.changed = asyncio.Event()


class LiveGames:
    """The pages open on each game of this process, woken by committed events."""

    def __init__(self, events: EventStream) -> None:
        self._watches: dict[int, set[Watch]] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._unsubscribe: Callable[[], None] | None = events.subscribe(self._committed)

    def watch(self, game_id: int) -> Watch:
        watch = Watch(game_id)
        self._watches.setdefault(game_id, set()).add(watch)
        return watch

    def forget(self, watch: Watch) -> None:
        watching = self._watches.get(watch.game_id)
        if watching is not None:
            watching.discard(watch)
            if not watching:
                del self._watches[watch.game_id]

    async def serve(self, request: web.Request, game_id: int) -> web.WebSocketResponse:
        """A page's socket on ``game_id`` (the visitor already checked): ``{"changed": id}``
        each time the game changes, until either side closes it."""
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        self._sockets.add(socket)
        watch = self.watch(game_id)
        reading = asyncio.ensure_future(socket.receive())
        try:
            while not socket.closed:
                changed = asyncio.ensure_future(watch.changed.wait())
                done, _ = await asyncio.wait({reading, changed},
                                             return_when=asyncio.FIRST_COMPLETED)
                if changed in done:
                    watch.changed.clear()
                    await socket.send_json({"changed": game_id})
                else:
                    changed.cancel()
                if reading in done:
                    if reading.result().type in CLOSING:
                        break
                    reading = asyncio.ensure_future(socket.receive())
        finally:
            reading.cancel()
            self.forget(watch)
            self._sockets.discard(socket)
            await socket.close()
        return socket

    async def close_sockets(self) -> None:
        """Close every open page's socket (the server is stopping: 1001, going away)."""
        for socket in list(self._sockets):
            with contextlib.suppress(Exception):
                await socket.close(code=1001, message=b"server stopping")

    def wake(self, game_id: int | None) -> None:
        """``game_id`` changed (None: any game may have: every page looks again)."""
        targets = (self._watches.get(game_id, ()) if game_id is not None
                   else [w for ws in self._watches.values() for w in ws])
        for watch in targets:
            watch.changed.set()

    def _committed(self, batch: Sequence[Committed]) -> None:
        # Called in the committing task: only sets flags.
        for game_id in {c.event.game_id for c in batch if isinstance(c.event, GameEvent)}:
            self.wake(game_id)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
