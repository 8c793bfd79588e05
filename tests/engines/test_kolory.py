"""Kolory rules (RULES.md §6) and the rulings in engines/kolory.py, one test per ruling."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import IllegalMove
from engines.core import rng_for
from engines.kolory import (
    CARDS_PER_PLAYER,
    WHITE,
    KoloryMove,
    KoloryState,
    largest_groups,
    visible_colours,
    visible_squares,
)
from engines.squaregrid import components

GAME = engines.get("kolory")
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RED, BLUE, GREEN, YELLOW, ORANGE = range(5)


def table(cards: list[tuple[int, int, int]], players: int = 5, to_move: int = 0) -> KoloryState:
    """A hand-built position: the placements (seat, x, y) in order, on top of the start card."""
    return GAME.load({
        "players": players, "seed": 1, "to_move": to_move,
        "cards": [list(c) for c in cards], "round": 1, "round_first": to_move,
        "placed_in_round": 0, "last_move": None, "outcome": None,
    })


# Four cards, each over one corner of the start card: no white square is left visible and the
# middle 2x2 shows four different cards (red, blue, green, yellow).
FOUR_CORNERS = [(RED, -1, -1), (BLUE, 1, -1), (GREEN, -1, 1), (YELLOW, 1, 1)]


def texts(state: KoloryState) -> set[str]:
    return {str(m) for m in GAME.legal_moves(state)}


def playout(players: int, seed: int) -> list[KoloryState]:
    rng = random.Random(seed)
    state = GAME.new(players, seed=seed)
    states = [state]
    while state.to_move is not None:
        state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
        states.append(state)
    return states


# ----- players, material, notation ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players_seat_i_plays_colour_i(players):
    state = GAME.new(players, seed=3)
    assert state.players == players
    assert GAME.seat_names[:players] == ("Red", "Blue", "Green", "Yellow", "Orange")[:players]
    assert all(state.cards_left(seat) == CARDS_PER_PLAYER for seat in range(players))


@pytest.mark.parametrize("players", [1, 6])
def test_other_player_counts_are_refused(players):
    with pytest.raises(ValueError):
        GAME.new(players, seed=1)


def test_the_white_start_card_lies_on_the_four_squares_at_the_origin():
    state = GAME.new(2, seed=1)
    assert visible_colours(state) == {(0, 0): WHITE, (1, 0): WHITE, (0, 1): WHITE, (1, 1): WHITE}
    assert state.white_visible == 4


def test_notation_is_the_top_left_square_and_parsing_is_forgiving():
    state = GAME.play(table([], to_move=BLUE), "1,-1")
    assert {sq for sq, card in visible_squares(state).items() if card == 1} == {
        (1, -1), (2, -1), (1, 0), (2, 0)
    }
    assert str(KoloryMove(-3, 12)) == "-3,12"
    for text in ("1,-1", " /1, -1 ", "(1,-1)", "1 , -1"):
        assert GAME.parse_move(text) == KoloryMove(1, -1)
    for bad in ("1", "1,2,3", "a,b", "1;2", "", "9999,0"):
        with pytest.raises(IllegalMove):
            GAME.parse_move(bad)


# ----- placement rules ------------------------------------------------------------------------


def test_the_first_card_covers_exactly_one_white_square():
    assert texts(GAME.new(3, seed=1)) == {"-1,-1", "1,-1", "-1,1", "1,1"}
    with pytest.raises(IllegalMove, match="two squares of the same card"):
        GAME.play(GAME.new(3, seed=1), "0,0")
    with pytest.raises(IllegalMove, match="not overlap"):
        GAME.play(GAME.new(3, seed=1), "5,5")


def test_a_card_may_not_cover_two_squares_of_one_card():  # ruling 1
    state = table([(RED, 1, 1)])  # red over the white (1,1)
    # 1,0 would cover white (1,0) and red (1,1) and (2,1): two squares of the red card.
    assert "1,0" not in texts(state)
    with pytest.raises(IllegalMove, match="same card"):
        GAME.play(state, "1,0")


def test_a_card_may_cover_squares_of_four_different_cards():  # ruling 1
    state = table(FOUR_CORNERS, to_move=ORANGE)
    assert state.white_visible == 0
    after = GAME.play(state, "0,0")
    assert after.cards[-1].covers == (1, 2, 3, 4)
    assert {visible_colours(after)[sq] for sq in [(0, 0), (1, 0), (0, 1), (1, 1)]} == {ORANGE}


def test_while_white_is_visible_a_card_must_cover_one_white_square():  # ruling 2
    state = table([(RED, -1, -1)])
    # -2,-2 only covers the red corner (-1,-1): refused while white squares are visible.
    assert "-2,-2" not in texts(state)
    with pytest.raises(IllegalMove, match="exactly one white square"):
        GAME.play(state, "-2,-2")
    for move in GAME.legal_moves(state):
        assert GAME.play(state, move).cards[-1].covers.count(0) == 1


def test_a_white_phase_card_may_also_cover_other_cards_squares():  # ruling 2
    state = table([(RED, -1, -1), (GREEN, -1, 1), (BLUE, 1, -1)], to_move=YELLOW)
    assert state.white_visible == 1
    after = GAME.play(state, "0,0")  # over red, blue, green and the last white square
    assert sorted(after.cards[-1].covers) == [0, 1, 2, 3]
    assert after.white_visible == 0


def test_once_white_is_gone_a_card_must_overlap_some_card():  # ruling 2
    state = table(FOUR_CORNERS, to_move=ORANGE)
    assert "2,2" in texts(state)  # over one yellow square
    assert "-2,-2" in texts(state)  # over one red square, far from the middle
    # 3,0 touches blue and yellow along an edge but covers nothing.
    assert "3,0" not in texts(state)
    with pytest.raises(IllegalMove, match="not overlap"):
        GAME.play(state, "3,0")


def test_a_card_may_cover_its_owners_own_card():  # ruling 3
    state = table(FOUR_CORNERS, to_move=RED)
    after = GAME.play(state, "-2,-2")
    assert after.cards[-1].owner == RED and after.cards[-1].covers == (1,)


def test_legal_moves_are_exactly_the_placements_that_play():
    state = table([*FOUR_CORNERS, (ORANGE, 0, 0), (RED, 2, 2)], to_move=BLUE)
    listed = texts(state)
    xs, ys = zip(*visible_squares(state), strict=True)
    min_x, min_y, max_x, max_y = min(xs), min(ys), max(xs), max(ys)
    for x in range(min_x - 2, max_x + 2):
        for y in range(min_y - 2, max_y + 2):
            assert GAME.is_legal(state, f"{x},{y}") == (f"{x},{y}" in listed)


def test_there_is_always_a_legal_placement_in_the_white_phase():  # ruling 5 (exhaustive)
    # Every placement covers one white square, so the white phase is the first four cards.
    def explore(state: KoloryState, depth: int) -> int:
        moves = GAME.legal_moves(state)
        assert moves
        if depth == 4:
            return 1
        return sum(explore(GAME.play(state, m), depth + 1) for m in moves)

    assert explore(GAME.new(5, seed=1), 0) > 0


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_the_corner_placement_is_always_legal_after_the_white_phase(seed, players):  # ruling 5
    for state in playout(players, seed)[4:-1]:
        squares = visible_squares(state)
        x, y = min(squares, key=lambda s: (s[1], s[0]))  # top row, leftmost
        assert GAME.is_legal(state, f"{x - 1},{y - 1}")


# ----- turn order -----------------------------------------------------------------------------


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_each_round_starts_with_a_drawn_seat_then_increasing_seats_wrapping(seed, players):
    states = playout(players, seed)
    movers = [s.to_move for s in states[:-1]]
    assert len(movers) == players * 10
    for number in range(1, 11):
        first = rng_for(seed, "round", number).randrange(players)
        round_movers = movers[(number - 1) * players: number * players]
        assert round_movers == [(first + i) % players for i in range(players)]


def test_a_seat_may_place_two_cards_in_a_row_across_rounds():  # ruling 4
    seed = next(
        s for s in range(1000)
        if rng_for(s, "round", 1).randrange(2) == 0 and rng_for(s, "round", 2).randrange(2) == 1
    )
    state = GAME.new(2, seed=seed)
    assert state.to_move == 0
    state = GAME.play(state, GAME.legal_moves(state)[0])
    assert state.to_move == 1
    state = GAME.play(state, GAME.legal_moves(state)[0])
    assert state.round == 2 and state.to_move == 1


def test_the_same_seat_may_open_several_rounds():  # ruling 4
    firsts = [rng_for(5, "round", n).randrange(3) for n in range(1, 11)]
    assert len(set(firsts)) < 10
    states = playout(3, 5)
    openers = [s.to_move for s in states[:-1] if s.placed_in_round == 0]
    assert openers == firsts


def test_views_hide_the_future_first_players():
    # Two seeds with the same first player in round 1 but different ones in round 2.
    by_first: dict[tuple[int, int], int] = {}
    for s in range(200):
        by_first.setdefault((rng_for(s, "round", 1).randrange(4),
                             rng_for(s, "round", 2).randrange(4)), s)
    a = by_first[(0, 1)]
    b = by_first[(0, 2)]
    for seat in (None, 0, 3):
        view_a = GAME.view(GAME.new(4, seed=a), seat)
        view_b = GAME.view(GAME.new(4, seed=b), seat)
        assert view_a == view_b and view_a.seed is None
        assert GAME.dump(view_a) == GAME.dump(view_b)


# ----- end and scores -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_ends_when_every_card_is_placed(players):
    states = playout(players, seed=players)
    final = states[-1]
    assert final.to_move is None and final.outcome is not None
    assert all(final.cards_left(seat) == 0 for seat in range(players))
    assert all(s.to_move is not None for s in states[:-1])
    assert len(final.cards) == 1 + 10 * players


def test_score_is_the_largest_orthogonal_group_and_diagonals_do_not_join():
    diagonal = table([(RED, -1, -1), (RED, 1, 1)], players=2)
    assert largest_groups(diagonal) == (4, 0)  # (0,0) and (1,1) touch by a corner only
    joined = table([(RED, -1, -1), (RED, 1, 1), (BLUE, 1, -1), (RED, -1, 1)], players=2)
    assert largest_groups(joined) == (12, 4)  # (0,1) links both red cards


def test_covered_squares_do_not_score():
    before = table([(RED, -1, -1), (BLUE, 1, 1), (BLUE, -1, 1), (RED, 1, -1)], players=2,
                   to_move=BLUE)
    assert largest_groups(before)[RED] == 8
    after = GAME.play(before, "0,-2")  # over red (0,-1) of one card and red (1,-1) of the other
    colours = visible_colours(after)
    assert colours[(0, -1)] == BLUE and colours[(1, -1)] == BLUE
    assert largest_groups(after)[RED] == 6  # still joined through (0,0)-(1,0)


def test_equal_best_scores_share_the_win():  # ruling 6
    state = table([(RED, -1, -1), (BLUE, 1, 1), (RED, 1, -1)], players=2, to_move=BLUE)
    state = GAME.load({**GAME.dump(state), "round": 10, "placed_in_round": 1, "round_first": 0})
    final = GAME.play(state, "-1,1")  # blue over the last white square: 8 squares each
    assert final.outcome.scores == (8.0, 8.0)
    assert final.outcome.winners == frozenset({RED, BLUE})
    assert "share" in final.outcome.reason


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_outcome_scores_are_the_largest_groups_and_the_best_win(seed, players):  # ruling 6
    final = playout(players, seed)[-1]
    sizes = []
    colours = visible_colours(final)
    for seat in range(players):
        groups = components(sq for sq, owner in colours.items() if owner == seat)
        sizes.append(max((len(g) for g in groups), default=0))
    assert final.outcome.scores == tuple(float(s) for s in sizes)
    assert final.outcome.winners == {seat for seat in range(players) if sizes[seat] == max(sizes)}


# ----- the stack and storage ------------------------------------------------------------------


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_visible_map_and_stack_match_painting_the_cards_in_order(seed, players):
    final = playout(players, seed)[-1]
    painted: dict[tuple[int, int], int] = {}
    for index, card in enumerate(final.cards):
        assert card.covers == tuple(painted[sq] for sq in card.squares if sq in painted)
        assert len(set(card.covers)) == len(card.covers)  # ruling 1, never broken
        for sq in card.squares:
            painted[sq] = index
    assert visible_squares(final) == painted


def test_dump_load_rebuilds_the_stack_and_the_visible_map():
    states = playout(4, seed=9)
    for state in [*states[::7], states[-1]]:
        loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        assert loaded == state
        assert dict(loaded.top) == dict(state.top)
        assert loaded.white_visible == state.white_visible
        assert [c.covers for c in loaded.cards] == [c.covers for c in state.cards]


def test_states_are_immutable_values():
    state = GAME.new(2, seed=1)
    with pytest.raises(TypeError):
        state.top[123] = 4  # the visible map is read-only
    GAME.play(state, "1,1")
    assert len(state.cards) == 1 and state.white_visible == 4


def test_describe_names_the_colour_and_the_square():
    state = table([], players=3, to_move=GREEN)
    assert GAME.describe(state, KoloryMove(1, -1)) == (
        "Green places a card with its top-left corner on 1,-1"
    )


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_placements_kept_card_by_card_match_a_fresh_search(seed, players):
    for state in playout(players, seed)[:-1]:
        kept = GAME.legal_moves(state)
        fresh = GAME.legal_moves(GAME.load(GAME.dump(state)))
        assert list(kept) == list(fresh)
        assert len(kept) == len(fresh) and kept[len(kept) // 2] in fresh
        assert [str(m) for m in kept[:3]] == [str(kept[i]) for i in range(min(3, len(kept)))]


def test_the_result_names_the_winners_and_their_patch():
    state = table([(RED, -1, -1), (BLUE, 1, 1), (RED, 1, -1)], players=2, to_move=BLUE)
    state = GAME.load({**GAME.dump(state), "round": 10, "placed_in_round": 1, "round_first": 0})
    final = GAME.play(state, "-1,1")
    assert final.outcome.reason == "Red and Blue share the win with 8 squares each"
