"""The scheduler's round (``bot.discord.housekeeping.DueWork``) on its own, with stand-ins for the
clocks, the services and the delivery."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from bot.core.events import Digest
from bot.core.sharding import Shards
from bot.discord.housekeeping import PRUNE_EVERY, SCHEDULED_EVENTS, DueWork

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)


class Clocks:
    def __init__(self) -> None:
        self.wrote = False
        self.due: datetime | None = None
        self.rounds: list[datetime] = []

    async def run_due(self, now: datetime) -> int:
        self.rounds.append(now)
        return int(self.wrote)

    async def next_due(self) -> datetime | None:
        return self.due


class Notify:
    def __init__(self) -> None:
        self.digests = 0
        self.digest_due: datetime | None = None

    async def run_due_digests(self, now: datetime) -> int:
        return self.digests

    async def next_digest_due(self) -> datetime | None:
        return self.digest_due


class Outbox:
    def __init__(self) -> None:
        self.pruned: list[tuple[timedelta, Shards]] = []

    async def prune_outbox(self, history: timedelta, *, shards: Shards) -> int:
        self.pruned.append((history, shards))
        return 3


class Delivery:
    def __init__(self) -> None:
        self.flushes: list[dict] = []

    async def flush_all(self, **options) -> None:
        self.flushes.append(options)


def due_work() -> tuple[DueWork, Clocks, Outbox, Delivery]:
    clocks, outbox, delivery = Clocks(), Outbox(), Delivery()
    shards = Shards.configured(2, (1,))
    work = DueWork(clocks, Notify(), SimpleNamespace(outbox=outbox), delivery,
                   history=timedelta(days=30), shards=shards)
    return work, clocks, outbox, delivery


async def test_what_falls_due_is_posted_at_once_and_nothing_is_flushed_otherwise():
    work, clocks, _, delivery = due_work()
    await work(NOW)
    assert clocks.rounds == [NOW] and delivery.flushes == []
    clocks.wrote = True
    await work(NOW + timedelta(minutes=1))
    (options,) = delivery.flushes
    assert options["at_once"] == SCHEDULED_EVENTS and options["older_than"] > 0


async def test_the_history_is_pruned_at_most_once_an_hour_for_our_shards(caplog):
    caplog.set_level(logging.INFO)
    work, _, outbox, _ = due_work()
    await work(NOW)
    await work(NOW + PRUNE_EVERY - timedelta(seconds=1))
    assert len(outbox.pruned) == 1
    await work(NOW + PRUNE_EVERY)
    assert outbox.pruned == [(timedelta(days=30), Shards.configured(2, (1,)))] * 2
    assert "pruned 3 delivered outbox row(s)" in caplog.text


async def test_a_digest_due_is_posted_at_once_too():
    work, _, _, delivery = due_work()
    work.notify.digests = 2
    await work(NOW)
    assert len(delivery.flushes) == 1 and Digest in SCHEDULED_EVENTS


async def test_the_scheduler_wakes_for_the_first_clock_or_digest_due():
    work, clocks, _, _ = due_work()
    assert await work.next_due() is None
    clocks.due = NOW + timedelta(hours=2)
    assert await work.next_due() == clocks.due
    work.notify.digest_due = NOW + timedelta(hours=1)
    assert await work.next_due() == NOW + timedelta(hours=1)
