"""Values the services return to the Discord layer (frozen dataclasses, no database types)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from engines import Outcome, Phrase


def utcnow() -> datetime:
    """The default clock of the services: now, timezone-aware UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Challenge:
    id: int
    game: str
    options: dict
    host_id: int
    opponent_id: int | None  # None = open to anyone (and every lobby)
    players: int
    joined: tuple[int, ...]  # in joining order; joined[0] is the host
    status: str  # open | accepted | declined | cancelled | started
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    created_at: datetime
    #: Added: the game this challenge became (accepted or started), else None.
    game_id: int | None = None
    #: The challenger's language ("en", "fr"), or None.
    locale: str | None = None
    #: Where its game will live: None (a thread) or "conversation" (``GameInfo.place``).
    place: str | None = None
    #: Whether its game counts for ratings; None: its place's default (``counts_for_ratings``).
    rated: bool | None = None

    @property
    def is_lobby(self) -> bool:
        """More than two players: filled with join/leave and started by the host."""
        return self.players > 2

    @property
    def is_full(self) -> bool:
        return len(self.joined) >= self.players


@dataclass(frozen=True)
class GameInfo:
    id: int
    game: str
    options: dict
    seats: tuple[int, ...]  # seat -> user id
    status: str  # "active" | "finished" | "aborted"
    to_move: int | None  # seat
    ply: int  # moves played so far
    version: int
    state: object  # the PUBLIC view (engine view(state, None)): never the seed while running
    outcome: Outcome | None
    last_move: str | None
    thread_id: int | None
    guild_id: int | None
    channel_id: int | None
    created_at: datetime
    updated_at: datetime
    #: Added: the user who asked to take their last move back, while the request is pending.
    undo_requested_by: int | None = None
    #: Added: users who already agreed to the pending undo.
    undo_accepted_by: tuple[int, ...] = field(default=())
    #: Added: the seat that resigned, if the game ended by resignation.
    resigned_seat: int | None = None
    #: Added: the seat that lost on time (claimed, or a tournament forfeit).
    timed_out_seat: int | None = None
    #: The language of the game's public posts ("en", "fr"), fixed when it started; None for
    #: games older than that setting (the bot's default language).
    locale: str | None = None
    #: None: a thread of a server with the bot (the bot posts there); "conversation": a DM,
    #: group DM or server without the bot, where every public message answers an interaction
    #: (``thread_id`` is then the conversation's channel).
    place: str | None = None
    #: Who aborted the game (a player before everyone had moved, or a server admin), and
    #: whether as an admin; None for a game not aborted, or aborted before this was kept.
    aborted_by: int | None = None
    aborted_as_admin: bool = False

    @property
    def in_conversation(self) -> bool:
        return self.place == "conversation"

    def user_to_move(self) -> int | None:
        """Who must move now: nobody once the game is over (or was aborted)."""
        if self.to_move is None or self.status != "active":
            return None
        return self.seats[self.to_move]

    @property
    def players(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class MoveResult:
    game: GameInfo  # after the move
    move: str  # canonical text
    description: str  # the engine's describe() of the move (English)
    seat: int
    #: What the move did, translatable (the engine's ``explain``).
    explanation: Phrase | None = None


@dataclass(frozen=True)
class Position:
    """A game as one of its outbox rows shows it: right after the change that wrote
    the row, whatever happened since (a message posted late still shows its own move)."""

    game_id: int
    ply: int
    #: The version of the game after that change (move buttons carry it).
    version: int
    #: The public view (``view(state, None)``): no hidden hand, no seed.
    state: object
    to_move: int | None  # seat
    last_move: str | None
    #: The player to move sees more than the public (their own cards) and their moves may
    #: depend on it, so they are offered privately, never on a public message. False when
    #: their choice is the public view's all the same (LPPG's second draw: pile a or b,
    #: whatever the first card drawn).
    private_moves: bool
    #: Still the game's newest position (a later change makes it history).
    current: bool


class RecordedMove(NamedTuple):
    """One move of a game record: unpacks as ``(ply, seat, text, time)``."""

    ply: int  # 1 for the first move
    seat: int
    text: str
    time: datetime


@dataclass(frozen=True)
class GameRecord:
    """Header and moves of a game. ``seed`` is None while the game runs (it is secret); once
    the game is over it is given so anyone can replay (seed, options, moves)."""

    game: GameInfo
    moves: tuple[RecordedMove, ...]
    seed: int | None

    @property
    def header(self) -> dict[str, Any]:
        info = self.game
        return {
            "id": info.id,
            "game": info.game,
            "options": info.options,
            "seats": list(info.seats),
            "status": info.status,
            "result": None if info.outcome is None else info.outcome.reason,
            "created_at": info.created_at.isoformat(),
            "seed": self.seed,
        }
