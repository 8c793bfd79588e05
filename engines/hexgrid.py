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


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` to its neighbour ``b``, or None if they are not neighbours."""
    delta = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(delta)
    except ValueError:
        return None


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


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


def to_pixel(cell: Hex, size: float, pointy: bool = True) -> tuple[float, float]:
    """Centre of a cell in pixels for hexagons of circumradius ``size`` (used by render/)."""
    q, r = cell
    if pointy:
        return (size * (3**0.5) * (q + r / 2), size * 1.5 * r)
    return (size * 1.5 * q, size * (3**0.5) * (r + q / 2))
