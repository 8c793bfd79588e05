"""Every event type, by the ``kind`` its outbox rows carry, and reading a stored row back
(``load``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.events.base import Event, load_as
from bot.core.events.challenges import ChallengeExpired, SeekExpired
from bot.core.events.clocks import Digest, Reminder, TimedOut, Vacation
from bot.core.events.draws import AbortedByPlayer, DrawAgreed, DrawDeclined, DrawLapsed, DrawOffered
from bot.core.events.games import (
    AdminAborted,
    GameEnded,
    GameStarted,
    MovePlayed,
    Resigned,
    UndoDeclined,
    UndoDone,
    UndoRequested,
)
from bot.core.events.tournaments import TournamentFinished, TournamentForfeit, TournamentRound

#: Every event type a row may hold.
EVENT_TYPES: tuple[type[Event], ...] = (
    GameStarted, MovePlayed, GameEnded, Resigned, UndoRequested, UndoDone, UndoDeclined,
    AdminAborted,
    DrawOffered, DrawDeclined, DrawAgreed, DrawLapsed, AbortedByPlayer,
    Reminder, TimedOut, Vacation, Digest,
    TournamentRound, TournamentFinished, TournamentForfeit,
    ChallengeExpired, SeekExpired,
)

#: The event type of each row kind.
KINDS: Mapping[str, type[Event]] = {cls.kind: cls for cls in EVENT_TYPES}


def load(kind: str, payload: Mapping[str, Any]) -> Event:
    """The event a row of ``kind`` with JSON ``payload`` holds. ``KeyError`` for a kind no
    type has; ``TypeError`` for JSON that lacks a field the type needs."""
    try:
        cls = KINDS[kind]
    except KeyError:
        raise KeyError(f"no event type has the kind {kind!r}") from None
    return load_as(cls, payload)
