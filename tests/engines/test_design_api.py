"""The engine API exactly as docs/architecture.md gives it (the project's acceptance checks
call it so)."""

from __future__ import annotations

import json

import pytest

import engines
from engines import IllegalMove, Outcome

ALL_GAMES = ("alak", "polygo", "palago", "palam", "lppg", "kolory")


def test_all_six_games_are_registered_under_their_names():
    assert set(engines.GAMES) == set(ALL_GAMES)
    for name in ALL_GAMES:
        assert engines.get(name) is engines.GAMES[name]


def test_the_design_example_plays_alak():
    game = engines.get("alak")
    state = game.new(players=2, seed=1234, options={"length": 11})
    moves = game.legal_moves(state)
    assert [str(m) for m in moves] == list("abcdefghijk")
    after = game.play(state, "f")
    assert after is not state and after.to_move == 1 and state.to_move == 0
    with pytest.raises(IllegalMove) as raised:
        game.play(after, "f")
    assert raised.value.reason
    assert after.outcome is None
    assert game.load(game.dump(after)) == after


@pytest.mark.parametrize("name", ALL_GAMES)
def test_options_may_be_omitted_and_metadata_is_data(name):
    game = engines.get(name)
    players = game.allowed_player_counts()[0]
    state = game.new(players=players, seed=1234)
    assert state.to_move in range(players)
    assert state.outcome is None
    assert game.name == name and game.title
    assert game.min_players <= players <= game.max_players
    assert all(isinstance(seat, str) for seat in game.seat_names)
    for option in game.options:
        assert option.name and option.default in option.choices
    json.dumps(game.dump(state))


@pytest.mark.parametrize("name", ALL_GAMES)
def test_play_accepts_a_move_value_or_its_text(name):
    game = engines.get(name)
    state = game.new(players=game.allowed_player_counts()[0], seed=99)
    move = game.legal_moves(state)[0]
    assert game.play(state, move) == game.play(state, str(move))


@pytest.mark.parametrize("name", ALL_GAMES)
def test_outcome_has_winners_scores_and_reason(name):
    import random

    game = engines.get(name)
    players = game.allowed_player_counts()[-1]
    state = game.new(players=players, seed=5)
    rng = random.Random(5)
    while state.to_move is not None:
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
    assert isinstance(state.outcome, Outcome)
    assert isinstance(state.outcome.winners, frozenset)
    assert isinstance(state.outcome.scores, tuple) and len(state.outcome.scores) == players
    assert isinstance(state.outcome.reason, str) and state.outcome.reason
