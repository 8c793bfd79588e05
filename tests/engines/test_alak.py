"""Alak rule tests: one test per ruling of RULES.md §1."""

from __future__ import annotations

import random

import pytest

import engines
from engines import IllegalMove
from engines.alak import AlakState
from engines.graphgo import EMPTY, group_and_liberties, line_adjacency

GAME = engines.get("alak")
CELLS = {".": EMPTY, "b": 0, "w": 1}


def position(text: str, to_move: int = 0, banned: str = "") -> AlakState:
    """A position drawn as text, e.g. ``"bww.."`` (b = Black, w = White, . = empty)."""
    return AlakState(
        players=2,
        seed=1,
        length=len(text),
        board=tuple(CELLS[c] for c in text),
        to_move=to_move,
        banned=frozenset("abcdefghijklmnopqrstuvwxyz".index(c) for c in banned),
        captures=(0, 0),
        ply=0,
    )


def drawn(state: AlakState) -> str:
    return "".join({EMPTY: ".", 0: "b", 1: "w"}[v] for v in state.board)


def test_length_option_is_7_to_26_with_default_11():
    assert GAME.new(2, seed=1).length == 11
    for length in (7, 18, 26):
        state = GAME.new(2, seed=1, options={"length": length})
        assert len(state.board) == length
        assert len(GAME.legal_moves(state)) == length
    for length in (6, 27):
        with pytest.raises(ValueError):
            GAME.new(2, seed=1, options={"length": length})


def test_points_are_letters_from_a_at_the_left_end():
    state = GAME.new(2, seed=1)
    assert [str(m) for m in GAME.legal_moves(state)] == list("abcdefghijk")
    after = GAME.play(state, "a")
    assert drawn(after) == "b.........."
    assert drawn(GAME.play(state, " K ")) == "..........b"
    with pytest.raises(IllegalMove):
        GAME.play(state, "l")  # no twelfth point on a line of 11


def test_black_moves_first_and_seats_alternate():
    state = GAME.new(2, seed=1)
    assert state.to_move == 0
    state = GAME.play(state, "c")
    assert state.to_move == 1
    assert drawn(GAME.play(state, "e")) == "..b.w......"


def test_a_move_needs_an_empty_point():
    with pytest.raises(IllegalMove):
        GAME.play(position("..b....", to_move=1), "c")


def test_adjacent_enemy_group_without_liberty_is_captured():
    after = GAME.play(position(".bww...", to_move=0), "e")
    assert drawn(after) == ".b..b.."
    assert after.captures == (2, 0)


def test_enemy_group_keeping_a_liberty_is_not_captured():
    after = GAME.play(position("..ww...", to_move=0), "e")
    assert drawn(after) == "..wwb.."
    assert after.captures == (0, 0)


def test_the_edge_is_not_a_liberty():
    # White's group touches the left edge: Black closing its only other side captures it.
    after = GAME.play(position("ww.....", to_move=0), "c")
    assert drawn(after) == "..b...."
    assert after.captures == (2, 0)


def test_suicide_is_allowed_and_the_group_stays_safe():
    state = position(".w.w...", to_move=0)
    assert "c" in {str(m) for m in GAME.legal_moves(state)}
    state = GAME.play(state, "c")  # no liberty, captures nothing
    assert drawn(state) == ".wbw..."
    # The stone stays while the game goes on around it.
    state = GAME.play(state, "a")
    assert drawn(state) == "wwbw..."
    state = GAME.play(state, "g")
    assert drawn(state) == "wwbw..b"


def test_safe_group_is_captured_only_after_regaining_a_liberty_and_losing_it():
    state = position("wwbw.....", to_move=0)  # Black's c is a safe (libertyless) stone
    state = GAME.play(state, "e")  # captures d: c regains the liberty d
    assert drawn(state) == "wwb.b...."
    state = GAME.play(state, "i")  # White may not retake d at once (ko-like ban)
    state = GAME.play(state, "g")
    state = GAME.play(state, "d")  # White takes c's liberty back: c is captured
    assert drawn(state) == "ww.wb.b.w"
    assert state.captures == (1, 1)


def test_captures_are_resolved_before_anything_else():
    # Black's stone on c has no liberty when placed, but it first captures both neighbours,
    # so it is an ordinary group with two liberties afterwards.
    state = GAME.play(position("bw.wb..", to_move=0), "c")
    assert drawn(state) == "b.b.b.."
    assert state.captures == (2, 0)
    _, liberties = group_and_liberties(state.board, line_adjacency(7), 2)
    assert liberties == {1, 3}


def test_just_captured_points_are_banned_for_the_very_next_move_only():
    state = GAME.play(position("bww......", to_move=0), "d")
    assert drawn(state) == "b..b....."
    assert state.banned == frozenset({1, 2})
    legal = {str(m) for m in GAME.legal_moves(state)}
    assert "b" not in legal and "c" not in legal
    with pytest.raises(IllegalMove, match="captured"):
        GAME.play(state, "b")
    state = GAME.play(state, "i")
    # The ban lasted one move: Black may now play there, and so may White after that.
    assert {"b", "c"} <= {str(m) for m in GAME.legal_moves(state)}
    state = GAME.play(state, "f")
    state = GAME.play(state, "c")
    assert drawn(state) == "b.wb.b..w"


def test_game_ends_when_the_player_to_move_has_no_legal_move():
    state = GAME.play(position("bbbwww.", to_move=1), "g")
    assert state.to_move is None
    assert GAME.legal_moves(state) == ()
    with pytest.raises(IllegalMove):
        GAME.play(state, "a")


def test_game_ends_when_only_banned_points_are_empty():
    state = GAME.play(position("bww.bbb", to_move=0), "d")
    assert drawn(state) == "b..bbbb"  # White's only empty points were just captured
    assert state.to_move is None
    assert state.outcome is not None


def test_most_stones_wins_and_scores_are_stones_on_the_line():
    state = GAME.play(position("bbbwww.", to_move=1), "g")
    assert state.outcome.winners == frozenset({1})
    assert state.outcome.scores == (3.0, 4.0)
    state = GAME.play(position("bww.bbb", to_move=0), "d")
    assert state.outcome.winners == frozenset({0})
    assert state.outcome.scores == (5.0, 0.0)


def test_equal_stone_counts_are_a_draw():
    state = GAME.play(position("bbbbwww.", to_move=1), "h")
    assert state.outcome.winners == frozenset()
    assert state.outcome.scores == (4.0, 4.0)


def test_legal_moves_kept_from_move_to_move_match_a_fresh_count():
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.new(2, seed=seed, options={"length": 7 + seed % 20})
        while state.to_move is not None:
            kept = GAME.legal_moves(state)
            fresh = GAME.legal_moves(GAME.load(GAME.dump(state)))
            assert kept == fresh
            assert [m.point for m in kept] == [
                p for p, v in enumerate(state.board) if v == EMPTY and p not in state.banned
            ]
            state = GAME.play(state, rng.choice(kept))


def test_explain_says_what_a_capture_took_and_a_quiet_move_is_its_letter():
    state = position(".bww...", to_move=0)
    capture = GAME.parse_move("e", state)
    assert GAME.describe(state, capture) == "Black plays e and captures 2 stones"
    assert GAME.explain(state, capture).args["count"] == 2
    assert GAME.describe(state, GAME.parse_move("g", state)) == "g"


def test_the_result_says_who_won_and_by_how_many_stones():
    state = GAME.play(position("bbbwww.", to_move=1), "g")
    assert state.outcome.reason == "White wins with 4 stones to 3"
    state = GAME.play(position("bbbbwww.", to_move=1), "h")
    assert state.outcome.reason == "draw, 4 stones each"


def test_the_naive_reference_of_the_benchmark_plays_the_same_games():
    # bench/engines.py times the engine against a plain list implementation; the comparison
    # is fair only if both play the same games from the same random choices.
    from bench.engines import naive_alak_playout, playout

    for seed in range(60):
        final = playout(GAME, 2, seed)[-1]
        naive = naive_alak_playout(11, random.Random(seed))
        assert [{0: EMPTY, 1: 0, 2: 1}[v] for v in naive] == list(final.board)


def test_an_end_by_just_captured_points_says_why():
    """The only empty points were just captured: the outcome says no move is left and why;
    an end on a full line does not."""
    blocked = GAME.play(position("bww.bbb", to_move=0), "d")
    assert blocked.outcome.phrase.key == "alak.wins_blocked"
    assert blocked.outcome.reason.startswith("no move is left (the only empty points were "
                                             "just captured): Black wins with 5 stones to 0")
    full = GAME.play(position("bbbwww.", to_move=1), "g")
    assert full.outcome.phrase.key == "alak.wins"
