"""The picture of ``/profile``: a player's rating in each game over the last twelve months (a
line per game in the game's colour, with its ± deviation as a band, and a bar of it at each
game, so that a rating only hours old shows its deviation too) and the games they finished each
month (bars stacked by game). The legend names every game drawn, rated or not; without a rated
game the rating panel says so, with no scale.

Drawn with matplotlib (Agg backend, object API: no pyplot, no global figure state, so it is
safe in a thread too) in the project's theme and bundled DejaVu font. matplotlib is imported
inside ``profile_png`` only, so it is loaded in the heavy worker process that draws, never by
the bot's own process (its start and memory stay as they were).

Everything said on the picture comes translated (``ProfileTexts``), except the month names,
which babel writes in the picture's language.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from babel.dates import format_date

import engines
from render.surface import FONT_DIR, WIDTH
from render.theme import GAME_COLOURS, RGB, Theme, get_theme, mix

#: The picture's height (its width is the boards', ``render.surface.WIDTH``).
HEIGHT = 600
DPI = 100
#: Legend entries a row (each says a game and its rating now).
LEGEND_COLUMNS = 3
#: Months shown, the current one included.
MONTHS = 12


@dataclass(frozen=True)
class RatingSeries:
    """One rating of the player: ``points`` are (when, rating, deviation) on the Glicko scale,
    oldest first, the first one the rating before the first game in the window."""

    game: str  # engine name: picks the colour
    label: str  # as the legend says it ("Kolory", "Kolory (multiplayer)")
    points: Sequence[tuple[datetime, float, float]]
    dashed: bool = False  # a game's second rating (multiplayer skill) beside its first


@dataclass(frozen=True)
class ProfileTexts:
    title: str
    rating_axis: str  # "rating"
    games_axis: str  # "games per month"
    no_ratings: str  # said in the rating panel when no rated game was played in the window


def window_months(today: date, months: int = MONTHS) -> list[date]:
    """The first day of each month of the window, oldest first, the current month last."""
    year, month = today.year, today.month
    found = []
    for _ in range(months):
        found.append(date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return found[::-1]


def month_labels(months: Sequence[date], lang: str) -> list[str]:
    """The months' short names in ``lang`` (babel), with the year under January and under the
    first month shown."""
    labels = []
    for index, month in enumerate(months):
        name = format_date(month, "MMM", locale=lang)
        if index == 0 or month.month == 1:
            name += f"\n{month.year}"
        labels.append(name)
    return labels


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _game_colour(game: str) -> str:
    return _hex(GAME_COLOURS.get(game, (128, 128, 128)))


def _font_family() -> str:
    """Register the bundled DejaVu files with matplotlib (once per process) and name them."""
    from matplotlib import font_manager

    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        font_manager.fontManager.addfont(str(FONT_DIR / name))
    return "DejaVu Sans"


def profile_figure(series: Sequence[RatingSeries], games: dict[str, Sequence[int]],
                   months: Sequence[date], texts: ProfileTexts, lang: str, now: datetime,
                   theme: str | Theme = "dark") -> Any:
    """The matplotlib figure of the picture (``profile_png`` saves it). ``games``: per game,
    the games finished in each month of ``months``."""
    from matplotlib.dates import date2num
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator, NullLocator

    palette = get_theme(theme)
    background, text, muted = _hex(palette.background), _hex(palette.text), _hex(palette.muted)
    grid = _hex(mix(palette.background, palette.line, 0.45))
    figure = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor=background)
    family = _font_family()
    rating_ax, games_ax = figure.subplots(
        2, 1, sharex=True, gridspec_kw={"height_ratios": [2.3, 1], "hspace": 0.22})
    # The legend above the panels: three a row, as many rows as it takes: the rated games'
    # lines, then the games played unrated (their bars only).
    rated = {one.game for one in series}
    unrated = [game for game in _bar_order(games) if game not in rated and any(games[game])]
    legend_rows = max(1, -(-(len(series) + len(unrated)) // LEGEND_COLUMNS))
    figure.subplots_adjust(left=0.11, right=0.98, top=0.875 - 0.045 * legend_rows,
                           bottom=0.11)
    figure.suptitle(texts.title, x=0.02, y=0.975, ha="left", color=text, fontsize=18,
                    family=family, fontweight="bold")
    start = datetime.combine(months[0], datetime.min.time(), tzinfo=now.tzinfo)
    last = months[-1]
    end = datetime.combine(date(last.year + last.month // 12, last.month % 12 + 1, 1),
                           datetime.min.time(), tzinfo=now.tzinfo)
    for ax in (rating_ax, games_ax):
        ax.set_facecolor(background)
        for side, spine in ax.spines.items():
            spine.set_visible(side in ("bottom", "left"))
            spine.set_color(muted)
        ax.tick_params(colors=muted, labelsize=14, length=0, pad=6)
        ax.grid(True, axis="y", color=grid, linewidth=1)
        ax.set_axisbelow(True)
        for label in ax.get_yticklabels():
            label.set_family(family)

    handles: list[Any] = []
    for one in series:
        colour = _game_colour(one.game)
        # The rating holds until the next game: a step after each game, then on to now.
        line_end = max(now, one.points[-1][0])
        times = [date2num(when) for when, _, _ in one.points] + [date2num(line_end)]
        values = [value for _, value, _ in one.points]
        values.append(values[-1])
        spread = [dev for _, _, dev in one.points]
        spread.append(spread[-1])
        low = [v - d for v, d in zip(values, spread, strict=True)]
        high = [v + d for v, d in zip(values, spread, strict=True)]
        rating_ax.fill_between(times, low, high, step="post", color=colour, alpha=0.12,
                               linewidth=0)
        (line,) = rating_ax.plot(times, values, drawstyle="steps-post", color=colour,
                                 linewidth=2.6, linestyle="--" if one.dashed else "-",
                                 label=one.label, solid_capstyle="round")
        rating_ax.plot(times[1:-1], values[1:-1], "o", color=colour, markersize=4.5)
        # The deviation after each game as a bar: the band has no width yet after a game
        # played an hour ago.
        rating_ax.vlines(times[1:-1], low[1:-1], high[1:-1], color=colour, alpha=0.35,
                         linewidth=5)
        handles.append(line)
    handles += [Patch(color=_game_colour(game), label=engines.get(game).title)
                for game in unrated]
    if series:
        rating_ax.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    else:
        rating_ax.text(0.5, 0.5, texts.no_ratings, transform=rating_ax.transAxes, ha="center",
                       va="center", color=muted, fontsize=13, family=family)
        rating_ax.yaxis.set_major_locator(NullLocator())  # no rating: no scale to read
    if handles:
        legend = figure.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.1, 0.935),
                               ncol=min(len(handles), LEGEND_COLUMNS), frameon=False,
                               handlelength=1.6, columnspacing=1.2, labelcolor=text,
                               prop={"family": family, "size": 13.5})
        legend.set_in_layout(False)
    rating_ax.set_ylabel(texts.rating_axis, color=muted, fontsize=13, family=family)

    # Bars: one per month, at its middle, stacked by game in a fixed game order.
    middles = [date2num(datetime.combine(m, datetime.min.time(), tzinfo=now.tzinfo)
                        + timedelta(days=15)) for m in months]
    bottom = [0] * len(months)
    for game in _bar_order(games):
        counts = list(games[game])
        games_ax.bar(middles, counts, width=22, bottom=bottom, color=_game_colour(game),
                     linewidth=0)
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    # Said above the panel: a rotated label would be taller than this short panel.
    games_ax.set_title(texts.games_axis, loc="left", color=muted, fontsize=13, family=family,
                       pad=6)
    games_ax.yaxis.set_major_locator(MaxNLocator(nbins=3, integer=True, min_n_ticks=1))
    games_ax.set_ylim(0, max([*bottom, 1]) * 1.15)
    games_ax.set_xlim(date2num(start), date2num(end))
    games_ax.set_xticks(middles, month_labels(months, lang), fontsize=13.5, family=family)
    for label in games_ax.get_yticklabels():
        label.set_family(family)
    return figure


def _bar_order(games: dict[str, Sequence[int]]) -> list[str]:
    """The games of the bars in a fixed order (the games' colours' order)."""
    return sorted(games, key=lambda g: list(GAME_COLOURS).index(g)
                  if g in GAME_COLOURS else len(GAME_COLOURS))


def profile_png(series: Sequence[RatingSeries], games: dict[str, Sequence[int]],
                months: Sequence[date], texts: ProfileTexts, lang: str, now: datetime,
                theme: str | Theme = "dark") -> bytes:
    """The picture as PNG bytes (a job for the heavy pool: plain arguments, bytes back)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = profile_figure(series, games, months, texts, lang, now, theme)
    canvas = FigureCanvasAgg(figure)
    out = io.BytesIO()
    canvas.print_png(out)
    return out.getvalue()
