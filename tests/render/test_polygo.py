"""Polygo images: stones and red walls on their cells, every row and letter named at the edge,
the last turn highlighted, dead stones crossed in the scoring phase."""

from __future__ import annotations

import pytest

import engines
import render
from engines.polygo import geometry
from render import polygo as polygo_render
from render.theme import BLACK_STONE, DARK, WALL_RED, WHITE_STONE
from tests.render.helpers import close, decode, pixel

GAME = engines.get("polygo")


def play(*moves: str, board: str = "star"):
    state = GAME.new(2, seed=1, options={"board": board})
    for move in moves:
        state = GAME.play(state, move)
    return state


def center(state, name: str):
    return polygo_render.cell_center(state, geometry(state.board_kind).index[name])


def on_stone(state, name: str):
    """A point of the stone on ``name`` above the cell name written on it."""
    fit, board = polygo_render.layout(state)
    x, y = center(state, name)
    return (x, y - polygo_render.stone_radius(board.square, fit.scale) * 0.7)


@pytest.mark.parametrize("board", ["star", "hex5", "square9"])
def test_every_letter_and_number_is_written_at_the_edge(board):
    geo = geometry(board)
    letters = {name[0] for name in geo.names}
    numbers = {name[1:] for name in geo.names}
    written = {text for _, text in polygo_render.board_geometry(board).labels}
    assert letters | numbers <= written


def test_stone_and_wall_colours():
    state = play("i9 h9", "k7")
    image = decode(render.board("polygo", state))
    fit, _ = polygo_render.layout(state)
    assert close(pixel(image, on_stone(state, "i9")), BLACK_STONE)
    assert close(pixel(image, on_stone(state, "k7")), WHITE_STONE)
    # The wall: red, away from its dark brick joint through the middle.
    x, y = center(state, "h9")
    assert close(pixel(image, (x, y - fit.scale * 0.4)), WALL_RED)


def test_last_turn_rings_the_stone_and_outlines_its_walls():
    state = play("i9 h9")
    image = decode(render.board("polygo", state))
    fit, _ = polygo_render.layout(state)
    radius = fit.scale * 0.78
    x, y = center(state, "i9")
    assert close(pixel(image, (x + radius + 2, y)), DARK.highlight, 40)
    state = play("i9 h9", "k7")
    image = decode(render.board("polygo", state))
    x, y = center(state, "i9")
    assert not close(pixel(image, (x + radius + 2, y)), DARK.highlight, 40)


def test_dead_stone_is_crossed_in_the_scoring_phase():
    state = play("i9", "pass", "pass", "dead i9")
    assert 0 in (state.board[geometry("star").index["i9"]],)
    image = decode(render.board("polygo", state))
    assert close(pixel(image, center(state, "i9")), WALL_RED, 30)


@pytest.mark.parametrize("board", ["hex5", "square9"])
def test_other_boards_render(board):
    state = play("e5", "e6", board=board)
    image = decode(render.board("polygo", state, theme="light"))
    assert close(pixel(image, on_stone(state, "e5")), BLACK_STONE)
    assert close(pixel(image, on_stone(state, "e6")), WHITE_STONE)
