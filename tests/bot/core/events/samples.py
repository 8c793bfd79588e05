"""One event of every type, with the JSON its outbox row holds (``SAMPLES``), and ``sample``:
an event of a kind for tests that need one."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

from bot.core.events import (
    AbortedByPlayer,
    AdminAborted,
    ChallengeExpired,
    Digest,
    DrawAgreed,
    DrawDeclined,
    DrawLapsed,
    DrawOffered,
    Event,
    GameEnded,
    GameStarted,
    MovePlayed,
    Reminder,
    Resigned,
    SeekExpired,
    TimedOut,
    TournamentFinished,
    TournamentForfeit,
    TournamentRound,
    UndoDeclined,
    UndoDone,
    UndoRequested,
    Vacation,
)
from engines import Phrase

WHEN = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
SAID = Phrase("alak.capture", point="h", count=2, seat=Phrase("seat.black"))

#: One event of every type, and the JSON its row holds: the object the services wrote as a
#: dict before events had types (same keys, same order, same values).
SAMPLES: list[tuple[Event, dict]] = [
    (GameStarted(game_id=1, ply=0, version=0),
     {"game_id": 1, "ply": 0, "version": 0}),
    (GameStarted(game_id=1, ply=0, version=0, source="tournament:3"),
     {"game_id": 1, "ply": 0, "version": 0, "source": "tournament:3"}),
    (MovePlayed(game_id=1, ply=3, version=4, move="h", description=SAID, seat=0, user_id=11),
     {"game_id": 1, "ply": 3, "version": 4, "move": "h", "description": SAID.dump(),
      "seat": 0, "user_id": 11}),
    (MovePlayed(game_id=1, ply=3, version=4, move="h", description=SAID, seat=0, user_id=11,
                undo_dropped_by=12),
     {"game_id": 1, "ply": 3, "version": 4, "move": "h", "description": SAID.dump(),
      "seat": 0, "user_id": 11, "undo_dropped_by": 12}),
    (GameEnded(game_id=1), {"game_id": 1}),
    (Resigned(game_id=1, seat=1, user_id=12, version=5),
     {"game_id": 1, "seat": 1, "user_id": 12, "version": 5}),
    (UndoRequested(game_id=1, by=11, seat=0, ply=3),
     {"game_id": 1, "by": 11, "seat": 0, "ply": 3}),
    (UndoDone(game_id=1, ply=3, seat=0, version=6, last_move="g", by=12),
     {"game_id": 1, "ply": 3, "seat": 0, "version": 6, "last_move": "g", "by": 12}),
    (UndoDeclined(game_id=1, by=12, requester=11),
     {"game_id": 1, "by": 12, "requester": 11}),
    (AdminAborted(game_id=1, by=99), {"game_id": 1, "by": 99}),
    (DrawOffered(game_id=1, offer_id=7, by=11, seat=0),
     {"game_id": 1, "offer_id": 7, "by": 11, "seat": 0}),
    (DrawDeclined(game_id=1, offer_id=7, by=11, seat=0, answered_by=12),
     {"game_id": 1, "offer_id": 7, "by": 11, "seat": 0, "answered_by": 12}),
    (DrawAgreed(game_id=1, offer_id=7, by=11, seat=0, answered_by=12, version=8),
     {"game_id": 1, "offer_id": 7, "by": 11, "seat": 0, "answered_by": 12, "version": 8}),
    (DrawLapsed(game_id=1, offer_id=7, by=11, seat=0, silent=True),
     {"game_id": 1, "offer_id": 7, "by": 11, "seat": 0, "silent": True}),
    (AbortedByPlayer(game_id=1, by=11), {"game_id": 1, "by": 11}),
    (Reminder(game_id=1, user_id=11, seat=0, threshold="due_soon", deadline=WHEN, ply=3,
              dm=True),
     {"game_id": 1, "user_id": 11, "seat": 0, "threshold": "due_soon",
      "deadline": WHEN.isoformat(), "ply": 3, "dm": True}),
    (TimedOut(game_id=1, seat=0, user_id=11, claimed_by=None, version=9),
     {"game_id": 1, "seat": 0, "user_id": 11, "claimed_by": None, "version": 9}),
    (Vacation(game_id=1, user_id=11, until=WHEN),
     {"game_id": 1, "user_id": 11, "until": WHEN.isoformat()}),
    (Vacation(game_id=1, user_id=11, until=None, held=True),
     {"game_id": 1, "user_id": 11, "until": None, "held": True}),
    (Digest(user_id=11, planned=WHEN), {"user_id": 11, "planned": WHEN.isoformat()}),
    (TournamentRound(tournament_id=4, round=2), {"tournament_id": 4, "round": 2}),
    (TournamentFinished(tournament_id=4), {"tournament_id": 4}),
    (TournamentForfeit(game_id=1, seat=1, user_id=12, tournament_id=4, removed=True,
                       removed_by=99, version=10),
     {"game_id": 1, "seat": 1, "user_id": 12, "tournament_id": 4, "removed": True,
      "removed_by": 99, "version": 10}),
    (ChallengeExpired(challenge_id=5), {"challenge_id": 5}),
    (SeekExpired(challenge_id=6), {"challenge_id": 6}),
]


def sample(kind: str, **changes: Any) -> Event:
    """The first sample of ``kind``, with ``changes``."""
    event = next(event for event, _ in SAMPLES if event.kind == kind)
    return dataclasses.replace(event, **changes)
