"""The correspondence scheduler's round (``bot.services.scheduler`` runs it when
something falls due): write the reminders, forfeits and daily digests that are due and post
them at once, and at most every ``PRUNE_EVERY`` delete the outbox rows of this process's servers
delivered longer ago than the configured history (``outbox_history_days``); and when it falls
due next (``next_due``)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.core.events import Digest, Event, Reminder, TimedOut
from bot.discord.delivery import HANDLER_GRACE_SECONDS

if TYPE_CHECKING:
    from bot.core.sharding import Shards
    from bot.discord.delivery import Delivery
    from bot.services.clocks import ClockService
    from bot.services.notify import NotifyService
    from bot.services.wiring import Services

log = logging.getLogger(__name__)

#: The events the scheduler writes (reminders, forfeits on time, digests), posted at once.
SCHEDULED_EVENTS: tuple[type[Event], ...] = (Reminder, TimedOut, Digest)
#: How often the scheduler prunes the outbox's history (it wakes at least hourly).
PRUNE_EVERY = timedelta(hours=1)


class DueWork:
    """What the scheduler does when it wakes (see the module)."""

    def __init__(self, clocks: ClockService, notify: NotifyService, services: Services,
                 delivery: Delivery, *, history: timedelta, shards: Shards) -> None:
        self.clocks = clocks
        self.notify = notify
        self.services = services
        self.delivery = delivery
        self.history = history
        self.shards = shards
        self.pruned_at: datetime | None = None

    async def next_due(self) -> datetime | None:
        """The scheduler's next wake-up: a clock's (reminder, forfeit…) or a daily digest."""
        due = [d for d in (await self.clocks.next_due(), await self.notify.next_digest_due())
               if d is not None]
        return min(due, default=None)

    async def __call__(self, now: datetime) -> None:
        written = await self.clocks.run_due(now)
        written += await self.notify.run_due_digests(now)
        if written:
            # Its reminders and forfeits, not the rows a handler is answering with meanwhile.
            await self.delivery.flush_all(older_than=HANDLER_GRACE_SECONDS,
                                          at_once=SCHEDULED_EVENTS)
        if self.pruned_at is None or now - self.pruned_at >= PRUNE_EVERY:
            self.pruned_at = now
            pruned = await self.services.outbox.prune_outbox(self.history, shards=self.shards)
            if pruned:
                log.info("pruned %d delivered outbox row(s) older than %s", pruned,
                         self.history)
