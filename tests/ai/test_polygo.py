"""Polygo AI: its board agrees with the engine (stones, walls, captures, ko, the count), it
finds captures with walls, and it handles the scoring phase."""

from __future__ import annotations

import itertools
import random

import pytest

import ai
import engines
from ai import polygo
from engines import IllegalMove
from engines.graphgo import EMPTY
from engines.polygo import SCORING, geometry, score
from tests.engines.test_polygo import position

GAME = engines.get("polygo")


def _positions(count: int, board: str, seed: int):
    """Positions of games played at random with stone turns (and a wall one turn in four)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = GAME.new(2, seed=0, options={"board": board})
        for _ in range(rng.randrange(10, 160)):
            moves = [m for m in GAME.legal_moves(state) if m.kind == "stone"]
            plain = [m for m in moves if len(m.cells) == 1]
            pool = moves if rng.random() < 0.25 else plain
            if not pool:
                break
            state = GAME.play(state, rng.choice(pool))
        made += 1
        yield state


def _engine_turn(state, turn):
    try:
        return GAME.play(state, polygo.turn_text(turn, state.board_kind))
    except IllegalMove:
        return None


def test_fast_board_matches_the_engine_over_thousands_of_turns():
    rng = random.Random(5)
    checked = 0
    for n, state in enumerate(itertools.cycle([0])):
        if checked >= 3000:
            break
        board_kind = ("star", "hex5", "square9")[n % 3]
        state = next(_positions(1, board_kind, n))
        geo = geometry(board_kind)
        board = polygo.Board.from_view(state)
        assert board.counted() == score(state).points
        empties = [p for p, v in enumerate(state.board) if v == EMPTY]
        turns = [(p,) for p in rng.sample(empties, min(12, len(empties)))]
        # Stones with one or several walls among their empty neighbours (legal or not).
        for p in rng.sample(empties, min(12, len(empties))):
            around = [w for w in geo.adjacency[p] if state.board[w] == EMPTY]
            for k in range(1, len(around) + 1):
                turns.append((p, *sorted(rng.sample(around, k))))
        # A few turns the engine refuses for sure: occupied cells, walls away from the stone.
        occupied = [p for p, v in enumerate(state.board) if v != EMPTY]
        turns += [(p,) for p in rng.sample(occupied, min(3, len(occupied)))]
        if len(empties) > 3:
            far = [w for w in empties if w not in geo.adjacency[empties[0]] and w != empties[0]]
            turns.append((empties[0], far[0]))
        for turn in turns:
            after = _engine_turn(state, turn)
            fast = board.copy()
            assert fast.play(turn) == (after is not None), turn
            if after is not None:
                assert fast.cells == list(after.board)
                assert fast.captured == [after.captures[1], after.captures[0]]
                assert fast.counted() == score(after).points
            else:
                assert fast.cells == board.cells  # an illegal turn changes nothing
            checked += 1


def test_the_trees_turns_are_all_legal_in_the_engine():
    for state in _positions(30, "star", 9):
        for turn in polygo.tree_turns(polygo.Board.from_view(state)):
            if turn:
                assert _engine_turn(state, turn) is not None, turn


def test_ko_is_refused_as_in_the_engine():
    """Positions from random games on the square board (where ko is common) in which the engine
    refuses a turn for ko: the search board refuses the same turn."""
    rng = random.Random(2)
    found = 0
    for _ in range(200):
        state = GAME.new(2, seed=0, options={"board": "square9"})
        while state.to_move is not None and state.phase != SCORING and found < 5:
            board = polygo.Board.from_view(state)
            for p, v in enumerate(state.board):
                if v != EMPTY:
                    continue
                try:
                    GAME.play(state, polygo.turn_text((p,), "square9"))
                except IllegalMove as refused:
                    if "ko" in refused.reason:
                        assert not board.copy().play((p,))
                        found += 1
            moves = GAME.legal_moves(state)
            state = GAME.play(state, moves[rng.randrange(len(moves))])
        if found >= 5:
            break
    assert found >= 5


def test_a_group_is_captured_with_a_stone_and_a_wall():
    """White's pair on i9 i10 has two liberties next to each other, h10 and h11: a stone on
    one and a wall on the other take both at once."""
    state = position(black=["h9", "j9", "j8", "i11", "j10", "i8"], white=["i9", "i10"],
                     walls=[], to_move=0)
    board = polygo.Board.from_view(state)
    _, liberties = board.group(geometry("star").index["i9"])
    captures = board.capture_turns(geometry("star").index["i9"])
    assert captures, liberties
    turn = captures[0]
    after = GAME.play(state, polygo.turn_text(turn, "star"))
    assert after.captures[0] == 2
    assert polygo.explain(board, turn).args == {"count": 2}


def _scoring(black, white, dead=(), to_move=0, captures=(0, 0)):
    return position(black=black, white=white, dead=dead, to_move=to_move, phase=SCORING,
                    captures=captures)


def test_scoring_accepts_a_count_in_its_favour():
    state = _scoring(black=["h9", "i9", "j8", "g10"], white=[], to_move=0)
    assert ai.choose("polygo", state, 0, "hard", budget_s=0.05) == "accept"


def test_scoring_takes_back_own_groups_marked_dead():
    state = _scoring(black=["h9", "i9"], white=["f12"], dead=["h9", "i9"], to_move=0)
    move = ai.choose("polygo", state, 0, "hard", budget_s=0.05)
    assert move.startswith("alive")
    assert GAME.play(state, move).dead == frozenset()


def test_an_easy_game_on_a_small_board_is_played_to_its_count():
    state = GAME.new(2, seed=1, options={"board": "hex5"})
    for ply in range(2000):
        if state.to_move is None:
            break
        state = GAME.play(state, ai.choose("polygo", state, state.to_move, "easy", seed=ply))
    assert state.outcome is not None


def _hard_pass_positions(board: str, games: int, budget: float) -> list:
    """The positions where the hard level passed, in games against the medium level."""
    found = []
    for index in range(games):
        state = GAME.new(2, seed=0, options={"board": board})
        hard_seat = index % 2
        while state.outcome is None and state.phase != SCORING:
            seat = state.to_move
            level = "hard" if seat == hard_seat else "medium"
            move = ai.choose("polygo", GAME.view(state, seat), seat, level=level,
                             seed=f"{index}:{state.ply}", budget_s=budget)
            if move == "pass" and level == "hard":
                found.append(state)
            state = GAME.play(state, move)
    return found


@pytest.mark.slow(55)
def test_the_hard_level_never_passes_while_a_move_would_change_the_score():
    """From every position where the hard level passed, any other turn of the player (each
    legal lone stone) followed by the hard level playing both sides until two passes ends
    with a count (territory minus stones lost, as the search scores) no better for that
    player than passing: nothing was left to gain."""
    budget = 0.1
    checked = 0
    for board_kind, games in (("hex5", 4), ("square9", 4)):
        for state in _hard_pass_positions(board_kind, games, budget):
            start = polygo.Board.from_view(state)
            seat = start.to_move
            counted = start.counted()
            passing = counted[seat] - counted[1 - seat]
            rng = random.Random(state.ply)
            for move in GAME.legal_moves(state):
                if move.kind != "stone" or len(move.cells) != 1:
                    continue
                board = start.copy()
                board.passes = 0
                assert board.play(move.cells)
                plies = 0
                while board.passes < 2 and plies < 300:
                    board.play(polygo._play_turn(board, "hard", rng, budget))
                    plies += 1
                counted = board.counted()
                assert counted[seat] - counted[1 - seat] <= passing, (
                    f"{board_kind} ply {state.ply}: {move} gains")
                checked += 1
    assert checked >= 40
