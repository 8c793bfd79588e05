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


def bounding_box(squares: Iterable[Square]) -> tuple[int, int, int, int]:
    """(min_x, min_y, max_x, max_y) of a non-empty set of squares."""
    xs, ys = zip(*squares, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def top_left(squares: Iterable[Square]) -> Square:
    """The square with the smallest y, then the smallest x (how regions are named)."""
    return min(squares, key=lambda s: (s[1], s[0]))


def parse_xy(text: str) -> Square:
    """Read ``x,y`` (integers, spaces allowed around the comma); ValueError otherwise."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        raise ValueError(f"expected x,y, got {text!r}")
    return int(parts[0]), int(parts[1])
