"""When the outbox delivery sends, waits and retries: the timings it keeps to, which rows a
background pass leaves to the handler that wrote them, how long a handler waits for a game
already being delivered, and what a failed send means for its row."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from enum import Enum

import discord

from bot.core.events import Event, OutboxItem

#: How often the background task looks for rows it was not told about (other processes).
POLL_SECONDS = 5.0
#: The background sender leaves rows this young to the handler that wrote them.
HANDLER_GRACE_SECONDS = 10.0
#: How long a handler waits for another delivery of its game before acknowledging its
#: interaction some other way (Discord allows 3 s).
LOCK_PATIENCE = 2.0
#: Seconds after a press by which its answer must be on its way, or it is acknowledged
#: privately and the rows go to the thread (``Delivery.flush``); Discord allows 3.
LATE_SECONDS = 2.2
#: The least wait before acknowledging so, whatever the clocks say.
LATE_MINIMUM = 0.5
#: An interaction token answers this long (then a row's answer can no longer be looked up).
TOKEN_SECONDS = 15 * 60.0


class Failed(Enum):
    """What a row whose send failed becomes."""

    #: The thread or channel is gone or closed to us: retrying cannot help; marked delivered.
    DROPPED = "dropped"
    #: Anything else Discord refused (rate limits, a server error...): it stays pending, and
    #: the game's later rows wait behind it (they must not overtake it) for the next pass.
    RETRIED = "retried"


def after_failure(error: discord.HTTPException) -> Failed:
    """What becomes of a row whose send raised ``error``."""
    if isinstance(error, discord.NotFound | discord.Forbidden):
        return Failed.DROPPED
    return Failed.RETRIED


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def age_seconds(item: OutboxItem, now: datetime) -> float:
    """How long ago the row was written."""
    return (now - aware(item.created_at)).total_seconds()


def left_to_handler(first: OutboxItem, now: datetime, older_than: float,
                    at_once: tuple[type[Event], ...]) -> bool:
    """Whether a background pass leaves a game whose oldest pending row is ``first``: younger
    than ``older_than`` (the handler that wrote it is answering its interaction with it),
    unless its event is of a type of ``at_once`` and answers no interaction (what the
    scheduler writes: no handler posts it)."""
    young = age_seconds(first, now) < older_than
    return young and (not isinstance(first.event, at_once) or first.reply_token is not None)


def reply_token_unexpired(item: OutboxItem, now: datetime) -> bool:
    """Whether the interaction token a row holds may still answer (15 minutes)."""
    return age_seconds(item, now) <= TOKEN_SECONDS


async def acquire(lock: asyncio.Lock, interaction: discord.Interaction | None,
                  patience: float = LOCK_PATIENCE) -> bool:
    """Take a game's lock; a handler waits at most ``patience`` (False then, without it)."""
    if interaction is None or interaction.response.is_done() or not lock.locked():
        await lock.acquire()  # free: taken at once (wait_for would start a task)
        return True
    try:
        await asyncio.wait_for(lock.acquire(), patience)
    except TimeoutError:
        return False
    return True
