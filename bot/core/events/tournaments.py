"""Tournaments: a round is paired, a tournament is over, a player's game is forfeited because
they left (or were removed from) the tournament."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.events.base import Event, GameEvent, older_rows


@dataclass(frozen=True, kw_only=True)
class TournamentRound(Event):
    """Round ``round`` is paired: its pairings are posted in the tournament's channel."""

    kind = "tournament_round"

    tournament_id: int
    round: int


@dataclass(frozen=True, kw_only=True)
class TournamentFinished(Event):
    kind = "tournament_finished"

    tournament_id: int


@dataclass(frozen=True, kw_only=True)
class TournamentForfeit(GameEvent):
    """``user_id`` (at ``seat``) left the tournament, or was ``removed`` (by ``removed_by``,
    None when unknown), and so lost this game. A ``game_over`` row follows."""

    kind = "tournament_forfeit"
    legacy = older_rows(version=None)

    seat: int
    user_id: int
    tournament_id: int
    removed: bool
    removed_by: int | None
    version: int | None
