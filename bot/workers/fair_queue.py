"""The AI's jobs served in turn, user by user, not first come first served; replies to people
before reviews.

A ``WorkerPool`` runs its jobs in the order they come: one user with thirty games against the
AI and a stream of hints would keep every worker busy, and another user's AI move would wait
behind all of it (43.9 s for a medium Alak move, issue 26). Here each job belongs to a user (a
hint to whoever asked, an AI move to the person playing that game, a review's evaluations to
whoever asked for it), the pool is given no more jobs than it has workers, and each time a
worker frees up the next job is taken from the user who has the fewest jobs running, the one
served least recently among equals.

Jobs come in two priorities. A ``REPLY`` is awaited by a person (an AI move, a hint, an AI's
answer to a draw offer); a ``BACKGROUND`` job is not (the evaluations of a post-game review,
which ask the same AI for hundreds of positions). A waiting reply always goes first, and
background jobs hold all workers but one at most (``background_workers``): a reply finds a
worker free, or about to be, however many reviews are being made, instead of sharing the CPU
with them. Background jobs are served user by user too, so a short review is not queued
behind ten long ones.

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

from bot.workers.pool import PoolBusy, WorkerPool

Result = TypeVar("Result")
#: How many users' last service is remembered (beyond, the least recent are forgotten).
LAST_SERVED_KEPT = 4096
#: The priorities, highest first: a person waits for the answer; nobody waits move by move.
REPLY = 0
BACKGROUND = 1
PRIORITIES = (REPLY, BACKGROUND)

#: A queue of jobs: (priority, user).
Line = tuple[int, int]


class FairQueue:
    """Feeds ``pool`` with at most ``pool.workers`` jobs at once, replies first, users served in
    turn (see the module); ``max_waiting`` replies at most wait (``PoolBusy`` beyond)."""

    def __init__(self, pool: WorkerPool, *, max_waiting: int | None = None,
                 per_user: int | None = None, background_workers: int | None = None) -> None:
        self.pool = pool
        self.max_waiting = max_waiting
        #: Jobs of one user running at once: all workers but one (one if there is one).
        self.per_user = per_user or max(1, pool.workers - 1)
        #: Background jobs running at once: all workers but one (one if there is one).
        self.background_workers = background_workers or max(1, pool.workers - 1)
        #: (priority, user) -> their waiting jobs, in the order they came.
        self._waiting: dict[Line, deque[tuple[Callable[..., Any], tuple, asyncio.Future]]] = {}
        self._running: dict[Line, int] = {}  # (priority, user) -> jobs in the pool
        #: (priority, user) -> when they were last served (a count of jobs handed to the pool).
        self._last_served: dict[Line, int] = {}
        self._serial = 0
        #: The users of the latest jobs handed to the pool, in order (what the tests check).
        self.served: deque[int] = deque(maxlen=256)

    @property
    def waiting(self) -> int:
        return sum(len(jobs) for jobs in self._waiting.values())

    @property
    def running(self) -> int:
        return sum(self._running.values())

    def _waiting_of(self, priority: int) -> int:
        return sum(len(jobs) for (p, _), jobs in self._waiting.items() if p == priority)

    def _running_of(self, priority: int) -> int:
        return sum(n for (p, _), n in self._running.items() if p == priority)

    async def run(self, user: int, fn: Callable[..., Result], /, *args: Any,
                  priority: int = REPLY) -> Result:
        """``fn(*args)`` in the pool when ``user``'s turn comes among jobs of ``priority``."""
        if priority not in PRIORITIES:
            raise ValueError(f"no priority {priority!r}; the priorities are {PRIORITIES}")
        waiting = self._waiting_of(priority)
        if priority == REPLY and self.max_waiting is not None and waiting >= self.max_waiting:
            raise PoolBusy(f"{waiting} AI jobs are waiting already")
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting.setdefault((priority, user), deque()).append((fn, args, future))
        self._dispatch()
        return await future  # cancelled while waiting: dropped by _dispatch

    def _next_line(self) -> Line | None:
        """The waiting replies first, then the background jobs if fewer than
        ``background_workers`` run; among the users with fewer than ``per_user`` jobs of that
        priority running, the one with the fewest; among equals, the least recently served
        (one never served first)."""
        for priority in PRIORITIES:
            if (priority == BACKGROUND
                    and self._running_of(BACKGROUND) >= self.background_workers):
                continue
            allowed = [line for line in self._waiting
                       if line[0] == priority and self._running.get(line, 0) < self.per_user]
            if allowed:
                return min(allowed, key=lambda line: (
                    self._running.get(line, 0), self._last_served.get(line, -1)))
        return None

    def _served(self, line: Line) -> None:
        self.served.append(line[1])
        self._serial += 1
        self._last_served[line] = self._serial
        if len(self._last_served) > LAST_SERVED_KEPT:
            # The least recent half is forgotten: they count as least recently served still.
            oldest = sorted(self._last_served, key=self._last_served.__getitem__)
            for forgotten in oldest[:len(oldest) // 2]:
                del self._last_served[forgotten]

    def _dispatch(self) -> None:
        while self.running < self.pool.workers:
            line = self._next_line()
            if line is None:
                return
            jobs = self._waiting[line]
            fn, args, future = jobs.popleft()
            if not jobs:
                del self._waiting[line]
            if future.done():  # its caller gave up while it waited
                continue
            try:
                job = self.pool.submit(fn, *args)
            except Exception as error:  # closed, or busy: the caller hears it
                future.set_exception(error)
                continue
            self._served(line)
            self._running[line] = self._running.get(line, 0) + 1
            job.add_done_callback(lambda done, line=line, future=future:
                                  self._finished(line, done, future))

    def _finished(self, line: Line, job: asyncio.Future, future: asyncio.Future) -> None:
        self._running[line] -= 1
        if not self._running[line]:
            del self._running[line]
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
