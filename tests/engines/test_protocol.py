"""Properties every engine must have (docs/architecture.md), checked on every registered game."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import IllegalMove

GAME_NAMES = sorted(engines.GAMES)
MAX_PLIES = 5000  # a safety net so a broken engine fails instead of hanging the suite

PROPERTY_SETTINGS = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def player_counts(name: str) -> list[int]:
    return list(engines.get(name).allowed_player_counts())


def random_playout(game, players: int, seed: int, rng: random.Random):
    state = game.new(players, seed=seed)
    states, moves = [state], []
    while state.to_move is not None:
        assert len(moves) < MAX_PLIES, "playout did not end"
        legal = game.legal_moves(state)
        assert legal, "a running game must offer at least one legal move"
        move = rng.choice(list(legal))
        state = game.play(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def test_registry_has_metadata():
    for name, game in engines.GAMES.items():
        assert game.name == name
        assert game.title
        assert 1 <= game.min_players <= game.max_players
        assert len(game.seat_names) >= game.max_players
        for option in game.options:
            assert option.default in option.choices


def test_unknown_game_raises_keyerror():
    with pytest.raises(KeyError):
        engines.get("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31), data=st.data())
def test_random_playout_ends_with_an_outcome(name, seed, data):
    game = engines.get(name)
    players = data.draw(st.sampled_from(player_counts(name)))
    states, _ = random_playout(game, players, seed, random.Random(seed))
    final = states[-1]
    assert final.to_move is None
    assert final.outcome is not None
    assert len(final.outcome.scores) == players
    assert final.outcome.winners <= frozenset(range(players))
    assert game.legal_moves(final) == () or list(game.legal_moves(final)) == []
    with pytest.raises(IllegalMove):
        game.play(final, "a")


@pytest.mark.parametrize("name", GAME_NAMES)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31))
def test_every_listed_move_plays_and_notation_round_trips(name, seed):
    game = engines.get(name)
    rng = random.Random(seed)
    state = game.new(player_counts(name)[0], seed=seed)
    for _ in range(40):
        if state.to_move is None:
            break
        legal = list(game.legal_moves(state))
        for move in rng.sample(legal, min(len(legal), 8)):
            text = str(move)
            assert game.parse_move(text, state) == move
            # Forgiving parsing: case, spaces and a leading slash do not matter.
            assert game.parse_move("  /" + text.upper() + " ", state) == move
            game.play(state, move)
            game.play(state, text)
        state = game.play(state, rng.choice(legal))


GARBAGE = ["", "   ", "zz99", "pass pass pass", "1,2,3/9", "draw c c", "💥", "a" * 200, "-5"]


@pytest.mark.parametrize("name", GAME_NAMES)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31), text=st.one_of(st.sampled_from(GARBAGE), st.text(max_size=12)))
def test_illegal_text_raises_and_changes_nothing(name, seed, text):
    game = engines.get(name)
    rng = random.Random(seed)
    state = game.new(player_counts(name)[0], seed=seed)
    for _ in range(rng.randrange(0, 12)):
        if state.to_move is None:
            break
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
    if state.to_move is None:
        return
    before = game.dump(state)
    legal_texts = {str(m) for m in game.legal_moves(state)}
    try:
        game.play(state, text)
    except IllegalMove as error:
        assert error.reason  # a reason a player can read
    else:
        # Only a text naming a legal move may succeed.
        assert str(game.parse_move(text, state)) in legal_texts
    assert game.dump(state) == before


@pytest.mark.parametrize("name", GAME_NAMES)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31), data=st.data())
def test_dump_load_round_trip_is_json_safe(name, seed, data):
    game = engines.get(name)
    players = data.draw(st.sampled_from(player_counts(name)))
    states, _ = random_playout(game, players, seed, random.Random(seed))
    for state in [*states[:: max(1, len(states) // 6)], states[-1]]:
        dumped = json.loads(json.dumps(game.dump(state)))
        assert game.load(dumped) == state
        assert game.dump(game.load(dumped)) == dumped


@pytest.mark.parametrize("name", GAME_NAMES)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31), data=st.data())
def test_same_seed_and_moves_replay_the_same_game(name, seed, data):
    game = engines.get(name)
    players = data.draw(st.sampled_from(player_counts(name)))
    states, moves = random_playout(game, players, seed, random.Random(seed))
    replayed = game.replay(players, seed, None, [str(m) for m in moves])
    assert replayed == states


@pytest.mark.parametrize("name", GAME_NAMES)
@PROPERTY_SETTINGS
@given(seed=st.integers(10**12, 2**62), data=st.data())  # long enough to never occur by chance
def test_views_hide_the_seed_while_the_game_runs(name, seed, data):
    game = engines.get(name)
    players = data.draw(st.sampled_from(player_counts(name)))
    states, _ = random_playout(game, players, seed, random.Random(seed))
    for state in states[:-1]:
        for seat in [None, *range(players)]:
            view = game.view(state, seat)
            assert view.seed is None
            assert str(seed) not in json.dumps(game.dump(view))
    # Once the game is over the seed may be published so anyone can verify the replay.
    assert game.view(states[-1], None).seed == seed


@pytest.mark.parametrize("name", GAME_NAMES)
def test_play_does_not_mutate_the_state(name):
    game = engines.get(name)
    state = game.new(player_counts(name)[0], seed=7)
    before = game.dump(state)
    game.play(state, game.legal_moves(state)[0])
    assert game.dump(state) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_unknown_option_and_bad_player_count_are_refused(name):
    game = engines.get(name)
    with pytest.raises(ValueError):
        game.new(player_counts(name)[0], seed=1, options={"no_such_option": 1})
    with pytest.raises(ValueError):
        game.new(game.max_players + 1, seed=1)


def random_options(game, rng: random.Random) -> dict:
    """One allowed value per option of ``game``, picked by ``rng`` (variants change what a
    view hides, e.g. Palam's draft)."""
    return {option.name: rng.choice(option.choices) for option in game.options}


@pytest.mark.parametrize("name", GAME_NAMES)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31), data=st.data())
def test_a_view_of_a_view_is_the_same_view(name, seed, data):
    """``view`` is idempotent for every seat and spectator: what a viewer may see does not
    shrink when the bot views an already viewed state again (the board image is drawn from a
    stored public view)."""
    game = engines.get(name)
    rng = random.Random(seed)
    players = data.draw(st.sampled_from(player_counts(name)))
    state = game.new(players, seed=seed, options=random_options(game, rng))
    positions = [state]
    while state.to_move is not None and len(positions) < MAX_PLIES:
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
        positions.append(state)
    for state in [*rng.sample(positions, min(len(positions), 12)), positions[-1]]:
        for seat in [None, *range(players)]:
            once = game.view(state, seat)
            assert game.view(once, seat) == once
            assert game.dump(game.view(once, seat)) == game.dump(once)
