"""Polygo rule tests: one test per ruling of RULES.md §2 (and of the rulings documented in
engines/polygo.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import pytest

import engines
from engines import IllegalMove
from engines.graphgo import EMPTY, WALL, GoBoard
from engines.polygo import (
    BOARDS,
    PASS,
    PLAY,
    SCORING,
    STONE,
    PolygoMove,
    PolygoState,
    geometry,
    go_board,
    score,
)

GAME = engines.get("polygo")


def position(
    board: str = "star",
    black: Iterable[str] = (),
    white: Iterable[str] = (),
    walls: Iterable[str] = (),
    to_move: int = 0,
    captures: tuple[int, int] = (0, 0),
    phase: str = PLAY,
    dead: Iterable[str] = (),
) -> PolygoState:
    """A position given by cell names (the engine never reaches some of them in play, which is
    fine: each test only needs the cells it names)."""
    geo = geometry(board)
    cells = [EMPTY] * geo.size
    for value, names in ((0, black), (1, white), (WALL, walls)):
        for name in names:
            cells[geo.index[name]] = value
    return PolygoState(
        players=2,
        seed=1,
        board_kind=board,
        board=tuple(cells),
        to_move=to_move,
        phase=phase,
        passes=0,
        previous_board=None,
        captures=captures,
        dead=frozenset(geo.index[name] for name in dead),
        ply=0,
    )


def at(state: PolygoState, name: str) -> int:
    return state.board[geometry(state.board_kind).index[name]]


def neighbour_names(board: str, name: str) -> set[str]:
    geo = geometry(board)
    return {geo.names[n] for n in geo.adjacency[geo.index[name]]}


def listed(state: PolygoState) -> set[str]:
    return {str(m) for m in GAME.legal_moves(state)}


# ----- the board -----------------------------------------------------------------------------


def test_star_board_has_121_cells():
    assert geometry("star").size == 121
    state = GAME.new(2, seed=1)
    assert state.board_kind == "star"
    assert len(state.board) == 121
    assert set(state.board) == {EMPTY}


def test_centre_has_six_neighbours_and_each_tip_two():
    assert neighbour_names("star", "i9") == {"j9", "j8", "i8", "h9", "h10", "i10"}
    assert neighbour_names("star", "e17") == {"e16", "f16"}
    geo = geometry("star")
    tips = [geo.names[p] for p in range(geo.size) if len(geo.adjacency[p]) == 2]
    assert len(tips) == 6


def test_notation_letter_is_q_plus_8_and_number_r_plus_9_and_round_trips():
    geo = geometry("star")
    assert geo.names[geo.coords.index((0, 0))] == "i9"
    assert geo.names[geo.coords.index((-8, 4))] == "a13"
    assert geo.names[geo.coords.index((8, -4))] == "q5"
    assert {name[0] for name in geo.names} == set("abcdefghijklmnopq")
    assert {int(name[1:]) for name in geo.names} == set(range(1, 18))
    state = GAME.new(2, seed=1)
    for name in geo.names:
        move = GAME.parse_move(name, state)
        assert move == PolygoMove(STONE, (geo.index[name],), "star")
        assert str(move) == name
        assert GAME.parse_move(f" /{name.upper()} ", state) == move
    assert str(GAME.parse_move("I09", state)) == "i9"
    with pytest.raises(IllegalMove, match="no cell"):
        GAME.parse_move("a1", state)  # outside the star


def test_walls_are_written_after_the_stone_and_sorted_in_canonical_notation():
    state = GAME.new(2, seed=1)
    move = GAME.parse_move("i9 j8 h9 i10", state)
    assert str(move) == "i9 h9 i10 j8"
    assert GAME.parse_move("i9, i10, h9 j8", state) == move
    with pytest.raises(IllegalMove):
        GAME.parse_move("i9 j8 j8", state)
    with pytest.raises(IllegalMove):
        GAME.parse_move("i9 i9", state)


# ----- walls ---------------------------------------------------------------------------------


def test_a_wall_is_not_a_liberty():
    # The tip e17 has two neighbours; with a wall on one of them a White stone there has a
    # single liberty, which Black takes.
    state = position(white=["e17"], walls=["e16"])
    after = GAME.play(state, "f16")
    assert at(after, "e17") == EMPTY
    assert after.captures == (1, 0)


def test_a_wall_cell_cannot_be_played_on():
    state = position(walls=["i9"])
    assert "i9" not in listed(state)
    with pytest.raises(IllegalMove, match="wall"):
        GAME.play(state, "i9")
    with pytest.raises(IllegalMove):
        GAME.play(state, "j9 i9")  # nor walled again


def test_walls_are_not_territory_and_split_regions():
    # A full column of walls cuts the 9x9 board in two halves of 36 cells.
    walls = [f"e{row}" for row in range(1, 10)]
    state = position("square9", black=["a1"], white=["i9"], walls=walls)
    counted = score(state)
    assert counted.territory == (35, 35)
    assert not counted.territory_cells[0] & {geometry("square9").index[w] for w in walls}


def test_the_walls_of_a_turn_go_down_together_and_capture():
    # White's centre stone keeps three liberties (j9, j8, i10) next to Black's three stones.
    state = position(black=["i8", "h9", "h10"], white=["i9"])
    assert at(GAME.play(state, "j9"), "i9") == 1
    assert at(GAME.play(state, "j9 j8"), "i9") == 1  # one wall leaves it i10
    after = GAME.play(state, "j9 i10 j8")  # written in any order
    assert str(after.last_move) == "j9 i10 j8"
    assert at(after, "i9") == EMPTY
    assert at(after, "j8") == WALL and at(after, "i10") == WALL
    assert after.captures == (1, 0)


def _wall_capture_saves_own_group(extra_white_liberty: bool) -> PolygoState:
    """Black i8 has i9 as its only liberty; White j8 has only i9 and j9 (and k8 if asked)."""
    walls = ["j7", "i7", "h8", "h9", "k7"]
    if not extra_white_liberty:
        walls.append("k8")
    return position(black=["i8"], white=["j8"], walls=walls)


def test_walls_capture_before_the_own_liberty_check():
    # The wall on i9 takes the last liberty of Black's i8, but it also captures White's j8,
    # whose cell becomes i8's liberty: the enemy capture comes first, so the turn is legal.
    state = _wall_capture_saves_own_group(extra_white_liberty=False)
    assert "j9 i9" in listed(state)
    after = GAME.play(state, "j9 i9")
    assert at(after, "j8") == EMPTY
    assert at(after, "i8") == 0
    assert after.captures == (1, 0)


def test_a_turn_leaving_a_friendly_group_without_liberty_is_illegal():
    # Same shape, but White's j8 keeps k8: nothing is captured and i8 would be left without
    # a liberty by Black's own wall.
    state = _wall_capture_saves_own_group(extra_white_liberty=True)
    assert "j9" in listed(state)
    assert "j9 i9" not in listed(state)
    with pytest.raises(IllegalMove, match="last liberty"):
        GAME.play(state, "j9 i9")


def test_a_wall_must_touch_the_stone_just_placed():
    state = position(black=["a13"])
    with pytest.raises(IllegalMove, match="touch"):
        GAME.play(state, "i9 k9")
    # Touching an older stone is not enough.
    a13_neighbour = sorted(neighbour_names("star", "a13"))[0]
    with pytest.raises(IllegalMove, match="touch"):
        GAME.play(state, f"i9 {a13_neighbour}")
    assert at(GAME.play(state, "i9 j9"), "j9") == WALL


def test_walls_may_go_on_cells_the_stone_just_captured():
    # The stone captures first (White's e16, f16 lose their last liberty e17); the wall then
    # goes on an empty neighbour of the stone, which the capture has just freed.
    state = position(black=["e15", "f15", "g15"], white=["e16", "f16"])
    after = GAME.play(state, "e17 e16")
    assert at(after, "e16") == WALL
    assert at(after, "f16") == EMPTY
    assert after.captures == (2, 0)


# ----- suicide and ko ------------------------------------------------------------------------


def test_suicide_is_illegal():
    state = position(black=["e15", "f15"], white=["e16", "f16"])  # White keeps g15
    assert "e17" not in listed(state)
    with pytest.raises(IllegalMove, match="no liberty"):
        GAME.play(state, "e17")


def test_a_stone_without_liberty_is_legal_when_it_captures():
    state = position(black=["e15", "f15", "g15"], white=["e16", "f16"])
    assert "e17" in listed(state)
    assert GAME.describe(state, GAME.parse_move("e17", state)) == (
        "Black plays e17 and captures 2 stones"
    )
    after = GAME.play(state, "e17")
    assert at(after, "e16") == EMPTY and at(after, "f16") == EMPTY
    assert after.captures == (2, 0)


def test_ko_forbids_recreating_the_position_after_the_players_previous_turn():
    # With a wall on f16 the tip e17 has a single neighbour e16: a ko shape.
    state = position(white=["e17", "e15", "f15"], walls=["f16"])
    before = state.board
    state = GAME.play(state, "e16")  # Black captures e17
    assert at(state, "e17") == EMPTY and state.captures == (1, 0)
    # White retaking at once would bring back `before`, the position after White's last turn.
    assert "e17" not in listed(state)
    with pytest.raises(IllegalMove, match="ko"):
        GAME.play(state, "e17")
    # After an exchange elsewhere the retake is a new position, hence legal.
    state = GAME.play(state, "a13")
    state = GAME.play(state, "q5")
    assert "e17" in listed(state)
    state = GAME.play(state, "e17")
    assert at(state, "e16") == EMPTY and state.captures == (1, 1)
    assert state.board != before


# ----- passes and the scoring phase ----------------------------------------------------------


def test_two_consecutive_passes_start_scoring_with_the_player_who_did_not_pass_last():
    state = GAME.new(2, seed=1)
    state = GAME.play(state, "i9")
    state = GAME.play(state, "pass")
    state = GAME.play(state, "j9")  # a stone in between: the passes start over
    state = GAME.play(state, "pass")
    assert state.phase == PLAY
    state = GAME.play(state, "pass")
    assert state.phase == SCORING
    assert state.to_move == 1  # Black passed last
    with pytest.raises(IllegalMove):
        GAME.play(state, "k9")
    with pytest.raises(IllegalMove):
        GAME.play(state, "pass")


def test_scoring_words_are_refused_during_play():
    state = GAME.new(2, seed=1)
    for text in ("accept", "resume", "dead i9", "alive i9"):
        with pytest.raises(IllegalMove, match="scoring"):
            GAME.play(state, text)


def scoring_position() -> PolygoState:
    """9x9 halves split by walls; a White stone sits alone in Black's half."""
    walls = [f"e{row}" for row in range(1, 10)]
    return position(
        "square9",
        black=["a1", "a2"],
        white=["b5", "i9"],
        walls=walls,
        phase=SCORING,
        to_move=0,
        captures=(2, 1),
    )


def test_dead_marks_the_whole_group_and_passes_the_turn():
    state = scoring_position()
    assert {"accept", "resume", "dead a1", "dead b5", "dead i9"} == listed(state)
    assert GAME.describe(state, GAME.parse_move("dead a2 b5", state)) == (
        "Black marks the groups on a2 and b5 dead"
    )
    state = GAME.play(state, "dead a2")
    geo = geometry("square9")
    assert state.dead == frozenset({geo.index["a1"], geo.index["a2"]})
    assert state.to_move == 1
    assert "alive a1" in listed(state)
    with pytest.raises(IllegalMove, match="already"):
        GAME.play(state, "dead a1")
    with pytest.raises(IllegalMove, match="no stone"):
        GAME.play(state, "dead c3")


def test_alive_unmarks_a_dead_group_and_passes_the_turn():
    state = GAME.play(scoring_position(), "dead a1")
    state = GAME.play(state, "alive a2")
    assert state.dead == frozenset()
    assert state.to_move == 0
    with pytest.raises(IllegalMove, match="not marked dead"):
        GAME.play(state, "alive a1")


def test_accept_ends_the_game_with_the_current_dead_groups():
    state = GAME.play(scoring_position(), "dead b5")
    state = GAME.play(state, "accept")
    assert state.to_move is None
    # Black: 36 - 2 stones = 34 territory, 1 prisoner held by White -> 33.
    # White: 35 territory, 2 captured + 1 dead -> 32.
    assert state.outcome.scores == (33.0, 32.0)
    assert state.outcome.winners == frozenset({0})


def test_resume_returns_to_play_with_the_opponent_to_move_and_forgets_the_passes():
    state = GAME.new(2, seed=1)
    state = GAME.play(state, "i9")
    state = GAME.play(state, "pass")
    state = GAME.play(state, "pass")
    assert (state.phase, state.to_move) == (SCORING, 1)
    state = GAME.play(state, "dead i9")
    state = GAME.play(state, "resume")  # Black resumes: White moves next
    assert (state.phase, state.to_move, state.passes) == (PLAY, 1, 0)
    assert state.dead == frozenset()
    state = GAME.play(state, "pass")
    assert state.phase == PLAY  # one pass is not two
    state = GAME.play(state, "pass")
    assert (state.phase, state.to_move) == (SCORING, 1)


def test_score_is_territory_minus_prisoners_held_by_the_opponent():
    state = scoring_position()
    counted = score(state)
    # b5 is still alive: Black's half touches both colours and is nobody's.
    assert counted.territory == (0, 35)
    assert counted.prisoners == (1, 2)
    assert counted.points == (-1, 33)
    # Marked dead, b5 leaves the board for the count and becomes a prisoner.
    counted = score(GAME.play(state, "dead b5"))
    assert counted.territory == (34, 35)
    assert counted.prisoners == (1, 3)
    assert counted.points == (33, 32)


def test_a_region_touching_no_stone_is_nobodys_territory():
    state = position("square9", black=["a1"], walls=["b1", "a2", "e5"])
    assert score(state).territory == (0, 0)  # a1 walled in; the rest touches no stone


def test_equal_scores_are_a_draw():
    walls = [f"e{row}" for row in range(1, 10)]
    state = position("square9", black=["a1"], white=["i9"], walls=walls, phase=SCORING)
    state = GAME.play(state, "accept")
    assert state.outcome.winners == frozenset()
    assert state.outcome.scores == (35.0, 35.0)


# ----- other boards --------------------------------------------------------------------------


def test_hex5_board_is_a_hexagon_of_side_5():
    geo = geometry("hex5")
    counts = sorted(len(neighbours) for neighbours in geo.adjacency)
    assert geo.size == 61
    assert counts.count(3) == 6  # corners
    assert counts.count(4) == 6 * 3  # the rest of the edge
    assert counts.count(6) == 61 - 24
    assert neighbour_names("hex5", "e5") == {"f5", "f4", "e4", "d5", "d6", "e6"}
    state = GAME.new(2, seed=1, options={"board": "hex5"})
    assert len(state.board) == 61
    for name in geo.names:
        assert str(GAME.parse_move(name, state)) == name


def test_square9_board_has_four_neighbours():
    geo = geometry("square9")
    assert geo.size == 81
    assert neighbour_names("square9", "e5") == {"d5", "f5", "e4", "e6"}
    assert neighbour_names("square9", "a1") == {"a2", "b1"}
    assert len(neighbour_names("square9", "a5")) == 3
    state = GAME.new(2, seed=1, options={"board": "square9"})
    assert {name[0] for name in geo.names} == set("abcdefghi")
    assert {int(name[1:]) for name in geo.names} == set(range(1, 10))
    # Two stones capture a corner stone on this board.
    state = position("square9", black=["a2"], white=["a1"])
    assert at(GAME.play(state, "b1"), "a1") == EMPTY


def test_unknown_board_is_refused():
    with pytest.raises(ValueError):
        GAME.new(2, seed=1, options={"board": "triangle"})


# ----- the move list -------------------------------------------------------------------------


def _brute_force_turns(state: PolygoState) -> set[PolygoMove]:
    geo = geometry(state.board_kind)
    found = set()
    for p in range(geo.size):
        for walls in [(), *((w,) for w in geo.adjacency[p])]:
            try:
                GAME.play(state, PolygoMove(STONE, (p, *walls), state.board_kind))
            except IllegalMove:
                continue
            found.add(PolygoMove(STONE, (p, *walls), state.board_kind))
    return found


@pytest.mark.parametrize("board", ["star", "hex5", "square9"])
def test_legal_moves_are_pass_and_exactly_the_legal_stone_and_single_wall_turns(board):
    rng = random.Random(board)
    state = GAME.new(2, seed=3, options={"board": board})
    checked = 0
    while state.phase == PLAY and checked < 60:
        moves = GAME.legal_moves(state)
        stones = {m for m in moves if m.kind == STONE}
        assert [m for m in moves if m.kind != STONE] == [PolygoMove("pass", (), board)]
        assert stones == _brute_force_turns(state)
        checked += 1
        # Mostly stone-only turns, so that groups form and captures happen.
        singles = [m for m in moves if len(m.cells) == 1] if rng.random() < 0.7 else []
        state = GAME.play(state, rng.choice(singles or list(moves)))
    assert checked >= 20


def test_turns_with_several_walls_play_but_are_not_listed():
    state = GAME.new(2, seed=1)
    assert "i9 h9 j8" not in listed(state)
    after = GAME.play(state, "i9 j8 h9")
    assert at(after, "h9") == WALL and at(after, "j8") == WALL
    assert GAME.describe(state, GAME.parse_move("i9 j8 h9", state)) == (
        "Black plays i9 with walls on h9 and j8"
    )


def test_dump_and_load_keep_the_scoring_phase():
    state = GAME.play(scoring_position(), "dead b5")
    data = json.loads(json.dumps(GAME.dump(state)))
    assert GAME.load(data) == state
    assert data["dead"] == ["b5"]


# ----- every turn, walls included (RULES.md §2: for the AI) ----------------------------------


def _positions(board: str, seeds: Iterable[int], plies: Iterable[int]) -> list[PolygoState]:
    """Play-phase positions of random games that favour stone-only turns (so groups grow,
    fall into atari and get captured), taken at the given plies."""
    wanted = sorted(plies)
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new(2, seed=seed, options={"board": board})
        while state.ply <= wanted[-1] and state.phase == PLAY:
            if state.ply in wanted:
                found.append(state)
            moves = list(GAME.legal_moves(state))
            singles = [m for m in moves if len(m.cells) == 1]
            stone_only = singles and rng.random() < 0.8
            state = GAME.play(state, rng.choice(singles if stone_only else moves))
    return found


def _brute_force_all_turns(state: PolygoState) -> set[PolygoMove]:
    geo = geometry(state.board_kind)
    found = set()
    for p in range(geo.size):
        around = geo.adjacency[p]
        for subset in range(1 << len(around)):
            walls = sorted(w for i, w in enumerate(around) if subset >> i & 1)
            move = PolygoMove(STONE, (p, *walls), state.board_kind)
            try:
                GAME.play(state, move)
            except IllegalMove:
                continue
            found.add(move)
    return found


@pytest.mark.parametrize("board", ["hex5", "square9"])
def test_ruling_legal_turns_with_walls_enumerates_every_legal_turn(board):
    positions = _positions(board, seeds=range(3), plies=(6, 30, 55))
    assert len(positions) >= 6
    several = 0
    for state in positions:
        turns = GAME.legal_turns_with_walls(state)
        assert turns[-1] == PolygoMove(PASS, (), board)
        stones = turns[:-1]
        assert len(set(stones)) == len(stones)
        assert set(stones) == _brute_force_all_turns(state)
        # legal_moves lists exactly the turns with at most one wall among them.
        assert {m for m in GAME.legal_moves(state) if m.kind == STONE} == {
            m for m in stones if len(m.cells) <= 2
        }
        several += sum(len(m.cells) > 2 for m in stones)
    assert several > 0


def test_ruling_legal_turns_with_walls_in_the_scoring_phase_are_the_legal_moves():
    state = scoring_position()
    assert GAME.legal_turns_with_walls(state) == list(GAME.legal_moves(state))


# ----- the move list is a lazy sequence --------------------------------------------------------


def test_legal_moves_are_a_sequence_whose_items_iteration_and_length_agree():
    for state in _positions("star", seeds=range(2), plies=(0, 15, 40, 80)):
        moves = GAME.legal_moves(state)
        listed_moves = list(moves)
        assert len(moves) == len(listed_moves) == len(set(listed_moves))
        assert [moves[i] for i in range(len(moves))] == listed_moves
        assert moves[-1] == listed_moves[-1] == PolygoMove(PASS, (), "star")
        assert moves[3:9] == listed_moves[3:9]
        assert listed_moves[len(moves) // 2] in moves
        with pytest.raises(IndexError):
            moves[len(moves)]
        assert GAME.legal_moves(state) is moves  # computed once per state


def test_groups_kept_move_by_move_match_a_fresh_analysis():
    for board in BOARDS:
        for state in _positions(board, seeds=range(2), plies=range(0, 120, 7)):
            kept = go_board(state)
            fresh = GoBoard.from_cells(geometry(board).graph, state.board)
            assert kept.cells == state.board
            assert kept.empty == fresh.empty
            assert sorted(kept.groups.values()) == sorted(fresh.groups.values())
            for p, gid in enumerate(kept.owner):
                assert (gid >= 0) == (state.board[p] >= 0)
                if gid >= 0:
                    assert kept.groups[gid].stones & geometry(board).graph.bit[p]


@pytest.mark.parametrize("board", ["hex5", "square9"])
def test_listed_turns_match_brute_force_in_walled_games(board):
    # Uniformly random moves put walls everywhere: groups live on one or two liberties, which
    # is where captures can save a friendly group and the move list judges turns one by one.
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.new(2, seed=seed, options={"board": board})
        while state.phase == PLAY:
            if state.ply % 3 == 0:
                stones = {m for m in GAME.legal_moves(state) if m.kind == STONE}
                assert stones == _brute_force_turns(state)
                checked += 1
            state = GAME.play(state, rng.choice(list(GAME.legal_moves(state))))
    assert checked >= 40
