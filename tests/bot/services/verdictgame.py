"""Verdict: a test-only two-player game decided by its first move, so tournament tests can
choose every result (including draws, which no real two-player engine offers on demand).

Seat 0 plays ``win``, ``loss`` or ``draw`` (from its own point of view) and the game is over.
Registered only inside tests (``verdict`` fixture).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engines.core import Game, IllegalMove, Move, Outcome, dump_outcome, load_outcome

VERDICTS = ("win", "loss", "draw")


@dataclass(frozen=True, slots=True)
class VerdictMove(Move):
    verdict: str

    def __str__(self) -> str:
        return self.verdict


@dataclass(frozen=True)
class VerdictState:
    players: int
    seed: int | str | None
    to_move: int | None
    outcome: Outcome | None = None


class Verdict(Game):
    name = "verdict"
    title = "Verdict"
    min_players = 2
    max_players = 2
    seat_names = ("First", "Second")
    options = ()

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> VerdictState:
        return VerdictState(players, seed, 0)

    def _legal_moves(self, state: VerdictState) -> list[VerdictMove]:
        return [VerdictMove(v) for v in VERDICTS]

    def _parse(self, text: str, state: Any) -> VerdictMove:
        if text not in VERDICTS:
            raise IllegalMove(f"{text!r} is not win, loss or draw")
        return VerdictMove(text)

    def _play(self, state: VerdictState, move: VerdictMove) -> VerdictState:
        winners = {"win": {0}, "loss": {1}, "draw": set()}[move.verdict]
        scores = (0.5, 0.5) if not winners else tuple(
            1.0 if s in winners else 0.0 for s in range(2))
        outcome = Outcome(frozenset(winners), scores, move.verdict)
        return replace(state, to_move=None, outcome=outcome)

    def dump(self, state: VerdictState) -> dict:
        return {"players": state.players, "seed": state.seed, "to_move": state.to_move,
                "outcome": dump_outcome(state.outcome)}

    def load(self, data: dict) -> VerdictState:
        return VerdictState(data["players"], data["seed"], data["to_move"],
                            load_outcome(data["outcome"]))


VERDICT = Verdict()
