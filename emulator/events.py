"""The event log: everything that happened, in order (messages created and edited, callbacks,
threads, requests, refusals, gateway sessions), and the waits tests and benchmarks build on,
without sleeping: ``wait_for``, ``wait_for_message``, ``wait_for_ping``, ``pings``."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from emulator.models import EmuUser, Event, Message

if TYPE_CHECKING:
    from emulator.interactions import Interaction

#: Seconds a wait lasts before it gives up, unless told otherwise. Only a guard against a
#: wait that would never end: one that is answered returns at once, so this is generous
#: enough for a machine slowed down by other work (a parallel test run, a busy CI host).
PATIENCE = 60.0


class EventLog:
    """The log and its waits; part of ``Emulator``."""

    def _setup_events(self) -> None:
        self.events: list[Event] = []
        self._waiters: list[tuple[Callable[[Event], bool], asyncio.Future]] = []

    def mark(self) -> int:
        """A position in the event log, for ``wait_for(..., since=mark)``."""
        return len(self.events)

    def _record(
        self,
        kind: str,
        data: Any,
        interaction: Interaction | None = None,
        *,
        notified: frozenset[int] = frozenset(),
    ) -> Event:
        if isinstance(data, Message):
            # A snapshot: later edits of the message must not rewrite what was seen then.
            data = dataclasses.replace(data, data=dict(data.data), files=list(data.files))
        event = Event(
            len(self.events), kind, data, time.perf_counter(),
            None if interaction is None else interaction.id, notified,
        )
        self.events.append(event)
        if interaction is not None:
            interaction.events.append(event)
        for predicate, future in list(self._waiters):
            if not future.done() and predicate(event):
                future.set_result(event)
        self._waiters = [(p, f) for p, f in self._waiters if not f.done()]
        return event

    async def wait_for(
        self, predicate: Callable[[Event], bool], *, since: int = 0,
        timeout: float | None = PATIENCE,
    ) -> Event:
        """The first event from ``since`` on that satisfies ``predicate`` (waiting if needed;
        ``timeout=None``: for as long as it takes)."""
        for event in self.events[since:]:
            if predicate(event):
                return event
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiters.append((predicate, future))
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            if not future.done():
                future.cancel()

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        channel_id: int | None = None,
        since: int = 0,
        timeout: float = PATIENCE,
    ) -> Message:
        """The first new message (not an edit) from ``since`` on, in ``channel_id`` if given."""

        def matches(event: Event) -> bool:
            if event.kind != "message":
                return False
            message: Message = event.data
            if channel_id is not None and message.channel_id != channel_id:
                return False
            return predicate is None or predicate(message)

        return (await self.wait_for(matches, since=since, timeout=timeout)).data

    def pings(self, user: str | EmuUser, *, since: int = 0) -> list[Message]:
        """The messages (as created) that notified ``user``, from ``since`` on."""
        member = self.user(user)
        return [
            event.data for event in self.events[since:]
            if event.kind == "message" and member.id in event.notified
        ]

    async def wait_for_ping(
        self,
        user: str | EmuUser,
        predicate: Callable[[Message], bool] | None = None,
        *,
        since: int = 0,
        timeout: float = PATIENCE,
    ) -> Message:
        """The first message from ``since`` on that notified ``user`` (and satisfies
        ``predicate``), waiting if needed."""
        member = self.user(user)

        def matches(event: Event) -> bool:
            return (event.kind == "message" and member.id in event.notified
                    and (predicate is None or predicate(event.data)))

        return (await self.wait_for(matches, since=since, timeout=timeout)).data
