"""Move boards (and players' private hands) drawn for the bot: in a worker process of their
own by default, in threads if configured (``board_pool``).

Why a process: drawing a board in one of the bot's threads costs more CPU than the drawing
itself. Pillow lets go of the interpreter lock at most of its calls, and on a busy bot the event
loop takes it at each, so the lock passes to and fro dozens of times per board (bench.e2e: the
board threads spent about 2 ms per Alak board that takes 1.0 ms alone). A worker process has its
own interpreter: the bot's process only sends the position (``engines`` ``dump``, a few hundred
bytes) and reads the PNG, and the two run on two cores at once. The worker is spoken to from
the event loop over a pipe (``bot.workers.board_process``), not through a ``ProcessPoolExecutor``,
whose two helper threads in the bot cost it about 0.3 ms per board.

These workers are not the heavy pool's: a replay being drawn never delays a move's board. They
run at the bot's own priority (a board is on a player's path), and each builds every game's
palette and pieces (``render.warm_up``) before its first board. A board never waits for a
worker to start: until one has started and warmed up, boards are drawn in threads. A worker
that dies (killed, out of memory) costs no board and no wait: the board it was drawing fails at
once (its pipe closes) and is drawn in a thread; so are the next ones for a few seconds, then a
fresh process is started in the background and used once it is warm.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Any

import engines
import render
from bot.workers.board_process import DrawingProcess, WorkerGone
from bot.workers.pool import Kind, WorkerPool

log = logging.getLogger(__name__)


class BoardDrawer:
    """Draws the bot's boards and hands off the event loop (see the module)."""

    #: After a worker process dies, boards are drawn in threads for this long before a new
    #: one is started (a worker that cannot start is not restarted for every board).
    restart_delay = 10.0

    def __init__(self, workers: int = 1, kind: Kind = "process",
                 warm: str = f"{__name__}:warm_every_game") -> None:
        """``warm``: ``"module:function"`` each worker process runs before its first board."""
        self.kind = kind
        self._threads_until = 0.0  # the loop's time until which processes are not started
        self._processes = [DrawingProcess(warm=warm)
                           for _ in range(workers)] if kind == "process" else []
        self._threads = WorkerPool("boards", workers=workers, kind="thread") \
            if kind == "thread" else None
        self._ready: set[DrawingProcess] = set()  # started and warm: boards go to them
        self._starting: dict[DrawingProcess, asyncio.Task] = {}
        #: Boards (and hands) drawn in threads because no worker process was ready.
        self.drawn_in_threads = 0
        self._closed = False

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
            for process in self._processes:
                self._start(process)
            await asyncio.gather(*self._starting.values())
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
        if self._closed:
            raise RuntimeError("the board drawer is closed")
        # Not every state pickles; the engines' dump is plain data, and small.
        snapshot = engines.get(game_name).dump(state)
        loop = asyncio.get_running_loop()
        started = loop.time()
        worker = self._ready_worker()
        if worker is not None:
            try:
                png = await worker.run(from_snapshot, draw, game_name, snapshot, *args,
                                       **options)
                log.debug("%s of %s drawn by worker %s in %.1f ms", draw.__name__, game_name,
                          worker.pid, (loop.time() - started) * 1000)
                return png
            except (WorkerGone, OSError) as error:  # it died under this board
                self._failed(worker, error)
        self.drawn_in_threads += 1
        png = await asyncio.to_thread(from_snapshot, draw, game_name, snapshot, *args,
                                      **options)
        log.debug("%s of %s drawn in a thread in %.1f ms", draw.__name__, game_name,
                  (loop.time() - started) * 1000)
        return png

    def _ready_worker(self) -> DrawingProcess | None:
        """The least busy worker process that is started and warm, if any; the others are
        started in the background (no board waits for them)."""
        ready = []
        for process in self._processes:
            if process in self._ready and process.pid is None:  # it died between boards
                self._failed(process, WorkerGone("the drawing process ended"))
            if process in self._ready:
                ready.append(process)
            else:
                self._start(process)
        return min(ready, key=lambda process: process.pending, default=None)

    def _start(self, process: DrawingProcess) -> None:
        """Start ``process`` and warm it up in the background, unless it is starting already
        or a worker failed less than ``restart_delay`` ago."""
        loop = asyncio.get_running_loop()
        if process in self._starting or loop.time() < self._threads_until:
            return
        self._starting[process] = loop.create_task(self._started(process),
                                                   name="board-worker-start")

    async def _started(self, process: DrawingProcess) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            pid = await process.run(os.getpid)  # answered once the worker has warmed up
            self._ready.add(process)
            log.debug("board worker %s ready in %.1f s", pid, loop.time() - started)
        except (WorkerGone, OSError) as error:  # could not start, or died warming up
            self._failed(process, error)
        except RuntimeError:
            pass  # closed meanwhile
        finally:
            self._starting.pop(process, None)

    def _failed(self, process: DrawingProcess, error: Exception) -> None:
        self._ready.discard(process)
        log.warning("a board worker process failed (%s); drawing in threads for %g s",
                    error, self.restart_delay)
        self._threads_until = asyncio.get_running_loop().time() + self.restart_delay

    async def close(self) -> None:
        """Take no more work; the workers finish what they have, then end."""
        self._closed = True
        if self._threads is not None:
            self._threads.close()
        self._ready.clear()
        await asyncio.gather(*(process.close() for process in self._processes))
        starting = list(self._starting.values())
        for task in starting:
            task.cancel()
        await asyncio.gather(*starting, return_exceptions=True)


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
