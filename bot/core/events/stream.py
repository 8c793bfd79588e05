"""The events of this process's committed transactions, to whoever listens in the process.

A store publishes the events a transaction wrote right after it commits (never those of a
transaction rolled back), as one batch in the order they were written. A listener is called
in the committing task and must return at once: work that takes time goes in a task of its
own. A listener that raises is logged and does not disturb the commit's caller (the change is
made) nor the other listeners.

Other processes learn of their servers' rows by the database's wake-ups (``ShardClaim``:
PostgreSQL's LISTEN/NOTIFY), not from here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.core.events.base import Event

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Committed:
    """An event as its transaction committed it: its outbox row and when it was written."""

    outbox_id: int
    event: Event
    at: datetime


#: ``listener(batch)``: the events one transaction committed, in order.
Listener = Callable[[Sequence[Committed]], None]


class EventStream:
    """Publish/subscribe of committed events, in one process."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every batch published from now on; returns what stops it."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def publish(self, batch: Sequence[Committed]) -> None:
        """Tell every listener of ``batch`` (nothing when it is empty)."""
        if not batch:
            return
        for listener in tuple(self._listeners):
            try:
                listener(batch)
            except Exception:
                log.exception("an event listener failed on %d event(s)", len(batch))
