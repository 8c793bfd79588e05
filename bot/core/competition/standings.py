"""Standings with the usual tie-breaks.

- Swiss: points, Buchholz (sum of the opponents' points), Sonneborn–Berger (points of beaten
  opponents plus half those of drawn ones), then the player id for a stable order.
- Round robin: points, head-to-head among the tied players, Sonneborn–Berger, then the id.
A bye counts as points but adds nothing to Buchholz or Sonneborn–Berger (there is no opponent).
In the won/drawn/lost record a bye counts by the score it gave (a full-point bye is a win), so
the record adds up to the points; ``played`` counts games only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.core.competition.results import Player, Result, points


@dataclass(frozen=True)
class Standing:
    rank: int
    player: Player
    points: float
    tiebreaks: tuple[float, ...]
    played: int
    wins: int
    draws: int
    losses: int


def buchholz(player: Player, results: list[Result], totals: dict[Player, float]) -> float:
    return sum(
        totals.get(r.opponent_of(player), 0.0)
        for r in results
        if player in (r.first, r.second) and not r.is_bye
    )


def sonneborn_berger(player: Player, results: list[Result], totals: dict[Player, float]) -> float:
    return sum(
        r.score_of(player) * totals.get(r.opponent_of(player), 0.0)
        for r in results
        if player in (r.first, r.second) and not r.is_bye
    )


def head_to_head(player: Player, group: set[Player], results: list[Result]) -> float:
    """Points scored against the other members of ``group`` (players tied on points)."""
    return sum(
        r.score_of(player)
        for r in results
        if not r.is_bye and player in (r.first, r.second) and r.opponent_of(player) in group
    )


def _records(player: Player, results: list[Result]) -> tuple[int, int, int, int]:
    """(games played, won, drawn, lost), byes counted as won/drawn/lost by their score."""
    mine = [r for r in results if player in (r.first, r.second)]
    wins = sum(1 for r in mine if r.score_of(player) == 1)
    draws = sum(1 for r in mine if r.score_of(player) == 0.5)
    games = sum(1 for r in mine if not r.is_bye)
    return games, wins, draws, len(mine) - wins - draws


def _rank(players: Iterable[Player], results: list[Result], keys) -> list[Standing]:
    rows = sorted(players, key=keys)
    standings: list[Standing] = []
    previous = None
    for index, player in enumerate(rows):
        key = keys(player)[:-1]  # every criterion but the final id
        rank = standings[-1].rank if previous == key else index + 1
        previous = key
        played, wins, draws, losses = _records(player, results)
        standings.append(
            Standing(rank, player, -key[0], tuple(-k for k in key[1:]), played, wins, draws, losses)
        )
    return standings


def swiss(players: Iterable[Player], results: list[Result]) -> list[Standing]:
    totals = points(results)

    def keys(p: Player) -> tuple:
        return (
            -totals.get(p, 0.0),
            -buchholz(p, results, totals),
            -sonneborn_berger(p, results, totals),
            p,
        )

    return _rank(players, results, keys)


def round_robin(players: Iterable[Player], results: list[Result]) -> list[Standing]:
    players = list(players)
    totals = points(results)
    tied: dict[float, set[Player]] = {}
    for p in players:
        tied.setdefault(totals.get(p, 0.0), set()).add(p)

    def keys(p: Player) -> tuple:
        group = tied[totals.get(p, 0.0)]
        return (
            -totals.get(p, 0.0),
            -head_to_head(p, group, results),
            -sonneborn_berger(p, results, totals),
            p,
        )

    return _rank(players, results, keys)
