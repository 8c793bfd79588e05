"""Move boards (and players' private hands) drawn for the bot: in a worker process of their
own by default, in threads if configured (``board_pool``).

Why a process: drawing a board in one of the bot's threads costs more CPU than the drawing
itself. Pillow lets go of the interpreter lock at most of its calls, and on a busy bot the event
loop takes it at each, so the lock passes to and fro dozens of times per board (bench.e2e: the
board threads spent about 2.5 ms per Alak board that takes 1.0 ms alone). A worker process has
its own interpreter: the bot's process only sends the position (``engines`` ``dump``, a few
hundred bytes) and receives the PNG, and the two run on two cores at once.

The pool (``bot.workers.WorkerPool``) is not the heavy one: a replay being drawn never delays
a move's board. Its processes run at the bot's own priority (a board is on a player's path),
and each builds every game's palette and pieces (``render.warm_up``) before its first board.
A worker that dies (killed, out of memory) costs no board: that board is drawn in a thread
and the next starts a fresh process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
from collections.abc import Callable
from typing import Any

import engines
import render
from bot.workers import Kind, WorkerPool

log = logging.getLogger(__name__)


class BoardDrawer:
    """Draws the bot's public move boards off the event loop (see the module)."""

    def __init__(self, workers: int = 1, kind: Kind = "process") -> None:
        warm = warm_every_game if kind == "process" else None
        self.pool = WorkerPool("boards", workers=workers, kind=kind, niceness=0, warm=warm)

    async def warm_up(self) -> None:
        """Build what a game's first board would build while its player waits (its palette
        and pieces, 0.1-0.3 s a game): the worker processes do it as they start, so this
        starts one and returns when it is ready; threads share this process's caches."""
        if self.pool.kind == "process":
            await self.pool.run(os.getpid)
            return
        for game in render.supported_games():  # a game at a time: stopping waits for one
            await self.pool.run(render.warm_up, game)

    async def board(self, game_name: str, state: Any, **options: Any) -> bytes:
        """``render.board(game_name, state, **options)``, drawn in the pool."""
        return await self._draw(render.board, game_name, state, **options)

    async def hand(self, game_name: str, view: Any, seat: int, **options: Any) -> bytes:
        """``render.hand(game_name, view, seat, **options)`` (a player's private cards),
        drawn in the pool; its ``ValueError`` (a game without hands) reaches the caller."""
        return await self._draw(render.hand, game_name, view, seat, **options)

    async def _draw(self, draw: Callable[..., bytes], game_name: str, state: Any, *args: Any,
                    **options: Any) -> bytes:
        if self.pool.kind == "thread":
            return await self.pool.run(draw, game_name, state, *args, **options)
        # Not every state pickles; the engines' dump is plain data, and small.
        snapshot = engines.get(game_name).dump(state)
        try:
            return await self.pool.run(from_snapshot, draw, game_name, snapshot, *args,
                                       **options)
        except concurrent.futures.BrokenExecutor:
            log.warning("a board worker process died; drawing this image in a thread")
            return await asyncio.to_thread(from_snapshot, draw, game_name, snapshot, *args,
                                           **options)

    def close(self) -> None:
        self.pool.close()


# ----- the jobs (module-level functions: they run in the worker processes) ----------------------


def warm_every_game() -> None:
    """Each worker process, before its first board: every game's palette and pieces."""
    for game in render.supported_games():
        try:
            render.warm_up(game)
        except Exception:  # its first board builds what it needs all the same
            log.warning("warming up the boards of %s failed", game, exc_info=True)


def from_snapshot(draw: Callable[..., bytes], game_name: str, snapshot: Any, *args: Any,
                  **options: Any) -> bytes:
    """``draw`` (``render.board``, ``render.hand``) of the position an engine's ``dump``
    wrote."""
    return draw(game_name, engines.get(game_name).load(snapshot), *args, **options)
