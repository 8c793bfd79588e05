"""The elimination bracket image."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.bracket import PALETTES, BracketMatch, render_bracket


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def colours(img: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in img.getcolors(maxcolors=1 << 20)}


def test_the_bracket_has_a_column_per_round_to_the_final():
    eight = [BracketMatch(f"P{i}", f"Q{i}") for i in range(4)]
    two = [BracketMatch("P0", "Q0")]
    wide, narrow = image(render_bracket([eight], title="Cup")), image(
        render_bracket([two], title="Cup"))
    assert wide.width > narrow.width and wide.height > narrow.height
    # Four first-round boards: three columns (quarter-finals, semi-finals, final).
    assert wide.width == image(render_bracket([eight], title="Cup", total_rounds=3)).width


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_winners_are_drawn_in_the_accent_colour(theme):
    accent = PALETTES[theme][5]
    undecided = image(render_bracket([[BracketMatch("Ann", "Bob")]], title="T", theme=theme))
    decided = image(render_bracket([[BracketMatch("Ann", "Bob", 0)]], title="T", theme=theme))
    assert accent not in colours(undecided)
    assert accent in colours(decided)
    assert decided.getpixel((0, 0)) == PALETTES[theme][0]


def test_long_names_and_byes_render():
    data = render_bracket(
        [[BracketMatch("A very long display name indeed, longer than a box", None, 0, "bye"),
          BracketMatch("Cy", "Di", 1, "forfeit")]],
        title="x" * 300,
    )
    assert image(data).size[0] > 0


def test_an_empty_bracket_is_refused():
    with pytest.raises(ValueError):
        render_bracket([], title="T")
