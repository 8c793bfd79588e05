"""LPPG AI: it never peeks. Its samples of the hidden cards agree with the view, two real
states with the same view get the same move, and it ends the game when that wins."""

from __future__ import annotations

import random

import pytest

import ai
import engines
from ai import lppg
from engines.lppg import DECK_SIZE, card_colour
from tests.ai.helpers import random_states

GAME = engines.get("lppg")


def _all_cards(state) -> list[int]:
    cards = [card for card, _, _, _ in state.placed]
    for pile in (*state.hands, state.pile_a, state.pile_b, state.discard):
        cards.extend(pile)
    return sorted(cards)


@pytest.mark.parametrize("players", [2, 4])
def test_a_sample_is_a_full_state_with_the_same_view(players):
    rng = random.Random(players)
    for state in random_states("lppg", 40, seed=players, players=players):
        seat = state.to_move
        view = GAME.view(state, seat)
        sampled = lppg.sample(view, seat, rng)
        assert _all_cards(sampled) == list(range(DECK_SIZE))
        assert GAME.view(sampled, seat) == view
        # The colours of other hands are kept; their patterns are drawn afresh.
        for other, hand in enumerate(state.hands):
            assert [card_colour(c) for c in sampled.hands[other]] == [
                card_colour(c) for c in hand]


@pytest.mark.parametrize("players", [2, 4])
def test_two_real_states_with_the_same_view_get_the_same_move(players):
    """The no-peeking property: another real state is dealt from the view (other hands, pile
    order and discard differ); every level answers both alike."""
    rng = random.Random(10 + players)
    differed = 0
    for n, state in enumerate(random_states("lppg", 10, seed=7, players=players)):
        seat = state.to_move
        view = GAME.view(state, seat)
        other = lppg.sample(view, seat, rng)
        differed += other.hands != state.hands or other.pile_a != state.pile_a
        for level in ai.LEVELS:
            first = ai.choose("lppg", GAME.view(state, seat), seat, level, seed=n,
                              budget_s=0.05)
            second = ai.choose("lppg", GAME.view(other, seat), seat, level, seed=n,
                               budget_s=0.05)
            assert first == second
            GAME.play(state, first)
            GAME.play(other, second)
    assert differed >= 8


def test_teams_are_seats_0_and_2_against_1_and_3():
    assert [lppg.side(4, s) for s in range(4)] == [0, 1, 0, 1]
    assert [lppg.side(2, s) for s in range(2)] == [0, 1]


def test_the_smallest_unique_territory_leads():
    assert lppg.leader([(3, 0), (3, 1), (5, 1)]) == (5, 1)
    assert lppg.leader([(2, 0), (2, 1)]) is None
    assert lppg.leader([(4, 1), (2, 0)]) == (2, 0)


def test_hard_and_medium_end_the_game_when_that_wins():
    """Positions where some placement (with its forced mark) ends the game in the mover's
    favour: medium and hard play such a placement."""
    tested = 0
    for state in random_states("lppg", 400, seed=3, players=2):
        if state.pending != "play":
            continue
        seat = state.to_move
        view = GAME.view(state, seat)
        wins = set()
        for move in GAME.legal_moves(view):
            after = lppg.finish_turn(GAME.play(view, move), seat)
            if after.outcome is not None and seat in after.outcome.winners:
                wins.add(str(move))
        if not wins or len(wins) == len(GAME.legal_moves(view)):
            continue
        for level in ("medium", "hard"):
            assert ai.choose("lppg", view, seat, level, seed=tested, budget_s=0.1) in wins
        tested += 1
        if tested >= 6:
            break
    assert tested >= 6
