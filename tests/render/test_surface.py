"""The drawing core: palette PNGs, exact named colours, sprites split for speed."""

from __future__ import annotations

import pytest
from PIL import Image

import engines
import render
from render.gallery import SAMPLE_NAMES, player_counts, playout
from render.options import Options
from render.surface import Sprite, encode_png, fixed_palette, make_sprite, to_palette
from render.theme import DARK, LIGHT, get_theme
from render.words import words
from tests.render.helpers import decode


def test_encoded_png_decodes_to_the_same_pixels_and_palette():
    image = Image.new("P", (37, 11))
    image.putpalette([i % 256 for i in range(3 * 200)])
    image.putdata([(x * 7 + y) % 200 for y in range(11) for x in range(37)])
    back = decode(encode_png(image))
    assert back.mode == "P"
    assert back.size == image.size
    assert back.tobytes() == image.tobytes()
    assert back.getpalette()[: 3 * 200] == image.getpalette()[: 3 * 200]


def test_encode_png_takes_palette_images_only():
    with pytest.raises(ValueError):
        encode_png(Image.new("RGB", (4, 4)))


@pytest.mark.parametrize("theme", [DARK, LIGHT])
def test_named_colours_come_out_exactly(theme):
    named = [theme.background, theme.panel, theme.text, theme.muted, theme.accent,
             theme.highlight, theme.line, theme.empty, theme.wood, theme.wood_line]
    strip = Image.new("RGB", (len(named), 1))
    strip.putdata(named)
    # A busy sample with many colours near the named ones, as antialiased edges give.
    noise = Image.effect_noise((64, 64), 80).convert("RGB")
    palette = fixed_palette([noise, strip], named)
    out = to_palette(strip, palette).convert("RGB")
    assert [out.getpixel((x, 0)) for x in range(len(named))] == named


def test_a_large_mostly_opaque_sprite_pastes_its_middle_unblended():
    sprite = make_sprite((-30, -30, 30, 30), lambda canvas: canvas.circle(0, 0, 28, (200, 0, 0)))
    blended = [piece for piece in sprite.pieces if piece[5]]
    plain = [piece for piece in sprite.pieces if not piece[5]]
    assert len(plain) == 1 and blended
    width, height = plain[0][3], plain[0][4]
    assert width * height >= sprite.width * sprite.height / 3
    small = Sprite(Image.new("RGBA", (5, 5), (1, 2, 3, 128)), 0, 0)
    assert [piece[5] for piece in small.pieces] == [True]



def _same_as_pixel_by_pixel(image: Image.Image, palette: Image.Image) -> None:
    planned = to_palette(image, palette)
    whole = image.copy().quantize(palette=palette, dither=Image.Dither.NONE)  # no plan
    assert planned.tobytes() == whole.tobytes()
    assert planned.getpalette() == whole.getpalette()


@pytest.mark.parametrize("game_name", render.supported_games())
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_frame_maps_onto_its_palette_as_every_pixel_would(game_name, theme):
    """A board mapped by its frame's plan (opaque parts laid out in palette indices, only the
    blended boxes looked up) is index for index the board mapped pixel by pixel: at every
    player count, at the start, midway and over, with a clock and a status, as a replay frame,
    and a seat's hand where the game has one."""
    game = engines.get(game_name)
    module = render._module(game_name)
    colours = render.palette(game_name, theme)
    for count in player_counts(game_name):
        states = playout(game_name, count, seed=7)
        names = SAMPLE_NAMES[:count]
        for state in [states[0], states[len(states) // 2], states[-1]]:
            _same_as_pixel_by_pixel(
                render.board_image(game_name, state, players=names, theme=theme), colours)
            _same_as_pixel_by_pixel(
                render.board_image(game_name, state, players=names, theme=theme,
                                   status="Someone to move\nA reason", clock="due Mon 14:00"),
                colours)
            seen = render._seen(game, module, state, None)
            _same_as_pixel_by_pixel(
                render._draw(game, module, seen, viewer=None, last_move=None, players=names,
                             theme=theme, lang="fr", for_replay=True), colours)
            if hasattr(module, "draw_hand") and state.outcome is None:
                options = Options(theme=get_theme(theme), players=tuple(names), viewer=0,
                                  words=words("en"))
                hand = module.draw_hand(game, render._seen(game, module, state, 0), 0, options)
                _same_as_pixel_by_pixel(hand, colours)
