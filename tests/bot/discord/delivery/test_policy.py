"""When the delivery sends, waits and retries (``bot.discord.delivery.policy``), without Discord."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import discord

from bot.core.events import OutboxItem, Reminder, TimedOut
from bot.discord.delivery.policy import (
    HANDLER_GRACE_SECONDS,
    TOKEN_SECONDS,
    Failed,
    acquire,
    after_failure,
    left_to_handler,
    reply_token_unexpired,
)
from tests.bot.core.events.samples import sample

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)
SCHEDULED = (Reminder, TimedOut)


def row(kind: str = "move", age: float = 0.0, token: str | None = None,
        naive: bool = False) -> OutboxItem:
    created = NOW - timedelta(seconds=age)
    if naive:  # SQLite hands back naive UTC times
        created = created.replace(tzinfo=None)
    return OutboxItem(1, 7, sample(kind), created, reply_token=token)


def http_error(kind: type[discord.HTTPException], status: int) -> discord.HTTPException:
    return kind(SimpleNamespace(status=status, reason="x"), {"code": 0, "message": "x"})


def test_a_gone_or_forbidden_channel_drops_the_row_anything_else_retries():
    assert after_failure(http_error(discord.NotFound, 404)) is Failed.DROPPED
    assert after_failure(http_error(discord.Forbidden, 403)) is Failed.DROPPED
    assert after_failure(http_error(discord.HTTPException, 429)) is Failed.RETRIED
    assert after_failure(http_error(discord.DiscordServerError, 503)) is Failed.RETRIED


def test_a_young_row_is_left_to_its_handler_unless_the_scheduler_wrote_it():
    grace = HANDLER_GRACE_SECONDS
    assert left_to_handler(row(age=1), NOW, grace, SCHEDULED)
    assert left_to_handler(row(age=1, naive=True), NOW, grace, SCHEDULED)
    assert not left_to_handler(row(age=grace + 1), NOW, grace, SCHEDULED)
    assert not left_to_handler(row(age=1), NOW, 0.0, SCHEDULED), "the first pass takes all"
    # The scheduler's rows answer no interaction: nobody else would post them.
    assert not left_to_handler(row("reminder", age=1), NOW, grace, SCHEDULED)
    assert left_to_handler(row("reminder", age=1, token="t"), NOW, grace, SCHEDULED)
    assert left_to_handler(row("reminder", age=1), NOW, grace, ())


def test_a_token_answers_for_fifteen_minutes():
    assert reply_token_unexpired(row(age=TOKEN_SECONDS - 1), NOW)
    assert not reply_token_unexpired(row(age=TOKEN_SECONDS + 1), NOW)


def interaction(done: bool) -> SimpleNamespace:
    return SimpleNamespace(response=SimpleNamespace(is_done=lambda: done))


async def test_a_handler_waits_for_its_game_only_so_long():
    lock = asyncio.Lock()
    assert await acquire(lock, interaction(False), patience=0.05)  # free: at once
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert not await acquire(lock, interaction(False), patience=0.05)
    assert loop.time() - started >= 0.04
    assert lock.locked(), "still the first holder's"

    async def release_soon() -> None:
        await asyncio.sleep(0.1)
        lock.release()

    releasing = asyncio.create_task(release_soon())
    # The background sender (no interaction), or a handler that answered already, waits.
    assert await acquire(lock, None, patience=0.01)
    await releasing
    lock.release()
    assert await acquire(lock, interaction(True), patience=0.01)
