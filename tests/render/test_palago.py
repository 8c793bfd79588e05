"""Palago images: the true tile geometry (RULES.md §3), target cells, the last move, the
creature in full colour over a faded table, and 48 tiles still fitting the image."""

from __future__ import annotations

import pytest

import engines
import render
from engines.palago import picture
from render import palago as palago_render
from render.gallery import playout
from render.primitives import hex_corner
from render.theme import DARK, mix
from tests.render.helpers import close, decode, pixel

GAME = engines.get("palago")
BLUE, WHITE = palago_render.BLUE, palago_render.WHITE


def towards(fit, q, r, corner, fraction):
    """A point ``fraction`` of the way from a cell's centre to one of its corners."""
    cx, cy = palago_render.cell_center(fit, q, r)
    kx, ky = hex_corner(cx, cy, fit.scale, corner)
    return (cx + (kx - cx) * fraction, cy + (ky - cy) * fraction)


def region_point(fit, q, r, o, k):
    """A point inside region k (engine order) of a tile in orientation o."""
    corner = {0: o + 1, 1: o, 2: o + 4, 3: o + 3}[k] % 6
    return towards(fit, q, r, corner, 0.85)


@pytest.mark.parametrize("orientation", [0, 1, 2])
def test_corner_colours_even_blue_odd_white(orientation):
    state = GAME.play(GAME.new(2, seed=1), f"0,0/{orientation} 1,0/0")
    fit = palago_render.layout(state)
    image = decode(render.board("palago", state))
    for corner in range(6):
        expected = BLUE if corner % 2 == 0 else WHITE
        assert close(pixel(image, towards(fit, 0, 0, corner, 0.85)), expected), corner


@pytest.mark.parametrize("orientation", [0, 1, 2])
def test_tips_and_arches_follow_the_straight_boundary(orientation):
    o = orientation
    state = GAME.play(GAME.new(2, seed=1), f"0,0/{o} 1,0/0")
    fit = palago_render.layout(state)
    image = decode(render.board("palago", state))
    colour = {0: BLUE, 1: WHITE}
    # Near the centre, on the side of corner o+1, lies the arch of colour(o) (the tip around
    # corner o+1 has radius half an edge and does not reach that far); opposite, colour(o+3).
    assert close(pixel(image, towards(fit, 0, 0, (o + 1) % 6, 0.3)), colour[o % 2])
    assert close(pixel(image, towards(fit, 0, 0, (o + 4) % 6, 0.3)), colour[(o + 3) % 2])
    # Close to corner o+1, the tip: the other colour than the arch around it.
    assert close(pixel(image, towards(fit, 0, 0, (o + 1) % 6, 0.85)), colour[(o + 1) % 2])


def test_opening_targets_and_last_move():
    start = GAME.new(2, seed=1)
    fit = palago_render.layout(start)
    image = decode(render.board("palago", start))
    # The only first target is 0,0; it is drawn as an empty cell.
    assert picture(start).targets == ((0, 0),)
    spot = towards(fit, 0, 0, 1, 0.7)
    assert close(pixel(image, spot), DARK.empty, 6)

    state = GAME.play(start, "0,0/0 1,0/0")
    fit = palago_render.layout(state)
    image = decode(render.board("palago", state))
    # Both tiles of the last move are outlined in the highlight colour (on their corners).
    for q, r in ((0, 0), (1, 0)):
        cx, cy = palago_render.cell_center(fit, q, r)
        left_edge = (cx - fit.scale * 0.866 + 1, cy)
        assert close(pixel(image, left_edge), DARK.highlight, 50), (q, r)


def test_creature_in_full_colour_others_faded():
    for seed in range(60):
        states = playout("palago", 2, seed)
        final = states[-1]
        if final.outcome.winners:
            break
    else:
        pytest.fail("no creature in 60 seeded random games")
    pic = picture(final)
    fit = palago_render.layout(final)
    image = decode(render.board("palago", final))
    orientation = {(q, r): o for q, r, o in final.tiles}
    in_creature = set(pic.creature)
    q, r, k = pic.creature[0]
    o = orientation[(q, r)]
    corner = {0: o + 1, 1: o, 2: o + 4, 3: o + 3}[k] % 6
    full = BLUE if corner % 2 == 0 else WHITE
    assert close(pixel(image, region_point(fit, q, r, o, k)), full)
    outside = next((q2, r2, o2) for q2, r2, o2 in final.tiles
                   if not any((q2, r2, kk) in in_creature for kk in range(4)))
    q2, r2, o2 = outside
    corner = o2 % 6
    faded = mix(BLUE if corner % 2 == 0 else WHITE, DARK.background, 0.62)
    assert close(pixel(image, region_point(fit, q2, r2, o2, 1)), faded)


def test_all_48_tiles_fit_and_stay_readable():
    for seed in range(60):
        final = playout("palago", 2, seed)[-1]
        if len(final.tiles) == 48:
            break
    else:
        pytest.fail("no 48-tile game in 60 seeded random games")
    fit = palago_render.layout(final)
    image = decode(render.board("palago", final))
    assert fit.scale >= 18  # tiles of at least 36 px across
    for q, r, _ in final.tiles:
        x, y = palago_render.cell_center(fit, q, r)
        assert fit.scale <= x <= image.width - fit.scale
        assert fit.scale <= y <= image.height - fit.scale
