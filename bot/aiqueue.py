"""The AI's jobs (moves and hints) served in turn, user by user, not first come first served.

A ``WorkerPool`` runs its jobs in the order they come: one user with thirty games against the
AI and a stream of hints would keep every worker busy, and another user's AI move would wait
behind all of it (43.9 s for a medium Alak move, issue 26). Here each job belongs to a user (a
hint to whoever asked, an AI move to the person playing that game), the pool is given no more
jobs than it has workers, and each time a worker frees up the next job is taken from the user
who has the fewest jobs running, the one served least recently among equals.

One user's jobs never hold every worker: with several workers, a user has at most all but one
running (``per_user``), so a worker is free, or about to be, for anyone else. There is no
taking a search back from a worker once started, so this is what keeps another user's AI move
from waiting for a flooder's search (a hard search takes a second on a quiet machine, several
on a busy one); the price is that one user alone thinks on one worker less. Whoever arrives
waits at most for one search of someone else's, whatever anyone queued.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from bot.workers import PoolBusy, WorkerPool

Result = TypeVar("Result")
#: How many users' last service is remembered (beyond, the least recent are forgotten).
LAST_SERVED_KEPT = 4096


class FairQueue:
    """Feeds ``pool`` with at most ``pool.workers`` jobs at once, users served in turn (see the
    module); ``max_waiting`` jobs at most wait (``PoolBusy`` beyond)."""

    def __init__(self, pool: WorkerPool, *, max_waiting: int | None = None,
                 per_user: int | None = None) -> None:
        self.pool = pool
        self.max_waiting = max_waiting
        #: Jobs of one user running at once: all workers but one (one if there is one).
        self.per_user = per_user or max(1, pool.workers - 1)
        #: user -> their waiting jobs, in the order they came.
        self._waiting: dict[int, deque[tuple[Callable[..., Any], tuple, asyncio.Future]]] = {}
        self._running: dict[int, int] = {}  # user -> jobs in the pool
        #: user -> when they were last served (a count of jobs handed to the pool).
        self._last_served: dict[int, int] = {}
        self._serial = 0
        #: The users of the latest jobs handed to the pool, in order (what the tests check).
        self.served: deque[int] = deque(maxlen=256)

    @property
    def waiting(self) -> int:
        return sum(len(jobs) for jobs in self._waiting.values())

    @property
    def running(self) -> int:
        return sum(self._running.values())


    async def run(self, user: int, fn: Callable[..., Result], /, *args: Any) -> Result:
        """``fn(*args)`` in the pool when ``user``'s turn comes."""
        if self.max_waiting is not None and self.waiting >= self.max_waiting:
            raise PoolBusy(f"{self.waiting} AI jobs are waiting already")
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(user, deque()).append((fn, args, future))
        self._dispatch()
        return await future  # cancelled while waiting: dropped by _dispatch

    def _next_user(self) -> int | None:
        """Among the users with fewer than ``per_user`` jobs running, the one with the fewest;
        among equals, the least recently served (one never served first)."""
        allowed = [user for user in self._waiting
                   if self._running.get(user, 0) < self.per_user]
        return min(allowed, default=None, key=lambda user: (
            self._running.get(user, 0), self._last_served.get(user, -1)))

    def _served(self, user: int) -> None:
        self.served.append(user)
        self._serial += 1
        self._last_served[user] = self._serial
        if len(self._last_served) > LAST_SERVED_KEPT:
            # The least recent half is forgotten: they count as least recently served still.
            oldest = sorted(self._last_served, key=self._last_served.__getitem__)
            for forgotten in oldest[:len(oldest) // 2]:
                del self._last_served[forgotten]

    def _dispatch(self) -> None:
        while self.running < self.pool.workers:
            user = self._next_user()
            if user is None:
                return
            jobs = self._waiting[user]
            fn, args, future = jobs.popleft()
            if not jobs:
                del self._waiting[user]
            if future.done():  # its caller gave up while it waited
                continue
            try:
                job = self.pool.submit(fn, *args)
            except Exception as error:  # closed, or busy: the caller hears it
                future.set_exception(error)
                continue
            self._served(user)
            self._running[user] = self._running.get(user, 0) + 1
            job.add_done_callback(lambda done, user=user, future=future:
                                  self._finished(user, done, future))

    def _finished(self, user: int, job: asyncio.Future, future: asyncio.Future) -> None:
        self._running[user] -= 1
        if not self._running[user]:
            del self._running[user]
        if not future.done():
            if job.cancelled():
                future.cancel()
            elif job.exception() is not None:
                future.set_exception(job.exception())
            else:
                future.set_result(job.result())
        else:
            with contextlib.suppress(asyncio.CancelledError):
                job.exception()  # retrieved: its caller is gone
        self._dispatch()

    def close(self) -> None:
        """Fail the waiting jobs (the pool is closing)."""
        for jobs in self._waiting.values():
            for _, _, future in jobs:
                if not future.done():
                    future.cancel()
        self._waiting.clear()
