"""Kolory AI: its fast representation agrees with the engine; chance is sampled, not read."""

from __future__ import annotations

import dataclasses
import random

import ai
import engines
from ai import kolory
from engines.kolory import largest_groups, pack, visible_colours
from tests.ai.helpers import random_walk

GAME = engines.get("kolory")


def test_fast_position_matches_the_engine_over_thousands_of_placements():
    checked = 0
    seed = 0
    while checked < 3000:
        seed += 1
        players = 2 + seed % 4
        for state, _ in random_walk("kolory", seed, players=players):
            if state.to_move is None:
                break
            pos = kolory.Position.from_view(GAME.view(state, state.to_move))
            legal = GAME.legal_moves(state)
            assert pos.moves() == [pack(m.x, m.y) for m in legal]
            assert pos.largest() == list(largest_groups(state))
            for move in legal[:: max(1, len(legal) // 6)]:
                after = GAME.play(state, move)
                fast = pos.copy()
                fast.play(pack(move.x, move.y), random.Random(0))
                colours = {pack(x, y): owner for (x, y), owner in visible_colours(after).items()}
                assert fast.top == colours
                assert fast.white == after.white_visible
                assert fast.round == after.round and fast.placed == after.placed_in_round
                if after.to_move is None:
                    assert fast.to_move is None
                elif fast.placed:  # within a round the order is fixed; a new one is drawn
                    assert fast.to_move == after.to_move
                checked += 1


def test_the_next_rounds_opener_is_not_read_from_the_view():
    """Views hide the seed; the AI's decision is the same whatever the real seed (and so
    whoever will really open the next round)."""
    for seed in range(3):
        state = GAME.new(2, seed=seed)
        rng = random.Random(seed)
        while state.placed_in_round != 1:
            state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
        view = GAME.view(state, state.to_move)
        assert view.seed is None
        other = dataclasses.replace(state, seed=seed + 1000)
        assert GAME.view(other, other.to_move) == view
        assert ai.choose("kolory", view, view.to_move, "hard", budget_s=0.05) == ai.choose(
            "kolory", GAME.view(other, other.to_move), view.to_move, "hard", budget_s=0.05)


def test_rewards_are_the_win_share_plus_a_little_margin():
    two = kolory.rewards_of([9, 5])
    assert two[0] > 0.8 > 0.2 > two[1]
    shared = kolory.rewards_of([7, 7, 3])
    assert shared[0] == shared[1] and shared[2] < 0.2


def test_hard_joins_its_patch_when_that_wins_at_once():
    """Last card of the game: the placement that joins two red patches wins; hard finds it."""
    rng = random.Random(4)
    tested = 0
    for seed in range(60):
        state = GAME.new(2, seed=seed)
        while state.to_move is not None and not (state.round == 10 and state.placed_in_round == 1):
            state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
        if state.to_move is None:
            continue
        seat = state.to_move
        results = {}
        for move in GAME.legal_moves(state):
            results[str(move)] = seat in GAME.play(state, move).outcome.winners
        if any(results.values()) and not all(results.values()):
            move = ai.choose("kolory", GAME.view(state, seat), seat, "hard", seed=seed,
                             budget_s=0.2)
            assert results[move], seed
            tested += 1
    assert tested >= 5
