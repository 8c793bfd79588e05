"""Tally: a tiny 2–5 player game with a hidden hand per seat, for lobby, team and hidden-view
tests while no such engine is on main. Registered only inside tests (``tally`` fixture).

Players in turn add 1, 2 or 3 to a running total; whoever reaches the target wins. Each seat
holds a secret number drawn from the seed (never shown to the others while the game runs).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engines.core import (
    Game,
    IllegalMove,
    Move,
    Option,
    Outcome,
    dump_outcome,
    load_outcome,
    rng_for,
)


@dataclass(frozen=True, slots=True)
class TallyMove(Move):
    amount: int

    def __str__(self) -> str:
        return str(self.amount)


@dataclass(frozen=True)
class TallyState:
    players: int
    seed: int | str | None
    target: int
    total: int
    hands: tuple[int | None, ...]
    to_move: int | None
    ply: int
    outcome: Outcome | None = None


class Tally(Game):
    name = "tally"
    title = "Tally"
    min_players = 2
    max_players = 5
    # Names real games use too, so this test game adds no phrase without a French template.
    seat_names = ("North", "East", "South", "West", "Red")
    options = (Option("target", 10, (5, 10, 15, 20), "total that wins"),)
    hidden_information = True

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3)) if players == 4 else ()

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> TallyState:
        hands = tuple(rng_for(seed, "hand", seat).randint(1, 99) for seat in range(players))
        return TallyState(players, seed, options["target"], 0, hands, 0, 0)

    def _legal_moves(self, state: TallyState) -> list[TallyMove]:
        return [TallyMove(n) for n in (1, 2, 3)]

    def _parse(self, text: str, state: Any) -> TallyMove:
        if text not in ("1", "2", "3"):
            raise IllegalMove(f"{text!r} is not 1, 2 or 3")
        return TallyMove(int(text))

    def _play(self, state: TallyState, move: TallyMove) -> TallyState:
        if not isinstance(move, TallyMove) or move.amount not in (1, 2, 3):
            raise IllegalMove("add 1, 2 or 3")
        total = state.total + move.amount
        seat = state.to_move
        if total >= state.target:
            scores = tuple(1.0 if s == seat else 0.0 for s in range(state.players))
            outcome = Outcome(frozenset({seat}), scores, f"{self.seat_names[seat]} reached it")
            return replace(state, total=total, to_move=None, ply=state.ply + 1, outcome=outcome)
        return replace(state, total=total, to_move=(seat + 1) % state.players, ply=state.ply + 1)

    def _view(self, state: TallyState, seat: int | None) -> TallyState:
        if state.outcome is not None:
            return state
        hands = tuple(hand if s == seat else None for s, hand in enumerate(state.hands))
        return replace(state, hands=hands)

    def dump(self, state: TallyState) -> dict:
        return {
            "players": state.players, "seed": state.seed, "target": state.target,
            "total": state.total, "hands": list(state.hands), "to_move": state.to_move,
            "ply": state.ply, "outcome": dump_outcome(state.outcome),
        }

    def load(self, data: dict) -> TallyState:
        return TallyState(
            data["players"], data["seed"], data["target"], data["total"], tuple(data["hands"]),
            data["to_move"], data["ply"], load_outcome(data["outcome"]),
        )


TALLY = Tally()
