"""Kolory: the picture of overlapping 2×2 cards, oldest first so the newest lies on top, each
card with a shadow and an outline so the stacking shows; x/y guides give the squares a player
types (a card's top-left square). RULES.md §6."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from engines.kolory import CARDS_PER_PLAYER, ROUNDS, WHITE, KoloryState, largest_groups
from render.header import MARGIN, SMALL_SIZE, SeatInfo, draw_header, header_height, seat_labels
from render.hitmap import Region, square_regions
from render.options import Options
from render.primitives import (
    LEGEND_LINE,
    LEGEND_SIZE,
    Extent,
    GridView,
    draw_guides,
    grid_view,
    grow,
    label_box,
    legend_lines,
    square_swatch,
    union,
)
from render.surface import WIDTH, Frame, Sprite, fit_text, make_sprite, text_width
from render.theme import RGB, Theme, hex_colour, mix

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
ORDER_HEIGHT = 40  # the strip under the header with this round's order of play


def colour_of(owner: int) -> RGB:
    return START_WHITE if owner == WHITE else SEAT_COLOURS[owner]


def _edge(colour: RGB) -> RGB:
    return mix(colour, (0, 0, 0), 0.4)


def _state_extent(state: KoloryState) -> Extent:
    xs = [c.x for c in state.cards] + [c.x + 1 for c in state.cards]
    ys = [c.y for c in state.cards] + [c.y + 1 for c in state.cards]
    # One square of margin: a new card may hang one square outside the picture.
    return grow((min(xs), min(ys), max(xs), max(ys)), 1)


def extent(states: Sequence[KoloryState]) -> Extent:
    """The area every replay frame shows (cards are never removed, so the union of all)."""
    return union([_state_extent(s) for s in states])


def _order_height(state: KoloryState) -> int:
    return ORDER_HEIGHT if state.outcome is None else 0


def layout(state: KoloryState, fixed: Extent | None = None,
           options: Options | None = None) -> GridView:
    top = header_height(state, options) + _order_height(state) + 16
    return grid_view(fixed or _state_extent(state), top, WIDTH - 2 * MARGIN, BOARD_HEIGHT,
                     MAX_CELL)


def play_order(state: KoloryState) -> list[tuple[int, bool]]:
    """This round's seats in the order they play, each with whether it has played already:
    the round's first seat (drawn when the round began), then increasing seat order, wrapping
    around (RULES.md §6). Later rounds' first seats are not drawn yet, so not shown."""
    first, players = state.round_first, state.players
    return [((first + step) % players, step < state.placed_in_round) for step in range(players)]


def _stats(state: KoloryState, seat: int, group: int, said) -> str:
    if state.outcome is not None:
        return said("kolory.group", group=group)
    left = state.cards_left(seat)
    if state.players > 4:  # three seats per header row: keep it short
        return said("kolory.group_left", group=group, left=left)
    return said("kolory.group_cards_left", group=group,
                left=said.count("kolory.cards_left", left))


@lru_cache(maxsize=256)
def _card(cell: int, owner: int, shadow: RGB) -> Sprite:
    """A 2×2 card with its shadow, anchored at its top-left square's corner."""
    inset = max(1.0, cell * 0.04)  # a sliver of gap so neighbouring cards stay distinct
    offset = max(2.0, cell * 0.07)
    fill = colour_of(owner)
    seam = mix(fill, (0, 0, 0), 0.18)
    size = 2 * cell

    def paint(canvas) -> None:
        box = (inset, inset, size - inset, size - inset)
        canvas.rect((box[0] + offset, box[1] + offset, box[2] + offset, box[3] + offset),
                    fill=shadow, radius=cell * 0.12)
        canvas.rect(box, fill=fill, outline=mix(fill, (0, 0, 0), 0.45),
                    width=max(1.5, cell * 0.05), radius=cell * 0.12)
        # The squares of the card, faintly, so groups can be counted square by square.
        canvas.line([(cell, box[1] + cell * 0.2), (cell, box[3] - cell * 0.2)], seam, 1)
        canvas.line([(box[0] + cell * 0.2, cell), (box[2] - cell * 0.2, cell)], seam, 1)

    return make_sprite((0, 0, size + offset + 1, size + offset + 1), paint)


def palette_keys(theme: Theme) -> list:
    return [START_WHITE, *SEAT_COLOURS, mix(theme.background, (0, 0, 0), 0.55),
            *(mix(colour, (0, 0, 0), 0.45) for colour in (START_WHITE, *SEAT_COLOURS)),
            mix(theme.background, theme.line, 0.35)]


def draw(game, state: KoloryState, options: Options) -> Image.Image:
    theme = options.theme
    said = options.words
    view = layout(state, options.extent, options)
    legend = _legend(state, said)
    frame = Frame(WIDTH, _height(view, legend), theme)
    groups = largest_groups(state)
    labels = seat_labels(game, state, options.players, said)
    seats = [
        SeatInfo(name, role, square_swatch(SEAT_COLOURS[seat], _edge(SEAT_COLOURS[seat])),
                 _stats(state, seat, groups[seat], said))
        for seat, (name, role) in enumerate(labels)
    ]
    if state.outcome is None:
        subtitle = said("kolory.round", n=state.round, total=ROUNDS)
    else:
        subtitle = said.count("kolory.placed", len(state.cards) - 1)
    bottom = draw_header(frame, game.title, state, seats, options, subtitle=subtitle)
    if state.outcome is None:
        _draw_order(frame, state, labels, bottom, said)
    draw_guides(frame, view)

    cell = view.cell
    shadow = mix(theme.background, (0, 0, 0), 0.55)
    for card in state.cards:
        frame.paste(_card(cell, card.owner, shadow), *view.corner(card.x, card.y))

    last = options.last_move
    if last is not None:
        x0, y0, x1, y1 = view.box(last.x, last.y, 2, 2)
        # Two rings, the theme's text colour outside the highlight, because the highlight
        # alone is too close to the orange and yellow cards.
        ring = max(3, cell * 0.08)
        frame.rect((x0 - ring, y0 - ring, x1 + ring, y1 + ring), outline=theme.text,
                   width=ring, radius=cell * 0.16)
        frame.rect((x0, y0, x1, y1), outline=theme.highlight, width=ring, radius=cell * 0.14)
        size = max(12, min(18, int(cell * 0.32)))
        label_box(frame, x0 + text_width(str(last), size) / 2 + 5, y0 + size * 0.7, str(last),
                  size, theme.background, theme.highlight)

    y = view.top + view.pixel_height + 2 + LEGEND_LINE / 2
    for line in legend:
        frame.text(MARGIN, y, line, LEGEND_SIZE, theme.muted, anchor="lm")
        y += LEGEND_LINE
    return frame.finish()


def _legend(state: KoloryState, said) -> list[str]:
    return legend_lines(said("kolory.legend.play", n=CARDS_PER_PLAYER)
                        if state.outcome is None else said("kolory.legend.over"))


def _height(view: GridView, legend: list[str]) -> int:
    return int(view.top + view.pixel_height + 12 + LEGEND_LINE * len(legend))


def image_height(game, state: KoloryState, options: Options) -> int:
    return _height(layout(state, options.extent, options), _legend(state, options.words))


def hit_regions(game, state: KoloryState, options: Options) -> list[Region]:
    """Every place a card may go in view, named by its top-left square (``x,y``): one square
    centred where the card's centre would be, the corner its four squares share. These
    squares tile the grid, so each click names one place (``render.hitmap``)."""
    return list(_place_regions(layout(state, options.extent, options)))


@lru_cache(maxsize=16)
def _place_regions(view: GridView) -> tuple[Region, ...]:
    """The places of ``hit_regions`` (the same until the view changes: cached)."""
    x0, y0, x1, y1 = view.extent
    return tuple(square_regions("place", view, (x0, y0, x1 - 1, y1 - 1),
                                shift=view.cell // 2))


def _draw_order(frame: Frame, state: KoloryState, labels, top: float, said) -> None:
    """This round's order of play under the header: seats in turn, those who played already
    ticked and dimmed, the one to play on an accent plate."""
    theme = frame.theme
    cy = top + ORDER_HEIGHT / 2
    caption = said("kolory.order", n=state.round)
    frame.text(MARGIN, cy, caption, SMALL_SIZE, theme.muted, bold=True, anchor="lm")
    x = MARGIN + text_width(caption, SMALL_SIZE, bold=True) + 12
    order = play_order(state)
    room = (WIDTH - MARGIN - x) / len(order)
    for seat, played in order:
        colour = SEAT_COLOURS[seat]
        name = ("✓ " if played else "") + labels[seat][0]
        name = fit_text(name, SMALL_SIZE, room - 36)
        if seat == state.to_move:
            frame.rect((x - 4, cy - 14, x + 30 + text_width(name, SMALL_SIZE, bold=True),
                        cy + 14), fill=mix(theme.panel, theme.accent, 0.22), radius=6)
        square_swatch(colour, _edge(colour))(frame, x + 8, cy, 7)
        text = theme.muted if played else theme.text
        frame.text(x + 22, cy, name, SMALL_SIZE, text, bold=seat == state.to_move, anchor="lm")
        x += room
