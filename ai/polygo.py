"""Polygo AI: Monte Carlo tree search with tactical playouts.

Why this method: Polygo is Go with walls on a 121-cell star. As in Go, no cheap evaluation says
who owns what before the end, while random games played to the end measure it well: MCTS is the
method that made computer Go work, and it needs no evaluation. The playouts are not uniform:
they never fill their own eyes (that would kill every group), and after each move they look at
the groups next to it and capture whatever can be taken in one turn — in Polygo a stone and the
walls beside it can take *all* the liberties of a group that lie around one cell, so a group can
die from two or three liberties, not just one. Playouts end when neither side has a sensible
move and are scored by area (stones plus surrounded cells): filling one's own territory, which
random playouts do, changes the area but not the difference between the two sides the way it
would change a territory count.

The tree's moves are the legal lone stones (not in our own eyes), the capturing turns with
walls found as above, and ``pass``; a node after two passes is scored by the real rule
(territory minus prisoners, every stone alive), so the search learns to capture dead stones
before passing. The tree is plain UCT; RAVE (statistics borrowed from the playouts where the
same player played the same point later on) was tried and lost to plain UCT with a third of
the playouts, so only the scoring phase's quick win estimate uses it.

The search's rewards are wins and losses only, so in a decided game (won or lost) every turn
looks the same and a pass could come first while points are still to be had (issue 30: a hint
said "nothing is left to gain" at move 61 of 155). The medium and hard levels therefore never
pass while a turn could change the count (``useful_points``: an open area bordered by both
colours, a group of either side two turns from capture, a capture in one turn) — they play
the search's best such turn instead — nor while a capture is only forbidden by the ko (they
play elsewhere first, if need be in their own territory where it costs no group its life).

The scoring phase (after two passes) is decided directly: accept when the count with the
current marks is a win or a draw; take back our groups the opponent marked dead; otherwise
resume play if the search expects play to help, else accept.

The search runs on its own mutable board (a list of ints and the engine's adjacency); tests
check its turns and captures against the engine over thousands of random positions.

Levels: ``easy`` plays the playout policy; ``medium`` runs UCT for 0.3 s; ``hard`` for 1 s
(three times the playouts).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ai import mcts
from ai.core import Decision, Reason, budget_for, reason, work
from engines.graphgo import (
    EMPTY,
    WALL,
    capture_dead_enemies,
    group_and_liberties,
)
from engines.polygo import (
    ACCEPT,
    ALIVE,
    PASS,
    RESUME,
    SCORING,
    STONE,
    PolygoMove,
    PolygoState,
    geometry,
    score,
)

#: Tree-search iterations (one playout each) per second of one core of the reference machine.
ITERATIONS_PER_S = 350
#: RAVE weight (see ai.mcts.search).
RAVE = 300.0
#: A playout stops after this many moves past its start (it is then scored as it stands).
PLAYOUT_LIMIT = 300

#: Moves of the search: () is a pass, otherwise (stone, *walls).
Turn = tuple[int, ...]
PASS_TURN: Turn = ()


class Board:
    """A Polygo position for the search, changed in place (``copy`` before branching).

    ``cells`` holds EMPTY, WALL or a seat per point; ``captured[s]`` counts the stones of seat s
    taken so far; ``previous`` is the board after the mover's own previous turn (the ko
    reference, as in the engine)."""

    __slots__ = ("adjacency", "captured", "cells", "passes", "previous", "to_move")

    def __init__(self, adjacency: Sequence[Sequence[int]], cells: list[int], to_move: int,
                 passes: int, previous: list[int] | None, captured: list[int]) -> None:
        self.adjacency = adjacency
        self.cells = cells
        self.to_move = to_move
        self.passes = passes
        self.previous = previous
        self.captured = captured

    @classmethod
    def from_view(cls, view: PolygoState) -> Board:
        geo = geometry(view.board_kind)
        previous = None if view.previous_board is None else list(view.previous_board)
        # captures[s] in the engine counts the stones seat s took, so the stones of seat s
        # taken are the other seat's captures.
        return cls(geo.adjacency, list(view.board), view.to_move, view.passes, previous,
                   [view.captures[1], view.captures[0]])

    def copy(self) -> Board:
        return Board(self.adjacency, self.cells.copy(), self.to_move, self.passes,
                     self.previous, self.captured.copy())

    # ----- groups (the engine's liberty core, on our list) -----------------------------------

    def group(self, start: int) -> tuple[set[int], set[int]]:
        """The stones of the group on ``start`` and its liberties."""
        return group_and_liberties(self.cells, self.adjacency, start)

    def has_liberty(self, start: int) -> bool:
        """Whether the group on ``start`` touches an empty point (stops at the first one)."""
        cells, adjacency = self.cells, self.adjacency
        colour = cells[start]
        seen = {start}
        stack = [start]
        while stack:
            for n in adjacency[stack.pop()]:
                v = cells[n]
                if v == EMPTY:
                    return True
                if v == colour and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return False

    def _capture_around(self, points: Sequence[int], enemy: int) -> int:
        return len(capture_dead_enemies(self.cells, self.adjacency, points, enemy))

    # ----- turns ---------------------------------------------------------------------------

    def play(self, turn: Turn) -> bool:
        """Play ``turn`` for the side to move; False (and the board unchanged) if illegal.
        The same order as the engine: stone, captures, walls, captures, own liberties, ko."""
        seat = self.to_move
        if not turn:
            self.passes += 1
            self.previous = self.cells.copy()
            self.to_move = 1 - seat
            return True
        cells = self.cells
        stone = turn[0]
        if cells[stone] != EMPTY:
            return False
        before = cells.copy()
        enemy = 1 - seat
        cells[stone] = seat
        taken = self._capture_around((stone,), enemy)
        walls = turn[1:]
        if walls:
            around = self.adjacency[stone]
            for w in walls:
                if w not in around or cells[w] != EMPTY:
                    self.cells = before
                    return False
            for w in walls:
                cells[w] = WALL
            taken += self._capture_around(walls, enemy)
        legal = self.has_liberty(stone)
        if legal and walls:
            adjacency = self.adjacency
            legal = all(cells[n] != seat or self.has_liberty(n)
                        for w in walls for n in adjacency[w])
        if legal and taken and cells == self.previous:
            legal = False
        if not legal:
            self.cells = before
            return False
        self.captured[enemy] += taken
        self.previous = before
        self.passes = 0
        self.to_move = enemy
        return True

    def is_own_eye(self, p: int, seat: int) -> bool:
        """An empty point whose neighbours are all ``seat``'s stones or walls."""
        cells = self.cells
        return all(cells[n] == seat or cells[n] == WALL for n in self.adjacency[p])

    def capture_turns(self, group_point: int) -> list[Turn]:
        """Turns of the side to move that take every liberty of the enemy group on
        ``group_point`` at once: a stone on one liberty and walls on the others next to it."""
        _, liberties = self.group(group_point)
        if len(liberties) > 6:
            return []
        found = []
        adjacency = self.adjacency
        for c in sorted(liberties):
            rest = liberties - {c}
            if rest <= set(adjacency[c]):
                found.append((c, *sorted(rest)))
        return found

    # ----- counting ------------------------------------------------------------------------

    def area(self) -> tuple[int, int]:
        """Stones plus the empty regions bordered by one colour only, per seat."""
        cells = self.cells
        totals = [cells.count(0), cells.count(1)]
        for region, borders in self.empty_regions():
            if borders == 1:
                totals[0] += len(region)
            elif borders == 2:
                totals[1] += len(region)
        return (totals[0], totals[1])

    def empty_regions(self) -> list[tuple[list[int], int]]:
        """Every empty region (walls aside) with the colours bordering it, as a bit set
        (1 << seat): what counting, eyes and open areas are all read from."""
        cells, adjacency = self.cells, self.adjacency
        regions: list[tuple[list[int], int]] = []
        seen: set[int] = set()
        for start, v in enumerate(cells):
            if v != EMPTY or start in seen:
                continue
            seen.add(start)
            region = [start]
            borders = 0
            for p in region:
                for n in adjacency[p]:
                    w = cells[n]
                    if w == EMPTY:
                        if n not in seen:
                            seen.add(n)
                            region.append(n)
                    elif w >= 0:
                        borders |= 1 << w
            regions.append((region, borders))
        return regions

    def counted(self) -> tuple[int, int]:
        """The real count with every stone alive: territory minus the stones lost."""
        area = self.area()
        cells = self.cells
        return (area[0] - cells.count(0) - self.captured[0],
                area[1] - cells.count(1) - self.captured[1])


def _result(scores: tuple[int, int]) -> tuple[float, float]:
    if scores[0] > scores[1]:
        return (1.0, 0.0)
    if scores[1] > scores[0]:
        return (0.0, 1.0)
    return (0.5, 0.5)


def policy_turn(board: Board, last: Turn, rng: random.Random, empties: list[int]) -> Turn:
    """The playout policy: capture around the last move when possible, else a random point
    that is not one of our eyes; a pass when nothing is left. ``empties`` is a scratch list of
    candidate points (shuffled and pruned in place)."""
    seat = board.to_move
    cells = board.cells
    enemy = 1 - seat
    if last:
        adjacency = board.adjacency
        checked: set[int] = set()
        for p in last:
            for n in adjacency[p]:
                if cells[n] == enemy and n not in checked:
                    stones, liberties = board.group(n)
                    checked.update(stones)
                    if len(liberties) <= 3:
                        for turn in board.capture_turns(n):
                            if board.copy().play(turn):
                                return turn
    while empties:
        i = rng.randrange(len(empties))
        p = empties[i]
        if cells[p] != EMPTY or board.is_own_eye(p, seat):
            empties[i] = empties[-1]
            empties.pop()
            continue
        trial_ok = _quick_legal(board, p)
        if trial_ok:
            return (p,)
        empties[i] = empties[-1]
        empties.pop()
    return PASS_TURN


def _quick_legal(board: Board, p: int) -> bool:
    """Whether a lone stone on ``p`` is legal (mostly without copying the board)."""
    cells = board.cells
    for n in board.adjacency[p]:
        if cells[n] == EMPTY:
            return True
    trial = board.copy()
    return trial.play((p,))


class Search:
    """The ``mcts.Game`` of Polygo's play phase on (board, last turn) pairs. Playouts report
    the points they played, for RAVE (``amaf_key``: a turn's stone)."""

    amaf = True

    @staticmethod
    def amaf_key(turn: Turn) -> int | None:
        return turn[0] if turn else None

    def to_move(self, node: tuple[Board, Turn]) -> int:
        return node[0].to_move

    def moves(self, node: tuple[Board, Turn]) -> list[Turn]:
        return tree_turns(node[0])

    def play(self, node: tuple[Board, Turn], turn: Turn, rng: random.Random):
        board = node[0].copy()
        board.play(turn)
        return (board, turn)

    def rewards(self, node: tuple[Board, Turn]) -> tuple[float, float] | None:
        board = node[0]
        if board.passes >= 2:
            return _result(board.counted())
        return None

    def playout(self, node: tuple[Board, Turn], rng: random.Random):
        board, last = node[0].copy(), node[1]
        played: list[tuple[int, int]] = []
        empties = [p for p, v in enumerate(board.cells) if v == EMPTY]
        passes = board.passes
        for _ in range(PLAYOUT_LIMIT):
            turn = policy_turn(board, last, rng, empties)
            if turn:
                played.append((board.to_move, turn[0]))
                taken = board.captured[1 - board.to_move]
                board.play(turn)
                passes = 0
                if board.captured[board.to_move] != taken:
                    # Captured points are empty again: candidates once more.
                    before = board.previous
                    empties.extend(p for p, v in enumerate(board.cells)
                                   if v == EMPTY and before[p] != EMPTY)
            else:
                board.play(PASS_TURN)
                passes += 1
                if passes >= 2:
                    break
                empties = [p for p, v in enumerate(board.cells) if v == EMPTY]
            last = turn
        return _result(board.area()), played


SEARCH = Search()


def tree_turns(board: Board) -> list[Turn]:
    """The turns the tree considers: every legal lone stone except in our own eyes, every
    capturing turn with walls, and pass."""
    seat = board.to_move
    cells = board.cells
    turns: list[Turn] = []
    for p, v in enumerate(cells):
        if v == EMPTY and (not board.is_own_eye(p, seat) or _saves_in_eye(board, p, seat)) \
                and _quick_legal(board, p):
            turns.append((p,))
    seen_groups: set[int] = set()
    for p, v in enumerate(cells):
        if v == 1 - seat and p not in seen_groups:
            stones, _ = board.group(p)
            seen_groups.update(stones)
            for turn in board.capture_turns(p):
                if len(turn) > 1 and board.copy().play(turn):
                    turns.append(turn)
    turns.append(PASS_TURN)
    return turns


def _saves_in_eye(board: Board, p: int, seat: int) -> bool:
    """Whether ``p``, one of our eyes, is the last liberty of a group of ours (filling it
    may join that group to the others around the eye)."""
    cells = board.cells
    return any(cells[n] == seat and board.group(n)[1] == {p} for n in board.adjacency[p])


def turn_text(turn: Turn, kind: str) -> str:
    if not turn:
        return PASS
    return str(PolygoMove(STONE, (turn[0], *sorted(turn[1:])), kind))


def decide(view: PolygoState, seat: int, level: str, rng: random.Random,
           budget_s: float | None) -> Decision:
    budget = budget_for(level, budget_s)
    if view.phase == SCORING:
        return _scoring_decision(view, seat, level, rng, budget)
    board = Board.from_view(view)
    turn = _play_turn(board, level, rng, budget)
    return Decision(turn_text(turn, view.board_kind), explain(board, turn))


def _play_turn(board: Board, level: str, rng: random.Random, budget: float) -> Turn:
    if level == "easy":
        empties = [p for p, v in enumerate(board.cells) if v == EMPTY]
        return policy_turn(board, (), rng, empties)
    iterations = work(budget, ITERATIONS_PER_S)
    # Plain UCT at both levels: measured, medium's plain UCT beat hard with RAVE (5 of 8 games
    # at 0.3 s against 1 s), the borrowed statistics misranking moves whose value depends on
    # when they are played (a capture, an eye). Hard differs by its playouts (three times more).
    stats = mcts.search(SEARCH, lambda r: (board, ()), iterations, rng)
    if stats[0].move != PASS_TURN:
        return stats[0].move
    # The search rewards wins only: in a decided game (or a lost one) every turn looks the
    # same and a pass may come first while points are still to be had. Never pass while a
    # turn could change the score: play the search's best turn among those that can.
    useful = useful_points(board)
    anywhere = ko_blocks_capture(board)
    for entry in stats:
        if entry.move and (anywhere or entry.move[0] in useful or len(entry.move) > 1):
            return entry.move
    if anywhere:
        # Only our own territory is left: a stone there costs a point, the capture the ko
        # forbids now is worth more (the stone and its point), so lift the ban with it.
        spare = _spare_point(board)
        if spare is not None:
            return (spare,)
    return PASS_TURN


def ko_blocks_capture(board: Board) -> bool:
    """Whether the side to move could capture but for the ko: then any turn elsewhere lifts
    the ban (a pass would too, but it would also let the opponent close the ko)."""
    seat = board.to_move
    seen: set[int] = set()
    free = board.copy()
    free.previous = None
    for p, v in enumerate(board.cells):
        if v != 1 - seat or p in seen:
            continue
        stones, liberties = board.group(p)
        seen.update(stones)
        if len(liberties) > 3:
            continue
        for turn in board.capture_turns(p):
            if not board.copy().play(turn) and free.copy().play(turn):
                return True
    return False


def _spare_point(board: Board) -> int | None:
    """A point of our own territory whose filling leaves every group of ours beside it at
    least two separate eyes (regions bordered by our stones only), so it costs a point and no
    life; the first such point, or None."""
    seat = board.to_move
    for p in _own_regions(board, seat):
        trial = board.copy()
        if not trial.play((p,)):
            continue
        regions = _own_regions(trial, seat)
        _, liberties = trial.group(p)
        if len({regions[q] for q in liberties if q in regions}) >= 2:
            return p
    return None


def _own_regions(board: Board, seat: int) -> dict[int, int]:
    """Empty point -> region number, for the empty regions bordered by ``seat``'s stones
    only (walls aside)."""
    out: dict[int, int] = {}
    for region, borders in board.empty_regions():
        if borders == 1 << seat:
            for p in region:
                out[p] = region[0]
    return out


def useful_points(board: Board) -> set[int]:
    """Points where a stone of the side to move may still change the final count: the empty
    regions of two points or more bordered by both colours (open areas, where either side can
    still make territory), and every liberty of a group of either side with two liberties or
    fewer, or that could be taken in one turn (a capture gains prisoners; saving one's own
    group keeps them). Any other lone empty point between both colours (a dame) changes
    nothing."""
    cells = board.cells
    seat = board.to_move
    useful: set[int] = set()
    for region, borders in board.empty_regions():
        if borders == 3 and len(region) >= 2:
            useful.update(region)
    groups_seen: set[int] = set()
    for p, v in enumerate(cells):
        if v < 0 or p in groups_seen:
            continue
        stones, liberties = board.group(p)
        groups_seen.update(stones)
        if len(liberties) > 3:
            continue
        if len(liberties) <= 2:
            # Two turns from being taken: a dead group left on the board counts as alive
            # (no one marks it dead when the AI scores), a living one may need a defence.
            useful.update(liberties)
        elif v != seat:
            for turn in board.capture_turns(p):
                if board.copy().play(turn):
                    useful.update(liberties)
                    break
        else:
            # Could the opponent take this group next turn? Then its liberties matter.
            other = board.copy()
            other.to_move = 1 - seat
            other.previous = None
            if any(other.copy().play(turn) for turn in other.capture_turns(p)):
                useful.update(liberties)
    return useful


def _win_chance(board: Board, rng: random.Random, budget: float) -> float:
    """The chance of the side *not* to move, by the search from the opponent's point of view
    (after a resume the opponent moves first): one minus their best move's mean."""
    iterations = work(budget, ITERATIONS_PER_S)
    stats = mcts.search(SEARCH, lambda r: (board, ()), iterations, rng, rave=RAVE)
    return 1.0 - stats[0].mean


def _scoring_decision(view: PolygoState, seat: int, level: str, rng: random.Random,
                      budget: float) -> Decision:
    counted = score(view).points
    mine, theirs = counted[seat], counted[1 - seat]
    if mine >= theirs:
        return Decision(ACCEPT, reason("polygo.accept", points=mine, other=theirs))
    ours_dead = sorted(p for p in view.dead if view.board[p] == seat)
    if ours_dead:
        return Decision(str(PolygoMove(ALIVE, tuple(ours_dead), view.board_kind)),
                        reason("polygo.alive"))
    # Resuming gives the opponent the move; play on only if that still looks better.
    board = Board.from_view(view)
    board.to_move = 1 - seat
    board.passes = 0
    if level != "easy" and _win_chance(board, rng, budget / 2) > 0.5:
        return Decision(RESUME, reason("polygo.resume"))
    return Decision(ACCEPT, None)


def reason_for(view: PolygoState, seat: int, move: PolygoMove) -> Reason | None:
    if view.phase == SCORING:
        return None
    turn = () if move.kind == PASS else move.cells
    return explain(Board.from_view(view), turn)


def explain(board: Board, turn: Turn) -> Reason | None:
    if not turn:
        return reason("polygo.pass")
    after = board.copy()
    seat = board.to_move
    taken_before = after.captured[1 - seat]
    if not after.play(turn):
        return None
    taken = after.captured[1 - seat] - taken_before
    if taken:
        return reason("captures", count=taken)
    return None
