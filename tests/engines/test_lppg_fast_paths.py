"""LPPG's fast paths against their slow twins, on the placement decisions of random games: the
lazy list of placements against the plain list of ``placement_codes``, a geometry updated by
one card against one built from all the cards."""

from __future__ import annotations

import random

import pytest

import engines
from engines.lppg import PlayMove
from engines.lppg_terrain import Geometry, placement_codes, placements

GAME = engines.get("lppg")


def placement_decisions(players: int, seed: int):
    """Every state of a random game where a card is to be placed."""
    rng = random.Random(seed)
    state = GAME.new(players, seed=seed)
    while state.to_move is not None:
        if state.pending == "play":
            yield state
        state = GAME.play(state, rng.choice(list(GAME.legal_moves(state))))


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (4, 3)])
def test_lazy_placements_list_the_same_moves_in_the_same_order(players, seed):
    compared = 0
    for state in placement_decisions(players, seed):
        mover = state.turn_seat
        hand = state.hands[mover]
        listed = placement_codes(state.board, hand, mover, players)
        lazy = placements(state.board, hand, mover, players, moves=_Codes())
        assert len(lazy) == len(listed)
        assert list(lazy) == listed
        assert [lazy[i] for i in range(len(lazy))] == listed
        if listed:
            assert lazy[-1] == listed[-1]
            assert lazy[1:3] == listed[1:3]
            compared += 1
        with pytest.raises(IndexError):
            lazy[len(listed)]
    assert compared > 10


class _Codes(dict):
    """The codes themselves, through a mapping (as ``Lppg`` passes its cache of moves)."""

    def __missing__(self, code: int) -> int:
        return code


@pytest.mark.parametrize("players,seed", [(2, 4), (4, 5)])
def test_a_geometry_updated_by_a_card_matches_one_built_from_scratch(players, seed):
    # ``covered_by`` carries the bounds and colour bitboards over from the geometry before.
    carried = 0
    rng = random.Random(seed)
    for state in placement_decisions(players, seed):
        move = rng.choice(GAME.legal_moves(state))
        if not isinstance(move, PlayMove):
            continue
        state.geometry.colour_bits()
        after = GAME.play(state, move)
        fresh = Geometry.from_placed(after.placed)
        updated = after.geometry
        carried += updated._colour_bits is not None
        assert (updated.min_x, updated.max_x, updated.min_y, updated.max_y) == (
            fresh.min_x, fresh.max_x, fresh.min_y, fresh.max_y
        )
        assert updated.colour == fresh.colour
        assert updated.colour_bits() == fresh.colour_bits()
        assert updated.comps == fresh.comps and updated.comp_open == fresh.comp_open
    assert carried > 10, carried


@pytest.mark.parametrize("players,seed", [(2, 6), (4, 7)])
def test_a_plain_draw_matches_the_draw_that_handles_every_case(players, seed):
    # ``play`` takes a short cut for a draw that re-forms nothing; ``_drawn`` handles all.
    rng = random.Random(seed)
    state = GAME.new(players, seed=seed)
    compared = 0
    while state.to_move is not None:
        move = rng.choice(GAME.legal_moves(state))
        after = GAME.play(state, move)
        if state.pending == "draw":
            assert after == GAME._drawn(state, move)
            compared += 1
        state = after
    assert compared > 10, compared
