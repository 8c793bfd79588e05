"""Outbox rows of event types other features own (tournament posts...) go to their registered
poster; rows nobody posts (a kind this version has no type for) are skipped so they cannot block
the others."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot.core.events import Event, TournamentFinished, TournamentRound
from bot.discord.housekeeping import PRUNE_EVERY
from bot.store.sql import time_text


@dataclass(frozen=True, kw_only=True)
class LaterKind(Event):
    """A kind this version has no type for (as a row written by a later version)."""

    kind = "nobody_posts_this"

    x: int


async def write_row(world, event: Event) -> None:
    async with world.running.store.transaction() as tx:
        await tx.insert_outbox(event, datetime.now(UTC))


async def test_registered_poster_and_unknown_kinds(world):
    emu = world.emu
    delivery = world.bot.delivery
    seen = []

    async def poster(item):
        seen.append(item.event.round)
        channel = world.bot.get_partial_messageable(emu.channel_id)
        await channel.send(f"Round {item.event.round} pairings")

    delivery.register({TournamentRound: poster}, replace=True)  # instead of the tournaments'
    with pytest.raises(ValueError, match="posted already"):
        delivery.register({TournamentRound: poster})  # one poster per type
    await write_row(world, LaterKind(x=1))
    await write_row(world, TournamentRound(tournament_id=1, round=3))
    mark = emu.mark()
    await delivery.flush(None)
    posted = await emu.wait_for_message(channel_id=emu.channel_id, since=mark)
    assert posted.content == "Round 3 pairings" and seen == [3]
    assert await world.services.outbox.pending_outbox() == []


async def test_a_failed_post_stays_pending(world):
    delivery = world.bot.delivery
    # Stopped: its first pass takes whatever is pending, and would retry the row on its own
    # between this test's two flushes.
    await delivery.background.stop()
    attempts = []

    async def flaky(item):
        attempts.append(item.id)
        if len(attempts) == 1:
            raise discord.HTTPException(_Response(), "server error")

    delivery.register({TournamentFinished: flaky}, replace=True)
    await write_row(world, TournamentFinished(tournament_id=1))
    await delivery.flush(None)
    assert [i.kind for i in await world.services.outbox.pending_outbox()] == ["tournament_finished"]
    await delivery.flush(None)
    assert await world.services.outbox.pending_outbox() == []
    assert len(attempts) == 2


class _Response:
    status = 500
    reason = "Internal Server Error"


async def test_stopping_waits_for_listeners_still_using_the_database(world):
    """A listener still at work (say the tournaments' catch-up in on_ready) finishes before the
    database closes, instead of failing on a closed connection."""
    release = asyncio.Event()
    outcome: list[object] = []

    async def listener() -> None:
        await release.wait()
        outcome.append(await world.bot.services.games.games_of(1))

    # discord.py runs every event listener in a task named like this one.
    busy = asyncio.create_task(listener(), name="discord.py: on_ready")
    stopping = asyncio.create_task(world.stop())
    for _ in range(20):
        await asyncio.sleep(0)
    assert not stopping.done()  # shutdown waits for the listener...
    release.set()
    await stopping
    assert busy.done() and busy.exception() is None
    assert outcome == [[]]  # ...which could still read the database



# It ages rows in the SQLite file directly; pruning itself runs on both databases in
# tests/bot/services/test_outbox_history.py and tests/bot/store.
@pytest.mark.parametrize("backend", ["sqlite"])
async def test_the_running_bot_prunes_the_history_each_hour(world):
    """The scheduler's round deletes the rows delivered longer ago than the configured
    history (at most once an hour); rows still pending stay."""
    from tests.e2e.test_alak import start_alak

    await start_alak(world)
    await world.bot.delivery.flush_all()
    while world.bot.scheduler.rounds == 0:  # its round at start has pruned (nothing yet)
        await asyncio.sleep(0.01)
    await write_row(world, LaterKind(x=1))  # not flushed: pending
    aged = datetime.now(UTC) - timedelta(days=world.config.outbox_history_days + 1)
    with sqlite3.connect(world.config.database) as db:
        delivered = db.execute("UPDATE outbox SET delivered_at = ? "
                               "WHERE delivered_at IS NOT NULL", (time_text(aged),)).rowcount
    assert delivered >= 1
    now = datetime.now(UTC)
    await world.bot.due_work(now)  # within the hour of the round at start: not yet
    assert len(await outbox_kinds(world)) == delivered + 1
    await world.bot.due_work(now + PRUNE_EVERY)
    assert await outbox_kinds(world) == ["nobody_posts_this"]


async def outbox_kinds(world) -> list[str]:
    with sqlite3.connect(world.config.database) as db:
        return [kind for (kind,) in db.execute("SELECT kind FROM outbox ORDER BY id")]
