"""Correspondence play: reminders of a move due, a loss on time, a player's vacation, and the
daily digest of the games where it is a player's turn."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from bot.core.events.base import Event, GameEvent, older_rows, optional


@dataclass(frozen=True, kw_only=True)
class Reminder(GameEvent):
    """``user_id`` (at ``seat``) has move ``ply`` due at ``deadline``: soon, or overdue.
    Once per (game, turn, threshold). ``dm``: the player asked for reminders by DM too."""

    kind = "reminder"

    user_id: int
    seat: int
    threshold: Literal["due_soon", "overdue"]
    deadline: datetime
    ply: int
    dm: bool


@dataclass(frozen=True, kw_only=True)
class TimedOut(GameEvent):
    """``user_id`` (at ``seat``) lost on time: claimed by ``claimed_by``, or (None) forfeited
    automatically in a tournament. A ``game_over`` row follows."""

    kind = "timeout"
    legacy = older_rows(version=None)

    seat: int
    user_id: int
    claimed_by: int | None
    version: int | None


@dataclass(frozen=True, kw_only=True)
class Vacation(GameEvent):
    """``user_id`` is away until ``until`` (None: back early). One row per timed game of
    theirs; at the end, ``held`` when another player of the game is still away (its clock
    stays paused)."""

    kind = "vacation"

    user_id: int
    until: datetime | None
    held: bool = optional(False)


@dataclass(frozen=True, kw_only=True)
class Digest(Event):
    """The digest planned for ``planned`` is due: a DM listing ``user_id``'s games where it
    is their turn."""

    kind = "digest"

    user_id: int
    planned: datetime
