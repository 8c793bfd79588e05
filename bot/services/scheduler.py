"""One task that wakes when something is due: it asks the database for the next due time,
sleeps until then or until ``poke()`` says something changed (a move, a new game, a vacation),
runs what is due, and repeats. No busy polling; the clock is injectable so tests never sleep
for real."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

log = logging.getLogger(__name__)

Now = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Scheduler:
    def __init__(
        self,
        next_due: Callable[[], Awaitable[datetime | None]],
        run_due: Callable[[datetime], Awaitable[None]],
        *,
        now: Now = utcnow,
        max_sleep: float = 3600.0,
        retry_after: float = 30.0,
    ) -> None:
        self._next_due = next_due
        self._run_due = run_due
        self._now = now
        self._max_sleep = max_sleep  # re-check at least hourly in case the wall clock jumped
        self._retry_after = retry_after  # after a failed round (e.g. a locked database)
        self._changed = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._stopping = False
        self.rounds = 0  # how many times due work ran (for tests and health checks)

    def poke(self) -> None:
        """Something changed in the database: recompute the next due time."""
        self._changed.set()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.create_task(self._loop(), name="correspondence-scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            # Python 3.11's wait_for can swallow a cancellation that lands as the wait ends;
            # the flag and the poke make the loop leave on its own even then.
            self._stopping = True
            self._changed.set()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def run_once(self) -> None:
        """Run whatever is due now (also used at start-up to catch up after a restart)."""
        await self._run_due(self._now())
        self.rounds += 1

    async def _loop(self) -> None:
        while not self._stopping:
            # Cleared before reading the database, so a poke during the round is not lost.
            self._changed.clear()
            try:
                await self.run_once()
                due = await self._next_due()
            except Exception:  # keep the loop alive; the next round retries
                log.exception("scheduler round failed")
                timeout = self._retry_after
            else:
                timeout = self._timeout_until(due)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._changed.wait()

    def _timeout_until(self, due: datetime | None) -> float:
        if due is None:
            return self._max_sleep
        return min(self._max_sleep, max(0.0, (due - self._now()).total_seconds()))
