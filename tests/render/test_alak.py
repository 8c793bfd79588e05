"""Alak images: stones where the engine put them, the last move ringed, ko points marked."""

from __future__ import annotations

import engines
import render
from render import alak as alak_render
from render.theme import BLACK_STONE, DARK, LIGHT, WHITE_STONE
from tests.render.helpers import close, decode, pixel

GAME = engines.get("alak")


def play(*moves: str, length: int = 11):
    state = GAME.new(2, seed=1, options={"length": length})
    for move in moves:
        state = GAME.play(state, move)
    return state


def test_black_stone_at_c_and_white_at_f():
    state = play("c", "f")
    geo = alak_render.layout(state)
    image = decode(render.board("alak", state))
    assert close(pixel(image, geo.point(2)), BLACK_STONE)
    assert close(pixel(image, geo.point(5)), WHITE_STONE)
    # An empty point shows the wood.
    assert close(pixel(image, (geo.point(8)[0] + 12, geo.point(8)[1] + 12)), DARK.wood)


def test_last_move_is_ringed_in_the_highlight_colour():
    state = play("c", "f")
    geo = alak_render.layout(state)
    for theme in (DARK, LIGHT):
        image = decode(render.board("alak", state, theme=theme.name))
        x, y = geo.point(5)
        ring = (x + geo.stone_radius + 3, y)
        assert close(pixel(image, ring), theme.highlight, 40)
        # The other stone is not ringed.
        x, y = geo.point(2)
        assert not close(pixel(image, (x + geo.stone_radius + 3, y)), theme.highlight, 40)


def test_explicit_last_move_overrides_the_state():
    state = play("c", "f")
    geo = alak_render.layout(state)
    image = decode(render.board("alak", state, last_move="c"))
    x, y = geo.point(2)
    assert close(pixel(image, (x + geo.stone_radius + 3, y)), DARK.highlight, 40)


def test_ko_point_is_marked_after_a_capture():
    # White c is captured by Black d (Black b already there): c is banned for White.
    state = play("b", "c", "d")
    assert state.banned == frozenset({2})
    geo = alak_render.layout(state)
    image = decode(render.board("alak", state))
    x, y = geo.point(2)
    assert close(pixel(image, (x, y)), DARK.highlight, 40)


def test_long_line_fits_the_image():
    state = play("a", "z", length=26)
    geo = alak_render.layout(state)
    image = decode(render.board("alak", state))
    assert geo.point(25)[0] < image.width - 20
    assert close(pixel(image, geo.point(0)), BLACK_STONE)
    assert close(pixel(image, geo.point(25)), WHITE_STONE)


def test_replay_frames_follow_the_game():
    states = GAME.replay(2, 1, None, ["c", "f", "d"])
    image = decode(render.replay("alak", states))
    assert image.n_frames == 4
    geo = alak_render.layout(states[-1])
    image.seek(3)
    assert close(pixel(image, geo.point(3)), BLACK_STONE, 30)
    image.seek(0)
    assert not close(pixel(image, geo.point(3)), BLACK_STONE, 30)


def test_points_that_ended_the_game_are_marked_and_said():
    """A game over because the only empty points were just captured shows them with × (they
    are why no move is left)."""
    state = GAME.load({"game": "alak", "players": 2, "seed": 1, "length": 7,
                       "board": "bww.bbb", "to_move": 0, "banned": [], "captures": [0, 0],
                       "ply": 6})
    state = GAME.play(state, "d")
    assert state.outcome is not None and state.banned == frozenset({1, 2})
    geo = alak_render.layout(state)
    image = decode(render.board("alak", state))
    for point in (1, 2):
        assert close(pixel(image, geo.point(point)), DARK.highlight, 40), point
