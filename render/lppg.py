"""LPPG — Le Plus Petit Gagne: the terrain as seen from above (each square in the colour of the
card on top), territories tinted in their owner's colour with the marker and the territory's
size on it (a disc for an ordinary marker, a diamond for the permanent one), closed regions that
must be marked outlined, x/y guides, and below the terrain the two draw piles (top colour and
size) and the discard pile. ``draw_hand`` shows one seat's two cards in their four rotations,
for that seat only. RULES.md §5."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

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
    fit_text,
    grid_view,
    grow,
    header_height,
    seat_labels,
    text_width,
    union,
)
from render.theme import RGB, hex_colour, mix

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
MAX_CELL = 44
BOARD_HEIGHT = 680
PILES_HEIGHT = 96
MARKERS_EACH = {"o": 2, "p": 1}

PENDING = {
    "play": "place a card (or pass)",
    "keep": "choose the marker to keep",
    "mark": "mark a largest closed region",
    "draw": "draw two cards",
}


def _seat_colour(state, seat: int) -> RGB:
    # Two players sit North and South: give South the South colour.
    if state.players == 2:
        return SEAT_COLOURS[(0, 2)[seat]]
    return SEAT_COLOURS[seat]


def _state_extent(state) -> Extent:
    squares = list(terrain(state))
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    # Two squares of margin: a card may reach that far out while still covering the terrain.
    return grow((min(xs), min(ys), max(xs), max(ys)), 2)


def extent(states: Sequence) -> Extent:
    """The area every replay frame shows (cards are never taken back: the union of all)."""
    return union([_state_extent(s) for s in states])


def layout(state, fixed: Extent | None = None) -> GridView:
    top = header_height(state) + 14
    return grid_view(fixed or _state_extent(state), top, WIDTH - 2 * MARGIN, BOARD_HEIGHT,
                     MAX_CELL)


def _markers_left(state, seat: int) -> dict[str, int]:
    left = dict(MARKERS_EACH)
    for owner, kind, _, _ in state.markers:
        if owner == seat:
            left[kind] -= 1
    return left


def _stats(state, seat: int) -> str:
    left = _markers_left(state, seat)
    parts = [f"markers left: ● {left['o']}  ◆ {left['p']}"]
    if state.players == 4:
        parts.insert(0, "team N+S" if seat % 2 == 0 else "team E+W")
    return " · ".join(parts)


def _swatch(colour: RGB):
    def swatch(canvas: Canvas, x: float, y: float, r: float) -> None:
        canvas.circle(x, y, r, fill=colour, outline=(255, 255, 255), width=2)

    return swatch


def draw_marker(canvas: Canvas, x: float, y: float, r: float, colour: RGB, kind: str,
                text: str) -> None:
    """An ordinary marker is a disc, the permanent one a diamond with a double rim."""
    rim = (255, 255, 255)
    if kind == "p":
        d = r * 1.25
        outer = [(x, y - d - 2), (x + d + 2, y), (x, y + d + 2), (x - d - 2, y)]
        canvas.polygon(outer, fill=rim)
        inner = [(x, y - d), (x + d, y), (x, y + d), (x - d, y)]
        canvas.polygon(inner, fill=colour, outline=rim, width=1.5)
    else:
        canvas.circle(x, y, r + 2, fill=rim)
        canvas.circle(x, y, r, fill=colour)
    if text:
        canvas.text(x, y, text, max(9, int(r * 1.05)), rim, bold=True, anchor="mm")


def draw(game, state, options) -> Image.Image:
    theme = options.theme
    view = layout(state, options.extent)
    board_bottom = view.top + view.pixel_height
    height = int(board_bottom + 14 + PILES_HEIGHT + 30)
    canvas = Canvas(WIDTH, height, theme, options.ss)

    last = options.last_move
    labels = seat_labels(game, state, options.players)
    seats = [
        SeatInfo(name, role, _swatch(_seat_colour(state, seat)), _stats(state, seat))
        for seat, (name, role) in enumerate(labels)
    ]
    pending = PENDING.get(state.pending or "", "") if state.outcome is None else ""
    subtitle = "Le Plus Petit Gagne"
    if last is not None:
        subtitle = f"last move: {last}"
    if state.final_turns is not None and state.outcome is None:
        subtitle = f"last round: {state.final_turns} turn(s) left · " + subtitle
    draw_header(canvas, "LPPG", state, seats, subtitle=subtitle, pending=pending)
    draw_guides(canvas, view, lines=False)
    cell = view.cell
    squares = terrain(state)
    owner_of: dict[tuple[int, int], int] = {}
    for seat, _kind, region in territories(state):
        for square in region:
            owner_of[square] = seat
    closed = {square for region in closed_regions(state) for square in region}
    for (x, y), colour in squares.items():
        fill = CARD_COLOURS[colour]
        if (x, y) in owner_of:
            fill = mix(fill, _seat_colour(state, owner_of[(x, y)]), 0.38)
        canvas.rect(view.box(x, y), fill=fill)
    # Square borders, then thicker borders between different colours so card edges show.
    grid = hex_colour("9e9e9e")
    for (x, y) in squares:
        canvas.rect(view.box(x, y), outline=grid, width=1)
    # Closed regions waiting for a marker: a dashed-looking accent border inside each square.
    for x, y in closed:
        x0, y0, x1, y1 = view.box(x, y)
        pad = cell * 0.12
        canvas.rect((x0 + pad, y0 + pad, x1 - pad, y1 - pad), outline=theme.accent,
                    width=max(2, cell * 0.08))

    if isinstance(last, PlayMove) and state.placed:
        _card, px, py, rot = state.placed[-1]
        width, tall = (2, 3) if rot in (90, 270) else (3, 2)
        x0, y0, x1, y1 = view.box(px, py, width, tall)
        ring = max(3, cell * 0.1)
        canvas.rect((x0 - ring, y0 - ring, x1 + ring, y1 + ring), outline=theme.text,
                    width=ring)
        canvas.rect((x0, y0, x1, y1), outline=theme.highlight, width=ring)

    owned = territories(state)
    size_count = Counter(len(region) for _, _, region in owned)
    for seat, kind, x, y in state.markers:
        size = next((len(region) for s, k, region in owned
                     if s == seat and k == kind and (x, y) in region), 0)
        cx, cy = view.center(x, y)
        draw_marker(canvas, cx, cy, cell * 0.36, _seat_colour(state, seat), kind,
                    str(size) if size else "")
        if state.outcome is not None and size_count[size] > 1:
            # Cancelled at the end: another territory has the same size (RULES.md §5).
            d = cell * 0.42
            width = max(2, cell * 0.09)
            canvas.line([(cx - d, cy - d), (cx + d, cy + d)], theme.highlight, width)
            canvas.line([(cx - d, cy + d), (cx + d, cy - d)], theme.highlight, width)
        if isinstance(last, MarkMove | KeepMove) and (last.x, last.y) == (x, y):
            canvas.ring(cx, cy, cell * 0.62, theme.highlight, max(3, cell * 0.1))

    _draw_piles(canvas, state, board_bottom + 14, labels)
    legend = ("Number on a marker = territory size; ◆ permanent, ● ordinary; "
              "outlined squares = closed region to mark.")
    if state.outcome is not None:
        legend = "Number on a marker = territory size; × = cancelled (another has its size)."
    canvas.text(MARGIN, height - 18, legend, SMALL_SIZE - 2, theme.muted, anchor="lm")
    return canvas.finish()


def _card_back(canvas: Canvas, x: float, y: float, unit: float, colour: int | None,
               mark: bool = True) -> None:
    """A face-down card (3×2) showing only its colour (both faces share it), or an empty slot."""
    theme = canvas.theme
    box = (x, y, x + 3 * unit, y + 2 * unit)
    if colour is None:
        canvas.rect(box, outline=theme.line, width=1.5, radius=4)
        return
    fill = CARD_COLOURS[colour]
    canvas.rect(box, fill=fill, outline=mix(fill, (0, 0, 0), 0.4), width=1.5, radius=4)
    if mark:
        canvas.text(x + 1.5 * unit, y + unit, "?", int(unit * 1.1), (255, 255, 255), bold=True,
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


def _draw_piles(canvas: Canvas, state, top: float, labels) -> None:
    """Draw piles, discard, and every hand as card backs: only colours, whoever looks (a
    seat's own faces are in its private ``hand`` image, never in a board image)."""
    theme = canvas.theme
    canvas.rect((0, top, WIDTH, top + PILES_HEIGHT), fill=theme.panel)
    unit = 20
    x = MARGIN
    cy = top + PILES_HEIGHT / 2
    for label, pile in (("Pile A", state.pile_a), ("Pile B", state.pile_b)):
        _card_back(canvas, x, cy - unit, unit, _pile_colour(pile))
        canvas.text(x + 3 * unit + 10, cy - 11, label, 18, theme.text, bold=True, anchor="lm")
        canvas.text(x + 3 * unit + 10, cy + 13, f"{len(pile)} cards", SMALL_SIZE, theme.muted,
                    anchor="lm")
        x += 3 * unit + 10 + 86
    canvas.text(x, cy - 11, "Discard", 18, theme.text, bold=True, anchor="lm")
    canvas.text(x, cy + 13, f"{len(state.discard)} face down", SMALL_SIZE, theme.muted,
                anchor="lm")
    x += 130
    # Hands, one line per seat (two columns with four players).
    small = 9
    rows = 2
    row_height = (PILES_HEIGHT - 16) / rows
    column_width = (WIDTH - MARGIN - x) / (1 if state.players <= 2 else 2)
    for seat, hand in enumerate(state.hands):
        column, row = divmod(seat, rows) if state.players > 2 else (0, seat)
        hx = x + column * column_width
        hy = top + 8 + row * row_height + row_height / 2
        name = fit_text(labels[seat][0], SMALL_SIZE, column_width - 2 * (3 * small + 6) - 12)
        canvas.text(hx, hy, name, SMALL_SIZE, theme.text, anchor="lm")
        cx = hx + text_width(name, SMALL_SIZE) + 8
        for card in hand:
            _card_back(canvas, cx, hy - small, small, back_colour(card), mark=False)
            cx += 3 * small + 6
        if not hand:
            canvas.text(cx, hy, "no cards", SMALL_SIZE - 2, theme.muted, anchor="lm")


# -- a player's hand ---------------------------------------------------------------------------


def draw_card(canvas: Canvas, x: float, y: float, unit: float, card: int, rot: int) -> None:
    """A card face up, turned ``rot`` degrees clockwise, its box's top-left at (x, y)."""
    squares = card_squares(card, rot)
    for dx, dy, colour in squares:
        canvas.rect((x + dx * unit, y + dy * unit, x + (dx + 1) * unit, y + (dy + 1) * unit),
                    fill=CARD_COLOURS[colour], outline=hex_colour("9e9e9e"), width=1)
    width = max(dx for dx, _, _ in squares) + 1
    tall = max(dy for _, dy, _ in squares) + 1
    edge = mix(CARD_COLOURS[card_colour(card)], (0, 0, 0), 0.4)
    canvas.rect((x, y, x + width * unit, y + tall * unit), outline=edge, width=2)


HAND_UNIT = 26  # pixels per card square in a hand image
HAND_TOP = 86  # y of the first row of cards
HAND_LEFT = MARGIN + 130  # x of the first (unturned) card of a row


def draw_hand(game, state, seat: int, options) -> Image.Image:
    """The two cards of ``seat`` (slot 1 and 2), each in its four rotations, labelled with what
    to type (``play 1 x,y 90``)."""
    theme = options.theme
    hand = state.hands[seat]
    unit = HAND_UNIT
    row_height = 3 * unit + 56
    top = HAND_TOP
    height = int(top + max(1, len(hand)) * row_height + 40)
    canvas = Canvas(WIDTH, height, theme, options.ss)
    name, role = seat_labels(game, state, options.players)[seat]
    canvas.rect((0, 0, WIDTH, 70), fill=theme.panel)
    canvas.text(MARGIN, 14, f"Your hand, {name}", 26, theme.text, bold=True)
    canvas.text(MARGIN, 48, f"{role} · private: only you see this", SMALL_SIZE, theme.muted)
    if state.to_move == seat and state.pending == "play":
        canvas.text(WIDTH - MARGIN, 20, "your turn: place a card", 18, theme.accent, bold=True,
                    anchor="ra")
    if not hand:
        canvas.text(MARGIN, top + 20, "No cards in hand.", 20, theme.muted)
    for index, card in enumerate(hand):
        y = top + index * row_height
        slot = index + 1
        canvas.text(MARGIN, y + 14, f"Slot {slot}", 22, theme.text, bold=True, anchor="lm")
        if card < 0:
            canvas.text(MARGIN, y + 44, "hidden", SMALL_SIZE, theme.muted, anchor="lm")
            continue
        colour_name = COLOUR_NAMES[card_colour(card)]
        canvas.text(MARGIN, y + 40, f"{card_id(card)} ({colour_name})", SMALL_SIZE, theme.muted,
                    anchor="lm")
        x = HAND_LEFT
        for rot in (0, 90, 180, 270):
            draw_card(canvas, x, y + 4, unit, card, rot)
            canvas.text(x, y + 3 * unit + 22, f"play {slot} x,y {rot}", SMALL_SIZE - 2,
                        theme.muted, anchor="lm")
            x += 3 * unit + 60
    canvas.text(MARGIN, height - 18, "x,y = the top-left square of the card's box; rotations "
                "turn clockwise.", SMALL_SIZE - 2, theme.muted, anchor="lm")
    return canvas.finish()


