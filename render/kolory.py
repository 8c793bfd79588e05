"""Kolory: the picture of overlapping 2×2 cards, oldest first so the newest lies on top, each
card with a shadow and an outline so the stacking shows; x/y guides give the squares a player
types (a card's top-left square). RULES.md §6."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engines.kolory import CARDS_PER_PLAYER, ROUNDS, WHITE, KoloryState, largest_groups
from render.primitives import (
    MARGIN,
    SMALL_SIZE,
    WIDTH,
    Canvas,
    Extent,
    GridView,
    SeatInfo,
    draw_guides,
    draw_header,
    grid_view,
    grow,
    header_height,
    label_box,
    seat_labels,
    square_swatch,
    text_width,
    union,
)
from render.theme import RGB, hex_colour, mix

SEAT_COLOURS: tuple[RGB, ...] = (
    hex_colour("e53935"),  # red
    hex_colour("1e88e5"),  # blue
    hex_colour("43a047"),  # green
    hex_colour("fdd835"),  # yellow
    hex_colour("fb8c00"),  # orange
)
START_WHITE = hex_colour("fafafa")
MAX_CELL = 56
BOARD_HEIGHT = 640


def colour_of(owner: int) -> RGB:
    return START_WHITE if owner == WHITE else SEAT_COLOURS[owner]


def _state_extent(state: KoloryState) -> Extent:
    xs = [c.x for c in state.cards] + [c.x + 1 for c in state.cards]
    ys = [c.y for c in state.cards] + [c.y + 1 for c in state.cards]
    # One square of margin: a new card may hang one square outside the picture.
    return grow((min(xs), min(ys), max(xs), max(ys)), 1)


def extent(states: Sequence[KoloryState]) -> Extent:
    """The area every replay frame shows (cards are never removed, so the union of all)."""
    return union([_state_extent(s) for s in states])


def layout(state: KoloryState, fixed: Extent | None = None) -> GridView:
    top = header_height(state) + 16
    return grid_view(fixed or _state_extent(state), top, WIDTH - 2 * MARGIN, BOARD_HEIGHT,
                     MAX_CELL)


def _stats(state: KoloryState, seat: int, group: int) -> str:
    if state.outcome is not None:
        return f"largest group {group}"
    left = state.cards_left(seat)
    if state.players > 4:  # three seats per header row: keep it short
        return f"group {group} · {left} left"
    return f"largest group {group} · {left} cards left"


def draw(game, state: KoloryState, options) -> Image.Image:
    theme = options.theme
    view = layout(state, options.extent)
    height = int(view.top + view.pixel_height + 48)
    canvas = Canvas(WIDTH, height, theme, options.ss)
    groups = largest_groups(state)
    seats = [
        SeatInfo(name, role, square_swatch(SEAT_COLOURS[seat], mix(SEAT_COLOURS[seat],
                                                                    (0, 0, 0), 0.4)),
                 _stats(state, seat, groups[seat]))
        for seat, (name, role) in enumerate(seat_labels(game, state, options.players))
    ]
    if state.outcome is None:
        subtitle = f"round {state.round}/{ROUNDS}"
    else:
        subtitle = f"{len(state.cards) - 1} cards placed"
    draw_header(canvas, game.title, state, seats, subtitle=subtitle)
    draw_guides(canvas, view)

    cell = view.cell
    shadow = mix(theme.background, (0, 0, 0), 0.55)
    inset = max(1.0, cell * 0.04)  # a sliver of gap so neighbouring cards stay distinct
    for card in state.cards:
        x0, y0, x1, y1 = view.box(card.x, card.y, 2, 2)
        box = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
        offset = max(2.0, cell * 0.07)
        canvas.rect((box[0] + offset, box[1] + offset, box[2] + offset, box[3] + offset),
                    fill=shadow, radius=cell * 0.12)
        fill = colour_of(card.owner)
        edge = mix(fill, (0, 0, 0), 0.45)
        canvas.rect(box, fill=fill, outline=edge, width=max(1.5, cell * 0.05), radius=cell * 0.12)
        # The squares of the card, faintly, so groups can be counted square by square.
        mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
        seam = mix(fill, (0, 0, 0), 0.18)
        canvas.line([(mid_x, box[1] + cell * 0.2), (mid_x, box[3] - cell * 0.2)], seam, 1)
        canvas.line([(box[0] + cell * 0.2, mid_y), (box[2] - cell * 0.2, mid_y)], seam, 1)

    last = options.last_move
    if last is not None:
        x0, y0, x1, y1 = view.box(last.x, last.y, 2, 2)
        # Two rings, the theme's text colour outside the highlight, because the highlight
        # alone is too close to the orange and yellow cards.
        ring = max(3, cell * 0.08)
        canvas.rect((x0 - ring, y0 - ring, x1 + ring, y1 + ring), outline=theme.text,
                    width=ring, radius=cell * 0.16)
        canvas.rect((x0, y0, x1, y1), outline=theme.highlight, width=ring, radius=cell * 0.14)
        size = max(11, min(16, int(cell * 0.3)))
        label_box(canvas, x0 + text_width(str(last), size) / 2 + 5, y0 + size * 0.7, str(last),
                  size, theme.background, theme.highlight)

    legend = (
        f"Type x,y: the top-left square of your card. {CARDS_PER_PLAYER} cards each."
        if state.outcome is None else "Score: each colour's largest connected group of squares."
    )
    canvas.text(MARGIN, height - 22, legend, SMALL_SIZE, theme.muted, anchor="lm")
    return canvas.finish()
