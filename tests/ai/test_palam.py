"""Palam AI: its fast rules agree with the engine (camp choice included), the last duels are
played exactly, and the draft picks are legal."""

from __future__ import annotations

import random

import ai
import engines
from ai import palam
from ai.alphabeta import WIN, AlphaBeta
from engines.palam import ANSWER, CAMP, DRAFT, points
from tests.ai.helpers import random_walk

GAME = engines.get("palam")


def test_fast_rules_match_the_engine_over_thousands_of_positions():
    checked = 0
    seed = 0
    while checked < 4000:
        seed += 1
        for state, _ in random_walk("palam", seed):
            if state.to_move is None:
                break
            pos = palam.from_view(state)
            legal = GAME.legal_moves(state)
            assert sorted(palam.RULES.moves(pos, every_swap=True)) == sorted(
                palam.move_of(m) for m in legal)
            for move in legal:
                after = GAME.play(state, move)
                fast = palam.RULES.play(pos, palam.move_of(move))
                assert palam.move_text(palam.move_of(move)) == str(move)
                assert fast.board == after.board
                assert fast.isis == after.isis
                assert fast.choosing == (after.phase == CAMP)
                assert fast.answering == (after.phase == ANSWER)
                assert fast.attack == after.attack
                assert fast.may_swap == after.may_swap
                assert fast.duels == after.duels
                assert fast.points == points(after)
                assert (fast.to_move, palam.RULES.terminal(fast, 0) is not None) == (
                    after.to_move if after.to_move is not None else fast.to_move,
                    after.outcome is not None)
                checked += 1


def test_the_last_duels_are_searched_to_the_end_and_won_when_possible():
    """With three duels left the whole tree fits in the budget: the search is exact, and hard
    plays a move of the best proven result."""
    seed = 0
    tested = 0
    while tested < 12:
        seed += 1
        for state, _ in random_walk("palam", seed):
            if state.to_move is not None and state.duels == 9 and state.phase != ANSWER:
                break
        else:
            continue
        pos = palam.from_view(state)
        exact = AlphaBeta(palam.RULES, 500_000, exact_root=True).search(
            pos, palam.RULES.moves(pos, every_swap=True))
        assert exact.complete
        best = max(v for _, v in exact.scores)
        chosen = palam.move_of(GAME.parse_move(
            ai.choose("palam", state, state.to_move, "hard", seed=seed), state))
        value = dict(exact.scores)[chosen]
        # Same result (win or loss) as the best move.
        assert (value > 0) == (best > 0) and abs(value) >= WIN / 2
        tested += 1


def test_the_camp_is_chosen_by_search_and_explained():
    state = GAME.new(2, seed=12)
    assert state.phase == CAMP
    tip = ai.hint("palam", state, state.to_move, budget_s=0.05)
    assert tip.move in ("camp isis", "camp anubis")
    assert tip.reason.key == "ai.palam.camp"


def test_draft_picks_are_legal_at_every_level():
    rng = random.Random(3)
    state = GAME.new(2, seed=5, options={"setup": "draft"})
    for level in ai.LEVELS * 8:
        if state.phase != DRAFT:
            break
        view = GAME.view(state, state.to_move)
        state = GAME.play(state, ai.choose("palam", view, state.to_move, level,
                                           seed=rng.randrange(99), budget_s=0.02))
    assert state.picks == 24 or state.phase == DRAFT
