"""ai.evaluate: the contract (range, determinism, plain arguments, finished games, any seat)."""

from __future__ import annotations

import pickle

import pytest

import ai
import engines
from ai.evaluate import estimate, opponents, result_score
from engines.core import Outcome
from tests.ai.helpers import random_states

GAMES = ("alak", "palam", "palago", "polygo", "kolory", "lppg")
SMALL_BUDGET = 0.02


@pytest.mark.parametrize("name", GAMES)
def test_a_value_in_range_for_every_seat_and_deterministic(name: str) -> None:
    game = engines.get(name)
    for state in random_states(name, 3, seed=7):
        for seat in range(state.players):
            view = game.view(state, seat)
            value = ai.evaluate(name, view, seat, seed=1, budget_s=SMALL_BUDGET)
            assert 0.0 <= value <= 1.0
            # Same arguments, same value; a dumped view (what a worker receives) gives it too.
            dumped = pickle.loads(pickle.dumps(game.dump(view)))
            assert ai.evaluate(name, dumped, seat, seed=1, budget_s=SMALL_BUDGET) == value


@pytest.mark.parametrize("name", ("alak", "palam", "palago", "polygo"))
def test_two_player_values_of_the_two_seats_add_up_to_one(name: str) -> None:
    game = engines.get(name)
    for state in random_states(name, 3, seed=3):
        values = [ai.evaluate(name, game.view(state, s), s, budget_s=SMALL_BUDGET)
                  for s in range(2)]
        assert values[0] + values[1] == pytest.approx(1.0)


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_game_gets_its_actual_result(name: str) -> None:
    game = engines.get(name)
    for players in game.allowed_player_counts():
        state = game.new(players, seed=11)
        ply = 0
        while state.outcome is None:
            moves = game.legal_moves(state)
            state = game.play(state, moves[(ply * 7) % len(moves)])
            ply += 1
        for seat in range(players):
            value = ai.evaluate(name, game.view(state, seat), seat)
            assert value == result_score(name, state.outcome, players, seat)
            if players == 2 or (name == "lppg" and players == 4):
                # A duel (or a duel of teams): win 1, draw 0.5, loss 0.
                if not state.outcome.winners:
                    assert value == 0.5
                else:
                    assert value == (1.0 if seat in state.outcome.winners else 0.0)


def test_result_score_is_the_mean_over_opponents_ahead_level_behind() -> None:
    outcome = Outcome(frozenset({0}), (9.0, 5.0, 5.0, 3.0), "")
    assert result_score("kolory", outcome, 4, 0) == 1.0
    # Seat 1 lost to 0, is level with 2 and ahead of 3.
    assert result_score("kolory", outcome, 4, 1) == pytest.approx((0 + 0.5 + 1) / 3)
    assert result_score("kolory", outcome, 4, 3) == 0.0
    shared = Outcome(frozenset({0, 1}), (7.0, 7.0, 2.0), "")
    assert result_score("kolory", shared, 3, 0) == pytest.approx(0.75)
    assert result_score("kolory", shared, 3, 2) == 0.0
    draw = Outcome(frozenset(), (0.0, 0.0), "")
    assert result_score("palago", draw, 2, 1) == 0.5
    # LPPG's teams: the opponents are the other team only.
    assert opponents("lppg", 4, 0) == [1, 3]
    team = Outcome(frozenset({1, 3}), (0.0, 4.0, 0.0, 4.0), "")
    assert result_score("lppg", team, 4, 2) == 0.0
    assert result_score("lppg", team, 4, 3) == 1.0


def test_bad_arguments_are_refused() -> None:
    game = engines.get("alak")
    view = game.view(game.new(2, seed=1), 0)
    with pytest.raises(ValueError):
        ai.evaluate("alak", view, 2)
    with pytest.raises(ValueError):
        ai.evaluate("alak", view, 0, budget_s=0)


def test_a_proven_alak_result_is_valued_on_its_side() -> None:
    game = engines.get("alak")
    # A 7-point line, searched to the end from every position of a game: each estimate is a
    # proven result, and the value leans far its way (a proven win is not a certain one
    # between players who may throw it away, but it is worth far more than an even game).
    state = game.new(2, seed=1, options={"length": 7})
    proven = 0
    while state.outcome is None:
        seat = state.to_move
        view = game.view(state, seat)
        raw = estimate("alak", view, seat, budget_s=1.0)
        value = ai.evaluate("alak", view, seat, budget_s=1.0)
        if raw.method == 1.0:
            assert value >= 0.7
        elif raw.method == 0.0:
            assert value <= 0.3
        proven += raw.method in (0.0, 1.0)
        state = game.play(state, ai.choose("alak", view, seat, level="easy", seed=1))
    assert proven >= 2


def test_polygos_scoring_phase_leans_on_the_count() -> None:
    game = engines.get("polygo")
    state = game.new(2, seed=1, options={"board": "hex5"})
    state = game.play(state, str(game.legal_moves(state)[0]))  # Black's lone stone owns all
    state = game.play(state, "pass")
    state = game.play(state, "pass")
    assert state.phase == "scoring" and state.outcome is None
    black = ai.evaluate("polygo", game.view(state, 0), 0, budget_s=SMALL_BUDGET)
    assert black >= 0.8
    assert ai.evaluate("polygo", game.view(state, 1), 1, budget_s=SMALL_BUDGET) == \
        pytest.approx(1 - black)


@pytest.mark.parametrize("name", GAMES)
def test_analyse_gives_the_value_and_a_legal_move_for_the_seat_to_move(name: str) -> None:
    game = engines.get(name)
    moves_found = 0
    for state in random_states(name, 4, seed=5):
        for seat in range(state.players):
            view = game.view(state, seat)
            found = ai.analyse(name, view, seat, seed=2, budget_s=SMALL_BUDGET)
            assert found.value == ai.evaluate(name, view, seat, seed=2, budget_s=SMALL_BUDGET)
            if seat != state.to_move:
                assert found.move is None
            elif found.move is not None:
                game.play(state, found.move)  # legal in the real game (raises otherwise)
                moves_found += 1
    if name != "lppg":  # its evaluation searches no moves
        assert moves_found > 0
