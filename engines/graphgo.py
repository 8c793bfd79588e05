"""The liberty/capture core of Go-like games on any adjacency graph (Alak's line, Polygo's
star and its other boards).

A board is a sequence of ints indexed by point: ``EMPTY``, ``WALL`` or the seat owning the stone.
``adjacency[p]`` lists the neighbours of point p. Walls are not points of play and never
liberties; they are kept on the board so that one array describes a whole position.

Two levels:

- Functions on a board and its adjacency lists (``capture_dead_enemies``, ``territories``...):
  simple, enough for Alak's short line and for counting a finished game.
- ``Graph`` and ``GoBoard`` for boards where speed matters (Polygo): a set of points is an int
  used as a bit mask, a grid board's neighbours are found for every point at once by shifting
  masks, and a ``GoBoard`` keeps every group with its stones and liberties as masks, updated
  from one position to the next instead of being flood-filled again at every move.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

EMPTY = -1
WALL = -2

Adjacency = Sequence[Sequence[int]]


def group_and_liberties(
    board: Sequence[int], adjacency: Adjacency, start: int
) -> tuple[set[int], set[int]]:
    """The group of stones connected to ``start`` and the empty points next to it."""
    colour = board[start]
    group = {start}
    liberties: set[int] = set()
    stack = [start]
    while stack:
        for n in adjacency[stack.pop()]:
            value = board[n]
            if value == colour:
                if n not in group:
                    group.add(n)
                    stack.append(n)
            elif value == EMPTY:
                liberties.add(n)
    return group, liberties


def line_adjacency(length: int) -> tuple[tuple[int, ...], ...]:
    """A line of points: each point touches the previous and the next (the edges are not)."""
    return tuple(
        tuple(n for n in (p - 1, p + 1) if 0 <= n < length) for p in range(length)
    )


def capture_dead_enemies(
    board: list[int], adjacency: Adjacency, around: Iterable[int], enemy: int
) -> list[int]:
    """Remove from ``board`` (in place) the ``enemy`` groups touching ``around`` that have no
    liberty, and return the points they occupied."""
    captured: list[int] = []
    for p in around:
        for n in adjacency[p]:
            if board[n] == enemy:
                group = _dead_group(board, adjacency, n)
                if group is not None:
                    for q in group:
                        board[q] = EMPTY
                    captured += group
    return captured


def _dead_group(board: Sequence[int], adjacency: Adjacency, start: int) -> list[int] | None:
    """The stones of the group at ``start`` if it has no liberty, else None (stops at the first
    liberty found)."""
    colour = board[start]
    group = [start]
    seen = {start}
    for q in group:  # the list grows while we walk it: a breadth-first flood
        for n in adjacency[q]:
            value = board[n]
            if value == EMPTY:
                return None
            if value == colour and n not in seen:
                seen.add(n)
                group.append(n)
    return group


def territories(
    board: Sequence[int], adjacency: Adjacency, removed: Collection[int] = (), seats: int = 2
) -> tuple[frozenset[int], ...]:
    """Per seat, the empty points of the regions bordered only by that seat's stones.

    A region is a maximal set of empty points connected through empty points; walls are not
    points, so they neither join regions nor border them. Stones listed in ``removed`` (dead
    stones) count as empty points. A region touching no stone, or stones of several seats,
    belongs to nobody."""
    removed = set(removed)

    def is_open(p: int) -> bool:
        return board[p] == EMPTY or p in removed

    owned: list[set[int]] = [set() for _ in range(seats)]
    seen: set[int] = set()
    for start in range(len(board)):
        if start in seen or not is_open(start):
            continue
        region = {start}
        borders: set[int] = set()
        stack = [start]
        while stack:
            for n in adjacency[stack.pop()]:
                if is_open(n):
                    if n not in region:
                        region.add(n)
                        stack.append(n)
                elif board[n] >= 0:
                    borders.add(board[n])
        seen |= region
        if len(borders) == 1:
            owned[borders.pop()] |= region
    return tuple(frozenset(cells) for cells in owned)



# ----- bit masks ---------------------------------------------------------------------------------


class Graph:
    """The points of a board (0..size-1), their adjacency lists, and each point as one bit of an
    int, so a set of points is a mask and set operations are single int operations.

    Points lie on a grid embedded row by row with a spare column between rows, so moving every
    point of a mask one step in a direction is one shift (``shifts[d]``, negative = right
    shift) that never wraps onto the next row; ``valid`` drops the positions that are no point."""

    __slots__ = (
        "_left",
        "_right",
        "adjacency",
        "bit",
        "neighbours",
        "point_at",
        "shifts",
        "size",
        "valid",
    )

    def __init__(
        self, adjacency: Adjacency, positions: Sequence[int], shifts: Sequence[int]
    ) -> None:
        self.size = len(positions)
        self.adjacency = tuple(tuple(ns) for ns in adjacency)
        self.bit = tuple(1 << pos for pos in positions)
        self.neighbours = tuple(
            sum(self.bit[n] for n in ns) for ns in self.adjacency
        )
        self.valid = sum(self.bit)
        point_at = [-1] * (max(positions) + 1)
        for p, pos in enumerate(positions):
            point_at[pos] = p
        self.point_at = tuple(point_at)
        self.shifts = tuple(shifts)
        self._left = tuple(s for s in shifts if s > 0)
        self._right = tuple(-s for s in shifts if s < 0)
        for p in range(self.size):
            if self.dilate(self.bit[p]) != self.neighbours[p]:
                raise ValueError(f"shifts {shifts} do not give the neighbours of point {p}")

    def dilate(self, mask: int) -> int:
        """The points next to some point of ``mask`` (those of ``mask`` included only if they
        have a neighbour in it)."""
        out = 0
        for s in self._left:
            out |= mask << s
        for s in self._right:
            out |= mask >> s
        return out & self.valid

    def shifted(self, mask: int, direction: int) -> int:
        """The points whose neighbour in ``direction`` is in ``mask``."""
        s = self.shifts[direction]
        return (mask >> s if s > 0 else mask << -s) & self.valid

    def mask(self, points: Iterable[int]) -> int:
        bit = self.bit
        out = 0
        for p in points:
            out |= bit[p]
        return out

    def points(self, mask: int) -> list[int]:
        """The points of ``mask`` in increasing order of position."""
        point_at = self.point_at
        out = []
        while mask:
            low = mask & -mask
            out.append(point_at[low.bit_length() - 1])
            mask ^= low
        return out

    def point_of(self, single: int) -> int:
        """The point of a mask holding exactly one point."""
        return self.point_at[single.bit_length() - 1]


def nth_bit(mask: int, n: int) -> int:
    """The position of the ``n``-th set bit of ``mask`` (from 0, lowest first): halves the mask
    by counting bits, then walks the last few."""
    position = 0
    width = mask.bit_length()
    while width > 8:
        half = width >> 1
        low = mask & ((1 << half) - 1)
        count = low.bit_count()
        if n < count:
            mask, width = low, half
        else:
            n -= count
            mask >>= half
            position += half
            width -= half
    while True:
        if mask & 1:
            if not n:
                return position
            n -= 1
        elif not mask:
            raise IndexError("the mask has fewer set bits")
        mask >>= 1
        position += 1


def grid_graph(
    coords: Sequence[tuple[int, int]], directions: Sequence[tuple[int, int]]
) -> Graph:
    """The graph of the points ``coords`` (integer pairs) where each point touches the points at
    ``directions`` from it. Directions change the second coordinate by at most 1, which the one
    spare column of the embedding needs (hexagonal and square grids, a line)."""
    if any(abs(db) > 1 for _, db in directions):
        raise ValueError("directions may move the second coordinate by at most one")
    a_min = min(a for a, _ in coords)
    b_min = min(b for _, b in coords)
    width = max(b for _, b in coords) - b_min + 2
    index = {cell: i for i, cell in enumerate(coords)}
    adjacency = [
        [index[n] for n in ((a + da, b + db) for da, db in directions) if n in index]
        for a, b in coords
    ]
    positions = [(a - a_min) * width + (b - b_min) for a, b in coords]
    return Graph(adjacency, positions, [da * width + db for da, db in directions])


class Group(NamedTuple):
    colour: int
    stones: int
    liberties: int


class Turn(NamedTuple):
    """A legal stone-and-walls turn: the ids of the enemy groups it captures and their stones."""

    captured: tuple[int, ...]
    captured_mask: int


class Refusal(NamedTuple):
    """Why a turn is illegal: ``reason`` is one of ``wall_not_adjacent``, ``wall_not_empty``
    (``point`` the wall), ``no_liberty``, ``walls_take_last_liberty`` (``point`` the stone),
    ``wall_takes_group_liberty`` (``point`` the wall, ``other`` a stone of the group)."""

    reason: str
    point: int
    other: int = -1


class GoBoard:
    """A position of stones and walls with every group's stones and liberties, as masks.

    ``cells`` is the board itself (``EMPTY``, ``WALL`` or a seat per point); ``owner[p]`` is the
    id of the group on p (-1 for empty points and walls) and ``groups[id]`` that group. A
    ``GoBoard`` is never changed: ``after`` returns the next one, updating only the groups the
    turn touched. Invariant kept by legal play: every group has a liberty."""

    __slots__ = ("cells", "empty", "graph", "groups", "next_id", "owner")

    def __init__(
        self, graph: Graph, cells: tuple[int, ...], empty: int, owner: tuple[int, ...],
        groups: dict[int, Group], next_id: int,
    ) -> None:
        self.graph = graph
        self.cells = cells
        self.empty = empty
        self.owner = owner
        self.groups = groups
        self.next_id = next_id

    @classmethod
    def from_cells(cls, graph: Graph, cells: Sequence[int]) -> GoBoard:
        """Analyse a whole board (one flood fill per group)."""
        cells = tuple(cells)
        bit, adjacency = graph.bit, graph.adjacency
        owner = [-1] * len(cells)
        groups: dict[int, Group] = {}
        empty = 0
        for start, colour in enumerate(cells):
            if colour == EMPTY:
                empty |= bit[start]
            if colour < 0 or owner[start] >= 0:
                continue
            gid = len(groups)
            owner[start] = gid
            stones = liberties = 0
            stack = [start]
            while stack:
                q = stack.pop()
                stones |= bit[q]
                for n in adjacency[q]:
                    value = cells[n]
                    if value == EMPTY:
                        liberties |= bit[n]
                    elif value == colour and owner[n] < 0:
                        owner[n] = gid
                        stack.append(n)
            groups[gid] = Group(colour, stones, liberties)
        return cls(graph, cells, empty, tuple(owner), groups, len(groups))

    def group_at(self, point: int) -> Group | None:
        gid = self.owner[point]
        return None if gid < 0 else self.groups[gid]

    def resolve(self, stone: int, walls: Sequence[int], seat: int) -> Turn | Refusal:
        """Judge the turn "a stone of ``seat`` on the empty point ``stone``, then ``walls`` on
        empty points next to it": the stone captures the enemy groups it leaves without liberty;
        the walls go down together and capture likewise; then the turn is illegal if the
        stone's group, or a friendly group next to a wall, has no liberty."""
        graph = self.graph
        bit, adjacency, owner, groups = graph.bit, graph.adjacency, self.owner, self.groups
        sb = bit[stone]
        captured: list[int] = []
        cap = 0
        friends: list[int] = []
        for n in adjacency[stone]:
            gid = owner[n]
            if gid >= 0:
                colour, stones, liberties = groups[gid]
                if colour == seat:
                    if gid not in friends:
                        friends.append(gid)
                elif not liberties & ~sb and gid not in captured:
                    captured.append(gid)
                    cap |= stones
        taken = sb
        if walls:
            near = graph.neighbours[stone]
            free = self.empty | cap
            for w in walls:
                wb = bit[w]
                if not near & wb:
                    return Refusal("wall_not_adjacent", w)
                if not free & wb:
                    return Refusal("wall_not_empty", w)
                taken |= wb
            for w in walls:
                for n in adjacency[w]:
                    gid = owner[n]
                    if gid >= 0 and gid not in captured:
                        colour, stones, liberties = groups[gid]
                        if colour != seat and not liberties & ~taken:
                            captured.append(gid)
                            cap |= stones
        freed = cap & ~taken
        stones = sb
        liberties = graph.neighbours[stone] & self.empty
        for gid in friends:
            group = groups[gid]
            stones |= group.stones
            liberties |= group.liberties
        if not liberties & ~taken and not (freed and graph.dilate(stones) & freed):
            return Refusal("walls_take_last_liberty" if walls else "no_liberty", stone)
        for w in walls:
            for n in adjacency[w]:
                gid = owner[n]
                if gid >= 0 and gid not in friends:
                    colour, other, liberties = groups[gid]
                    if (
                        colour == seat
                        and not liberties & ~taken
                        and not (freed and graph.dilate(other) & freed)
                    ):
                        return Refusal("wall_takes_group_liberty", w, n)
        return Turn(tuple(captured), cap)

    def after(self, stone: int, walls: Sequence[int], seat: int, turn: Turn) -> GoBoard:
        """The position after a turn that ``resolve`` accepted."""
        graph = self.graph
        bit, adjacency = graph.bit, graph.adjacency
        cells = list(self.cells)
        owner = list(self.owner)
        groups = dict(self.groups)
        next_id = self.next_id
        sb = bit[stone]
        taken = sb
        for w in walls:
            taken |= bit[w]
        # The stone joins its friendly neighbours (the largest group keeps its id).
        friends = {owner[n] for n in adjacency[stone] if cells[n] == seat}
        stones = sb
        liberties = graph.neighbours[stone] & self.empty
        if friends:
            gid = max(friends, key=lambda g: groups[g].stones.bit_count())
            for other in friends:
                group = groups.pop(other)
                stones |= group.stones
                liberties |= group.liberties
                if other != gid:
                    for q in graph.points(group.stones):
                        owner[q] = gid
        else:
            gid = next_id
            next_id += 1
        owner[stone] = gid
        cells[stone] = seat
        groups[gid] = Group(seat, stones, liberties & ~taken)
        # The stone and the walls are no longer liberties of the groups around them.
        touched = {owner[n] for n in adjacency[stone]}
        for w in walls:
            touched.update(owner[n] for n in adjacency[w])
        touched.discard(-1)
        touched.discard(gid)
        for other in touched:
            group = groups[other]
            groups[other] = group._replace(liberties=group.liberties & ~taken)
        # Captured stones leave; their points become liberties of the groups around them
        # (unless a wall now stands there).
        freed = 0
        for other in turn.captured:
            group = groups.pop(other)
            for q in graph.points(group.stones):
                owner[q] = -1
                cells[q] = EMPTY
            freed |= group.stones
        for w in walls:
            cells[w] = WALL
        freed &= ~taken
        if freed:
            gains: dict[int, int] = {}
            for q in graph.points(freed):
                for n in adjacency[q]:
                    other = owner[n]
                    if other >= 0:
                        gains[other] = gains.get(other, 0) | bit[q]
            for other, gained in gains.items():
                group = groups[other]
                groups[other] = group._replace(liberties=group.liberties | gained)
        empty = (self.empty & ~taken) | freed
        return GoBoard(graph, tuple(cells), empty, tuple(owner), groups, next_id)
