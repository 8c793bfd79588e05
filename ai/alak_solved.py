"""Alak solved exactly on short lines: the win, draw or loss of every position reachable from
the empty line, for the side to move, with perfect play by both sides.

Method: retrograde analysis. Every position reachable from the empty line is enumerated
forwards (the rules of ``ai.alak.Rules``, written here on bit masks); the positions where the
player to move has no legal point are decided by the stone count; then the values flow
backwards: a position is won when some move leads to a position lost for the opponent, and lost
when every move leads to one won for the opponent (each position counts its moves not yet
known to be won for the opponent). Captures empty points again, so the game graph has cycles:
the positions left undecided when nothing more flows are those from which neither side can
force the game to end in its favour, and they are **draws** (either side can keep the game
going, or steer it to a drawn end, rather than lose).

From the empty line of 8 to 12 points the game is a draw, every first move included, and
of this kind (checked from 8 to 11 points): neither side can force it to a finished position
that it does not lose. That is also why the AI levels do not play from this table: a player
that only keeps the draw lets the game go on for ever.

A position is stored from the mover's side (its stones, the opponent's, the points banned by
the last capture): the colours do not matter, only who is to move, which halves the table.

Where the evaluation gets the table: it is solved once per process on first use and kept
(``table``), for lengths up to ``SOLVED_UP_TO``. Solving the default 11-point line takes about
1.3 s of one core and 50 MB while it runs, and keeps 2 MB (12 points: 5.4 s and 140 MB, hence
the cut-off; bench/README.md); a review's positions are evaluated in the heavy worker processes,
so the cost is paid once per worker rather than per position, and a file cache or package data
would add a format, a version and an invalidation to save those seconds. Longer lines (up to
26 points, where the count of positions grows about 3.3 times per point) keep the search.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from dataclasses import dataclass

from ai.alak import RULES, Position
from engines.graphgo import EMPTY

#: The longest line solved exactly (longer lines are left to the search).
SOLVED_UP_TO = 11

#: Values for the side to move.
WIN, DRAW, LOSS = 1, 0, -1
_UNKNOWN = 2


def _play(mine: int, theirs: int, p: int, n: int) -> tuple[int, int, int]:
    """(the opponent's stones, the mover's stones after the move, the points captured) when the
    mover puts a stone on ``p``: the next position from its new mover's side."""
    mine |= 1 << p
    taken = 0
    q = p - 1
    while q >= 0 and theirs >> q & 1:
        q -= 1
    if q < p - 1 and (q < 0 or (mine | theirs) >> q & 1):
        taken |= ((1 << (p - 1 - q)) - 1) << (q + 1)
    q = p + 1
    while q < n and theirs >> q & 1:
        q += 1
    if q > p + 1 and (q >= n or (mine | theirs) >> q & 1):
        taken |= ((1 << (q - p - 1)) - 1) << (p + 1)
    return theirs & ~taken, mine, taken


@dataclass(frozen=True)
class Solution:
    """Every position reachable from the empty line of ``length`` points, with its value for
    the side to move (``WIN``, ``DRAW`` or ``LOSS``)."""

    length: int
    #: The positions' keys (``mine | theirs << n | banned << 2n``), sorted.
    keys: array
    #: ``values[i]`` is the value of ``keys[i]`` plus one (0 loss, 1 draw, 2 win).
    values: bytes

    def __len__(self) -> int:
        return len(self.keys)

    def key(self, pos: Position) -> int:
        n = self.length
        if len(pos.board) != n:
            raise ValueError(f"a position of {len(pos.board)} points, not {n}")
        mine = theirs = banned = 0
        for p, v in enumerate(pos.board):
            if v == pos.to_move:
                mine |= 1 << p
            elif v != EMPTY:
                theirs |= 1 << p
        for p in pos.banned:
            banned |= 1 << p
        return mine | theirs << n | banned << 2 * n

    def value(self, pos: Position) -> int:
        """The value of ``pos`` for its side to move; KeyError when it is not reachable from
        the empty line."""
        key = self.key(pos)
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            raise KeyError("a position not reachable from the empty line")
        return self.values[i] - 1


def keeping(solved: Solution, pos: Position, moves: list[int]) -> list[int]:
    """The moves of ``moves`` (legal in ``pos``, not over) that keep the value of ``pos``, in
    their order."""
    value = solved.value(pos)
    return [p for p in moves if -solved.value(RULES.play(pos, p)) == value]


def solve(length: int) -> Solution:
    """Solve Alak on a line of ``length`` points (see the module docstring)."""
    n = length
    full = (1 << n) - 1
    mask = full
    index: dict[int, int] = {0: 0}
    order = [0]
    # The moves of each position, as indices into ``order`` (first[i]..first[i + 1]).
    first = array("l", [0])
    targets = array("l")
    i = 0
    while i < len(order):
        key = order[i]
        mine, theirs, banned = key & mask, key >> n & mask, key >> 2 * n
        free = full & ~(mine | theirs | banned)
        p = 0
        while free:
            if free & 1:
                after_mine, after_theirs, taken = _play(mine, theirs, p, n)
                child = after_mine | after_theirs << n | taken << 2 * n
                j = index.get(child)
                if j is None:
                    j = index[child] = len(order)
                    order.append(child)
                targets.append(j)
            free >>= 1
            p += 1
        first.append(len(targets))
        i += 1
    del index
    count = len(order)
    # Predecessors, and each position's moves not yet known to lose.
    pending = array("l", (first[k + 1] - first[k] for k in range(count)))
    starts = array("l", bytes(8 * (count + 1)))
    for j in targets:
        starts[j + 1] += 1
    for k in range(count):
        starts[k + 1] += starts[k]
    fill = array("l", starts)
    parents = array("l", bytes(8 * len(targets)))
    for k in range(count):
        for e in range(first[k], first[k + 1]):
            j = targets[e]
            parents[fill[j]] = k
            fill[j] += 1
    del fill, targets, first
    values = bytearray([_UNKNOWN + 1]) * count
    queue: list[int] = []
    for k in range(count):
        if pending[k] == 0:
            key = order[k]
            mine = (key & mask).bit_count()
            theirs = (key >> n & mask).bit_count()
            values[k] = (WIN if mine > theirs else LOSS if mine < theirs else DRAW) + 1
            queue.append(k)
    unknown = _UNKNOWN + 1
    while queue:
        j = queue.pop()
        lost = values[j] == LOSS + 1
        won = values[j] == WIN + 1
        if not (lost or won):
            continue
        for e in range(starts[j], starts[j + 1]):
            k = parents[e]
            if values[k] != unknown:
                continue
            if lost:
                values[k] = WIN + 1
                queue.append(k)
            else:
                pending[k] -= 1
                if pending[k] == 0:
                    values[k] = LOSS + 1
                    queue.append(k)
    # What nothing decided: neither side can force a favourable end.
    draw = DRAW + 1
    ranked = sorted(range(count), key=order.__getitem__)
    keys = array("q", (order[k] for k in ranked))
    return Solution(length, keys,
                    bytes(draw if values[k] == unknown else values[k] for k in ranked))


_tables: dict[int, Solution] = {}
_lock = threading.Lock()


def table(length: int) -> Solution | None:
    """The solution of the ``length``-point line, solved on first use and kept for the
    process; None beyond ``SOLVED_UP_TO``."""
    if length > SOLVED_UP_TO:
        return None
    with _lock:
        found = _tables.get(length)
        if found is None:
            found = _tables[length] = solve(length)
        return found
