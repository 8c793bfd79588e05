"""The bit-mask board of engines/graphgo.py against plain adjacency lists."""

from __future__ import annotations

import random

import pytest

from engines.graphgo import grid_graph, nth_bit
from engines.hexgrid import DIRECTIONS, hexagon, neighbours, star
from engines.squaregrid import ORTHOGONAL, orthogonal_neighbours

BOARDS = {
    "star": (list(star(4)), DIRECTIONS, neighbours),
    "hexagon": (list(hexagon(4)), DIRECTIONS, neighbours),
    "square": ([(x, y) for x in range(9) for y in range(9)], ORTHOGONAL, orthogonal_neighbours),
    "line": (
        [(0, i) for i in range(11)], ((0, 1), (0, -1)), lambda c: ((0, c[1] - 1), (0, c[1] + 1))
    ),
}


@pytest.mark.parametrize("kind", sorted(BOARDS))
def test_masks_give_the_same_neighbours_as_the_cells(kind):
    coords, directions, neighbours_of = BOARDS[kind]
    graph = grid_graph(coords, directions)
    index = {cell: i for i, cell in enumerate(coords)}
    rng = random.Random(kind)
    for p, cell in enumerate(coords):
        expected = {index[n] for n in neighbours_of(cell) if n in index}
        assert set(graph.adjacency[p]) == expected
        assert set(graph.points(graph.neighbours[p])) == expected
    for _ in range(50):
        chosen = rng.sample(range(len(coords)), rng.randrange(1, len(coords)))
        mask = graph.mask(chosen)
        assert graph.points(mask) == sorted(chosen)
        around = {n for p in chosen for n in graph.adjacency[p]}
        assert set(graph.points(graph.dilate(mask))) == around
        for d, (da, db) in enumerate(directions):
            moved = {p for p, (a, b) in enumerate(coords) if index.get((a + da, b + db)) in chosen}
            assert set(graph.points(graph.shifted(mask, d))) == moved


def test_nth_bit_finds_each_set_bit_in_order():
    rng = random.Random(1)
    for _ in range(200):
        mask = rng.getrandbits(rng.randrange(1, 400))
        positions = [i for i in range(mask.bit_length()) if mask >> i & 1]
        assert [nth_bit(mask, n) for n in range(len(positions))] == positions
        with pytest.raises(IndexError):
            nth_bit(mask, len(positions))


def test_directions_that_would_wrap_rows_are_refused():
    with pytest.raises(ValueError):
        grid_graph([(0, 0), (0, 2)], [(0, 2)])
