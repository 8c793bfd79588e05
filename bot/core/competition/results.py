"""The record a tournament keeps of its games, as the pairing and standings code sees it."""

from __future__ import annotations

from dataclasses import dataclass

Player = int  # a user id


@dataclass(frozen=True)
class Pairing:
    """One board of a round. ``second`` is None for a bye. ``first`` takes seat 0."""

    round: int
    first: Player
    second: Player | None


@dataclass(frozen=True)
class Result:
    """A finished pairing: ``first_score`` is 1, 0.5 or 0 (a bye scores ``first_score`` too)."""

    round: int
    first: Player
    second: Player | None
    first_score: float

    @property
    def second_score(self) -> float:
        return 1.0 - self.first_score

    def score_of(self, player: Player) -> float:
        if player == self.first:
            return self.first_score
        if player == self.second:
            return self.second_score
        raise ValueError(f"{player} did not play in this game")

    def opponent_of(self, player: Player) -> Player | None:
        return self.second if player == self.first else self.first

    @property
    def is_bye(self) -> bool:
        return self.second is None


BYE_SCORE = 1.0  # a bye is worth a win, as in most Swiss events


def bye(round_number: int, player: Player) -> Result:
    return Result(round_number, player, None, BYE_SCORE)


def points(results: list[Result]) -> dict[Player, float]:
    totals: dict[Player, float] = {}
    for r in results:
        totals[r.first] = totals.get(r.first, 0.0) + r.first_score
        if r.second is not None:
            totals[r.second] = totals.get(r.second, 0.0) + r.second_score
    return totals


def have_met(results: list[Result]) -> set[frozenset[Player]]:
    return {frozenset((r.first, r.second)) for r in results if r.second is not None}


def first_seat_balance(results: list[Result]) -> dict[Player, int]:
    """Games in seat 0 minus games in seat 1, per player (byes count for neither)."""
    balance: dict[Player, int] = {}
    for r in results:
        if r.second is None:
            continue
        balance[r.first] = balance.get(r.first, 0) + 1
        balance[r.second] = balance.get(r.second, 0) - 1
    return balance
