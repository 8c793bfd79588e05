"""Alak AI: its fast rules agree with the engine, and the search plays the tactics exactly."""

from __future__ import annotations

import random

import pytest

import ai
import engines
from ai import alak
from ai.alphabeta import WIN, AlphaBeta
from engines.alak import LETTERS, AlakState
from engines.graphgo import EMPTY

GAME = engines.get("alak")


def position(text: str, to_move: int = 0) -> AlakState:
    cells = {".": EMPTY, "b": 0, "w": 1}
    return AlakState(players=2, seed=None, length=len(text),
                     board=tuple(cells[c] for c in text), to_move=to_move, banned=frozenset(),
                     captures=(0, 0), ply=0)


def test_fast_rules_match_the_engine_over_thousands_of_positions():
    rng = random.Random(1)
    checked = 0
    while checked < 3000:
        state = GAME.new(2, seed=0, options={"length": rng.randrange(7, 27)})
        while state.to_move is not None:
            pos = alak.from_view(state)
            legal = GAME.legal_moves(state)
            assert sorted(alak.RULES.moves(pos)) == [m.point for m in legal]
            for move in legal:
                after = GAME.play(state, move)
                fast = alak.RULES.play(pos, move.point)
                assert fast.board == after.board
                assert fast.banned == tuple(sorted(after.banned))
                assert fast.over == (after.to_move is None)
                assert alak.Rules.captured_by(pos.board, move.point, state.to_move) == (
                    after.captures[state.to_move] - state.captures[state.to_move])
                checked += 1
            state = GAME.play(state, legal[rng.randrange(len(legal))])


@pytest.mark.slow(16)
def test_hard_finds_the_forced_win_whenever_one_exists():
    """On short endings a search with every root move searched in full proves which moves
    force a win; hard (at its normal budget) must play one of them."""
    rng = random.Random(7)
    tested = 0
    while tested < 12:
        state = GAME.new(2, seed=0, options={"length": rng.randrange(7, 10)})
        while state.to_move is not None and state.board.count(EMPTY) > 5:
            legal = GAME.legal_moves(state)
            state = GAME.play(state, legal[rng.randrange(len(legal))])
        if state.to_move is None or len(GAME.legal_moves(state)) < 2:
            continue
        exact = AlphaBeta(alak.RULES, 20_000, exact_root=True).search(alak.from_view(state))
        winning = {LETTERS[m] for m, v in exact.scores if v >= WIN / 2}
        if not winning or len(winning) == len(exact.scores):
            continue  # nothing to find: no forced win, or every move wins
        chosen = ai.choose("alak", state, state.to_move, "hard", seed=tested)
        assert chosen in winning, (state.board, exact.scores, chosen)
        tested += 1


def test_a_capture_is_explained_with_its_count():
    pos = alak.from_view(position("..bww.b...."))
    reason = alak.explain(pos, LETTERS.index("f"))
    assert reason.key == "ai.captures" and reason.args == {"count": 2}
    assert str(reason) == "captures 2 stones"
    assert alak.explain(pos, LETTERS.index("j")) is None
