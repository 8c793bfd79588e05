"""LPPG — Le Plus Petit Gagne: the terrain as seen from above (each square in the colour of the
card on top), territories tinted in their owner's colour with the marker and the territory's
size on it (a disc for an ordinary marker, a diamond for the permanent one), closed regions that
must be marked outlined, x/y guides, and below the terrain the two draw piles (top colour and
size) and the discard pile. ``draw_hand`` shows one seat's two cards in their four rotations,
for that seat only. RULES.md §5."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from engines.lppg import (
    COLOUR_NAMES,
    HIDDEN,
    WHITE,
    KeepMove,
    MarkMove,
    PlayMove,
    card_colour,
    card_id,
    card_squares,
    closed_regions,
    terrain,
    territories,
)
from engines.lppg_terrain import yx_order
from render.header import MARGIN, SMALL_SIZE, SeatInfo, draw_header, header_height, seat_labels
from render.hitmap import Region, rectangle, square_regions
from render.options import Options
from render.primitives import (
    LEGEND_LINE,
    Extent,
    GridView,
    draw_guides,
    grid_view,
    grow,
    legend_lines,
    union,
)
from render.surface import WIDTH, Frame, Sprite, fit_name, fit_text, make_sprite, text_width
from render.theme import RGB, Theme, hex_colour, mix

CARD_COLOURS: dict[int, RGB] = {
    WHITE: hex_colour("fbfbf8"),
    1: hex_colour("d32f2f"),  # red
    2: hex_colour("1976d2"),  # blue
    3: hex_colour("388e3c"),  # green
    4: hex_colour("fbc02d"),  # yellow
}
# Markers must read on white squares and apart from the four card colours.
SEAT_COLOURS: tuple[RGB, ...] = (
    hex_colour("263238"),  # North: slate black
    hex_colour("8e24aa"),  # East: purple
    hex_colour("00897b"),  # South: teal
    hex_colour("6d4c41"),  # West: brown
)
GRID = hex_colour("9e9e9e")
TINT = 0.38  # how far a territory's squares turn towards their owner's colour
MAX_CELL = 44
BOARD_HEIGHT = 680
PILES_HEIGHT = 96
MARKERS_EACH = {"o": 2, "p": 1}
RIM = (255, 255, 255)
LEGEND_SIZE = 15

DOING = {
    "play": "lppg.doing.play",
    "keep": "lppg.doing.keep",
    "mark": "lppg.doing.mark",
    "draw": "lppg.doing.draw",
}


def public_view(game, state, viewer: int | None):
    """``game.view(state, viewer)`` that also holds when ``state`` is already a view: a
    colour placeholder the state carries (a pile's top colour, the colour of a card in another
    hand) stays, whether or not the engine's view of a view keeps it."""
    seen = game.view(state, viewer)

    def keep(before: Sequence[int], after: Sequence[int]) -> tuple[int, ...]:
        return tuple(b if b < HIDDEN and a == HIDDEN else a
                     for b, a in zip(before, after, strict=True))

    hands = tuple(keep(b, a) for b, a in zip(state.hands, seen.hands, strict=True))
    pile_a, pile_b = keep(state.pile_a, seen.pile_a), keep(state.pile_b, seen.pile_b)
    if (hands, pile_a, pile_b) == (seen.hands, seen.pile_a, seen.pile_b):
        return seen
    return dataclasses.replace(seen, hands=hands, pile_a=pile_a, pile_b=pile_b)


def _seat_colour(state, seat: int) -> RGB:
    # Two players sit North and South: give South the South colour.
    if state.players == 2:
        return SEAT_COLOURS[(0, 2)[seat]]
    return SEAT_COLOURS[seat]


_last_extent: tuple = (None, None)  # the last state asked for and its extent


def _state_extent(state) -> Extent:
    """The squares in play and two more around (kept for the last state: its board and its
    hit map both need it; one tuple, replaced whole, so threads never mix two states)."""
    global _last_extent
    last = _last_extent
    if last[0] is not state:
        last = _last_extent = (state, _extent_of(state))
    return last[1]


def _extent_of(state) -> Extent:
    squares = list(terrain(state))
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    # Two squares of margin: a card may reach that far out while still covering the terrain.
    return grow((min(xs), min(ys), max(xs), max(ys)), 2)


def extent(states: Sequence) -> Extent:
    """The area every replay frame shows (cards are never taken back: the union of all)."""
    return union([_extent_of(s) for s in states])


def layout(state, fixed: Extent | None = None, options: Options | None = None) -> GridView:
    top = header_height(state, options) + 14
    return grid_view(fixed or _state_extent(state), top, WIDTH - 2 * MARGIN, BOARD_HEIGHT,
                     MAX_CELL)


def _markers_left(state, seat: int) -> dict[str, int]:
    left = dict(MARKERS_EACH)
    for owner, kind, _, _ in state.markers:
        if owner == seat:
            left[kind] -= 1
    return left


def _stats(state, seat: int, said) -> str:
    left = _markers_left(state, seat)
    text = said("lppg.markers", o=left["o"], p=left["p"])
    if state.players == 4:
        return said("lppg.team.ns" if seat % 2 == 0 else "lppg.team.ew") + " · " + text
    return text


def _swatch(colour: RGB):
    def swatch(surface, x: float, y: float, r: float) -> None:
        surface.circle(x, y, r, fill=colour, outline=RIM, width=2)

    return swatch


@lru_cache(maxsize=256)
def _square(cell: int, fill: RGB) -> Sprite:
    """A terrain square with its grey border, one pixel larger than a cell so neighbours
    share their border line."""
    tile = Image.new("RGBA", (cell + 1, cell + 1), (*GRID, 255))
    tile.paste((*fill, 255), (1, 1, cell, cell))
    return Sprite(tile, 0, 0)


@lru_cache(maxsize=512)
def _marker(r: float, colour: RGB, kind: str, text: str) -> Sprite:
    """An ordinary marker is a disc, the permanent one a diamond with a double rim; the
    territory's size on it."""

    def paint(canvas) -> None:
        if kind == "p":
            d = r * 1.25
            canvas.polygon([(0, -d - 2), (d + 2, 0), (0, d + 2), (-d - 2, 0)], fill=RIM)
            canvas.polygon([(0, -d), (d, 0), (0, d), (-d, 0)], fill=colour, outline=RIM,
                           width=1.5)
        else:
            canvas.circle(0, 0, r + 2, fill=RIM)
            canvas.circle(0, 0, r, fill=colour)
        if text:
            canvas.text(0, 0, text, max(9, int(r * 1.05)), RIM, bold=True, anchor="mm")

    reach = r * 1.25 + 3
    return make_sprite((-reach, -reach, reach, reach), paint)


def palette_keys(theme: Theme) -> list:
    tints = [mix(card, seat, TINT) for card in CARD_COLOURS.values() for seat in SEAT_COLOURS]
    return [*CARD_COLOURS.values(), *SEAT_COLOURS, GRID, RIM, *tints,
            *(mix(card, (0, 0, 0), 0.4) for card in CARD_COLOURS.values())]


def draw(game, state, options: Options) -> Image.Image:
    theme = options.theme
    said = options.words
    view = layout(state, options.extent, options)
    board_bottom = view.top + view.pixel_height
    legend = _legend(state, said)
    frame = Frame(WIDTH, _height(board_bottom, legend), theme)

    last = options.last_move
    labels = seat_labels(game, state, options.players, said)
    seats = [
        SeatInfo(name, role, _swatch(_seat_colour(state, seat)), _stats(state, seat, said))
        for seat, (name, role) in enumerate(labels)
    ]
    doing = ""
    if state.outcome is None and state.pending in DOING:
        key = DOING[state.pending]
        if state.pending == "draw" and len(state.hands[state.turn_seat]) == 1:
            key = "lppg.doing.draw_one"
        doing = said(key)
    subtitle = "Le Plus Petit Gagne"
    if last is not None:
        subtitle = said("lppg.last_move", move=last)
    if state.final_turns is not None and state.outcome is None:
        subtitle = said.count("lppg.final_turns", state.final_turns) + " · " + subtitle
    draw_header(frame, "LPPG", state, seats, options, subtitle=subtitle, doing=doing)
    draw_guides(frame, view, lines=False)
    cell = view.cell
    squares = terrain(state)
    owner_of: dict[tuple[int, int], int] = {}
    for seat, _kind, region in territories(state):
        for square in region:
            owner_of[square] = seat
    for (x, y), colour in squares.items():
        fill = CARD_COLOURS[colour]
        if (x, y) in owner_of:
            fill = mix(fill, _seat_colour(state, owner_of[(x, y)]), TINT)
        frame.paste(_square(cell, fill), *view.corner(x, y))
    # Closed regions waiting for a marker: an accent border inside each square.
    inset = round(cell * 0.12)
    ring = max(2, round(cell * 0.08))
    for region in closed_regions(state):
        for x, y in region:
            x0, y0, x1, y1 = view.box(x, y)
            frame.rect((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=theme.accent,
                       width=ring)

    if isinstance(last, PlayMove) and state.placed:
        _card, px, py, rot = state.placed[-1]
        width, tall = (2, 3) if rot in (90, 270) else (3, 2)
        x0, y0, x1, y1 = view.box(px, py, width, tall)
        ring = max(3, round(cell * 0.1))
        frame.rect((x0 - ring, y0 - ring, x1 + ring, y1 + ring), outline=theme.text,
                   width=ring)
        frame.rect((x0, y0, x1, y1), outline=theme.highlight, width=ring)

    owned = territories(state)
    size_count = Counter(len(region) for _, _, region in owned)
    for seat, kind, x, y in state.markers:
        size = next((len(region) for s, k, region in owned
                     if s == seat and k == kind and (x, y) in region), 0)
        cx, cy = view.center(x, y)
        frame.paste(_marker(cell * 0.36, _seat_colour(state, seat), kind,
                            str(size) if size else ""), cx, cy)
        if state.outcome is not None and size_count[size] > 1:
            # Cancelled at the end: another territory has the same size (RULES.md §5).
            d = cell * 0.42
            width = max(2, cell * 0.09)
            frame.line([(cx - d, cy - d), (cx + d, cy + d)], theme.highlight, width)
            frame.line([(cx - d, cy + d), (cx + d, cy - d)], theme.highlight, width)
        if isinstance(last, MarkMove | KeepMove) and (last.x, last.y) == (x, y):
            frame.ring(cx, cy, cell * 0.62, theme.highlight, max(3, cell * 0.1))

    _draw_piles(frame, state, board_bottom + 14, labels, said)
    y = board_bottom + 14 + PILES_HEIGHT + 4 + LEGEND_LINE / 2
    for line in legend:
        frame.text(MARGIN, y, line, LEGEND_SIZE, theme.muted, anchor="lm")
        y += LEGEND_LINE
    return frame.finish()


def _legend(state, said) -> list[str]:
    return legend_lines(said("lppg.legend.over" if state.outcome is not None
                             else "lppg.legend.play"), LEGEND_SIZE)


def _height(board_bottom: float, legend: list[str]) -> int:
    return int(board_bottom + 14 + PILES_HEIGHT + 8 + LEGEND_LINE * len(legend))


def image_height(game, state, options: Options) -> int:
    view = layout(state, options.extent, options)
    return _height(view.top + view.pixel_height, _legend(state, options.words))


def hit_regions(game, state, options: Options) -> list[Region]:
    """What the seat to move clicks on the board, by what it must do (``render.hitmap``):
    every square in view to place a card (``x,y``, the top-left square of the card's box);
    every square of a largest closed region to mark it (the region's top-left square); a
    marker to keep (``keep x,y``); a draw pile (``draw a``). Cards of a hand are in
    ``hand_regions``, never here."""
    view = layout(state, options.extent, options)
    pending = state.pending

    def square(x: int, y: int):
        return rectangle(*view.box(x, y))

    if pending == "play":
        return list(_place_regions(view))
    if pending == "mark":
        regions = []
        for squares in closed_regions(state):
            x, y = min(squares, key=yx_order)
            regions += [Region("region", f"{x},{y}", square(*at)) for at in squares]
        return regions
    if pending == "keep" and state.keeps:
        return [Region("marker", f"keep {x},{y}", square(x, y)) for x, y in state.keeps[0][1]]
    if pending == "draw":
        cy = view.top + view.pixel_height + 14 + PILES_HEIGHT / 2
        regions = []
        for name, _pile, card_x, caption_x, caption in _pile_row(state, options.words):
            box = rectangle(card_x - 6, cy - PILES_HEIGHT / 2 + 6,
                            caption_x + _caption_width(*caption) + 6, cy + PILES_HEIGHT / 2 - 6)
            pile = name.lower()
            regions.append(Region("pile", f"draw {pile}", box))
            if state.edition == 1:  # both piles named in one move: the second follows either
                regions += [Region("pile", pile, box, after=f"draw {first}") for first in "ab"]
        return regions
    return []


@lru_cache(maxsize=16)
def _place_regions(view: GridView) -> tuple[Region, ...]:
    """Every square in view as a place (the same until the view changes: cached)."""
    return tuple(square_regions("place", view, view.extent))


def _card_back(surface, x: float, y: float, unit: float, colour: int | None,
               mark: bool = True) -> None:
    """A face-down card (3×2) showing only its colour (both faces share it), or an empty slot."""
    theme = surface.theme
    box = (x, y, x + 3 * unit, y + 2 * unit)
    if colour is None:
        surface.rect(box, outline=theme.line, width=1.5, radius=4)
        return
    fill = CARD_COLOURS[colour]
    surface.rect(box, fill=fill, outline=mix(fill, (0, 0, 0), 0.4), width=1.5, radius=4)
    if mark:
        surface.text(x + 1.5 * unit, y + unit, "?", int(unit * 1.1), RIM, bold=True,
                     anchor="mm")


def back_colour(card: int) -> int | None:
    """The colour code everyone may see of a card in a view: a placeholder's colour, only the
    colour of a real card (a seat's own view), None when even that is hidden."""
    if card >= 0:
        return card_colour(card)
    if card == HIDDEN:
        return None
    return -2 - card + 1


def _pile_colour(pile: Sequence[int]) -> int | None:
    return back_colour(pile[0]) if pile else None


def _caption_width(title: str, detail: str) -> float:
    return max(text_width(title, 18, bold=True), text_width(detail, SMALL_SIZE))


def _caption(frame: Frame, x: float, cy: float, title: str, detail: str) -> float:
    """A bold title over a muted detail; returns the width taken."""
    theme = frame.theme
    frame.text(x, cy - 11, title, 18, theme.text, bold=True, anchor="lm")
    frame.text(x, cy + 13, detail, SMALL_SIZE, theme.muted, anchor="lm")
    return _caption_width(title, detail)


PILE_UNIT = 20  # pixels per card square of a pile's card back


def _pile_row(state, said) -> list[tuple[str, tuple[int, ...], float, float, tuple[str, str]]]:
    """Each draw pile's name, cards, the x of its card back and of its caption, and the
    caption's two lines."""
    row = []
    x = MARGIN
    for name, pile in (("A", state.pile_a), ("B", state.pile_b)):
        caption = (said("lppg.pile", name=name), said.count("lppg.cards", len(pile)))
        caption_x = x + 3 * PILE_UNIT + 10
        row.append((name, pile, x, caption_x, caption))
        x = caption_x + _caption_width(*caption) + 20
    return row


def _draw_piles(frame: Frame, state, top: float, labels, said) -> None:
    """Draw piles, discard, and every hand as card backs: only colours, whoever looks (a
    seat's own faces are in its private ``hand`` image, never in a board image)."""
    theme = frame.theme
    frame.rect((0, top, WIDTH, top + PILES_HEIGHT), fill=theme.panel)
    unit = PILE_UNIT
    cy = top + PILES_HEIGHT / 2
    x = MARGIN
    for _name, pile, card_x, caption_x, caption in _pile_row(state, said):
        _card_back(frame, card_x, cy - unit, unit, _pile_colour(pile))
        x = caption_x + _caption(frame, caption_x, cy, *caption) + 20
    x += _caption(frame, x, cy, said("lppg.discard"),
                  said.count("lppg.face_down", len(state.discard))) + 24
    # Hands, one line per seat (two columns with four players).
    small = 9
    rows = 2
    row_height = (PILES_HEIGHT - 16) / rows
    column_width = (WIDTH - MARGIN - x) / (1 if state.players <= 2 else 2)
    for seat, hand in enumerate(state.hands):
        column, row = divmod(seat, rows) if state.players > 2 else (0, seat)
        hx = x + column * column_width
        hy = top + 8 + row * row_height + row_height / 2
        # The whole name, smaller or on two lines if need be ("AI 2 (medium)" in two columns).
        lines, size = fit_name(labels[seat][0], SMALL_SIZE,
                               column_width - 2 * (3 * small + 6) - 12)
        line_height = size + 2
        for index, line in enumerate(lines):
            frame.text(hx, hy + (index - (len(lines) - 1) / 2) * line_height, line, size,
                       theme.text, anchor="lm")
        cx = hx + max(text_width(line, size) for line in lines) + 8
        for card in hand:
            _card_back(frame, cx, hy - small, small, back_colour(card), mark=False)
            cx += 3 * small + 6
        if not hand:
            frame.text(cx, hy, said("lppg.no_cards"), SMALL_SIZE - 2, theme.muted, anchor="lm")


# -- a player's hand ---------------------------------------------------------------------------


def draw_card(surface, x: float, y: float, unit: float, card: int, rot: int) -> None:
    """A card face up, turned ``rot`` degrees clockwise, its box's top-left at (x, y)."""
    squares = card_squares(card, rot)
    for dx, dy, colour in squares:
        surface.rect((x + dx * unit, y + dy * unit, x + (dx + 1) * unit, y + (dy + 1) * unit),
                     fill=CARD_COLOURS[colour])
    for dx, dy, _ in squares:
        surface.rect((x + dx * unit, y + dy * unit, x + (dx + 1) * unit + 1,
                      y + (dy + 1) * unit + 1), outline=GRID, width=1)
    width = max(dx for dx, _, _ in squares) + 1
    tall = max(dy for _, dy, _ in squares) + 1
    edge = mix(CARD_COLOURS[card_colour(card)], (0, 0, 0), 0.4)
    surface.rect((x, y, x + width * unit + 1, y + tall * unit + 1), outline=edge, width=2)


HAND_UNIT = 26  # pixels per card square in a hand image
HAND_TOP = 86  # y of the first row of cards
HAND_LEFT = MARGIN + 130  # x of the first (unturned) card of a row
HAND_ROTATIONS = (0, 90, 180, 270)  # left to right along a card's row


def draw_hand(game, state, seat: int, options: Options) -> Image.Image:
    """The cards of ``seat`` (slot 1 and 2), each in its four rotations, labelled with what
    to type (``play 1 x,y 90``)."""
    theme = options.theme
    said = options.words
    hand = state.hands[seat]
    unit = HAND_UNIT
    row_height = 3 * unit + 56
    top = HAND_TOP
    height = int(top + max(1, len(hand)) * row_height + 40)
    frame = Frame(WIDTH, height, theme)
    name, role = seat_labels(game, state, options.players, said)[seat]
    frame.rect((0, 0, WIDTH, 70), fill=theme.panel)
    frame.text(MARGIN, 14, fit_text(said("lppg.hand.title", name=name), 26, WIDTH / 2, True),
               26, theme.text, bold=True)
    frame.text(MARGIN, 48, said("lppg.hand.private", role=role), SMALL_SIZE, theme.muted)
    if state.to_move == seat and state.pending == "play":
        frame.text(WIDTH - MARGIN, 20, said("lppg.hand.your_turn"), 18, theme.accent,
                   bold=True, anchor="ra")
    if not hand:
        frame.text(MARGIN, top + 20, said("lppg.hand.empty"), 20, theme.muted)
    for index, card in enumerate(hand):
        y = top + index * row_height
        slot = index + 1
        frame.text(MARGIN, y + 14, said("lppg.hand.slot", n=slot), 22, theme.text, bold=True,
                   anchor="lm")
        if card < 0:
            frame.text(MARGIN, y + 44, said("lppg.hand.hidden"), SMALL_SIZE, theme.muted,
                       anchor="lm")
            continue
        colour_name = said("colour." + COLOUR_NAMES[card_colour(card)])
        frame.text(MARGIN, y + 40, f"{card_id(card)} ({colour_name})", SMALL_SIZE, theme.muted,
                   anchor="lm")
        x = HAND_LEFT
        for rot in HAND_ROTATIONS:
            draw_card(frame, x, y + 4, unit, card, rot)
            frame.text(x, y + 3 * unit + 22, f"play {slot} x,y {rot}", SMALL_SIZE - 2,
                       theme.muted, anchor="lm")
            x += 3 * unit + 60
    legend = fit_text(said("lppg.hand.legend"), SMALL_SIZE - 2, WIDTH - 2 * MARGIN)
    frame.text(MARGIN, height - 18, legend, SMALL_SIZE - 2, theme.muted, anchor="lm")
    return frame.finish()


def hand_regions(game, state, seat: int, options: Options) -> list[Region]:
    """On ``hand``'s image while ``seat`` places a card: each card's row (``play 1``) and each
    of its turned copies with its caption (``90``, offered after that card). Every region is
    the same whatever the cards are: a hit map tells nothing of a face."""
    if state.pending != "play":
        return []
    unit = HAND_UNIT
    row_height = 3 * unit + 56
    regions = []
    for index, card in enumerate(state.hands[seat]):
        y = HAND_TOP + index * row_height
        slot = f"play {index + 1}"
        regions.append(Region("card", slot,
                              rectangle(MARGIN - 8, y - 4, WIDTH - MARGIN + 8,
                                        y + row_height - 10)))
        if card < 0:
            continue
        for turn, rot in enumerate(HAND_ROTATIONS):
            x = HAND_LEFT + turn * (3 * unit + 60)
            regions.append(Region("rotation", str(rot),
                                  rectangle(x - 8, y, x + 3 * unit + 40, y + 3 * unit + 32),
                                  after=slot))
    return regions


CHOICES_HEIGHT = 76
CHOICE_MARKER = 16  # radius of a marker to choose


def draw_choices(game, state, viewer: int, options: Options
                 ) -> tuple[Image.Image, list[Region]] | None:
    """While ``viewer`` marks a region, the kinds of marker it has left (``mark o``, ``mark
    p``): a strip the page shows beside the board, since the board draws no spare markers."""
    if state.pending != "mark":
        return None
    theme = options.theme
    said = options.words
    frame = Frame(WIDTH, CHOICES_HEIGHT, theme)
    frame.rect((0, 0, WIDTH, CHOICES_HEIGHT), fill=theme.panel)
    cy = CHOICES_HEIGHT / 2
    frame.text(MARGIN, cy, said("lppg.doing.mark"), 18, theme.text, bold=True, anchor="lm")
    x = MARGIN + text_width(said("lppg.doing.mark"), 18, bold=True) + 40
    colour = _seat_colour(state, viewer)
    regions = []
    for kind, left in _markers_left(state, viewer).items():
        if left <= 0:
            continue
        frame.paste(_marker(CHOICE_MARKER, colour, kind, ""), x + CHOICE_MARKER + 4, cy)
        label = f"{kind} × {left}"
        frame.text(x + 2 * CHOICE_MARKER + 16, cy, label, 18, theme.text, bold=True,
                   anchor="lm")
        right = x + 2 * CHOICE_MARKER + 16 + text_width(label, 18, bold=True) + 8
        regions.append(Region("marker", f"mark {kind}", rectangle(x - 4, 6, right,
                                                                  CHOICES_HEIGHT - 6)))
        x = right + 30
    return frame.finish(), regions
