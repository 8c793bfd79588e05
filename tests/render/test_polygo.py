"""Polygo images: stones and red walls on their cells, every row and letter named at the edge,
the last turn highlighted, dead stones crossed in the scoring phase."""

from __future__ import annotations

import math

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


@pytest.mark.parametrize("board", ["star", "hex5", "square9"])
def test_edge_labels_never_collide_with_each_other_or_the_board(board):
    # Neighbouring cells are √3 ≈ 1.73 apart (hexagons of circumradius 1; squares of side 1
    # are 1 apart): labels keep at least that distance from each other and from every cell.
    shape = polygo_render.board_geometry(board)
    room = 0.99 if shape.square else 1.7
    spots = [point for point, _ in shape.labels]
    for index, (x, y) in enumerate(spots):
        for other_x, other_y in spots[index + 1:]:
            assert math.dist((x, y), (other_x, other_y)) >= room
        for cell_x, cell_y in shape.centres:
            assert math.dist((x, y), (cell_x, cell_y)) >= room


def test_star_inner_corners_name_their_lines_and_rows():
    # Lines d, i and n end where rows 4, 9 and 14 do: each still gets its letter, each of
    # those rows keeps at least one number.
    written = [text for _, text in polygo_render.board_geometry("star").labels]
    for text in ("d", "i", "n", "4", "9", "14"):
        assert written.count(text) >= 1, text


def test_stones_carry_their_cell_name_for_dead_marks():
    state = play("i9", "k7")
    fit, board = polygo_render.layout(state)
    radius = polygo_render.stone_radius(board.square, fit.scale)
    image = decode(render.board("polygo", state)).convert("RGB")
    for name, seat in (("i9", 0), ("k7", 1)):
        x, y = center(state, name)
        middle = image.crop((round(x - radius * 0.5), round(y - radius * 0.3),
                             round(x + radius * 0.5), round(y + radius * 0.3)))
        colours = [colour for _, colour in middle.getcolors(4096)]
        assert any(close(colour, polygo_render.NAME_ON_STONE[seat], 30) for colour in colours)
    # A replay frame leaves the names out.
    frame = render.board_image("polygo", state, for_replay=True).crop(
        (round(x - radius * 0.5), round(y - radius * 0.3), round(x + radius * 0.5),
         round(y + radius * 0.3)))
    assert all(close(colour, WHITE_STONE, 40) for _, colour in frame.getcolors(4096))
