"""Worker pools: CPU-heavy jobs run away from the event loop and from the move path.

A ``WorkerPool`` runs plain functions (``await pool.run(fn, *args, **kwargs)``) in worker
processes (the default) or threads. Drawing holds the interpreter lock most of the time, so in
a thread it slows the event loop and every board drawn meanwhile; a worker process has its own
interpreter, and runs at a lower OS priority (``nice``): when the machine is short of CPU, the
bot's own process (interactions, move boards) is served first. ``python -m bench.heavy``
measures both kinds.

A worker process ends with the process that started it, even when that one is killed
(SIGKILL): it would otherwise idle forever, holding its memory and the bot's log pipe.

The pool is bounded: ``workers`` jobs run at once and the others wait in order; with
``max_jobs``, a job beyond that many (running and waiting) is refused with ``PoolBusy`` instead
of queueing behind an hour of work. Processes start with the first job, so a bot that never
draws a replay never starts one.

Jobs cross a process boundary: ``fn`` must be a module-level function (it is sent by name) and
its arguments and result picklable (plain data: ``engines`` states go as ``game.dump()``
dictionaries or as the moves that rebuild them, since not every state pickles). The same API
serves any CPU-heavy work, e.g. an AI search::

    pool = WorkerPool("ai", workers=1)
    text = await pool.run(ai.choose, "palago", view_dump, seat, level="hard", seed=0)
    pool.close()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from bot.core.settings import SECRET_VARIABLES

Result = TypeVar("Result")
Kind = Literal["process", "thread"]
KINDS: tuple[Kind, ...] = ("process", "thread")
#: How much lower than the bot's the worker processes' priority is (``nice`` increment).
WORKER_NICENESS = 10
#: How often a worker process looks whether the process that started it is still there.
PARENT_CHECK_SECONDS = 0.5


class PoolBusy(RuntimeError):
    """The pool already holds ``max_jobs`` jobs; nothing was started."""


def _prepare_worker(niceness: int, parent: int) -> None:
    """In each worker process: yield the CPU to the bot, leave Ctrl-C to the bot (which
    stops the pool) instead of printing a traceback per worker, and end when the bot
    (``parent``) is gone however it ended."""
    with contextlib.suppress(OSError, AttributeError):  # nice is POSIX-only
        os.nice(niceness)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in SECRET_VARIABLES:  # a worker has no use for the bot's secrets
        os.environ.pop(name, None)
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch",
                     daemon=True).start()


def _exit_with(parent: int) -> None:
    """End this worker once ``parent`` is no longer its parent (it died: the orphan was
    handed to another process), whatever job is running (its result has nobody to go to)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


class WorkerPool:
    """A bounded pool of worker processes (or threads) for CPU-heavy jobs; see the module."""

    def __init__(
        self, name: str, *, workers: int = 1, kind: Kind = "process",
        max_jobs: int | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"a worker pool is made of processes or threads, not {kind!r}")
        if workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.name = name
        self.workers = workers
        self.kind = kind
        self.max_jobs = max_jobs
        self._executor: concurrent.futures.Executor | None = None
        self._jobs = 0
        self._closed = False

    @property
    def jobs(self) -> int:
        """Jobs running or waiting."""
        return self._jobs

    def has_room(self) -> bool:
        return self.max_jobs is None or self._jobs < self.max_jobs

    def _start(self) -> concurrent.futures.Executor:
        if self._closed:
            raise RuntimeError(f"the {self.name} pool is closed")
        if self._executor is None:
            if self.kind == "process":
                # Spawned, not forked: a fork of a process with an event loop and threads
                # (discord.py's, aiosqlite's) may inherit their locks held.
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_prepare_worker, initargs=(WORKER_NICENESS, os.getpid()),
                )
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=self.workers, thread_name_prefix=f"{self.name}-worker"
                )
        return self._executor

    def submit(self, fn: Callable[..., Result], /, *args: Any, **kwargs: Any
               ) -> asyncio.Future[Result]:
        """Start ``fn(*args, **kwargs)`` in the pool and return its future at once; raises
        ``PoolBusy`` (and starts nothing) when the pool is full. Cancelling the future cancels
        a job still waiting; a running one finishes and its result is dropped."""
        if not self.has_room():
            raise PoolBusy(f"the {self.name} pool already holds {self._jobs} jobs")
        loop = asyncio.get_running_loop()
        try:
            job = self._start().submit(functools.partial(fn, *args, **kwargs))
        except concurrent.futures.BrokenExecutor:
            # A worker died (killed, out of memory): start afresh rather than fail forever.
            self._executor = None
            job = self._start().submit(functools.partial(fn, *args, **kwargs))
        self._jobs += 1

        def finished(_: concurrent.futures.Future) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody counts any more
                loop.call_soon_threadsafe(self._finished)

        # Counted until the job itself ends, even if whoever awaited it gave up.
        job.add_done_callback(finished)
        return asyncio.wrap_future(job, loop=loop)

    def _finished(self) -> None:
        self._jobs -= 1

    async def run(self, fn: Callable[..., Result], /, *args: Any, **kwargs: Any) -> Result:
        """``fn(*args, **kwargs)`` in the pool (see ``submit``)."""
        return await self.submit(fn, *args, **kwargs)

    def close(self) -> None:
        """Stop taking jobs, drop the waiting ones; running ones end on their own (the
        processes exit after them)."""
        self._closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
