"""The liberty/capture core of Go-like games on any adjacency graph (Alak's line, Polygo's
star and its other boards).

A board is a sequence of ints indexed by point: ``EMPTY``, ``WALL`` or the seat owning the stone.
``adjacency[p]`` lists the neighbours of point p. Walls are not points of play and never
liberties; they are kept on the board so that one array describes a whole position.
"""

from __future__ import annotations

from collections.abc import Sequence

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
