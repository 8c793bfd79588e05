"""The elimination bracket image."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.bracket import BracketMatch, render_bracket
from render.theme import get_theme


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def has_colour(img: Image.Image, rgb: tuple[int, int, int], tolerance: int = 8) -> bool:
    """Whether a colour (up to the PNG palette's rounding) appears in the image."""
    return any(
        max(abs(a - b) for a, b in zip(colour, rgb, strict=True)) <= tolerance
        for _, colour in img.getcolors(maxcolors=1 << 20)
    )


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
    accent = get_theme(theme).accent
    undecided = image(render_bracket([[BracketMatch("Ann", "Bob")]], title="T", theme=theme))
    decided = image(render_bracket([[BracketMatch("Ann", "Bob", 0)]], title="T", theme=theme))
    assert not has_colour(undecided, accent)
    assert has_colour(decided, accent)
    corner = decided.getpixel((0, 0))
    assert max(abs(a - b) for a, b in zip(corner, get_theme(theme).background, strict=True)) <= 8


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


def test_column_names_in_both_languages():
    from render.bracket import column_name
    from render.words import words

    en, fr = words("en"), words("fr")
    assert [column_name(c, 4, en) for c in range(4)] == [
        "Round 1", "Quarter-finals", "Semi-finals", "Final"]
    assert [column_name(c, 3, fr) for c in range(3)] == ["Quarts de finale", "Demi-finales",
                                                         "Finale"]
    rounds = [[BracketMatch("Ann", "Bob")]]
    assert render_bracket(rounds, title="T") != render_bracket(rounds, title="T", lang="fr")


def test_names_the_font_cannot_draw_are_cleaned():
    emoji = render_bracket([[BracketMatch("Ann 🎉", "Bob")]], title="Cup 🎉")
    plain = render_bracket([[BracketMatch("Ann", "Bob")]], title="Cup")
    assert emoji == plain
