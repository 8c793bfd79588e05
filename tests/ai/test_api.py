"""The AI's API as docs/architecture.md gives it: every level plays a legal move in every game,
decisions are deterministic (also in a worker process), bad calls are refused clearly."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest

import ai
import engines
from ai.core import budget_for, outcome_rewards, work
from engines.phrases import ENGLISH, Phrase
from tests.ai.helpers import random_states

GAMES = ("alak", "polygo", "palago", "palam", "lppg", "kolory")
#: Small budgets keep the suite fast; the search code paths are the same as at full budget.
BUDGET = 0.01


def test_levels_are_easy_medium_hard():
    assert ai.LEVELS == ("easy", "medium", "hard")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_plays_a_legal_move_from_random_positions(name, level):
    game = engines.get(name)
    for state in random_states(name, 12, seed=ai.LEVELS.index(level)):
        seat = state.to_move
        view = game.view(state, seat)
        text = ai.choose(name, view, seat, level=level, seed=3, budget_s=BUDGET)
        assert isinstance(text, str)
        # Legal in the real state, and canonical: it parses back to itself.
        after = game.play(state, text)
        assert after is not state
        assert str(game.parse_move(text, state)) == text


@pytest.mark.parametrize(("name", "options", "players"), [
    ("palam", {"setup": "draft"}, 2),
    ("palago", {"tiebreak": True}, 2),
    ("polygo", {"board": "hex5"}, 2),
    ("polygo", {"board": "square9"}, 2),
    ("lppg", None, 4),
    ("kolory", None, 3),
    ("kolory", None, 5),
])
def test_every_level_plays_every_variant_and_table_size(name, options, players):
    game = engines.get(name)
    for state in random_states(name, 5, seed=4, players=players, options=options):
        for level in ai.LEVELS:
            view = game.view(state, state.to_move)
            game.play(state, ai.choose(name, view, state.to_move, level, budget_s=BUDGET))


@pytest.mark.parametrize("name", GAMES)
def test_same_arguments_give_the_same_move(name):
    game = engines.get(name)
    for state in random_states(name, 4, seed=11):
        view = game.view(state, state.to_move)
        first = ai.choose(name, view, state.to_move, "hard", seed=5, budget_s=BUDGET)
        again = ai.choose(name, view, state.to_move, "hard", seed=5, budget_s=BUDGET)
        assert first == again


def _choose_in_worker(args):
    return ai.choose(*args)


def test_a_worker_process_decides_exactly_as_the_caller():
    """The bot thinks in a worker process: it sends the dumped view (plain data, which
    pickles), and a fresh interpreter (spawn, nothing inherited) reaches the same decision as
    the caller with the view itself."""
    here, calls = [], []
    for name in GAMES:
        game = engines.get(name)
        state = next(random_states(name, 1, seed=21))
        view = game.view(state, state.to_move)
        here.append(ai.choose(name, view, state.to_move, "medium", 9, BUDGET))
        calls.append((name, game.dump(view), state.to_move, "medium", 9, BUDGET))
    calls = pickle.loads(pickle.dumps(calls))
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        there = list(pool.map(_choose_in_worker, calls))
    assert there == here


def test_a_view_that_is_not_the_seats_turn_is_refused():
    game = engines.get("alak")
    state = game.new(2, seed=1)
    with pytest.raises(ValueError, match="turn"):
        ai.choose("alak", game.view(state, 1), 1)


def test_a_finished_game_is_refused():
    game = engines.get("alak")
    state = game.new(2, seed=1, options={"length": 7})
    while state.to_move is not None:
        state = game.play(state, game.legal_moves(state)[0])
    with pytest.raises(ValueError, match="over"):
        ai.choose("alak", game.view(state, 0), 0)


def test_unknown_level_game_and_bad_budget_are_refused():
    game = engines.get("alak")
    view = game.view(game.new(2, seed=1), 0)
    with pytest.raises(ValueError, match="level"):
        ai.choose("alak", view, 0, level="expert")
    with pytest.raises(KeyError):
        ai.choose("chess", view, 0)
    with pytest.raises(ValueError, match="budget"):
        ai.choose("alak", view, 0, budget_s=0)


def test_budget_is_the_level_default_lowered_by_budget_s():
    assert budget_for("hard", None) == ai.DEFAULT_BUDGET_S["hard"]
    assert budget_for("hard", 0.5) == 0.5
    assert budget_for("easy", 5.0) == ai.DEFAULT_BUDGET_S["easy"]
    assert ai.DEFAULT_BUDGET_S["easy"] < ai.DEFAULT_BUDGET_S["medium"]
    assert ai.DEFAULT_BUDGET_S["medium"] < ai.DEFAULT_BUDGET_S["hard"] <= 2.0
    assert work(0.5, 1000) == 500
    assert work(0.0001, 1000) == 1


def test_rewards_share_a_win_and_split_a_draw():
    assert outcome_rewards(frozenset({1}), 2) == (0.0, 1.0)
    assert outcome_rewards(frozenset(), 2) == (0.5, 0.5)
    assert outcome_rewards(frozenset({0, 2}), 3) == (0.5, 0.0, 0.5)


@pytest.mark.parametrize("name", GAMES)
def test_a_hint_is_the_hard_move_with_a_phrase_or_nothing(name):
    game = engines.get(name)
    for state in random_states(name, 4, seed=31):
        view = game.view(state, state.to_move)
        tip = ai.hint(name, view, state.to_move, seed=2, budget_s=BUDGET)
        assert tip.move == ai.choose(name, view, state.to_move, "hard", seed=2, budget_s=BUDGET)
        game.play(state, tip.move)
        if tip.reason is not None:
            assert isinstance(tip.reason, Phrase)
            assert tip.reason.key.startswith("ai.")
            assert str(tip.reason)  # has an English sentence


def test_every_reason_has_english_and_french():
    from bot.core.i18n import phrase_template

    keys = [key for key in ENGLISH if key.startswith("ai.")]
    assert len(keys) >= 10
    for key in keys:
        assert phrase_template("fr", key) is not None, key
