"""LPPG AI: it never peeks (two real states with the same view get the same move), it ends the
game when that wins, and its exact answers about hidden hands (which cards end the game, the
next seat's best reply over every hand) agree with the engine played move by move."""

from __future__ import annotations

import dataclasses
import random

import pytest

import ai
import engines
from ai import lppg, lppg_reply, lppg_threat
from engines.lppg import DECK_SIZE, card_colour, visible_colour
from tests.ai.helpers import lppg_deal_from_view, random_states

GAME = engines.get("lppg")


def _all_cards(state) -> list[int]:
    cards = [card for card, _, _, _ in state.placed]
    for pile in (*state.hands, state.pile_a, state.pile_b, state.discard):
        cards.extend(pile)
    return sorted(cards)


@pytest.mark.parametrize("players", [2, 4])
def test_a_deal_from_the_view_is_a_full_state_with_the_same_view(players):
    rng = random.Random(players)
    for state in random_states("lppg", 40, seed=players, players=players):
        seat = state.to_move
        view = GAME.view(state, seat)
        sampled = lppg_deal_from_view(view, rng)
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
        other = lppg_deal_from_view(view, rng)
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


# ----- which cards end the game ---------------------------------------------------------------


def _ends_by_engine(state, seat: int, hand: tuple[int, ...]) -> bool:
    """Whether ``seat`` holding ``hand`` ends the game on its turn with its side winning: every
    legal placement played through the engine with each keep and mark that can follow."""
    ready = dataclasses.replace(state, hands=tuple(
        hand if s == seat else cards for s, cards in enumerate(state.hands)),
        turn_seat=seat, to_move=seat, pending="play")
    frontier = [GAME.play(ready, move) for move in GAME.legal_moves(ready)
                if str(move) != "pass"]
    while frontier:
        current = frontier.pop()
        if current.outcome is not None:
            if any(lppg.side(state.players, s) == lppg.side(state.players, seat)
                   for s in current.outcome.winners):
                return True
        elif current.pending in ("keep", "mark") and current.turn_seat == seat:
            frontier.extend(GAME.play(current, m) for m in GAME.legal_moves(current))
    return False


def _seats_with_two_markers(players: int, count: int, seed: int):
    """Seeded running positions where the seat to place a card has two markers down."""
    for state in random_states("lppg", count, seed=seed, players=players):
        seat = state.to_move
        if state.pending == "play" and lppg_threat.markers_down(state, seat) == 2:
            yield state, seat


@pytest.mark.parametrize("players", [2, 4])
def test_a_card_ends_the_game_as_the_engine_says(players):
    """In random games most cards can end the game once two markers are down; positions where
    some cards cannot are the telling ones: cards of both verdicts are checked there."""
    checked = {True: 0, False: 0}
    for state, seat in _seats_with_two_markers(players, 600, seed=31):
        on_table = {card for card, _, _, _ in state.placed}
        verdicts = {card: lppg_threat.card_ends_game(state, seat, card)
                    for card in range(DECK_SIZE) if card not in on_table}
        if len(set(verdicts.values())) < 2:
            continue
        for verdict in (True, False):
            for card in [c for c, v in verdicts.items() if v == verdict][:4]:
                assert _ends_by_engine(state, seat, (card,)) == verdict
                checked[verdict] += 1
        if min(checked.values()) >= 8:
            break
    assert min(checked.values()) >= 8


def test_hard_sees_only_its_view_where_the_next_hand_matters():
    """Positions where the next seat has two markers down (whether it can end the game
    depends on the cards it holds): two real states with the same view get the same move,
    and asking twice gives the same answer (the budget is enough to judge candidates by every
    hand of the next seat)."""
    rng = random.Random(5)
    tested = 0
    for state in random_states("lppg", 300, seed=33, players=2):
        seat = state.to_move
        if state.pending != "play" or lppg_threat.markers_down(state, 1 - seat) != 2:
            continue
        view = GAME.view(state, seat)
        other = lppg_deal_from_view(view, rng)
        assert other.hands[1 - seat] != state.hands[1 - seat] or other.pile_a != state.pile_a
        first = ai.choose("lppg", view, seat, "hard", seed=tested, budget_s=0.3)
        assert ai.choose("lppg", GAME.view(other, seat), seat, "hard", seed=tested,
                         budget_s=0.3) == first
        assert ai.choose("lppg", view, seat, "hard", seed=tested, budget_s=0.3) == first
        tested += 1
        if tested >= 3:
            break
    assert tested >= 3


def test_with_two_markers_hard_draws_where_the_cards_end_the_game_most_often():
    """Draw decisions of a seat with two markers down whose piles show two colours: hard takes
    the pile whose colour has the larger share of unseen cards that end the game (each card
    judged by the engine, placement by placement)."""
    tested = 0
    for state in random_states("lppg", 900, seed=35, players=2):
        seat = state.to_move
        if state.pending != "draw" or lppg_threat.markers_down(state, seat) != 2:
            continue
        view = GAME.view(state, seat)
        tops = {"draw a": view.pile_a[:1], "draw b": view.pile_b[:1]}
        if any(not top for top in tops.values()) or tops["draw a"] == tops["draw b"]:
            continue
        unseen = lppg_threat.unseen_by_colour(view)
        shares = {}
        for move, (top,) in tops.items():
            pool = unseen[visible_colour(top)]
            shares[move] = sum(_ends_by_engine(view, seat, (card,)) for card in pool) / len(pool)
        if shares["draw a"] == shares["draw b"]:
            continue
        assert ai.choose("lppg", view, seat, "hard") == max(shares, key=shares.get)
        tested += 1
        if tested >= 2:
            break
    assert tested >= 2


# ----- the next seat's reply over every hand it may hold ----------------------------------------


def _judge(seat: int, replier: int):
    def play_out(state):
        after = lppg.finish_turn(state, replier)
        return lppg.evaluate(after, replier), lppg.evaluate(after, seat)
    return play_out


def _after_a_turn(players: int, count: int, seed: int):
    """Seeded positions just after a seat's turn (its draws pending), with that seat."""
    for state in random_states("lppg", count, seed=seed, players=players):
        if state.pending == "draw" and len(state.hands[state.turn_seat]) == 0:
            yield state, state.turn_seat


@pytest.mark.parametrize("players", [2, 4])
def test_a_card_s_best_reply_is_the_best_of_all_its_placements(players):
    """``card_reply`` plays only the placements that change territories or close a region;
    its answer is the one found by playing every placement of the card through the engine."""
    compared = 0
    rng = random.Random(players)
    for state, seat in _after_a_turn(players, 200, seed=34):
        replier = (seat + 1) % players
        play_out = _judge(seat, replier)
        quiet = (lppg.evaluate(state, replier), lppg.evaluate(state, seat))
        on_table = {card for card, _, _, _ in state.placed}
        for card in rng.sample([c for c in range(DECK_SIZE) if c not in on_table], 3):
            found, played = lppg_reply.card_reply(state, replier, card, quiet, play_out)
            ready = lppg_threat.with_hand(state, replier, (card,))
            every = [play_out(GAME.play(ready, move)) for move in GAME.legal_moves(ready)
                     if str(move) != "pass"]
            if not every:
                assert found is None
                continue
            best = max(every, key=lambda judged: (judged[0], -judged[1]))
            assert found == pytest.approx(best)
            assert played <= len(every)
            compared += 1
        if compared >= 20:
            break
    assert compared >= 20


def test_the_expected_reply_takes_each_hand_s_better_card():
    """Every hand of the given colours (two distinct cards), each replying with its card of
    the higher score (ties against us), a hand with no placement passing."""
    replies = {1: (5.0, -5.0), 2: (3.0, -1.0), 3: None, 20: (5.0, -7.0), 21: None}
    pools = {1: [1, 2, 3], 2: [20, 21]}
    passing = (0.0, 2.0)
    # Red-blue hands: (1,20) ties at 5 -> -7; (1,21) -> -5; (2,20) -> -7; (2,21) -> -1;
    # (3,20) -> -7; (3,21) passes -> 2.
    assert lppg_reply.expected_reply(replies, [1, 2], pools, passing) == pytest.approx(
        (-7 - 5 - 7 - 1 - 7 + 2) / 6)
    # Two red cards: (1,2) (1,3) (2,1) (2,3) (3,1) (3,2) -> -5 -5 -5 -1 -5 -1.
    assert lppg_reply.expected_reply(replies, [1, 1], pools, passing) == pytest.approx(
        (-5 * 4 - 1 * 2) / 6)
    assert lppg_reply.expected_reply(replies, [], pools, passing) == 2.0
