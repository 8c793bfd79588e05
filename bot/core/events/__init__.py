"""Game events as values: one frozen dataclass per thing that happens, written to the outbox in
the transaction of the change that caused it and delivered from there.

The types are the outbox's schema (``schema.EVENT_TYPES``, by kind in ``schema.KINDS``):

* ``games``: ``GameStarted`` (game_started), ``MovePlayed`` (move), ``GameEnded``
  (game_over, after the row of what ended the game), ``Resigned``, ``UndoRequested``,
  ``UndoDone``, ``UndoDeclined``, ``AdminAborted`` (aborted);
* ``draws``: ``DrawOffered``, ``DrawDeclined``, ``DrawAgreed``, ``DrawLapsed``,
  ``AbortedByPlayer``;
* ``clocks``: ``Reminder``, ``TimedOut`` (timeout), ``Vacation``, ``Digest``;
* ``tournaments``: ``TournamentRound``, ``TournamentFinished``, ``TournamentForfeit``;
* ``challenges``: ``ChallengeExpired``, ``SeekExpired``.

A service writes one with ``tx.insert_outbox(event, now, reply_token)``; the row stores
``kind`` and ``dump(event)``, the same JSON as ever, and ``load(kind, payload)`` reads it back
(rows written by earlier versions too: ``base`` says how). A row no type reads becomes
``Unreadable``, which delivery skips. Once the transaction commits, the store publishes its
events to this process's listeners (``stream.EventStream``); the outbox delivery is one
reader of the rows, and another can listen without touching it.

Usage::

    event = MovePlayed(game_id=7, ply=3, version=4, move="f", description=phrase, seat=0,
                       user_id=42)
    await tx.insert_outbox(event, now, reply_token)
    assert load(event.kind, dump(event)) == event
"""

from bot.core.events.base import Event, GameEvent, Unreadable, dump, load_as
from bot.core.events.challenges import ChallengeExpired, SeekExpired
from bot.core.events.clocks import Digest, Reminder, TimedOut, Vacation
from bot.core.events.draws import (
    AbortedByPlayer,
    DrawAgreed,
    DrawDeclined,
    DrawEvent,
    DrawLapsed,
    DrawOffered,
)
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
from bot.core.events.outbox import OutboxItem
from bot.core.events.schema import EVENT_TYPES, KINDS, load
from bot.core.events.stream import Committed, EventStream
from bot.core.events.tournaments import TournamentFinished, TournamentForfeit, TournamentRound

__all__ = [
    "EVENT_TYPES",
    "KINDS",
    "AbortedByPlayer",
    "AdminAborted",
    "ChallengeExpired",
    "Committed",
    "Digest",
    "DrawAgreed",
    "DrawDeclined",
    "DrawEvent",
    "DrawLapsed",
    "DrawOffered",
    "Event",
    "EventStream",
    "GameEnded",
    "GameEvent",
    "GameStarted",
    "MovePlayed",
    "OutboxItem",
    "Reminder",
    "Resigned",
    "SeekExpired",
    "TimedOut",
    "TournamentFinished",
    "TournamentForfeit",
    "TournamentRound",
    "UndoDeclined",
    "UndoDone",
    "UndoRequested",
    "Unreadable",
    "Vacation",
    "dump",
    "load",
    "load_as",
]
