"""LPPG rules (RULES.md §5): one test per ruling, on hand-built terrains, plus properties.

Most rulings are checked on terrains drawn as pictures (``painted``): ``.`` outside, ``w``
white, ``r b g y`` the card colours, x to the right and y down from the picture's top-left.
The picture is the visible top layer of the cards; the state is then played through the public
API exactly like a real one. Dealing, drawing and the terrain built from real cards use real
decks (the ``deck`` option).
"""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import IllegalMove
from engines.core import Outcome
from engines.lppg import (
    CARD_IDS,
    DECK_SIZE,
    DrawMove,
    KeepMove,
    LppgMatch,
    LppgState,
    MarkMove,
    PassMove,
    PlayMove,
    _Geometry,
    _key,
    card_from_id,
    card_squares,
    cards_to_draw,
    closed_regions,
    terrain,
    territories,
)
from engines.lppg_terrain import placement_codes
from engines.phrases import ENGLISH

GAME = engines.get("lppg")
COLOUR_OF_LETTER = {"w": 0, "r": 1, "b": 2, "g": 3, "y": 4}
LETTER_OF_COLOUR = "wrbgy"


def painted(
    picture: str,
    *,
    markers=(),
    hands=(("B1", "B2"), ("G1", "G2")),
    turn_seat: int = 0,
    pending: str = "play",
    pile_a=None,
    pile_b=None,
    discard=(),
    final_turns=None,
) -> LppgState:
    """A state whose terrain is ``picture`` (see the module docstring)."""
    colour = {}
    for y, row in enumerate(textwrap.dedent(picture).strip().splitlines()):
        for x, letter in enumerate(row.strip()):
            if letter != ".":
                colour[_key(x, y)] = COLOUR_OF_LETTER[letter]
    hand_cards = tuple(tuple(card_from_id(c) for c in hand) for hand in hands)
    used = {c for hand in hand_cards for c in hand}
    rest = [c for c in range(DECK_SIZE) if c not in used]
    if pile_a is None:
        pile_a = tuple(rest[: len(rest) // 2])
    else:
        pile_a = tuple(card_from_id(c) for c in pile_a)
    if pile_b is None:
        pile_b = tuple(rest[len(rest) // 2 :])
    else:
        pile_b = tuple(card_from_id(c) for c in pile_b)
    state = LppgState(
        players=len(hands),
        seed=99,
        to_move=turn_seat,
        turn_seat=turn_seat,
        pending=pending,
        placed=(),
        markers=tuple(markers),
        hands=hand_cards,
        pile_a=pile_a,
        pile_b=pile_b,
        discard=tuple(card_from_id(c) for c in discard),
        final_turns=final_turns,
    )
    state.__dict__["geometry"] = _Geometry(colour)
    return state


def picture(state: LppgState) -> str:
    """The terrain as rows of letters, over its bounding box."""
    squares = terrain(state)
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    rows = []
    for y in range(min(ys), max(ys) + 1):
        row = ""
        for x in range(min(xs), max(xs) + 1):
            c = squares.get((x, y))
            row += "." if c is None else LETTER_OF_COLOUR[c]
        rows.append(row)
    return "\n".join(rows)


def deck_with(*first: str) -> list[str]:
    """A full deck in dealing order starting with ``first``, the rest in id order."""
    return [*first, *(c for c in CARD_IDS if c not in first)]


def texts(moves) -> set[str]:
    return {str(m) for m in moves}


# ----- material ---------------------------------------------------------------------------------


def test_deck_has_76_cards_in_4_colours_of_19_patterns_with_1_to_3_white_squares():
    assert len(CARD_IDS) == 76 == len(set(CARD_IDS))
    assert CARD_IDS[:3] == ("R1", "R2", "R3") and CARD_IDS[-1] == "Y19"
    whites = [sum(1 for *_, c in card_squares(card, 0) if c == 0) for card in range(76)]
    assert whites[:19] == [1] * 6 + [2] * 7 + [3] * 6
    assert whites == whites[:19] * 4
    # Same pattern, colour by id initial.
    assert {c for *_, c in card_squares(card_from_id("G5"), 0)} == {0, 3}


def card_picture(card: str, rot: int) -> list[str]:
    squares = card_squares(card_from_id(card), rot)
    width = 1 + max(dx for dx, _, _ in squares)
    height = 1 + max(dy for _, dy, _ in squares)
    rows = [["?"] * width for _ in range(height)]
    for dx, dy, c in squares:
        rows[dy][dx] = LETTER_OF_COLOUR[c]
    return ["".join(row) for row in rows]


def test_rotations_turn_the_card_clockwise_as_specified():
    # R16: white (0,0) (0,1) (1,0), upright "wwr / wrr".
    assert card_picture("R16", 0) == ["wwr", "wrr"]
    assert card_picture("R16", 90) == ["ww", "rw", "rr"]
    assert card_picture("R16", 180) == ["rrw", "rww"]
    assert card_picture("R16", 270) == ["rr", "wr", "ww"]
    # Pattern 19: {(0,1),(1,1),(1,2)}.
    assert card_picture("B19", 0) == ["bwb", "bww"]


# ----- setup and the deck option ----------------------------------------------------------------


def test_deck_option_deals_terrain_then_two_cards_per_seat_then_the_two_piles():
    deck = deck_with("R5", "R2", "B7", "B8", "G1", "G2")
    state = GAME.new(2, seed=1, options={"deck": deck})
    assert [(CARD_IDS[c], x, y, r) for c, x, y, r in state.placed] == [
        ("R5", 0, 0, 0),
        ("R2", 0, 2, 0),
    ]
    assert [[CARD_IDS[c] for c in hand] for hand in state.hands] == [["B7", "B8"], ["G1", "G2"]]
    rest = deck[6:]
    assert len(rest) == 70
    assert [CARD_IDS[c] for c in state.pile_a] == rest[:35]
    assert [CARD_IDS[c] for c in state.pile_b] == rest[35:]
    # The terrain is stacked: card i covers x 0..2, y 2i..2i+1.
    assert picture(state) == "rrr\nrwr\nrwr\nrrr"


def test_deck_option_with_4_players_and_a_string_of_ids():
    deck = deck_with("R1", "R2", "R3", "R4")
    state = GAME.new(4, seed=1, options={"deck": " ".join(deck).lower()})
    assert len(state.placed) == 4 and state.placed[3][1:] == (0, 6, 0)
    assert [len(h) for h in state.hands] == [2, 2, 2, 2]
    assert len(state.pile_a) == len(state.pile_b) == 32


@pytest.mark.parametrize(
    "deck",
    [CARD_IDS[:75], [*CARD_IDS[:75], "R1"], [*CARD_IDS[:75], "X9"], "R1 R2", 42],
)
def test_a_bad_deck_option_is_refused(deck):
    with pytest.raises(ValueError):
        GAME.new(2, seed=1, options={"deck": deck})


def test_without_deck_the_shuffle_follows_the_seed():
    a = GAME.new(2, seed=5)
    assert GAME.dump(GAME.new(2, seed=5)) == GAME.dump(a)
    assert GAME.dump(GAME.new(2, seed=6)) != GAME.dump(a)
    with pytest.raises(ValueError):
        GAME.new(3, seed=1)


def test_metadata():
    assert GAME.allowed_player_counts() == (2, 4)
    assert GAME.chance and GAME.hidden_information
    assert [GAME.seat_name(GAME.new(4, seed=1), s) for s in range(4)] == [
        "North", "East", "South", "West",
    ]
    assert [GAME.seat_name(GAME.new(2, seed=1), s) for s in range(2)] == ["North", "South"]


# ----- placement rules --------------------------------------------------------------------------


def test_a_card_must_cover_at_least_one_square_and_not_six():
    state = GAME.new(2, seed=1, options={"deck": deck_with("R5", "R2", "R15", "B8")})
    # R15 ("rrr / www") on a terrain of red: far away it covers nothing.
    with pytest.raises(IllegalMove, match="at least one square"):
        GAME.play(state, "play 1 10,10 0")
    with pytest.raises(IllegalMove, match="at least one square"):
        GAME.play(state, "play 1 3,0 0")  # right next to the terrain, touching no square
    with pytest.raises(IllegalMove, match="6 squares"):
        GAME.play(state, "play 1 0,0 0")
    # Over the top edge: its bottom row lies on the top row of the terrain (3 squares).
    assert GAME.is_legal(state, "play 1 0,-1 180")
    # One square only: the corner.
    assert GAME.is_legal(state, "play 1 2,-1 180")
    for move in GAME.legal_moves(state):
        covered = sum(
            (move.x + dx, move.y + dy) in terrain(state)
            for dx, dy, _ in card_squares(state.hands[0][move.slot - 1], move.rot)
        )
        assert 1 <= covered <= 5


def test_a_card_must_lie_on_at_least_one_square_of_its_own_colour_or_white():
    state = painted(
        """
        wrr
        rrr
        """,
        hands=(("B4", "B5"), ("G1", "G2")),
    )
    # Bottom rows over the top row "wrr": B4 "bbb / wbb" puts white on white.
    assert GAME.is_legal(state, "play 1 0,-1 0")
    # B5 "bbb / bwb": blue on white, white on red, blue on red: nothing matches.
    with pytest.raises(IllegalMove, match="same colour"):
        GAME.play(state, "play 2 0,-1 0")
    assert "play 2 0,-1 0" not in texts(GAME.legal_moves(state))
    # A card of the terrain's colour matches by colour.
    red = painted("wrr\nrrr", hands=(("R5", "B5"), ("G1", "G2")))
    assert GAME.is_legal(red, "play 1 0,-1 0")


TERRITORY = """
    rrrr
    rwr.
    rwr.
    rrr.
"""


def test_a_territory_may_not_be_covered_but_a_closed_region_may():
    # R6 "rrr / rrw" over x 1..3, y 1..2 covers (1,1), part of the closed area.
    marked = painted(TERRITORY, markers=[(1, "o", 1, 1)], hands=(("R6", "R1"), ("G1", "G2")))
    with pytest.raises(IllegalMove, match="territory"):
        GAME.play(marked, "play 1 1,1 0")
    for move in GAME.legal_moves(marked):
        card = marked.hands[0][move.slot - 1]
        covered = {(move.x + dx, move.y + dy) for dx, dy, _ in card_squares(card, move.rot)}
        assert not covered & {(1, 1), (1, 2)}
    unmarked = painted(TERRITORY, hands=(("R6", "R1"), ("G1", "G2")))
    assert GAME.is_legal(unmarked, "play 1 1,1 0")


TWO_TERRITORIES = """
    rrrrr
    rwrr.
    rrwr.
    rrrr.
"""


def test_territories_of_different_players_may_not_be_joined():
    # R4 "rrr / wrr" at 2,0 turns (2,1) white: it touches (1,1) and (2,2).
    state = painted(
        TWO_TERRITORIES,
        markers=[(0, "o", 1, 1), (1, "o", 2, 2)],
        hands=(("R4", "R1"), ("G1", "G2")),
    )
    with pytest.raises(IllegalMove, match="different players"):
        GAME.play(state, "play 1 2,0 0")
    assert "play 1 2,0 0" not in texts(GAME.legal_moves(state))


def test_joining_territories_of_different_players_is_illegal_even_into_an_open_area():
    # Ruling: R15 "rrr / www" at 2,0 joins (1,1) and (2,2) through (2,1) and reaches the
    # outside at (4,1): the joined area would be open, but the join itself is forbidden.
    state = painted(
        TWO_TERRITORIES,
        markers=[(0, "o", 1, 1), (1, "o", 2, 2)],
        hands=(("R15", "R1"), ("G1", "G2")),
    )
    with pytest.raises(IllegalMove, match="different players"):
        GAME.play(state, "play 1 2,0 0")
    # Two ordinary territories of one player joined into an open area: both markers return.
    own = painted(
        TWO_TERRITORIES,
        markers=[(0, "o", 1, 1), (0, "o", 2, 2)],
        hands=(("R15", "R1"), ("G1", "G2")),
    )
    after = GAME.play(own, "play 1 2,0 0")
    assert after.markers == () and after.pending == "draw"


def south_to_join_two_territories_of_north() -> LppgState:
    """South (seat 1) to play R4 at 2,0, which joins North's territories at 1,1 and 2,2."""
    return painted(
        TWO_TERRITORIES,
        markers=[(0, "o", 1, 1), (0, "p", 2, 2)],
        hands=(("G1", "G2"), ("R4", "R1")),
        turn_seat=1,
    )


def test_joining_two_territories_of_one_player_lets_their_owner_choose_the_marker():
    # South (seat 1) joins two territories of North (seat 0): North picks the marker to keep.
    state = south_to_join_two_territories_of_north()
    after = GAME.play(state, "play 1 2,0 0")
    assert after.pending == "keep"
    assert after.to_move == 0 and after.turn_seat == 1
    assert texts(GAME.legal_moves(after)) == {"keep 1,1", "keep 2,2"}
    with pytest.raises(IllegalMove):
        GAME.play(after, "keep 2,1")
    with pytest.raises(IllegalMove, match="keep"):
        GAME.play(after, "draw a b")
    kept = GAME.play(after, "keep 2,2")
    assert kept.markers == ((0, "p", 2, 2),)  # the ordinary marker went back to North
    assert territories(kept) == [(0, "p", ((1, 1), (2, 1), (2, 2)))]
    # The decision made, the turn goes on for South: nothing to mark, so the draw.
    assert kept.to_move == 1 and kept.pending == "draw"


def test_joining_own_territories_as_the_mover_keeps_the_turn_with_the_mover():
    state = painted(
        TWO_TERRITORIES,
        markers=[(0, "o", 1, 1), (0, "o", 2, 2)],
        hands=(("R4", "R1"), ("G1", "G2")),
    )
    after = GAME.play(state, "play 1 2,0 0")
    assert (after.pending, after.to_move) == ("keep", 0)
    kept = GAME.play(after, "keep 1,1")
    assert kept.markers == ((0, "o", 1, 1),)
    assert (kept.pending, kept.to_move) == ("draw", 0)


OPENABLE = """
    rrrr
    rwr.
    rrr.
"""


def test_opening_an_ordinary_territory_returns_its_marker():
    # R9 "rrr / wwr" at 2,0: (2,1) and (3,1) white; (3,1) touches the outside below it.
    state = painted(OPENABLE, markers=[(1, "o", 1, 1)], hands=(("R9", "R1"), ("G1", "G2")))
    after = GAME.play(state, "play 1 2,0 0")
    assert after.markers == ()
    assert territories(after) == [] and closed_regions(after) == []
    assert after.pending == "draw"


def test_a_permanent_territory_may_not_be_opened():
    state = painted(OPENABLE, markers=[(1, "p", 1, 1)], hands=(("R9", "R1"), ("G1", "G2")))
    with pytest.raises(IllegalMove, match="permanent"):
        GAME.play(state, "play 1 2,0 0")
    assert "play 1 2,0 0" not in texts(GAME.legal_moves(state))
    # Growing it without opening it is fine: R4 "rrr / wrr" at 2,0 makes (2,1) white only.
    grow = painted(OPENABLE, markers=[(1, "p", 1, 1)], hands=(("R4", "R1"), ("G1", "G2")))
    after = GAME.play(grow, "play 1 2,0 0")
    assert territories(after) == [(1, "p", ((1, 1), (2, 1)))]


# ----- marking ----------------------------------------------------------------------------------

OLDER_CLOSED = """
    rrrrrr
    rwwrw.
    rrrrrr
"""


def test_the_largest_closed_region_must_be_marked_even_an_older_one():
    # R3 "rrw / rrr" at 5,0 closes (4,1) (1 square); the older region (1,1)-(2,1) is larger.
    state = painted(OLDER_CLOSED, hands=(("R3", "R1"), ("G1", "G2")))
    after = GAME.play(state, "play 1 5,0 0")
    assert after.pending == "mark" and after.to_move == 0
    assert sorted(len(r) for r in closed_regions(after)) == [1, 2]
    # Listed once, by its top-left square, once per kind of marker available.
    assert texts(GAME.legal_moves(after)) == {"mark o 1,1", "mark p 1,1"}
    with pytest.raises(IllegalMove, match="largest"):
        GAME.play(after, "mark o 4,1")
    with pytest.raises(IllegalMove, match="time to mark"):
        GAME.play(after, "draw a b")  # marking is not optional
    # Any square names the region.
    marked = GAME.play(after, "mark o 2,1")
    assert marked.markers == ((0, "o", 1, 1),)
    assert str(marked.last_move) == "mark o 1,1"
    assert GAME.parse_move("mark o 2,1", after) == MarkMove("o", 1, 1)
    # One marker per turn: the smaller region stays for later.
    assert marked.pending == "draw"
    assert closed_regions(marked) == [((4, 1),)]


def test_a_closed_region_left_from_the_setup_must_be_marked_after_the_first_placement():
    # R5 over R2: their middle white squares form a closed region of 2 from the start.
    state = GAME.new(2, seed=1, options={"deck": deck_with("R5", "R2", "R15", "B8")})
    assert closed_regions(state) == [((1, 1), (1, 2))]
    after = GAME.play(state, "play 1 0,-1 180")
    assert after.pending == "mark"
    assert texts(GAME.legal_moves(after)) == {"mark o 1,1", "mark p 1,1"}


def test_ties_for_the_largest_region_offer_each_and_used_markers_are_not_offered():
    state = painted(
        """
        rrrrrrr
        rwrwrw.
        rrrrrrr
        """,
        markers=[(0, "p", 1, 1)],
        hands=(("R3", "R1"), ("G1", "G2")),
    )
    # A hand-built state where (1,1) is North's territory and (3,1) an older closed region.
    after = GAME.play(state, "play 1 6,0 0")  # closes (5,1)
    assert after.pending == "mark"
    assert texts(GAME.legal_moves(after)) == {"mark o 3,1", "mark o 5,1"}
    with pytest.raises(IllegalMove, match="permanent"):
        GAME.play(after, "mark p 3,1")


# ----- the end ----------------------------------------------------------------------------------

# Closed areas in row 1: A = (1,1)-(2,1) (2 squares), B = (4,1)-(6,1) (3), C = (8,1) (1);
# D = (10,1)... is open on the right until R14 turned 90 at 14,0 seals it (whites face outward).
ENDGAME = """
    rrrrrrrrrrrrrrr
    rwwrwwwrwrwwww.
    rrrrrrrrrrrrrrr
"""
SEAL = "play 1 14,0 90"


def endgame(markers, players=2, turn_seat=0, row=ENDGAME):
    hands = (("R14", "R1"), ("G1", "G2")) + ((("Y1", "Y2"), ("B1", "B2")) if players == 4 else ())
    return painted(row, markers=markers, hands=hands, turn_seat=turn_seat)


def test_ending_the_game_when_another_player_would_win_is_illegal():
    # North holds A (2) and B (3); South holds C (1). Sealing D (4) forces North's third
    # marker, and C, the smallest, would make South win.
    state = endgame([(0, "o", 1, 1), (0, "o", 4, 1), (1, "o", 8, 1)])
    with pytest.raises(IllegalMove, match="third marker"):
        GAME.play(state, SEAL)
    assert SEAL not in texts(GAME.legal_moves(state))
    # With only one marker down, North may seal it: the mark does not end the game.
    calm = endgame([(0, "o", 1, 1), (1, "o", 8, 1)])
    assert SEAL in texts(GAME.legal_moves(calm))


def test_the_winner_ends_the_game_with_the_third_marker_and_scores_its_size():
    state = endgame([(0, "o", 8, 1), (0, "o", 4, 1), (1, "o", 1, 1)])
    assert SEAL in texts(GAME.legal_moves(state))
    after = GAME.play(state, SEAL)
    assert texts(GAME.legal_moves(after)) == {"mark p 10,1"}
    over = GAME.play(after, "mark p 10,1")
    assert over.to_move is None and over.pending is None
    assert over.outcome.winners == frozenset({0})
    assert over.outcome.scores == (1.0, 0.0)
    assert GAME.legal_moves(over) == ()


SMALL_D = """
    rrrrrrrrrrrr
    rwwrwwwrwrw.
    rrrrrrrrrrrr
"""


def test_territories_of_equal_size_cancel_out():
    # North: C (1) and A (2); South: B (3). Sealing D (1) by R14 turned 90 at 11,0 gives North
    # a second 1: both ones cancel and North wins with A, 2 squares.
    state = endgame([(0, "o", 8, 1), (0, "o", 1, 1), (1, "o", 4, 1)], row=SMALL_D)
    after = GAME.play(state, "play 1 11,0 90")
    over = GAME.play(after, "mark p 10,1")
    assert over.outcome.winners == frozenset({0})
    assert over.outcome.scores == (2.0, 0.0)
    # The same with South holding A: once the ones cancel South's 2 is the smallest, so
    # North may not end the game that way.
    losing = endgame([(0, "o", 8, 1), (1, "o", 1, 1), (0, "o", 4, 1)], row=SMALL_D)
    assert "play 1 11,0 90" not in texts(GAME.legal_moves(losing))
    # Nothing left after cancelling: nobody wins, so nobody may end the game.
    nothing = endgame(
        [(0, "o", 8, 1), (0, "o", 4, 1)], row="rrrrrrrrrrrr\nrrrrwrrrwrw.\nrrrrrrrrrrrr"
    )
    assert "play 1 11,0 90" not in texts(GAME.legal_moves(nothing))


def test_four_players_play_in_teams_and_a_partner_may_end_the_game():
    # North (0) ends it while South (2), the partner, holds the smallest territory.
    team = endgame([(0, "o", 1, 1), (0, "o", 4, 1), (2, "o", 8, 1)], players=4)
    after = GAME.play(team, SEAL)
    over = GAME.play(after, "mark p 10,1")
    assert over.outcome.winners == frozenset({0, 2})
    assert over.outcome.scores == (1.0, 0.0, 1.0, 0.0)
    assert "North and South" in over.outcome.reason
    # With East (1) holding it, North may not.
    rivals = endgame([(0, "o", 1, 1), (0, "o", 4, 1), (1, "o", 8, 1)], players=4)
    assert SEAL not in texts(GAME.legal_moves(rivals))
    # Turns go round all four seats.
    four = painted("rrr\nrrr", hands=(("R14", "R1"), ("G1", "G2"), ("Y1", "Y2"), ("B1", "B2")))
    nxt = GAME.play(GAME.play(four, "play 1 0,-1 0"), "draw a b")
    assert (nxt.to_move, nxt.pending) == (1, "play")


# ----- drawing ----------------------------------------------------------------------------------


def drawing(pile_a, pile_b, discard=(), hand=(), players=2):
    """North about to draw (after discarding), with these piles."""
    others = (("G1", "G2"), ("Y1", "Y2"), ("B1", "B2"))[: players - 1]
    return painted("rrr", pending="draw", hands=(tuple(hand), *others),
                   pile_a=list(pile_a), pile_b=list(pile_b), discard=list(discard))


def test_draws_are_two_decisions_one_card_at_a_time():
    # Ruling (RULES.md §5, A turn, step 3): `draw a` / `draw b`, so the player sees the first
    # card and the new top colours before choosing the second pile.
    state = drawing(["R7", "G8"], ["B7", "B8"])
    assert texts(GAME.legal_moves(state)) == {"draw a", "draw b"}
    first = GAME.play(state, "draw a")
    assert first.hands[0] == (card_from_id("R7"),)
    assert (first.to_move, first.turn_seat, first.pending) == (0, 0, "draw")
    assert cards_to_draw(state) == 2 and cards_to_draw(first) == 1
    # Everyone now sees the new top of pile A (green) and the colour of the drawn card.
    public = GAME.dump(GAME.view(first, None))
    assert public["pile_a"] == ["G?"] and public["hands"][0] == ["R?"]
    assert texts(GAME.legal_moves(first)) == {"draw a", "draw b"}
    second = GAME.play(first, "draw b")
    # Slot order follows drawing order.
    assert second.hands[0] == (card_from_id("R7"), card_from_id("B7"))
    assert (second.to_move, second.turn_seat, second.pending) == (1, 1, "play")
    assert cards_to_draw(second) == 0
    other_order = GAME.play(GAME.play(state, "draw b"), "draw a")
    assert other_order.hands[0] == (card_from_id("B7"), card_from_id("R7"))


def position(state: LppgState) -> dict:
    """Everything of a state but the move count and the last move."""
    dumped = GAME.dump(state)
    del dumped["ply"], dumped["last_move"]
    return dumped


def test_draw_a_b_is_shorthand_for_the_two_draws_in_the_written_order():
    state = drawing(["R7", "R8"], ["B7", "B8"])
    for first, second in [("a", "b"), ("b", "a"), ("a", "a")]:
        shorthand = GAME.play(state, f"draw {first} {second}")
        one_by_one = GAME.play(GAME.play(state, f"draw {first}"), f"draw {second}")
        assert position(shorthand) == position(one_by_one)
        assert shorthand.ply == state.ply + 1  # one move
    # Re-forming between the two draws works the same through the shorthand.
    short = drawing(["R7"], ["B1", "B2"], ["R1", "R2", "R3"])
    assert position(GAME.play(short, "draw a b")) == position(
        GAME.play(GAME.play(short, "draw a"), "draw b")
    )
    both_b = GAME.play(state, "draw b b")
    assert both_b.hands[0] == (card_from_id("B7"), card_from_id("B8"))
    assert GAME.parse_move("Draw B A") == DrawMove("b", "a")
    assert GAME.parse_move("draw ab") == DrawMove("a", "b")
    assert str(DrawMove("a", "b")) == "draw a b" and str(DrawMove("b")) == "draw b"
    assert str(GAME.play(state, "draw a b").last_move) == "draw a b"
    # The shorthand is for both draws: after the first one, one card is left to draw.
    first = GAME.play(state, "draw a")
    with pytest.raises(IllegalMove, match="one card left") as refused:
        GAME.play(first, "draw a b")
    assert refused.value.code == "lppg.one_card_to_draw"
    # Moves offered are single draws; the shorthand is for typing.
    assert all(len(m.piles) == 1 for m in GAME.legal_moves(state))


def test_piles_are_re_formed_as_soon_as_one_runs_out_even_after_the_first_draw():
    # Ruling (RULES.md §5, A turn, step 3): pile A runs out with the first draw; the discard
    # and pile B are shuffled together at once and split, A getting the odd card, so the
    # second draw already chooses between the new piles.
    discard = ["R1", "R2", "R3"]
    state = drawing(["R7"], ["B1", "B2"], discard)
    first = GAME.play(state, "draw a")
    assert first.hands[0] == (card_from_id("R7"),)
    assert (len(first.pile_a), len(first.pile_b), first.discard) == (3, 2, ())
    assert first.reshuffles == 1 and first.pending == "draw"
    pool = {card_from_id(c) for c in [*discard, "B1", "B2"]}
    assert {*first.pile_a, *first.pile_b} == pool
    # The shuffle comes from the game's seed: the same state draws the same cards.
    assert GAME.play(state, "draw a") == first
    second = GAME.play(first, "draw b")
    assert second.hands[0] == (card_from_id("R7"), first.pile_b[0])
    # A pile that does not run out is not re-formed.
    untouched = GAME.play(state, "draw b")
    assert untouched.pile_a == (card_from_id("R7"),) and untouched.reshuffles == 0


def test_piles_are_re_formed_after_the_second_draw_too():
    state = drawing(["R7", "R8"], ["B1"], ["R1", "R2"], hand=["Y5"])
    after = GAME.play(state, "draw b")
    assert after.hands[0] == (card_from_id("Y5"), card_from_id("B1"))
    assert (len(after.pile_a), len(after.pile_b), after.discard) == (2, 2, ())
    assert after.reshuffles == 1
    assert (after.to_move, after.pending) == (1, "play")


def test_a_lone_remaining_card_goes_to_pile_a_and_an_empty_pile_cannot_be_named():
    state = drawing(["R7"], ["B1"])
    first = GAME.play(state, "draw a")
    # A ran out; only B1 was left to split: it goes to pile A, pile B stays empty.
    assert first.pile_a == (card_from_id("B1"),) and first.pile_b == ()
    assert texts(GAME.legal_moves(first)) == {"draw a"}
    before = GAME.dump(first)
    with pytest.raises(IllegalMove, match="pile B is empty") as refused:
        GAME.play(first, "draw b")
    assert refused.value.code == "lppg.pile_empty"
    assert GAME.dump(first) == before
    # Those were the last cards: the last round starts.
    last = GAME.play(first, "draw a")
    assert last.hands[0] == (card_from_id("R7"), card_from_id("B1"))
    assert last.final_turns == 2


def test_a_position_saved_with_both_piles_empty_re_forms_them_when_drawing():
    # Earlier rules re-formed the piles only when drawing from an empty one.
    state = drawing([], [], ["R1", "R2", "R3"])
    assert texts(GAME.legal_moves(state)) == {"draw a", "draw b"}
    after = GAME.play(state, "draw b")
    # Re-formed (A 2 cards, B 1), B drawn, and re-formed again as B ran out: 1 and 1.
    assert len(after.hands[0]) == 1 and after.reshuffles == 2
    assert (len(after.pile_a), len(after.pile_b), after.discard) == (1, 1, ())


def test_drawing_the_last_two_cards_gives_everyone_one_last_turn_then_scores():
    state = painted(
        """
        rrrrrr
        rwrrrr
        rrrrrr
        """,
        markers=[(1, "o", 1, 1)],
        pending="draw",
        hands=((), ("R14", "R15")),
        pile_a=["R16"],
        pile_b=["R17"],
    )
    # A runs out: the last card (R17) is re-formed into pile A, and drawn from there.
    drawn = GAME.play(GAME.play(state, "draw a"), "draw a")
    assert drawn.final_turns == 2
    assert (drawn.to_move, drawn.pending) == (1, "play")
    # South plays its last turn: no draw follows, the turn goes straight to North.
    south = GAME.play(drawn, "play 1 3,-1 0")
    assert (south.to_move, south.pending) == (0, "play")
    assert south.hands[1] == ()
    # North, who drew, plays last; then the game is scored for whoever it favours: South.
    north = GAME.play(south, "play 1 3,2 0")
    assert north.to_move is None
    assert north.outcome.winners == frozenset({1})
    assert north.outcome.scores == (0.0, 1.0)
    assert "ran out" in north.outcome.reason
    assert north.outcome.phrase.key == "lppg.wins"


def test_the_last_round_may_end_with_no_winner():
    state = painted("rrr\nrrr", pending="draw", hands=((), ("R14", "R15")),
                    pile_a=["R16"], pile_b=["R17"])
    state = GAME.play(state, "draw a a")
    state = GAME.play(state, "play 1 0,-1 0")
    state = GAME.play(state, "play 1 0,1 0")
    assert state.outcome == Outcome(frozenset(), (0.0, 0.0), state.outcome.reason,
                                    state.outcome.phrase)
    assert "nobody" in state.outcome.reason
    assert state.outcome.phrase.key == "lppg.nobody_wins"


def test_a_pass_in_the_last_round_ends_the_turn_without_drawing():
    state = painted("rrr\nrrr", hands=(("B1", "B14"), ("R14", "R15")), final_turns=2)
    after = GAME.play(state, "pass")
    assert (after.to_move, after.pending, after.final_turns) == (1, "play", 1)
    assert after.hands[0] == ()


# ----- passing ----------------------------------------------------------------------------------


def test_pass_only_when_neither_card_can_be_placed():
    # Blue cards on an all-red terrain: no square can match.
    stuck = painted("rrr\nrrr", hands=(("B1", "B14"), ("G1", "G2")))
    assert list(GAME.legal_moves(stuck)) == [PassMove()]
    after = GAME.play(stuck, "pass")
    assert after.hands[0] == ()
    assert set(after.discard[-2:]) == {card_from_id("B1"), card_from_id("B14")}
    assert (after.pending, after.to_move) == ("draw", 0)  # the two new cards come by `draw`
    free = painted("rrr\nrrr", hands=(("B1", "R14"), ("G1", "G2")))
    assert "pass" not in texts(GAME.legal_moves(free))
    with pytest.raises(IllegalMove, match="pass"):
        GAME.play(free, "pass")


# ----- notation ----------------------------------------------------------------------------------


def test_notation_is_forgiving_and_canonical():
    assert GAME.parse_move("  /PLAY 2  3, -4   90 ") == PlayMove(2, 3, -4, 90)
    assert str(PlayMove(2, 3, -4, 90)) == "play 2 3,-4 90"
    assert GAME.parse_move("keep 3 ,4") == KeepMove(3, 4)
    assert GAME.parse_move("Mark P 1,2") == MarkMove("p", 1, 2)
    for bad in ["play 3 0,0 0", "play 1 0,0 45", "play 1 0 0 0", "mark x 1,1", "draw c",
                "play 1 99999999999,0 0", "keep"]:
        with pytest.raises(IllegalMove):
            GAME.parse_move(bad)
    state = GAME.new(2, seed=3)
    with pytest.raises(IllegalMove, match="at least one square"):
        GAME.play(state, "play 1 999999,-999999 0")
    with pytest.raises(IllegalMove, match="place a card"):
        GAME.play(state, "draw a b")


def test_symmetric_placements_are_all_listed():
    # R12 "rwr / rwr" is the same card turned 180: both placements are listed.
    state = GAME.new(2, seed=1, options={"deck": deck_with("R5", "R2", "R12", "B8")})
    moves = texts(GAME.legal_moves(state))
    slot1 = {m for m in moves if m.startswith("play 1 ")}
    turned = {m.rsplit(" ", 1)[0] for m in slot1 if m.endswith(" 180")}
    upright = {m.rsplit(" ", 1)[0] for m in slot1 if m.endswith(" 0")}
    assert upright and turned == upright


# ----- the fast legal-move search agrees with the rules as played ------------------------------


def brute_force_placements(state: LppgState) -> set[str]:
    xs = [x for x, _ in terrain(state)]
    ys = [y for _, y in terrain(state)]
    legal = set()
    for slot in (1, 2):
        for rot in (0, 90, 180, 270):
            for x in range(min(xs) - 3, max(xs) + 2):
                for y in range(min(ys) - 3, max(ys) + 2):
                    move = PlayMove(slot, x, y, rot)
                    if GAME.is_legal(state, move):
                        legal.add(str(move))
    return legal


def interesting_states(players: int, seed: int, count: int) -> list[LppgState]:
    """Placement decisions from a random game, preferring those with a turn-ending risk."""
    rng = random.Random(seed)
    state = GAME.new(players, seed=seed)
    found = []
    while state.to_move is not None:
        if state.pending == "play" and (state.markers or rng.random() < 0.1):
            found.append(state)
        state = GAME.play(state, rng.choice(list(GAME.legal_moves(state))))
    risky = [s for s in found if s.board.markers_of[s.turn_seat] == 2]
    return (risky + found)[:count]


@pytest.mark.parametrize("players,seed", [(2, 11), (2, 12), (2, 15), (4, 13), (4, 14), (4, 16)])
def test_fast_and_full_placement_checks_agree(players, seed):
    for state in interesting_states(players, seed, 4):
        listed = [str(m) for m in GAME.legal_moves(state) if isinstance(m, PlayMove)]
        assert len(listed) == len(set(listed))
        assert set(listed) == brute_force_placements(state)


def test_fast_and_full_checks_agree_on_the_hand_built_terrains():
    states = [
        endgame([(0, "o", 1, 1), (0, "o", 4, 1), (1, "o", 8, 1)]),
        endgame([(0, "o", 8, 1), (0, "o", 4, 1), (1, "o", 1, 1)]),
        endgame([(0, "o", 8, 1), (1, "o", 1, 1), (0, "o", 4, 1)], row=SMALL_D),
        painted(TWO_TERRITORIES, markers=[(0, "o", 1, 1), (1, "o", 2, 2)],
                hands=(("R4", "R9"), ("G1", "G2"))),
        painted(OPENABLE, markers=[(1, "p", 1, 1)], hands=(("R9", "R4"), ("G1", "G2"))),
        painted(OLDER_CLOSED, hands=(("R3", "R13"), ("G1", "G2"))),
    ]
    for state in states:
        listed = {str(m) for m in GAME.legal_moves(state) if isinstance(m, PlayMove)}
        assert listed == brute_force_placements(state)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 4]))
def test_placements_decided_in_bulk_match_the_one_by_one_checks(seed, players):
    # The search decides most positions for all positions at once (bitboards); checking each
    # position on its own must give exactly the same moves, in the same order.
    rng = random.Random(seed)
    state = GAME.new(players, seed=seed)
    while state.to_move is not None:
        if state.pending == "play":
            mover = state.turn_seat
            hand = state.hands[mover]
            bulk = placement_codes(state.board, hand, mover, players)
            alone = placement_codes(state.board, hand, mover, players, one_by_one=True)
            assert bulk == alone
        state = GAME.play(state, rng.choice(list(GAME.legal_moves(state))))


# ----- properties: playouts, storage, determinism, hidden information -------------------------

PROPERTY = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(players: int, seed: int):
    rng = random.Random(seed)
    state = GAME.new(players, seed=seed)
    states, moves = [state], []
    while state.to_move is not None:
        move = rng.choice(list(GAME.legal_moves(state)))
        state = GAME.play(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def all_cards(state: LppgState) -> list[int]:
    return sorted(
        [c for c, *_ in state.placed]
        + [c for hand in state.hands for c in hand]
        + list(state.pile_a + state.pile_b + state.discard)
    )


@PROPERTY
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 4]))
def test_playouts_keep_every_card_and_the_markers_within_the_rules(seed, players):
    states, moves = playout(players, seed)
    for state in states:
        assert all_cards(state) == list(range(DECK_SIZE))
        for seat in range(players):
            kinds = [k for s, k, _, _ in state.markers if s == seat]
            assert kinds.count("o") <= 2 and kinds.count("p") <= 1
        # Every marker sits on a closed region of its own (after the keep decisions).
        if state.pending == "play":
            regions = [squares for *_, squares in territories(state)]
            assert len(set(regions)) == len(regions)
    final = states[-1]
    assert final.outcome is not None
    if final.outcome.winners:
        assert final.outcome.scores[min(final.outcome.winners)] > 0
        if players == 4:
            assert final.outcome.winners in (frozenset({0, 2}), frozenset({1, 3}))
    assert GAME.replay(players, seed, None, [str(m) for m in moves]) == states
    for state in states[:: max(1, len(states) // 5)]:
        dumped = json.loads(json.dumps(GAME.dump(state)))
        assert GAME.load(dumped) == state


def view_dump(state: LppgState, seat) -> str:
    return json.dumps(GAME.dump(GAME.view(state, seat)), sort_keys=True)


def test_views_do_not_depend_on_hidden_cards():
    # Two deals that differ only in South's hand and deep in the piles, card for card of the
    # same colour (colours are public: both faces of a card show it).
    base = deck_with("R5", "R2", "R15", "B8")
    other = list(base)

    def swap_with_same_colour(position: int, start: int) -> None:
        colour = other[position][0]
        partner = next(i for i in range(start, len(other)) if other[i][0] == colour)
        other[position], other[partner] = other[partner], other[position]

    # Seat 1's cards (positions 4, 5) swapped with cards below the top of pile A (which starts
    # at position 6), and two cards inside the piles swapped with each other.
    swap_with_same_colour(4, 8)
    swap_with_same_colour(5, 12)
    swap_with_same_colour(30, 32)
    a = GAME.new(2, seed=1, options={"deck": base})
    b = GAME.new(2, seed=1, options={"deck": other})
    assert GAME.dump(a) != GAME.dump(b)
    for move in ["play 1 0,-1 180", "mark o 1,1", "draw a b"]:
        assert view_dump(a, 0) == view_dump(b, 0)
        assert view_dump(a, None) == view_dump(b, None)
        assert view_dump(a, 1) != view_dump(b, 1)  # South sees their own hand
        a, b = GAME.play(a, move), GAME.play(b, move)
    assert view_dump(a, 0) == view_dump(b, 0)


@PROPERTY
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 4]))
def test_a_view_shows_only_the_own_hand_pile_sizes_and_top_colours(seed, players):
    states, _ = playout(players, seed)
    for state in states[:: max(1, len(states) // 8)]:
        for seat in [None, *range(players)]:
            dumped = json.loads(json.dumps(GAME.dump(GAME.view(state, seat))))
            for s, hand in enumerate(dumped["hands"]):
                if s == seat:
                    assert hand == [CARD_IDS[c] for c in state.hands[s]]
                else:
                    # Card backs show their colour: the colours are public, the patterns not.
                    assert hand == [CARD_IDS[c][0] + "?" for c in state.hands[s]]
            for name in ("pile_a", "pile_b"):
                pile = getattr(state, name)
                shown = dumped[name]
                assert len(shown) == len(pile)
                if pile:
                    assert shown[0] == CARD_IDS[pile[0]][0] + "?"
                    assert set(shown[1:]) <= {"?"}
            assert dumped["discard"] == ["?"] * len(state.discard)
            assert GAME.load(dumped) == GAME.view(state, seat)
            assert dumped["placed"] == GAME.dump(state)["placed"]
            assert dumped["markers"] == GAME.dump(state)["markers"]


# ----- words: what a move did, refusals ----------------------------------------------------------


def keys(phrase) -> set[str]:
    return {p.key for p in phrase}


def test_a_placement_is_described_with_the_region_it_leaves_to_mark():
    state = GAME.new(2, seed=1, options={"deck": deck_with("R5", "R2", "R15", "B8")})
    move = GAME.parse_move("play 1 0,-1 180")
    assert GAME.describe(state, move) == (
        "North places card R15 at 0,-1, turned 180°: "
        "the largest closed region (2 squares) must be marked"
    )
    assert keys(GAME.explain(state, move)) >= {"lppg.so", "lppg.place_turned", "lppg.to_mark"}
    # Nothing to mark, no turn: the plain sentence.
    red = painted("rrr\nrrr", hands=(("R14", "R1"), ("G1", "G2")))
    assert GAME.describe(red, GAME.parse_move("play 1 0,-1 0")) == (
        "North places card R14 at 0,-1"
    )
    # A view that hides the card (a spectator's) says "a card".
    seen = GAME.view(red, None)
    assert GAME.describe(seen, GAME.parse_move("play 1 0,-1 0")) == "North places a card at 0,-1"


def test_opening_a_territory_is_said_with_the_marker_going_back():
    state = painted(OPENABLE, markers=[(1, "o", 1, 1)], hands=(("R9", "R1"), ("G1", "G2")))
    assert GAME.describe(state, GAME.parse_move("play 1 2,0 0")) == (
        "North places card R9 at 2,0: "
        "South's territory at 1,1 opens and the marker returns to South"
    )


def test_a_growing_territory_is_said_with_its_new_size():
    state = painted(OPENABLE, markers=[(1, "p", 1, 1)], hands=(("R4", "R1"), ("G1", "G2")))
    assert GAME.describe(state, GAME.parse_move("play 1 2,0 0")) == (
        "North places card R4 at 2,0: South's territory at 1,1 grows to 2 squares"
    )


def test_a_merge_is_said_and_so_is_the_marker_kept():
    state = south_to_join_two_territories_of_north()
    move = GAME.parse_move("play 1 2,0 0")
    assert GAME.describe(state, move) == (
        "South places card R4 at 2,0: "
        "North's territories at 1,1 & 2,2 join: North chooses the marker to keep"
    )
    merged = GAME.play(state, move)
    assert GAME.describe(merged, KeepMove(2, 2)) == (
        "North keeps the marker on 2,2 and takes the other back"
    )


def test_a_mark_is_said_with_the_territory_size_and_a_third_marker_ends_the_game():
    state = GAME.new(2, seed=1, options={"deck": deck_with("R5", "R2", "R15", "B8")})
    state = GAME.play(state, "play 1 0,-1 180")
    assert GAME.describe(state, MarkMove("o", 1, 1)) == (
        "North puts an ordinary marker on the region at 1,1: it becomes a territory of 2 squares"
    )
    assert "permanent" in GAME.describe(state, MarkMove("p", 1, 1))
    winning = GAME.play(endgame([(0, "o", 8, 1), (0, "o", 4, 1), (1, "o", 1, 1)]), SEAL)
    assert GAME.describe(winning, MarkMove("p", 10, 1)) == (
        "North puts the permanent marker on the region at 10,1: "
        "it becomes a territory of 4 squares; North's third marker ends the game"
    )


def test_draws_are_said_by_colour_with_the_re_forming_and_the_last_cards():
    state = drawing(["R7", "G8", "Y1"], ["B7", "B8"])
    assert GAME.describe(state, DrawMove("a")) == "North draws a red card from pile A"
    # The shorthand says both, the second card's colour being the new top of its pile.
    assert GAME.describe(state, DrawMove("a", "a")) == (
        "North draws a red card from pile A; North draws a green card from pile A"
    )
    running_out = drawing(["R7"], ["B1", "B2"], ["R1", "R2", "R3"])
    assert GAME.describe(running_out, DrawMove("a")) == (
        "North draws a red card from pile A: pile A has run out, so the discard and pile B are "
        "shuffled into two new piles"
    )
    last = GAME.play(drawing(["R7"], ["B1"]), "draw a")
    assert GAME.describe(last, DrawMove("a")) == (
        "North draws a blue card from pile A: "
        "those were the last cards: everyone plays once more, without drawing"
    )
    # From a spectator's view: only what the view shows (colours of pile tops).
    seen = GAME.view(state, None)
    assert GAME.describe(seen, DrawMove("b")) == "North draws a blue card from pile B"
    assert GAME.describe(seen, DrawMove("a", "a")) == (
        "North draws a red card from pile A; North draws a card from pile A"
    )


def test_a_pass_says_both_cards_are_discarded_without_naming_them():
    stuck = painted("rrr\nrrr", hands=(("B1", "B14"), ("G1", "G2")))
    said = GAME.describe(stuck, PassMove())
    assert said == "North cannot place either card and discards both"


def test_outcomes_say_which_territories_cancelled():
    state = endgame([(0, "o", 8, 1), (0, "o", 1, 1), (1, "o", 4, 1)], row=SMALL_D)
    over = GAME.play(GAME.play(state, "play 1 11,0 90"), "mark p 10,1")
    assert over.outcome.reason == (
        "a third marker ended the game; the 2 territories of 1 square cancel out: "
        "North wins with the smallest unique territory (2 squares)"
    )
    assert keys(over.outcome.phrase) >= {"lppg.wins", "lppg.cancel", "lppg.end_third_marker"}
    team = endgame([(0, "o", 1, 1), (0, "o", 4, 1), (2, "o", 8, 1)], players=4)
    over = GAME.play(GAME.play(team, SEAL), "mark p 10,1")
    assert over.outcome.reason == (
        "a third marker ended the game: North and South win with the smallest unique "
        "territory (1 square)"
    )


REFUSAL_PROBES = [
    "", "   ", "zz99", "pass pass", "play 3 0,0 0", "play 1 0,0 45", "play 1 0,0 0",
    "play 2 40,40 90", "play 1 -1,-1 270", "mark o 0,0", "mark p 1,1", "mark o 9,9",
    "keep 0,0", "keep 1,1", "draw a", "draw b", "draw a b", "draw b b", "draw c", "pass",
    "💥", "play 1 999999,-999999 0",
]


@PROPERTY
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 4]))
def test_every_refusal_has_an_lppg_or_protocol_key_never_plain_text(seed, players):
    rng = random.Random(seed)
    states, _ = playout(players, seed)
    protocol = {"illegal.empty", "illegal.not_text", "illegal.game_over", "illegal.wrong_game"}
    for state in rng.sample(states, min(len(states), 25)):
        xs = [x for x, _ in terrain(state)]
        ys = [y for _, y in terrain(state)]
        near = [
            f"play {rng.choice((1, 2))} {rng.randint(min(xs) - 3, max(xs) + 1)},"
            f"{rng.randint(min(ys) - 3, max(ys) + 1)} {rng.choice((0, 90, 180, 270))}"
            for _ in range(25)
        ]
        near += [f"mark {rng.choice('op')} {rng.choice(xs)},{rng.choice(ys)}" for _ in range(5)]
        for text in [*REFUSAL_PROBES, *near, 42]:
            try:
                GAME.play(state, text)
            except IllegalMove as error:
                assert error.code.startswith("lppg.") or error.code in protocol, error.code
                assert error.reason == str(error.phrase)
                assert all(p.key in ENGLISH for p in error.phrase)
        for move in GAME.legal_moves(state):
            explained = GAME.explain(state, move)
            assert all(p.key in ENGLISH and not p.key.startswith("illegal.") for p in explained)
    assert states[-1].outcome.phrase is not None
    assert states[-1].outcome.phrase.key.startswith("lppg.")


# ----- the match ("Tournoi") --------------------------------------------------------------------


def test_match_rotates_the_first_seat_and_ends_at_ten_points_after_a_round():
    match = LppgMatch(("ann", "bob"))
    assert match.seating() == ("ann", "bob")
    match = match.record(Outcome(frozenset({0}), (4.0, 0.0), ""))  # ann wins 4
    assert match.seating() == ("bob", "ann")
    match = match.record(Outcome(frozenset({1}), (0.0, 5.0), ""))  # seat 1 = ann: 5
    assert match.points() == {"ann": 9, "bob": 0}
    assert not match.finished
    match = match.record(Outcome(frozenset(), (0.0, 0.0), ""))  # nobody scores
    match = match.record(Outcome(frozenset({0}), (6.0, 0.0), ""))  # round 4: seat 0 = bob
    assert match.points() == {"ann": 9, "bob": 6}
    match = match.record(Outcome(frozenset({0}), (1.0, 0.0), ""))  # round 5: ann again
    assert match.finished and match.winners == frozenset({"ann"})
    with pytest.raises(ValueError):
        match.record(Outcome(frozenset({0}), (1.0, 0.0), ""))


def test_four_player_match_keeps_partners_opposite_and_scores_the_team():
    match = LppgMatch(("a", "b", "c", "d"))
    seating = match.seating(1)
    assert seating == ("b", "c", "d", "a")
    assert {seating[0], seating[2]} == {"b", "d"}  # still partners
    match = match.record(Outcome(frozenset({0, 2}), (3.0, 0.0, 3.0, 0.0), ""))
    match = match.record(Outcome(frozenset({0, 2}), (7.0, 0.0, 7.0, 0.0), ""))  # b and d
    assert match.points() == {"a": 3, "b": 7, "c": 3, "d": 7}
    assert not match.finished
    match = match.record(Outcome(frozenset({1, 3}), (0.0, 3.0, 0.0, 3.0), ""))  # d and b
    assert match.winners == frozenset({"b", "d"})
    with pytest.raises(ValueError):
        LppgMatch(("solo", "duo", "trio"))


def test_the_public_view_of_a_public_view_still_shows_top_colours_and_hand_backs():
    # The bot stores the public view and draws the board from it, viewing it once more: the
    # colours of the pile tops and of the cards in hands (public) must survive that.
    state = GAME.new(2, seed=1, options={"deck": deck_with("R5", "R2", "B7", "G8", "Y1", "R9",
                                                           "G3", "B4")})
    twice = GAME.view(GAME.view(state, None), None)
    dumped = GAME.dump(twice)
    assert dumped["hands"] == [["B?", "G?"], ["Y?", "R?"]]
    assert dumped["pile_a"][0] == "G?"
    assert dumped["pile_b"][0] == CARD_IDS[state.pile_b[0]][0] + "?"
    assert set(dumped["pile_a"][1:] + dumped["pile_b"][1:]) == {"?"}
    assert twice == GAME.view(state, None)
    # A seat's own view viewed again keeps that seat's hand and hides the others' patterns.
    own = GAME.view(GAME.view(state, 1), 1)
    assert GAME.dump(own)["hands"] == [["B?", "G?"], ["Y1", "R9"]]


# ----- games stored under the first edition of the rules ---------------------------------------

EDITION_1 = json.loads(
    (Path(__file__).parent / "data" / "lppg_edition1.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", EDITION_1, ids=lambda c: f"{c['players']}p-{c['seed']}")
def test_games_of_the_first_edition_replay_exactly_with_edition_1(case):
    """Move lists recorded before the two-step draw (``draw a b`` drew both cards; a pile was
    re-formed only when drawn from empty) replay to the same result under ``edition=1``."""
    states = GAME.replay(case["players"], case["seed"], {"edition": 1}, case["moves"])
    final = states[-1]
    assert final.reshuffles == case["reshuffles"]
    assert sorted(final.outcome.winners) == case["winners"]
    assert list(final.outcome.scores) == case["scores"]


@pytest.mark.parametrize("case", [c for c in EDITION_1 if c["mid"]],
                         ids=lambda c: f"{c['players']}p-{c['seed']}")
def test_a_snapshot_stored_before_editions_goes_on_under_the_first(case):
    """A running game's snapshot written by the earlier engine has no edition: it loads as
    edition 1, so its next moves follow the rules it started under (and match its replay)."""
    ply, snapshot = case["mid"]["ply"], case["mid"]["snapshot"]
    assert "edition" not in snapshot
    state = GAME.load(snapshot)
    assert state.edition == 1
    for move in case["moves"][ply:]:
        state = GAME.play(state, move)
    assert sorted(state.outcome.winners) == case["winners"]
    assert list(state.outcome.scores) == case["scores"]


def test_the_first_edition_draws_both_cards_in_one_decision():
    state = GAME.new(2, seed=5, options={"edition": 1})
    while state.pending != "draw":
        state = GAME.play(state, GAME.legal_moves(state)[0])
    assert sorted(map(str, GAME.legal_moves(state))) == ["draw a a", "draw a b", "draw b b"]
    with pytest.raises(IllegalMove):
        GAME.play(state, "draw a")
    after = GAME.play(state, "draw b a")
    assert after.pending == "play" and after.turn_seat != state.turn_seat
    assert GAME.load(GAME.dump(after)) == after
