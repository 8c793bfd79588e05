"""Alak (A. K. Dewdney, 1984): Go on a line. RULES.md §1.

Notation: one letter per point, ``a`` at the left end. Seat 0 = Black moves first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from engines import register
from engines.core import Game, IllegalMove, Move, Option, Outcome, dump_outcome, load_outcome
from engines.graphgo import EMPTY, capture_dead_enemies, line_adjacency

LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class AlakMove(Move):
    point: int

    def __str__(self) -> str:
        return LETTERS[self.point]


@dataclass(frozen=True)
class AlakState:
    players: int
    seed: int | str | None
    length: int
    board: tuple[int, ...]
    to_move: int | None
    #: Points captured by the previous move: the player to move may not play there (RULES §1).
    banned: frozenset[int]
    #: Stones each seat has captured so far (shown on the board image).
    captures: tuple[int, int]
    ply: int
    outcome: Outcome | None = None
    last_move: AlakMove | None = None


@cache
def _adjacency(length: int) -> tuple[tuple[int, ...], ...]:
    return line_adjacency(length)


class Alak(Game):
    name = "alak"
    title = "Alak"
    min_players = 2
    max_players = 2
    seat_names = ("Black", "White")
    options = (
        Option("length", 11, tuple(range(7, 27)), "number of points on the line"),
    )

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> AlakState:
        length = options["length"]
        return AlakState(
            players=players,
            seed=seed,
            length=length,
            board=(EMPTY,) * length,
            to_move=0,
            banned=frozenset(),
            captures=(0, 0),
            ply=0,
        )

    def _legal_moves(self, state: AlakState) -> list[AlakMove]:
        banned = state.banned
        return [
            AlakMove(p)
            for p, value in enumerate(state.board)
            if value == EMPTY and p not in banned
        ]

    def _parse(self, text: str, state: AlakState | None) -> AlakMove:
        if len(text) != 1 or text not in LETTERS:
            raise IllegalMove(f"{text!r} is not a point: type a letter such as a, b, c")
        return AlakMove(LETTERS.index(text))

    def _play(self, state: AlakState, move: AlakMove) -> AlakState:
        if not isinstance(move, AlakMove):
            raise IllegalMove("not an Alak move")
        p = move.point
        if not 0 <= p < state.length:
            raise IllegalMove(f"there is no point {move} on a line of {state.length}")
        if state.board[p] != EMPTY:
            raise IllegalMove(f"point {move} is already taken")
        if p in state.banned:
            raise IllegalMove(f"a stone was just captured on {move}: you may not play there now")
        seat = state.to_move
        enemy = 1 - seat
        board = list(state.board)
        board[p] = seat
        # Only enemy groups next to the new stone can lose their last liberty to it; our own
        # group is never removed (suicide is allowed and the group is then "safe").
        doomed = capture_dead_enemies(board, _adjacency(state.length), (p,), enemy)
        captures = list(state.captures)
        captures[seat] += len(doomed)
        after = replace(
            state,
            board=tuple(board),
            to_move=enemy,
            banned=frozenset(doomed),
            captures=(captures[0], captures[1]),
            ply=state.ply + 1,
            last_move=move,
        )
        if not self._legal_moves(after):
            after = replace(after, to_move=None, outcome=_outcome(after.board))
        return after

    def dump(self, state: AlakState) -> dict:
        return {
            "game": self.name,
            "players": state.players,
            "seed": state.seed,
            "length": state.length,
            "board": "".join("." if v == EMPTY else "bw"[v] for v in state.board),
            "to_move": state.to_move,
            "banned": sorted(state.banned),
            "captures": list(state.captures),
            "ply": state.ply,
            "last_move": None if state.last_move is None else str(state.last_move),
            "outcome": dump_outcome(state.outcome),
        }

    def load(self, data: dict) -> AlakState:
        cells = {".": EMPTY, "b": 0, "w": 1}
        last = data.get("last_move")
        return AlakState(
            players=data["players"],
            seed=data["seed"],
            length=data["length"],
            board=tuple(cells[c] for c in data["board"]),
            to_move=data["to_move"],
            banned=frozenset(data["banned"]),
            captures=tuple(data["captures"]),
            ply=data["ply"],
            outcome=load_outcome(data.get("outcome")),
            last_move=None if last is None else AlakMove(LETTERS.index(last)),
        )


def _outcome(board: tuple[int, ...]) -> Outcome:
    black = board.count(0)
    white = board.count(1)
    if black > white:
        winners, reason = frozenset({0}), f"Black wins {black} stones to {white}"
    elif white > black:
        winners, reason = frozenset({1}), f"White wins {white} stones to {black}"
    else:
        winners, reason = frozenset(), f"draw, {black} stones each"
    return Outcome(winners, (float(black), float(white)), reason)


GAME = register(Alak())
