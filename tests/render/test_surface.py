"""The drawing core: palette PNGs, exact named colours, sprites split for speed."""

from __future__ import annotations

import pytest
from PIL import Image

from render.surface import Sprite, encode_png, fixed_palette, make_sprite, to_palette
from render.theme import DARK, LIGHT
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
