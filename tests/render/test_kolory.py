"""Kolory images: cards in their colours with the newest on top, the last card outlined."""

from __future__ import annotations

import engines
import render
from render import kolory as kolory_render
from render.theme import DARK
from tests.render.helpers import close, decode, pixel

GAME = engines.get("kolory")


def opening(players: int = 2):
    return GAME.new(players, seed=4)


def test_start_shows_the_white_card():
    state = opening()
    view = kolory_render.layout(state)
    image = decode(render.board("kolory", state))
    for x, y in ((0, 0), (1, 0), (0, 1), (1, 1)):
        cx, cy = view.center(x, y)
        # Off the faint seam lines through the middle of the card.
        assert close(pixel(image, (cx - view.cell * 0.25, cy - view.cell * 0.25)),
                     kolory_render.START_WHITE)


def test_newest_card_lies_on_top_in_its_seat_colour():
    state = opening()
    first = state.to_move
    state = GAME.play(state, "1,1")  # covers the white square (1,1)
    second = state.to_move
    state = GAME.play(state, "-1,-1")  # covers the white square (0,0)
    view = kolory_render.layout(state)
    image = decode(render.board("kolory", state))

    def colour_at(x, y):
        cx, cy = view.center(x, y)
        return pixel(image, (cx + view.cell * 0.25, cy + view.cell * 0.25))

    assert close(colour_at(1, 0), kolory_render.START_WHITE)
    assert close(colour_at(0, 1), kolory_render.START_WHITE)
    assert close(colour_at(1, 1), kolory_render.SEAT_COLOURS[first])
    assert close(colour_at(2, 2), kolory_render.SEAT_COLOURS[first])
    assert close(colour_at(0, 0), kolory_render.SEAT_COLOURS[second])
    assert close(colour_at(-1, -1), kolory_render.SEAT_COLOURS[second])


def test_last_card_is_outlined_in_the_highlight_colour():
    state = GAME.play(opening(), "1,1")
    view = kolory_render.layout(state)
    image = decode(render.board("kolory", state))
    x0, y0, x1, y1 = view.box(1, 1, 2, 2)
    assert close(pixel(image, ((x0 + x1) / 2, y1 - 2)), DARK.highlight, 40)
    assert close(pixel(image, ((x0 + x1) / 2, y1 + 2)), DARK.text, 40)
    # The white card is not outlined that way.
    x0, y0, x1, y1 = view.box(0, 0, 2, 2)
    assert not close(pixel(image, ((x0 + x1) / 2, y0 + 1)), DARK.highlight, 60)


def test_crop_follows_the_cards_and_stays_readable_with_five_players():
    from render.gallery import playout

    states = playout("kolory", 5, seed=2)
    final = states[-1]
    view = kolory_render.layout(final)
    xs = [c.x for c in final.cards] + [c.x + 1 for c in final.cards]
    ys = [c.y for c in final.cards] + [c.y + 1 for c in final.cards]
    # Every card square is in view, with one square of margin, and squares stay big enough to
    # read their guides.
    assert view.extent == (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)
    assert view.cell >= 20
    image = decode(render.board("kolory", final))
    assert view.left + view.pixel_width <= image.width
    assert view.top + view.pixel_height <= image.height


def test_replay_frames_share_the_final_area():
    from render.gallery import playout

    states = playout("kolory", 3, seed=8)
    area = kolory_render.extent(states)
    first = kolory_render.layout(states[0], area)
    mid = kolory_render.layout(states[len(states) // 2], area)
    last = kolory_render.layout(states[-1], area)
    assert first == mid
    # The final frame's header also states the result, so only the vertical offset may move.
    assert (first.extent, first.cell, first.left) == (last.extent, last.cell, last.left)
