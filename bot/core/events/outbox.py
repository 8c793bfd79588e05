"""A pending outbox row as delivery reads it: its event, typed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic

from bot.core.events.base import E, Event, Unreadable, dump
from bot.core.events.schema import load


@dataclass(frozen=True)
class OutboxItem(Generic[E]):
    """A pending outbox row: the event, and what delivering it needs to know."""

    id: int
    game_id: int | None
    event: E | Unreadable
    created_at: datetime
    #: The interaction token of the command this row answers, until delivered.
    reply_token: str | None = None
    #: The server it is posted in (None: none); the process running its shard delivers it.
    guild_id: int | None = None

    @classmethod
    def stored(cls, id: int, game_id: int | None, kind: str, payload: Mapping[str, Any],
               created_at: datetime, reply_token: str | None = None,
               guild_id: int | None = None) -> OutboxItem[Any]:
        """The item of a stored row: its event read back (``schema.load``), or
        ``Unreadable`` when no type of this version reads it."""
        try:
            event: Event | Unreadable = load(kind, payload)
        except (KeyError, TypeError, ValueError) as error:
            event = Unreadable(kind, payload, str(error))
        return cls(id, game_id, event, created_at, reply_token, guild_id)

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def payload(self) -> dict[str, Any]:
        """The row's stored JSON (``dump`` of its event)."""
        return dump(self.event)
