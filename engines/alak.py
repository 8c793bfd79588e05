"""Alak (A. K. Dewdney, 1984): Go on a line. RULES.md §1.

Notation: one letter per point, ``a`` at the left end. Seat 0 = Black moves first.

Speed: a position knows its legal moves. ``play`` has to find them anyway (the game ends when the
player to move has none), so it stores them in the new state and ``legal_moves`` returns them
without a second scan. Move objects are made once per point, and the board stays a plain tuple.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

from engines import register
from engines.core import (
    Game,
    IllegalMove,
    Move,
    Option,
    Outcome,
    dump_outcome,
    fast_init,
    higher_score_wins,
    load_outcome,
)
from engines.graphgo import EMPTY, capture_dead_enemies, line_adjacency
from engines.phrases import Phrase

LETTERS = "abcdefghijklmnopqrstuvwxyz"

@dataclass(frozen=True, slots=True)
class AlakMove(Move):
    point: int

    def __str__(self) -> str:
        return LETTERS[self.point]


#: One move object per point, shared by every position.
MOVES = tuple(AlakMove(p) for p in range(len(LETTERS)))


@fast_init
@dataclass(frozen=True, slots=True)
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
    #: The legal moves, derived from the fields above (so never compared): ``play`` fills it in,
    #: ``legal_moves`` computes it for states built any other way.
    legal: tuple[AlakMove, ...] | None = field(
        default=None, init=False, compare=False, repr=False
    )


#: Fills in a state's cache of legal moves (the field is frozen like the others).
_set_legal = AlakState.__dict__["legal"].__set__


#: The adjacency of every line a game may use, by length.
ADJACENCY = {length: line_adjacency(length) for length in range(1, len(LETTERS) + 1)}


NOTHING_BANNED: frozenset[int] = frozenset()


def _moves_on(board: tuple[int, ...], banned: Collection[int]) -> tuple[AlakMove, ...]:
    """The empty points of ``board`` that are not ``banned``, as moves in letter order."""
    moves = tuple(compress(MOVES, map(EMPTY.__eq__, board)))
    if banned:
        moves = tuple(move for move in moves if move.point not in banned)
    return moves


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
            banned=NOTHING_BANNED,
            captures=(0, 0),
            ply=0,
        )

    def _legal_moves(self, state: AlakState) -> tuple[AlakMove, ...]:
        moves = state.legal
        if moves is None:
            moves = _moves_on(state.board, state.banned)
            _set_legal(state, moves)  # a cache of derived data
        return moves

    def _parse(self, text: str, state: AlakState | None) -> AlakMove:
        if len(text) != 1 or text not in LETTERS:
            raise IllegalMove(Phrase("alak.not_a_point", text=text))
        return MOVES[LETTERS.index(text)]

    def _play(self, state: AlakState, move: AlakMove) -> AlakState:
        if move.__class__ is not AlakMove:
            raise IllegalMove(Phrase("illegal.wrong_game"))
        p = move.point
        board = list(state.board)
        if not 0 <= p < state.length:
            raise IllegalMove(Phrase("alak.no_such_point", point=str(move), length=state.length))
        if board[p] != EMPTY:
            raise IllegalMove(Phrase("alak.occupied", point=str(move)))
        if p in state.banned:
            raise IllegalMove(Phrase("alak.just_captured", point=str(move)))
        seat = state.to_move
        board[p] = seat
        # Only enemy groups next to the new stone can lose their last liberty to it; our own
        # group is never removed (suicide is allowed and the group is then "safe").
        doomed = capture_dead_enemies(board, ADJACENCY[state.length], (p,), 1 - seat)
        after_board = tuple(board)
        captures = state.captures
        if doomed:
            taken = len(doomed)
            captures = (captures[0] + taken, captures[1]) if seat == 0 else (
                captures[0], captures[1] + taken)
            banned = frozenset(doomed)
            # The points just freed are banned for the next move: the moves are the empty
            # points before this one, less p.
            moves = _moves_on(state.board, (p,))
        else:
            banned = NOTHING_BANNED
            if state.banned:
                # Points banned for this move are free again for the next one.
                moves = _moves_on(after_board, ())
            else:
                moves = self._legal_moves(state)
                i = moves.index(move)
                moves = moves[:i] + moves[i + 1:]
        if moves:
            after = AlakState(
                state.players, state.seed, state.length, after_board, 1 - seat, banned,
                captures, state.ply + 1, None, move,
            )
        else:
            after = AlakState(
                state.players, state.seed, state.length, after_board, None, banned, captures,
                state.ply + 1, _outcome(after_board, blocked=bool(banned)), move,
            )
        _set_legal(after, moves)
        return after

    def explain(self, state: AlakState, move: AlakMove) -> Phrase:
        """A capture is worth a sentence; any other move is just its letter (the bot then
        shows the move alone rather than the same thing twice)."""
        try:
            after = self.play(state, move)
        except IllegalMove:
            return Phrase("move.plain", move=str(move))
        taken = sum(after.captures) - sum(state.captures)
        if not taken:
            return Phrase("move.plain", move=str(move))
        return Phrase(
            "alak.plays_and_captures", seat=self.seat_phrase(state, state.to_move),
            point=str(move), count=taken,
        )

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
            last_move=None if last is None else MOVES[LETTERS.index(last)],
        )


def _outcome(board: tuple[int, ...], blocked: bool = False) -> Outcome:
    """The result on ``board``; ``blocked``: the game ended because every empty point was
    just captured (the outcome says so)."""
    points = (board.count(0), board.count(1))
    if blocked:
        return higher_score_wins(GAME, None, points, "alak.wins_blocked", "alak.draw_blocked")
    return higher_score_wins(GAME, None, points, "alak.wins", "alak.draw")


GAME = register(Alak())
