"""The liberty/capture core of Go-like games on any adjacency graph (Alak's line, Polygo's
star and its other boards).

A board is a sequence of ints indexed by point: ``EMPTY``, ``WALL`` or the seat owning the stone.
``adjacency[p]`` lists the neighbours of point p. Walls are not points of play and never
liberties; they are kept on the board so that one array describes a whole position.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from typing import Any

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


def has_liberty(board: Sequence[int], adjacency: Adjacency, start: int) -> bool:
    """Whether the group at ``start`` touches an empty point (stops at the first one found)."""
    colour = board[start]
    seen = {start}
    stack = [start]
    while stack:
        for n in adjacency[stack.pop()]:
            value = board[n]
            if value == EMPTY:
                return True
            if value == colour and n not in seen:
                seen.add(n)
                stack.append(n)
    return False


def dead_enemy_groups(
    board: Sequence[int], adjacency: Adjacency, around: Sequence[int], enemy: int
) -> set[int]:
    """Points of the ``enemy`` groups touching any point of ``around`` that have no liberty."""
    doomed: set[int] = set()
    checked: set[int] = set()
    for p in around:
        for n in adjacency[p]:
            if board[n] == enemy and n not in checked:
                group, liberties = group_and_liberties(board, adjacency, n)
                checked |= group
                if not liberties:
                    doomed |= group
    return doomed


def line_adjacency(length: int) -> tuple[tuple[int, ...], ...]:
    """A line of points: each point touches the previous and the next (the edges are not)."""
    return tuple(
        tuple(n for n in (p - 1, p + 1) if 0 <= n < length) for p in range(length)
    )


def capture_dead_enemies(
    board: list[int], adjacency: Adjacency, around: Sequence[int], enemy: int
) -> set[int]:
    """Remove from ``board`` (in place) the ``enemy`` groups touching ``around`` that have no
    liberty, and return the points they occupied."""
    doomed = dead_enemy_groups(board, adjacency, around, enemy)
    for p in doomed:
        board[p] = EMPTY
    return doomed


def analyse_groups(
    board: Sequence[int], adjacency: Adjacency
) -> tuple[list[int], list[set[int]]]:
    """Every group of the board at once: ``group_of[p]`` is the group id of the stone on p (-1
    for empty points and walls) and ``liberties[g]`` the empty points next to group g.

    One pass over the board, so move generators can answer "does this group keep a liberty?"
    with set arithmetic instead of a flood fill per candidate move."""
    group_of = [-1] * len(board)
    liberties: list[set[int]] = []
    for start, colour in enumerate(board):
        if colour < 0 or group_of[start] >= 0:
            continue
        gid = len(liberties)
        libs: set[int] = set()
        group_of[start] = gid
        stack = [start]
        while stack:
            for n in adjacency[stack.pop()]:
                value = board[n]
                if value == EMPTY:
                    libs.add(n)
                elif value == colour and group_of[n] < 0:
                    group_of[n] = gid
                    stack.append(n)
        liberties.append(libs)
    return group_of, liberties


def group_points(board: Sequence[int], adjacency: Adjacency, start: int) -> set[int]:
    """The stones of the group at ``start``."""
    return group_and_liberties(board, adjacency, start)[0]


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


def adjacency_from_cells(
    cells: Sequence[Hashable], neighbours: Callable[[Any], Iterable[Hashable]]
) -> tuple[tuple[int, ...], ...]:
    """Integer adjacency of a board given as a list of cells and a neighbour function on cells
    (neighbours off the board are dropped). Point p is ``cells[p]``."""
    index = {cell: i for i, cell in enumerate(cells)}
    return tuple(
        tuple(index[n] for n in neighbours(cell) if n in index) for cell in cells
    )
