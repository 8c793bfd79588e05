"""Square grid helpers shared by LPPG and Kolory (unbounded grid, x right, y down)."""

from __future__ import annotations

from collections.abc import Iterable

Square = tuple[int, int]

ORTHOGONAL: tuple[Square, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def orthogonal_neighbours(square: Square) -> tuple[Square, ...]:
    x, y = square
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def components(squares: Iterable[Square]) -> list[frozenset[Square]]:
    """Orthogonally connected components of a set of squares."""
    remaining = set(squares)
    found: list[frozenset[Square]] = []
    while remaining:
        start = remaining.pop()
        group = {start}
        stack = [start]
        while stack:
            for n in orthogonal_neighbours(stack.pop()):
                if n in remaining:
                    remaining.remove(n)
                    group.add(n)
                    stack.append(n)
        found.append(frozenset(group))
    return found


