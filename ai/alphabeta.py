"""Minimax with alpha-beta pruning, iterative deepening and a transposition table, sized by a
count of nodes rather than by the clock.

Values are from the point of view of the root player: the side to move maximises when it is the
root player and minimises otherwise, so games where a player may move twice in a row (Palam's
loser of a duel moves next) need no special case. When the node budget runs out in the middle of
an iteration, the search keeps the best move of the deepest finished iteration, or a root move of
the unfinished one that was proven better; either way the answer depends on the node count only.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

Position = TypeVar("Position")
MoveT = TypeVar("MoveT")

#: Terminal values are WIN + margin (or -WIN - margin); evaluations stay far below WIN.
WIN = 10_000.0
_EXACT, _LOWER, _UPPER = 0, 1, 2


class Rules(Protocol[Position, MoveT]):
    """What the search needs from a game's fast representation."""

    def moves(self, pos: Position) -> Sequence[MoveT]:
        """Legal moves, best first if the game can guess (ordering speeds the pruning)."""

    def play(self, pos: Position, move: MoveT) -> Position: ...

    def to_move(self, pos: Position) -> int: ...

    def terminal(self, pos: Position, root: int) -> float | None:
        """The value of a finished game for ``root`` (±WIN plus a margin), None if it runs."""

    def evaluate(self, pos: Position, root: int) -> float:
        """A heuristic value for ``root`` of a running position, within ±WIN/2."""

    def key(self, pos: Position) -> Hashable:
        """Identifies the position for the transposition table."""


class _OutOfNodes(Exception):
    pass


@dataclass
class Result(Generic[MoveT]):
    move: MoveT
    value: float
    depth: int
    nodes: int
    #: Every root move with its value at the deepest finished iteration, best first (values
    #: below the best are upper bounds unless the search was made with ``exact_root``).
    scores: list[tuple[MoveT, float]]

    #: Whether the deepest iteration reached the end of the game on every line it followed,
    #: so ``value`` (and every score, with ``exact_root``) is the game's exact result.
    complete: bool = False

    def near_best(self, margin: float) -> list[MoveT]:
        """The root moves valued within ``margin`` of the best (exactly so when the search was
        made with a ``tie_margin`` of at least ``margin``, or with ``exact_root``)."""
        return [m for m, v in self.scores if v > self.value - margin]


class AlphaBeta(Generic[Position, MoveT]):
    def __init__(self, rules: Rules[Position, MoveT], node_limit: int, max_depth: int = 64,
                 exact_root: bool = False, tie_margin: float = 0.0) -> None:
        self.rules = rules
        self.node_limit = node_limit
        self.max_depth = max_depth
        #: Search every root move with a full window, so ``Result.scores`` are exact values
        #: (slower; for levels that choose among near-best moves, and for tests), and keep
        #: deepening after a proven win until every root move is valued.
        self.exact_root = exact_root
        #: Search the root moves with the window lowered by this much below the best so far,
        #: so every move worth nearly as much as the best gets its exact value
        #: (``Result.near_best``).
        self.tie_margin = tie_margin
        self.nodes = 0
        #: key -> (depth, value, bound, best move, whether the value rests on evaluations)
        self.table: dict[Hashable, tuple[int, float, int, Any, bool]] = {}
        self._horizon = False

    def search(self, root: Position, moves: Sequence[MoveT] | None = None) -> Result[MoveT]:
        """Deepen one ply at a time until the node budget or ``max_depth`` is reached, or the
        root is solved. ``moves`` restricts (and orders) the root moves."""
        rules = self.rules
        me = rules.to_move(root)
        order = list(moves if moves is not None else rules.moves(root))
        if not order:
            raise ValueError("no legal move to search")
        best = Result(order[0], 0.0, 0, 0, [(m, 0.0) for m in order])
        if len(order) == 1:
            return best
        for depth in range(1, self.max_depth + 1):
            self._horizon = False
            scores: list[tuple[MoveT, float]] = []
            alpha = -float("inf")
            try:
                for move in order:
                    value = self._value(rules.play(root, move), depth - 1, alpha, float("inf"),
                                        me)
                    scores.append((move, value))
                    if value - self.tie_margin > alpha and not self.exact_root:
                        alpha = value - self.tie_margin
            except _OutOfNodes:
                # A finished root move that beats the previous iteration's choice is proven
                # at least as good at this depth; the rest of the iteration is lost.
                if scores:
                    top_move, top_value = max(scores, key=lambda s: s[1])
                    if top_move != best.move and top_value > best.value:
                        best = Result(top_move, top_value, best.depth, self.nodes, best.scores)
                best.nodes = self.nodes
                return best
            # Stable sort: equal values keep the previous order (the best of the last iteration
            # first), so the choice does not flip between equal moves.
            scores.sort(key=lambda s: -s[1])
            best = Result(scores[0][0], scores[0][1], depth, self.nodes, scores,
                          complete=not self._horizon)
            order = [m for m, _ in scores]
            if best.complete or (best.value >= WIN / 2 and not self.exact_root):
                break  # the whole tree was searched to its ends, or a win is proven
        best.nodes = self.nodes
        return best

    def _value(self, pos: Position, depth: int, alpha: float, beta: float, me: int) -> float:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _OutOfNodes
        rules = self.rules
        end = rules.terminal(pos, me)
        if end is not None:
            return end
        if depth <= 0:
            self._horizon = True
            return rules.evaluate(pos, me)
        key = rules.key(pos)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            stored_depth, stored, flag, hint, horizon = entry
            if stored_depth >= depth and (
                flag == _EXACT
                or (flag == _LOWER and stored >= beta)
                or (flag == _UPPER and stored <= alpha)
            ):
                self._horizon = self._horizon or horizon
                return stored
        moves = rules.moves(pos)
        if hint is not None and hint in moves:
            moves = [hint, *(m for m in moves if m != hint)]
        maximising = rules.to_move(pos) == me
        outer_horizon = self._horizon
        self._horizon = False
        start_alpha, start_beta = alpha, beta
        best_move = None
        if maximising:
            value = -float("inf")
            for move in moves:
                v = self._value(rules.play(pos, move), depth - 1, alpha, beta, me)
                if v > value:
                    value, best_move = v, move
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            value = float("inf")
            for move in moves:
                v = self._value(rules.play(pos, move), depth - 1, alpha, beta, me)
                if v < value:
                    value, best_move = v, move
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if value <= start_alpha:
            flag = _UPPER
        elif value >= start_beta:
            flag = _LOWER
        else:
            flag = _EXACT
        horizon = self._horizon
        self.table[key] = (depth, value, flag, best_move, horizon)
        self._horizon = outer_horizon or horizon
        return value
