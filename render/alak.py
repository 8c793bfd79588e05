"""Alak: a wooden bar with the points a, b, c… and their letters below (RULES.md §1)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from engines.alak import LETTERS
from engines.graphgo import EMPTY
from render.primitives import (
    MARGIN,
    SMALL_SIZE,
    WIDTH,
    Canvas,
    SeatInfo,
    draw_header,
    header_height,
    highlight_ring,
    seat_labels,
    stone_swatch,
)
from render.theme import STONES

MAX_SPACING = 64
BAR_HEIGHT = 96


@dataclass(frozen=True)
class Layout:
    spacing: float
    first_x: float
    line_y: float
    stone_radius: float
    height: int

    def point(self, index: int) -> tuple[float, float]:
        return (self.first_x + index * self.spacing, self.line_y)


def layout(state) -> Layout:
    """Where each point is drawn (tests use it to find stones)."""
    usable = WIDTH - 2 * (MARGIN + 36)
    spacing = min(MAX_SPACING, usable / max(1, state.length - 1))
    first_x = (WIDTH - spacing * (state.length - 1)) / 2
    top = header_height(state) + 28
    line_y = top + BAR_HEIGHT / 2
    height = int(top + BAR_HEIGHT + 40 + 40)
    return Layout(spacing, first_x, line_y, spacing * 0.45, height)


def draw(game, state, options) -> Image.Image:
    theme = options.theme
    geo = layout(state)
    canvas = Canvas(WIDTH, geo.height, theme, options.ss)
    seats = [
        SeatInfo(name, role, stone_swatch(*STONES[seat]),
                 f"{state.board.count(seat)} on line · {state.captures[seat]} captured")
        for seat, (name, role) in enumerate(seat_labels(game, state, options.players))
    ]
    draw_header(canvas, game.title, state, seats, subtitle=f"move {state.ply + 1}"
                if state.outcome is None else f"{state.ply} moves")

    # The bar and its line.
    left = geo.first_x - geo.spacing / 2 - 10
    right = geo.first_x + geo.spacing * (state.length - 1) + geo.spacing / 2 + 10
    top = geo.line_y - BAR_HEIGHT / 2
    canvas.rect((left, top, right, top + BAR_HEIGHT), fill=theme.wood, radius=10)
    canvas.line([geo.point(0), geo.point(state.length - 1)], theme.wood_line, width=3)

    last = getattr(options.last_move, "point", None)
    label_size = 22 if geo.spacing >= 34 else 17
    for index, value in enumerate(state.board):
        x, y = geo.point(index)
        if value == EMPTY:
            canvas.line([(x, y - 9), (x, y + 9)], theme.wood_line, width=3)
            if index in state.banned and state.outcome is None:
                # Just captured: the player to move may not play here (RULES.md §1 ko rule).
                d = geo.stone_radius * 0.45
                canvas.line([(x - d, y - d), (x + d, y + d)], theme.highlight, width=4)
                canvas.line([(x - d, y + d), (x + d, y - d)], theme.highlight, width=4)
        else:
            fill, edge = STONES[value]
            canvas.circle(x, y, geo.stone_radius, fill=fill, outline=edge, width=2)
        if index == last:
            highlight_ring(canvas, x, y, geo.stone_radius + 5)
        letter_y = top + BAR_HEIGHT + 22
        if index == last:
            canvas.circle(x, letter_y, label_size * 0.8, fill=theme.highlight)
            canvas.text(x, letter_y, LETTERS[index], label_size, theme.background, bold=True,
                        anchor="mm")
        else:
            canvas.text(x, letter_y, LETTERS[index], label_size, theme.text, bold=True,
                        anchor="mm")

    legend = "Type a letter to play." if state.outcome is None else ""
    if state.banned and state.outcome is None:
        legend += "  × = just captured: not playable this turn."
    canvas.text(MARGIN, geo.height - 22, legend, SMALL_SIZE, theme.muted, anchor="lm")
    return canvas.finish()
