import asyncio
from datetime import UTC, datetime, timedelta

from bot.services.scheduler import Scheduler


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def wait_for_rounds(scheduler: Scheduler, rounds: int) -> None:
    async with asyncio.timeout(5):
        while scheduler.rounds < rounds:
            await asyncio.sleep(0)


async def test_runs_at_start_then_sleeps_until_poked():
    clock = FakeClock()
    ran: list[datetime] = []

    async def next_due():
        return clock.now + timedelta(days=2)  # far away: the task must sleep, not spin

    async def run_due(now):
        ran.append(now)

    scheduler = Scheduler(next_due, run_due, now=clock)
    scheduler.start()
    await wait_for_rounds(scheduler, 1)
    for _ in range(50):
        await asyncio.sleep(0)
    assert len(ran) == 1  # no busy polling
    clock.now += timedelta(days=3)
    scheduler.poke()
    await wait_for_rounds(scheduler, 2)
    assert ran[-1] == clock.now
    await scheduler.stop()


async def test_past_due_work_runs_again_without_waiting():
    clock = FakeClock()
    pending = [clock.now - timedelta(minutes=5), clock.now - timedelta(minutes=1)]

    async def next_due():
        return pending[0] if pending else None

    async def run_due(now):
        if pending:
            pending.pop(0)

    scheduler = Scheduler(next_due, run_due, now=clock)
    scheduler.start()
    await wait_for_rounds(scheduler, 2)  # the second round starts at once: its work is past due
    assert pending == []
    await scheduler.stop()


async def test_a_failing_round_does_not_kill_the_task():
    clock = FakeClock()
    calls = 0

    async def next_due():
        return clock.now

    async def run_due(now):
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("database hiccup")

    scheduler = Scheduler(next_due, run_due, now=clock, retry_after=0)
    scheduler.start()
    async with asyncio.timeout(5):
        while calls < 3:
            await asyncio.sleep(0)
    await scheduler.stop()
    assert calls >= 3


async def test_stop_right_after_a_poke_always_ends_the_task():
    # Python 3.11's wait_for could swallow a cancellation arriving as the wait ended, leaving
    # stop() waiting for an hour; the loop must end every time.
    clock = FakeClock()

    async def next_due():
        return None

    async def run_due(now):
        return None

    for attempt in range(30):
        scheduler = Scheduler(next_due, run_due, now=clock)
        scheduler.start()
        for _ in range(attempt % 4):
            await asyncio.sleep(0)
        scheduler.poke()
        async with asyncio.timeout(5):
            await scheduler.stop()
