"""Alak: a wooden bar with the points a, b, c… and their letters below (RULES.md §1)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engines.alak import LETTERS
from engines.graphgo import EMPTY
from render.header import (
    MARGIN,
    SMALL_SIZE,
    SeatInfo,
    draw_header,
    header_height,
    move_subtitle,
    seat_labels,
)
from render.hitmap import Region, rectangle
from render.options import Options
from render.primitives import highlight_ring, stone_swatch
from render.surface import WIDTH, Canvas, Frame
from render.theme import STONES, Theme

MAX_SPACING = 64
BAR_HEIGHT = 96
LETTER_GAP = 22  # from the bar's bottom edge to the middle of the letters
BELOW_BAR = 80  # letters and legend


@dataclass(frozen=True)
class Layout:
    spacing: float
    first_x: float
    line_y: float
    stone_radius: float
    height: int

    def point(self, index: int) -> tuple[float, float]:
        return (self.first_x + index * self.spacing, self.line_y)

    @property
    def bar_top(self) -> float:
        return self.line_y - BAR_HEIGHT / 2


def _spacing(length: int) -> tuple[float, float]:
    usable = WIDTH - 2 * (MARGIN + 36)
    spacing = min(MAX_SPACING, usable / max(1, length - 1))
    return spacing, (WIDTH - spacing * (length - 1)) / 2


def layout(state, options: Options | None = None) -> Layout:
    """Where each point is drawn (tests use it to find stones)."""
    spacing, first_x = _spacing(state.length)
    top = header_height(state, options) + 28
    line_y = top + BAR_HEIGHT / 2
    height = int(top + BAR_HEIGHT + BELOW_BAR)
    return Layout(spacing, first_x, line_y, spacing * 0.45, height)


def _label_size(spacing: float) -> int:
    return 22 if spacing >= 34 else 17


@lru_cache(maxsize=16)
def _bar(length: int, theme: Theme) -> Image.Image:
    """The bar with its line, the empty-point ticks and every letter: the same for every
    position of a length (stones and marks are pasted on it)."""
    spacing, first_x = _spacing(length)
    height = BAR_HEIGHT + LETTER_GAP + 20
    canvas = Canvas(WIDTH, height, theme)
    left = first_x - spacing / 2 - 10
    right = first_x + spacing * (length - 1) + spacing / 2 + 10
    line_y = BAR_HEIGHT / 2
    canvas.rect((left, 0, right, BAR_HEIGHT), fill=theme.wood, radius=10)
    canvas.line([(first_x, line_y), (first_x + spacing * (length - 1), line_y)],
                theme.wood_line, width=3)
    size = _label_size(spacing)
    for index in range(length):
        x = first_x + index * spacing
        canvas.line([(x, line_y - 9), (x, line_y + 9)], theme.wood_line, width=3)
        canvas.text(x, BAR_HEIGHT + LETTER_GAP, LETTERS[index], size, theme.text, bold=True,
                    anchor="mm")
    return canvas.finish()


def palette_keys(theme: Theme) -> list:
    return [colour for pair in STONES for colour in pair]


def draw(game, state, options: Options) -> Image.Image:
    theme = options.theme
    said = options.words
    geo = layout(state, options)
    frame = Frame(WIDTH, geo.height, theme)
    seats = [
        SeatInfo(name, role, stone_swatch(*STONES[seat]),
                 said("alak.stats", line=state.board.count(seat),
                      captured=said.count("alak.captured", state.captures[seat])))
        for seat, (name, role) in enumerate(seat_labels(game, state, options.players, said))
    ]
    draw_header(frame, game.title, state, seats, options, subtitle=move_subtitle(state, said))
    frame.layer(_bar(state.length, theme), 0, geo.bar_top)

    last = getattr(options.last_move, "point", None)
    label_size = _label_size(geo.spacing)
    letter_y = geo.bar_top + BAR_HEIGHT + LETTER_GAP
    for index, value in enumerate(state.board):
        x, y = geo.point(index)
        if value != EMPTY:
            fill, edge = STONES[value]
            frame.circle(x, y, geo.stone_radius, fill=fill, outline=edge, width=2)
        elif index in state.banned:
            # Just captured: the player to move may not play here (RULES.md §1 ko rule); at
            # the end, the points that left no move.
            d = geo.stone_radius * 0.45
            frame.line([(x - d, y - d), (x + d, y + d)], theme.highlight, width=4)
            frame.line([(x - d, y + d), (x + d, y - d)], theme.highlight, width=4)
        if index == last:
            highlight_ring(frame, x, y, geo.stone_radius + 5)
            frame.circle(x, letter_y, label_size * 0.8, fill=theme.highlight)
            frame.text(x, letter_y, LETTERS[index], label_size, theme.background, bold=True,
                       anchor="mm")

    legend = said("alak.legend") if state.outcome is None else ""
    if state.banned:
        legend += ("  " + said("alak.banned") if state.outcome is None
                   else said("alak.banned_end"))
    frame.text(MARGIN, geo.height - 22, legend, SMALL_SIZE, theme.muted, anchor="lm")
    return frame.finish()


def image_height(game, state, options: Options) -> int:
    return layout(state, options).height


def hit_regions(game, state, options: Options) -> list[Region]:
    """Each point: its stretch of the bar with its letter below (``render.hitmap``)."""
    return list(_point_regions(state.length, layout(state, options)))


@lru_cache(maxsize=16)
def _point_regions(length: int, geo: Layout) -> tuple[Region, ...]:
    bottom = geo.bar_top + BAR_HEIGHT + LETTER_GAP + _label_size(geo.spacing)
    half = geo.spacing / 2
    return tuple(Region("point", LETTERS[index],
                        rectangle(geo.point(index)[0] - half, geo.bar_top,
                                  geo.point(index)[0] + half, bottom))
                 for index in range(length))
