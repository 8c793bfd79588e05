"""LPPG's fast paths against their slow twins: the lazy list of placements against the plain
list of ``placement_codes``, on every placement decision of random games."""

from __future__ import annotations

import random

import pytest

import engines
from engines.lppg_terrain import placement_codes, placements

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
