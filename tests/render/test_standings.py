"""The final standings table image."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.standings import MAX_ROWS, render_standings
from render.theme import get_theme
from tests.render.test_bracket import has_colour

HEADINGS = ("#", "Player", "Points", "W-D-L")


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def rows(count: int) -> list[list[str]]:
    return [[f"{i + 1}.", f"Player {i}", str(count - i), f"{count - i}-0-{i}"]
            for i in range(count)]


def test_a_row_per_player_and_a_png_within_budget():
    small, large = render_standings("Cup", HEADINGS, rows(2)), render_standings(
        "Cup", HEADINGS, rows(10))
    assert small.startswith(b"\x89PNG") and len(large) <= 100_000
    assert image(large).height > image(small).height
    # Past MAX_ROWS the table stops growing (a line says how many more).
    capped = image(render_standings("Cup", HEADINGS, rows(MAX_ROWS + 5), more="…and 5 more"))
    assert capped.height <= image(render_standings("Cup", HEADINGS, rows(MAX_ROWS))).height + 30


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_champion_is_drawn_in_the_accent_colour(theme):
    accent = get_theme(theme).accent
    with_champion = image(render_standings("T", HEADINGS, rows(3), theme=theme))
    without = image(render_standings("T", HEADINGS, rows(3), champion=False, theme=theme))
    assert has_colour(with_champion, accent) and not has_colour(without, accent)


def test_long_names_and_emoji_do_not_break_the_table():
    data = render_standings("🏆 " + "x" * 300, HEADINGS,
                            [["1.", "🐉" * 3 + "y" * 200, "3", "3-0-0"]])
    assert image(data).width < 1400
