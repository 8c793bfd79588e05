"""Every game that has a drawing module: start, middle and end of a random game, both themes,
decode as PNGs of a sane size; replays decode as animated GIFs."""

from __future__ import annotations

import pytest

import engines
import render
from render.gallery import SAMPLE_NAMES, phases, player_counts, playout
from render.header import header_height
from render.surface import WIDTH
from render.theme import DARK, LIGHT
from tests.render.helpers import close, decode, pixel

GAMES = render.supported_games()
MAX_PNG_BYTES = 100_000  # docs/architecture.md


def test_every_registered_game_has_a_renderer():
    assert set(GAMES) == set(engines.GAMES)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_start_mid_and_end_render_sane_pngs(game_name, theme):
    for count in player_counts(game_name):
        for phase, state in phases(playout(game_name, count, seed=11)).items():
            data = render.board(game_name, state, players=SAMPLE_NAMES[:count], theme=theme)
            image = decode(data)
            assert image.format == "PNG", phase
            assert image.mode == "P"  # a palette PNG (smaller and faster to encode)
            assert image.width == WIDTH
            assert 200 <= image.height <= 1400, (phase, image.height)
            assert len(data) <= MAX_PNG_BYTES, (phase, len(data))


@pytest.mark.parametrize("game_name", GAMES)
def test_themes_differ_in_background(game_name):
    state = playout(game_name, player_counts(game_name)[0], seed=3)[0]
    dark = decode(render.board(game_name, state, theme="dark"))
    light = decode(render.board(game_name, state, theme="light"))
    # The header band is the theme's panel colour; just below it, the theme's background.
    below = header_height(state) + 3
    assert close(pixel(dark, (2, 2)), DARK.panel, 2)
    assert close(pixel(light, (2, 2)), LIGHT.panel, 2)
    assert close(pixel(dark, (2, below)), DARK.background, 2)
    assert close(pixel(light, (2, below)), LIGHT.background, 2)


@pytest.mark.parametrize("game_name", GAMES)
def test_player_names_change_the_image(game_name):
    state = playout(game_name, player_counts(game_name)[0], seed=5)[0]
    plain = render.board(game_name, state)
    named = render.board(game_name, state, players=SAMPLE_NAMES[: state.players])
    assert plain != named


@pytest.mark.parametrize("game_name", GAMES)
def test_replay_is_an_animated_gif_of_the_game(game_name):
    states = playout(game_name, player_counts(game_name)[0], seed=13)
    data = render.replay(game_name, states, players=SAMPLE_NAMES[:2])
    image = decode(data)
    assert image.format == "GIF"
    assert image.is_animated
    assert 2 <= image.n_frames <= min(len(states), render.MAX_FRAMES)
    assert image.width == WIDTH
    # Every frame has the same size (unbounded boards keep the final position's area), the
    # shorter ones extended with the background.
    for index in range(image.n_frames):
        image.seek(index)
        assert image.size == (WIDTH, image.height)
    image.seek(0)
    assert close(pixel(image, (WIDTH // 2, image.height - 1)), DARK.background, 2)


def test_replay_needs_states():
    with pytest.raises(ValueError):
        render.replay("alak", [])


def test_unknown_theme_is_refused():
    state = engines.get("alak").new(2, seed=1)
    with pytest.raises(ValueError):
        render.board("alak", state, theme="sepia")


def test_stale_last_move_text_is_ignored_not_fatal():
    state = engines.get("alak").new(2, seed=1)
    image = decode(render.board("alak", state, last_move="not a move"))
    assert image.width == WIDTH


def test_a_long_game_is_sampled_down_to_the_frame_cap():
    states = playout("alak", 2, seed=13)
    long_game = (states * (render.MAX_FRAMES // len(states) + 2))[: render.MAX_FRAMES + 40]
    image = decode(render.replay("alak", long_game))
    assert image.n_frames <= render.MAX_FRAMES
