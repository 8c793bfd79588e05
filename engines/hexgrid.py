"""Hexagonal grid geometry shared by Palago and Polygo.

Axial coordinates (q, r); the third cube coordinate is s = -q - r. Direction d = 0..5 follows
RULES.md §3: (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) (0,+1), so direction d + 3 is the opposite of d.
"""

from __future__ import annotations

from collections.abc import Iterator

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbour(cell: Hex, direction: int) -> Hex:
    dq, dr = DIRECTIONS[direction % 6]
    return (cell[0] + dq, cell[1] + dr)


def neighbours(cell: Hex) -> tuple[Hex, ...]:
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)



def hexagon(radius: int) -> Iterator[Hex]:
    """Cells within ``radius`` of the origin (a hexagon of side radius + 1)."""
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            yield (q, r)


def star(radius: int = 4) -> Iterator[Hex]:
    """The six-pointed star of Chinese checkers (121 cells for radius 4): a cell exists iff
    max(q, r, s) <= radius or min(q, r, s) >= -radius (RULES.md §2)."""
    span = 2 * radius
    for q in range(-span, span + 1):
        for r in range(-span, span + 1):
            s = -q - r
            if max(q, r, s) <= radius or min(q, r, s) >= -radius:
                yield (q, r)


