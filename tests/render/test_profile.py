"""The /profile picture: its size, a line per game in the game's colour, bars per month, month
names in the picture's language, and matplotlib loaded only when a picture is drawn."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta

from PIL import Image

from render.profile import (
    HEIGHT,
    ProfileTexts,
    RatingSeries,
    month_labels,
    profile_figure,
    profile_png,
    window_months,
)
from render.surface import WIDTH
from render.theme import DARK, GAME_COLOURS

NOW = datetime(2026, 11, 26, 12, tzinfo=UTC)
MONTHS = window_months(NOW.date())
TEXTS = ProfileTexts("Alice", "rating", "games", "No rated game yet.")


def series(game: str, base: float, dashed: bool = False) -> RatingSeries:
    start = NOW - timedelta(days=200)
    points = [(start + timedelta(days=20 * i), base + 15 * i, 120.0 - 5 * i) for i in range(8)]
    return RatingSeries(game, game.title(), points, dashed=dashed)


def near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 6) -> int:
    """How many pixels are within ``tolerance`` of ``colour`` on every channel."""
    data = image.convert("RGB").tobytes()
    return sum(1 for i in range(0, len(data), 3)
               if all(abs(data[i + c] - colour[c]) <= tolerance for c in range(3)))


def test_the_window_is_twelve_months_ending_with_this_one():
    assert MONTHS[0] == date(2025, 12, 1) and MONTHS[-1] == date(2026, 11, 1)
    assert len(MONTHS) == 12
    assert window_months(date(2026, 1, 31), 2) == [date(2025, 12, 1), date(2026, 1, 1)]


def test_each_game_is_a_line_in_its_own_colour():
    png = profile_png([series("alak", 1450), series("palago", 1600)], {}, MONTHS, TEXTS,
                      "en", NOW)
    image = Image.open(io.BytesIO(png))
    assert image.size == (WIDTH, HEIGHT)
    assert len(png) < 100_000
    assert near(image, GAME_COLOURS["alak"]) > 300
    assert near(image, GAME_COLOURS["palago"]) > 300
    # Games the player has no rating in are not drawn.
    for game in ("polygo", "palam", "lppg", "kolory"):
        assert near(image, GAME_COLOURS[game]) < 20, game


def test_the_lines_sit_where_their_ratings_are():
    """The higher rating's line is drawn above the lower one's (rows of the image)."""
    image = Image.open(io.BytesIO(profile_png(
        [series("alak", 1200), series("lppg", 1900)], {}, MONTHS, TEXTS, "en", NOW)))
    rgb = image.convert("RGB")

    def rows_of(colour):
        found = [y for y in range(rgb.height) for x in range(0, rgb.width, 3)
                 if all(abs(a - b) <= 4 for a, b in zip(rgb.getpixel((x, y)), colour,
                                                        strict=True))]
        return sum(found) / len(found)

    assert rows_of(GAME_COLOURS["lppg"]) < rows_of(GAME_COLOURS["alak"])


def test_games_per_month_are_bars_stacked_by_game():
    counts = [0] * 11 + [4]
    image = Image.open(io.BytesIO(profile_png(
        [], {"kolory": counts, "polygo": [0] * 10 + [2, 3]}, MONTHS, TEXTS, "en", NOW)))
    assert near(image, GAME_COLOURS["kolory"]) > 500
    assert near(image, GAME_COLOURS["polygo"]) > 500
    assert near(image, GAME_COLOURS["alak"]) < 20
    # The background is the dark theme's.
    assert image.convert("RGB").getpixel((WIDTH - 3, HEIGHT - 3)) == DARK.background


def test_month_names_follow_the_language():
    assert month_labels(MONTHS, "fr")[:3] == ["déc.\n2025", "janv.\n2026", "févr."]
    assert month_labels(MONTHS, "en")[:3] == ["Dec\n2025", "Jan\n2026", "Feb"]
    figure = profile_figure([series("alak", 1500)], {"alak": [1] * 12}, MONTHS, TEXTS, "fr",
                            NOW)
    shown = [label.get_text() for label in figure.axes[1].get_xticklabels()]
    assert shown == month_labels(MONTHS, "fr")
    assert "août" in shown


def test_without_ratings_the_panel_says_so():
    figure = profile_figure([], {"alak": [1] * 12}, MONTHS, TEXTS, "en", NOW)
    said = [text.get_text() for text in figure.axes[0].texts]
    assert said == ["No rated game yet."]


def test_matplotlib_is_not_imported_by_the_bot_or_the_module():
    code = ("import sys, bot.runtime.app, render.profile, bot.discord.cogs.tournaments; "
            "sys.exit('matplotlib' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_new_player_gets_no_rating_scale_and_a_legend_for_every_game_drawn():
    """No rated game: no "0" and "1" on the rating axis; games played unrated (bars only)
    are named in the legend all the same."""
    figure = profile_figure([], {"alak": [0] * 11 + [3], "palago": [0] * 12}, MONTHS, TEXTS,
                            "en", NOW)
    rating_ax = figure.axes[0]
    assert list(rating_ax.get_yticks()) == []
    labels = [text.get_text() for legend in figure.legends for text in legend.get_texts()]
    assert labels == ["Alak"], "Palago has no game this year: not in the legend"


def test_a_first_rating_shows_its_deviation_and_the_month_whole():
    """A rating an hour old: the current month is shown whole (the line ends at now, short
    of the right edge), the deviation shows as a bar at the game, and bars of unrated games
    are named in the legend."""
    first = RatingSeries("alak", "Alak", [(NOW - timedelta(hours=2), 1500.0, 350.0),
                                          (NOW - timedelta(hours=1), 1662.0, 290.0)])
    figure = profile_figure([first], {"alak": [0] * 11 + [1], "palago": [0] * 10 + [2, 0]},
                            MONTHS, TEXTS, "en", NOW)
    from matplotlib.dates import date2num  # loaded with the picture only

    rating_ax = figure.axes[0]
    assert rating_ax.get_xlim()[1] == date2num(datetime(2026, 12, 1, tzinfo=UTC))
    bars = [segment for collection in rating_ax.collections
            if hasattr(collection, "get_segments") for segment in collection.get_segments()]
    assert any(abs(seg[0][1] - 1372.0) < 1e-6 and abs(seg[1][1] - 1952.0) < 1e-6
               for seg in bars), "the deviation after the game, as a bar"
    labels = [text.get_text() for legend in figure.legends for text in legend.get_texts()]
    assert labels == ["Alak", "Palago"]
