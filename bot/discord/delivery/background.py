"""The outbox delivery's background pass: at start everything an earlier run left, then every
``POLL_SECONDS`` (or when ``wake``-d) what handlers left for longer than
``HANDLER_GRACE_SECONDS``; at once, the rows another process wrote for our servers (``woken``);
and, beforehand, the boards' warm-up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.discord.delivery.policy import HANDLER_GRACE_SECONDS, POLL_SECONDS

if TYPE_CHECKING:
    from bot.workers.boards import BoardDrawer

log = logging.getLogger(__name__)


class BackgroundPass:
    """Runs ``flush_all(older_than=...)`` in the background and ``flush(game_id)`` for the
    games other processes wake it for; warms the board drawer (``boards``) up."""

    def __init__(self, flush_all: Callable[..., Awaitable[None]],
                 flush: Callable[[int | None], Awaitable[object]], boards: BoardDrawer) -> None:
        self._flush_all = flush_all
        self._flush = flush
        self._boards = boards
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._warming: asyncio.Task | None = None
        self._woken: set[asyncio.Task] = set()  # deliveries another process asked for

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="outbox-delivery")
        if self._warming is None:
            # What the first board of a game would build while its player waits (its
            # palette, its pieces: 0.1-0.3 s) is built beforehand.
            self._warming = asyncio.create_task(self._warm_up(), name="board-warm-up")

    async def warmed_up(self) -> None:
        """Wait until the delivery has started and its boards' warm-up is over (benchmarks
        measure after it)."""
        while self._warming is None:
            await asyncio.sleep(0.01)
        await asyncio.shield(self._warming)

    async def _warm_up(self) -> None:
        try:
            await self._boards.warm_up()
        except Exception:  # a game's first board builds what it needs all the same
            log.warning("warming up the boards failed", exc_info=True)

    def wake(self) -> None:
        self._wake.set()

    def woken(self, game_id: int | None) -> None:
        """Another process wrote rows of ``game_id`` (None: rows of no game) for our servers:
        deliver them now, in the background (no handler of ours is answering with them)."""
        if self._task is None:
            return  # not started yet: its first pass delivers everything pending
        task = asyncio.create_task(self._flush_woken(game_id), name=f"background-wake-{game_id}")
        self._woken.add(task)
        task.add_done_callback(self._woken.discard)

    async def _flush_woken(self, game_id: int | None) -> None:
        try:
            await self._flush(game_id)
        except Exception:  # the background pass retries
            log.exception("delivering the outbox of game %s failed; will retry", game_id)

    async def stop(self) -> None:
        if self._warming is not None:
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._warming
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        grace = 0.0  # the first pass (at start) delivers everything left pending
        while True:
            try:
                await self._flush_all(older_than=grace)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox delivery pass failed; retrying")
            grace = HANDLER_GRACE_SECONDS
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
