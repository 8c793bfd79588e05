"""Alak AI: exact alpha-beta search.

Why this method: Alak is tiny (a line of 7 to 26 points, a handful of legal moves, games of a
few dozen plies), so a plain minimax with alpha-beta and a transposition table reaches the end
of the game from most positions within the budget, and plays the endings perfectly. Where the
tree is still too deep, the evaluation is the stone difference plus the stones that hang (an
enemy group with a single empty neighbour can be taken at once).

The search runs on its own representation (a tuple of ints and the banned points), a few times
faster than the engine's immutable state; tests/ai/test_alak.py plays both side by side over
thousands of random positions.

Levels: ``easy`` looks one move ahead and picks among the moves within a stone of the best;
``medium`` searches three plies and takes the best; ``hard`` deepens until the node budget is
spent or the game is solved.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

from ai.alphabeta import WIN, AlphaBeta
from ai.core import Decision, Reason, budget_for, reason, work
from engines.alak import LETTERS, AlakMove, AlakState
from engines.graphgo import EMPTY

#: Search nodes per second of one core of the reference machine (measured once).
NODES_PER_S = 190_000
#: Root moves within this many stones of the best, in a position not yet decided, count as
#: equal and are told apart by a shallow search (see ``decide``).
TIE_MARGIN = 0.5
TIE_NODES = 20_000


@dataclass(frozen=True, slots=True)
class Position:
    board: tuple[int, ...]
    to_move: int
    banned: tuple[int, ...]
    #: The game is over: the player to move has no legal point.
    over: bool = False


def from_view(view: AlakState) -> Position:
    return Position(view.board, view.to_move, tuple(sorted(view.banned)))


class Rules:
    """Alak on a tuple: the rules of RULES.md §1 written for speed."""

    def moves(self, pos: Position) -> list[int]:
        board, banned = pos.board, pos.banned
        points = [p for p, v in enumerate(board) if v == EMPTY and p not in banned]
        # Captures first: they decide most positions and cut the tree early.
        points.sort(key=lambda p: -self.captured_by(board, p, pos.to_move))
        return points

    @staticmethod
    def captured_by(board: tuple[int, ...], p: int, seat: int) -> int:
        """How many stones a stone of ``seat`` on ``p`` would capture."""
        enemy = 1 - seat
        n = len(board)
        taken = 0
        q = p - 1
        while q >= 0 and board[q] == enemy:
            q -= 1
        if q < p - 1 and (q < 0 or board[q] != EMPTY):
            taken += p - 1 - q
        q = p + 1
        while q < n and board[q] == enemy:
            q += 1
        if q > p + 1 and (q >= n or board[q] != EMPTY):
            taken += q - p - 1
        return taken

    def play(self, pos: Position, p: int) -> Position:
        board = list(pos.board)
        seat = pos.to_move
        enemy = 1 - seat
        n = len(board)
        board[p] = seat
        banned: list[int] = []
        # The enemy run to the left (then to the right) dies if its far end has no liberty:
        # its near end is the stone just placed.
        q = p - 1
        while q >= 0 and board[q] == enemy:
            q -= 1
        if q < p - 1 and (q < 0 or board[q] != EMPTY):
            banned.extend(range(q + 1, p))
        q = p + 1
        while q < n and board[q] == enemy:
            q += 1
        if q > p + 1 and (q >= n or board[q] != EMPTY):
            banned.extend(range(p + 1, q))
        for c in banned:
            board[c] = EMPTY
        after = tuple(board)
        over = not any(v == EMPTY and c not in banned for c, v in enumerate(after))
        return Position(after, enemy, tuple(banned), over)

    def to_move(self, pos: Position) -> int:
        return pos.to_move

    def terminal(self, pos: Position, root: int) -> float | None:
        if not pos.over:
            return None
        mine = pos.board.count(root)
        theirs = pos.board.count(1 - root)
        if mine == theirs:
            return 0.0
        margin = mine - theirs
        return WIN + margin if margin > 0 else -WIN + margin

    def evaluate(self, pos: Position, root: int) -> float:
        board = pos.board
        value = float(board.count(root) - board.count(1 - root))
        # The side to move can take its best capture at once.
        best = max((self.captured_by(board, p, pos.to_move)
                    for p, v in enumerate(board) if v == EMPTY and p not in pos.banned),
                   default=0)
        return value + (0.9 * best if pos.to_move == root else -0.9 * best)

    def key(self, pos: Position) -> Hashable:
        return (pos.board, pos.to_move, pos.banned)


RULES = Rules()


def decide(view: AlakState, seat: int, level: str, rng: random.Random,
           budget_s: float | None) -> Decision:
    pos = from_view(view)
    budget = budget_for(level, budget_s)
    moves = RULES.moves(pos)
    rng.shuffle(moves)
    moves.sort(key=lambda p: -Rules.captured_by(pos.board, p, seat))
    if level == "easy":
        result = AlphaBeta(RULES, work(budget, NODES_PER_S), max_depth=1,
                           exact_root=True).search(pos, moves)
        near = [m for m, v in result.scores if v >= result.value - 1.0]
        move = rng.choice(near)
    elif level == "medium":
        move = AlphaBeta(RULES, work(budget, NODES_PER_S), max_depth=3).search(pos, moves).move
    else:
        result = AlphaBeta(RULES, work(budget, NODES_PER_S), tie_margin=TIE_MARGIN).search(
            pos, moves)
        move = result.move
        ties = result.near_best(TIE_MARGIN)
        if len(ties) > 1 and abs(result.value) < WIN / 2:
            # Moves worth about the same at the search's horizon: keep the one that looks
            # best two plies ahead, which leaves a fallible opponent the fewest captures.
            move = AlphaBeta(RULES, TIE_NODES, max_depth=2, exact_root=True).search(
                pos, ties).move
    return Decision(LETTERS[move], explain(pos, move))


def reason_for(view: AlakState, seat: int, move: AlakMove) -> Reason | None:
    return explain(from_view(view), move.point)


def explain(pos: Position, point: int) -> Reason | None:
    taken = Rules.captured_by(pos.board, point, pos.to_move)
    if taken:
        return reason("captures", count=taken)
    after = RULES.play(pos, point)
    if after.over:
        mine = after.board.count(pos.to_move)
        theirs = after.board.count(1 - pos.to_move)
        if mine > theirs:
            return reason("alak.wins_now")
    # A stone that stops the opponent's best capture.
    threat = max((Rules.captured_by(pos.board, p, 1 - pos.to_move)
                  for p, v in enumerate(pos.board) if v == EMPTY), default=0)
    if threat and threat > max((Rules.captured_by(after.board, p, after.to_move)
                                for p, v in enumerate(after.board)
                                if v == EMPTY and p not in after.banned), default=0):
        return reason("alak.saves", count=threat)
    return None
