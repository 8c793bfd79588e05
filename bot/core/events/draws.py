"""Draw offers and their answers, and a player's abort before everyone has moved (the draws
feature posts them in the game's thread)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.events.base import GameEvent


@dataclass(frozen=True, kw_only=True)
class DrawEvent(GameEvent):
    """What every event of one draw offer says: the offer, who made it, from which seat."""

    offer_id: int
    by: int
    seat: int


@dataclass(frozen=True, kw_only=True)
class DrawOffered(DrawEvent):
    kind = "draw_offered"


@dataclass(frozen=True, kw_only=True)
class DrawDeclined(DrawEvent):
    kind = "draw_declined"

    answered_by: int


@dataclass(frozen=True, kw_only=True)
class DrawAgreed(DrawEvent):
    """The offer was accepted: the game ends drawn (a ``game_over`` row follows)."""

    kind = "draw_agreed"

    answered_by: int
    version: int


@dataclass(frozen=True, kw_only=True)
class DrawLapsed(DrawEvent):
    """The offer ran out (its sender moved on, or the game ended: then ``silent``, as the
    game's end says enough)."""

    kind = "draw_lapsed"

    silent: bool


@dataclass(frozen=True, kw_only=True)
class AbortedByPlayer(GameEvent):
    """A player (``by``) ended the game with no result before everyone had moved."""

    kind = "aborted_by_player"

    by: int
