"""Telling open pages that their game changed: the store publishes the events of each
committed transaction in this process (``Store.events``); every event of a game wakes the
pages watching it, which then fetch their state again (what changed is never sent: each
viewer sees only what their seat may see). Other processes' commits reach this one through
``wake``: the bot passes on the database's wake-ups (PostgreSQL's LISTEN/NOTIFY,
``ShardClaim.on_any_wake``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from bot.core.events import Committed, EventStream, GameEvent


class Watch:
    """One page's subscription: ``changed`` is set when its game changed since it was last
    cleared."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.changed = asyncio.Event()


class LiveGames:
    """The pages open on each game of this process, woken by committed events."""

    def __init__(self, events: EventStream) -> None:
        self._watches: dict[int, set[Watch]] = {}
        self._unsubscribe: Callable[[], None] | None = events.subscribe(self._committed)

    def watch(self, game_id: int) -> Watch:
        watch = Watch(game_id)
        self._watches.setdefault(game_id, set()).add(watch)
        return watch

    def forget(self, watch: Watch) -> None:
        watching = self._watches.get(watch.game_id)
        if watching is not None:
            watching.discard(watch)
            if not watching:
                del self._watches[watch.game_id]

    def wake(self, game_id: int | None) -> None:
        """``game_id`` changed (None: any game may have: every page looks again)."""
        targets = (self._watches.get(game_id, ()) if game_id is not None
                   else [w for ws in self._watches.values() for w in ws])
        for watch in targets:
            watch.changed.set()

    def _committed(self, batch: Sequence[Committed]) -> None:
        # Called in the committing task: only sets flags.
        for game_id in {c.event.game_id for c in batch if isinstance(c.event, GameEvent)}:
            self.wake(game_id)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
