"""Heavy commands (replay GIFs, tournament brackets, rules diagrams): drawn in the bot's worker
pool, never ahead of a move's board, each picture drawn once, and no user able to hold up the
others.

``HeavyWork`` is what the cogs use (``bot.workers.heavy``):

* ``run(key, fn, *args)`` draws ``fn(*args)`` in the pool (``bot.workers.pool.WorkerPool``; move
  boards never go there, they have workers of their own: ``bot.workers.boards``). A result with a
  ``key`` is kept in a bounded in-process cache and reused; asking again while it is being
  drawn waits for that same drawing instead of starting another.
* ``admit(user_id)``, first thing in a heavy command (before it acknowledges the
  interaction): a user has one heavy command at a time and ``PER_WINDOW`` a minute, and the
  pool takes ``MAX_JOBS`` at most; beyond that the user is told privately to wait a moment
  (``HeavyBusy``, translated), and nothing else is done (a burst of refusals costs nothing).

Rulings: the cache lives in memory only (a replay is redrawn once after a restart; GIFs are
too large to be worth a database column); cache keys name exact positions (game id and
version), so a game that goes on gets a new replay, and a finished game's replay is final.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

import render
from bot.core.errors import ServiceError
from bot.services.clocks import ReplaySource
from bot.workers.pool import Kind, WorkerPool

#: Heavy drawings a user may have running at once, and may start per ``WINDOW_SECONDS``.
PER_USER = 1
PER_WINDOW = 6
WINDOW_SECONDS = 60.0
#: Drawings the pool holds at most (running and waiting) before users are asked to wait.
MAX_JOBS = 40
#: Memory the cache of finished pictures may use.
CACHE_BYTES = 64 * 1024 * 1024


class HeavyBusy(ServiceError):
    """The user (``errors.heavy.wait``) or everybody (``errors.heavy.busy``) must wait."""

    key = "errors.heavy.wait"


class UserLimits:
    """Per-user admission: ``PER_USER`` at once, ``PER_WINDOW`` per ``WINDOW_SECONDS``."""

    def __init__(
        self, *, at_once: int = PER_USER, per_window: int = PER_WINDOW,
        window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.at_once = at_once
        self.per_window = per_window
        self.window = window
        self._clock = clock
        self._running: dict[int, int] = {}
        self._started: dict[int, deque[float]] = {}

    def check(self, user_id: int) -> None:
        """Raise ``HeavyBusy`` if the user may not start a drawing now."""
        now = self._clock()
        started = self._started.get(user_id)
        while started and now - started[0] >= self.window:
            started.popleft()
        if started is not None and not started:
            del self._started[user_id]
        if self._running.get(user_id, 0) >= self.at_once:
            raise HeavyBusy("errors.heavy.wait")
        if started and len(started) >= self.per_window:
            raise HeavyBusy("errors.heavy.wait")

    @contextlib.contextmanager
    def hold(self, user_id: int) -> Iterator[None]:
        """Count one drawing of the user while the block runs (call ``check`` first)."""
        self._running[user_id] = self._running.get(user_id, 0) + 1
        self._started.setdefault(user_id, deque()).append(self._clock())
        try:
            yield
        finally:
            self._running[user_id] -= 1
            if not self._running[user_id]:
                del self._running[user_id]


class PictureCache:
    """Least recently used pictures (bytes), bounded by their total size."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0

    def get(self, key: Hashable) -> bytes | None:
        data = self._items.get(key)
        if data is not None:
            self._items.move_to_end(key)
        return data

    def put(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        old = self._items.pop(key, None)
        self._size += len(data) - (len(old) if old is not None else 0)
        self._items[key] = data
        while self._size > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self._size -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)


class HeavyWork:
    """The bot's heavy drawings: a worker pool, a cache, per-user limits (see the module)."""

    def __init__(
        self, pool: WorkerPool, *, limits: UserLimits | None = None,
        cache: PictureCache | None = None, max_jobs: int = MAX_JOBS,
    ) -> None:
        self.pool = pool
        self.limits = limits or UserLimits()
        self.cache = cache or PictureCache()
        self.max_jobs = max_jobs
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}

    @classmethod
    def create(cls, workers: int = 1, kind: Kind = "process") -> HeavyWork:
        return cls(WorkerPool("heavy", workers=workers, kind=kind))

    def cached(self, key: Hashable) -> bytes | None:
        return self.cache.get(key)

    @contextlib.contextmanager
    def admit(self, user_id: int) -> Iterator[None]:
        """Enter before acknowledging a heavy command (it raises ``HeavyBusy`` at once, so the
        refusal can be a private answer), and stay inside while drawing for the user."""
        if self.pool.jobs >= self.max_jobs:
            raise HeavyBusy("errors.heavy.busy")
        self.limits.check(user_id)
        with self.limits.hold(user_id):
            yield

    async def run(self, key: Hashable | None, fn: Callable[..., bytes], *args: Any,
                  **kwargs: Any) -> bytes:
        """``fn(*args, **kwargs)`` drawn in the pool; with a ``key``, drawn once and reused."""
        if key is None:
            return await self.pool.run(fn, *args, **kwargs)
        data = self.cache.get(key)
        if data is not None:
            return data
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = self._drawing[key] = self.pool.submit(fn, *args, **kwargs)
            drawing.add_done_callback(lambda done: self._drawn(key, done))
        # Shielded: one requester giving up must not cancel the drawing the others wait for.
        return await asyncio.shield(drawing)

    def _drawn(self, key: Hashable, done: asyncio.Future[bytes]) -> None:
        self._drawing.pop(key, None)
        if not done.cancelled() and done.exception() is None:
            self.cache.put(key, done.result())

    def close(self) -> None:
        self.pool.close()


# ----- the jobs (module-level functions: they run in the worker processes) ----------------------


def replay_key(source: ReplaySource, names: Sequence[str], lang: str = "en") -> tuple:
    """The cache key of a replay: the exact position, the names drawn and the language of its
    words (never the seed)."""
    return ("replay", source.game_id, source.version, tuple(names), lang)


def replay_gif(source: ReplaySource, names: Sequence[str], lang: str = "en") -> bytes:
    """The animated replay of a game as a spectator sees it, its words in ``lang`` (a job for
    the pool: the game is replayed here, in the worker, from its moves)."""
    return render.replay(source.game, source.public_states(), list(names), lang=lang)
