"""Move boards (and players' private hands) drawn for the bot: in a worker process of their
own by default, in threads if configured (``board_pool``).

Why a process: drawing a board in one of the bot's threads costs more CPU than the drawing
itself. Pillow lets go of the interpreter lock at most of its calls, and on a busy bot the event
loop takes it at each, so the lock passes to and fro dozens of times per board (bench.e2e: the
board threads spent about 2 ms per Alak board that takes 1.0 ms alone). A worker process has its
own interpreter: the bot's process only sends the position (``engines`` ``dump``, a few hundred
bytes) and reads the PNG, and the two run on two cores at once. The worker is spoken to from
the event loop over a pipe (``bot.drawing_process``), not through a ``ProcessPoolExecutor``,
whose two helper threads in the bot cost it about 0.3 ms per board.

These workers are not the heavy pool's: a replay being drawn never delays a move's board. They
run at the bot's own priority (a board is on a player's path), and each builds every game's
palette and pieces (``render.warm_up``) before its first board. A worker that dies (killed, out
of memory) costs no board: boards are drawn in threads for a few seconds, then a fresh
process is started.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Any

import engines
import render
from bot.drawing_process import DrawingProcess, WorkerGone
from bot.workers import Kind, WorkerPool

log = logging.getLogger(__name__)


class BoardDrawer:
    """Draws the bot's boards and hands off the event loop (see the module)."""

    #: After a worker process dies, boards are drawn in threads for this long before a new
    #: one is started (a worker that cannot start is not restarted for every board).
    restart_delay = 10.0

    def __init__(self, workers: int = 1, kind: Kind = "process") -> None:
        self.kind = kind
        self._threads_until = 0.0  # the loop's time until which processes are not used
        self._processes = [DrawingProcess(warm=f"{__name__}:warm_every_game")
                           for _ in range(workers)] if kind == "process" else []
        self._threads = WorkerPool("boards", workers=workers, kind="thread") \
            if kind == "thread" else None

    async def run(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in a worker (the least busy process, or a thread)."""
        if self._threads is not None:
            return await self._threads.run(fn, *args, **kwargs)
        worker = min(self._processes, key=lambda process: process.pending)
        return await worker.run(fn, *args, **kwargs)

    async def warm_up(self) -> None:
        """Build what a game's first board would build while its player waits (its palette
        and pieces, 0.1-0.3 s a game): worker processes do it as they start, so this starts
        them and returns when they are ready; threads share this process's caches."""
        if self._threads is None:
            await asyncio.gather(*(process.run(os.getpid) for process in self._processes))
            return
        for game in render.supported_games():  # a game at a time: stopping waits for one
            await self._threads.run(render.warm_up, game)

    async def board(self, game_name: str, state: Any, **options: Any) -> bytes:
        """``render.board(game_name, state, **options)``, drawn by a worker."""
        return await self._draw(render.board, game_name, state, **options)

    async def hand(self, game_name: str, view: Any, seat: int, **options: Any) -> bytes:
        """``render.hand(game_name, view, seat, **options)`` (a player's private cards),
        drawn by a worker; its ``ValueError`` (a game without hands) reaches the caller."""
        return await self._draw(render.hand, game_name, view, seat, **options)

    async def _draw(self, draw: Callable[..., bytes], game_name: str, state: Any, *args: Any,
                    **options: Any) -> bytes:
        if self._threads is not None:
            return await self._threads.run(draw, game_name, state, *args, **options)
        # Not every state pickles; the engines' dump is plain data, and small.
        snapshot = engines.get(game_name).dump(state)
        loop = asyncio.get_running_loop()
        if loop.time() >= self._threads_until:
            try:
                return await self.run(from_snapshot, draw, game_name, snapshot, *args,
                                      **options)
            except (WorkerGone, OSError) as error:  # died, or could not start
                log.warning("a board worker process failed (%s); drawing in threads for %g s",
                            error, self.restart_delay)
                self._threads_until = loop.time() + self.restart_delay
        return await asyncio.to_thread(from_snapshot, draw, game_name, snapshot, *args,
                                       **options)

    async def close(self) -> None:
        """Take no more work; the workers finish what they have, then end."""
        if self._threads is not None:
            self._threads.close()
        await asyncio.gather(*(process.close() for process in self._processes))


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
