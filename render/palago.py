"""Palago: the tiles with their true geometry (RULES.md §3): a straight boundary through the
centre from the middle of edge o to the middle of edge o+3, and two 120° circular tips around
corners o+1 and o+4; even corners Blue, odd corners White. Empty cells where a tile may go carry
their ``q,r``; a finished creature is shown in full colour over a faded table."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engines.palago import TOTAL_TILES, picture
from render.primitives import (
    MARGIN,
    SMALL_SIZE,
    SQRT3,
    WIDTH,
    Canvas,
    Fit,
    SeatInfo,
    draw_header,
    fit_box,
    header_height,
    hex_center,
    hex_corner,
    hex_edge_mid,
    hexagon_points,
    label_box,
    seat_labels,
    text_width,
    union,
)
from render.theme import RGB, hex_colour, mix

BLUE = hex_colour("2c6fbb")
WHITE = hex_colour("f4f4ef")
TILE_EDGE = hex_colour("8a8f98")
COLOURS = {0: BLUE, 1: WHITE}  # corner parity -> colour (even Blue, odd White)
SEAT_COLOURS = (WHITE, BLUE)  # seat 0 plays White, seat 1 Blue
MAX_SIZE = 46.0
BOARD_HEIGHT = 600
LEGEND_HEIGHT = 92

Cell = tuple[int, int]


def _cells_in_play(pic) -> list[Cell]:
    return [(q, r) for q, r, _ in pic.tiles] + list(pic.targets) + list(pic.partners)


def _box(cells: Sequence[Cell]) -> tuple[float, float, float, float]:
    """Pixel box (for circumradius 1) of the given cells, whole hexagons included."""
    centres = [hex_center(q, r, 1.0) for q, r in cells] or [(0.0, 0.0)]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    return (min(xs) - SQRT3 / 2, min(ys) - 1.0, max(xs) + SQRT3 / 2, max(ys) + 1.0)


def extent(states: Sequence) -> tuple[float, float, float, float]:
    """The area every replay frame shows: every tile and target cell of the whole game."""
    return union([_box(_cells_in_play(picture(s))) for s in states])


def layout(state, fixed=None) -> Fit:
    """Maps unit-size hex pixel coordinates to the image (tests use it to find cells)."""
    box = fixed or _box(_cells_in_play(picture(state)))
    top = header_height(state) + 12
    return fit_box(box, (MARGIN, top, WIDTH - MARGIN, top + BOARD_HEIGHT), MAX_SIZE)


def cell_center(fit: Fit, q: int, r: int) -> tuple[float, float]:
    return fit(*hex_center(q, r, 1.0))


def draw_tile(canvas: Canvas, cx: float, cy: float, size: float, o: int,
              faded: frozenset[int] = frozenset(), fade_to: RGB | None = None) -> None:
    """One tile; ``faded`` lists region numbers (engine order: 0 tip at o+1, 1 arch on corners
    o and o+2, 2 tip at o+4, 3 the other arch) drawn faded towards ``fade_to``."""

    def colour(parity: int, region: int) -> RGB:
        base = COLOURS[parity % 2]
        if region in faded and fade_to is not None:
            return mix(base, fade_to, 0.62)
        return base

    corners = [hex_corner(cx, cy, size, k) for k in range(6)]
    start, end = hex_edge_mid(cx, cy, size, o), hex_edge_mid(cx, cy, size, o + 3)
    # Arch on the side of corners o, o+1, o+2 (colour of corner o) and the opposite one.
    half_a = [start, corners[o % 6], corners[(o + 1) % 6], corners[(o + 2) % 6], end]
    half_b = [end, corners[(o + 3) % 6], corners[(o + 4) % 6], corners[(o + 5) % 6], start]
    canvas.polygon(half_a, fill=colour(o, 1))
    canvas.polygon(half_b, fill=colour(o + 3, 3))
    # Tips: 120° sectors of radius half an edge, centred on corners o+1 and o+4, opening
    # towards the centre (Pillow angles run clockwise on screen).
    for corner, region in (((o + 1) % 6, 0), ((o + 4) % 6, 2)):
        x, y = corners[corner]
        towards_centre = 180 - (60 * corner + 30)
        canvas.pieslice(x, y, size / 2, towards_centre - 60, towards_centre + 60,
                        colour(corner, region))
    canvas.polygon(corners, outline=TILE_EDGE, width=max(1.0, size * 0.03))


def _swatch(colour: RGB):
    def swatch(canvas: Canvas, x: float, y: float, r: float) -> None:
        canvas.polygon(hexagon_points(x, y, r * 1.1), fill=colour, outline=TILE_EDGE, width=1.5)

    return swatch


def draw(game, state, options) -> Image.Image:
    theme = options.theme
    pic = picture(state)
    fit = layout(state, options.extent)
    size = fit.scale
    box = options.extent or _box(_cells_in_play(pic))
    board_bottom = fit(0, box[3])[1]
    height = int(board_bottom + 16 + LEGEND_HEIGHT)
    canvas = Canvas(WIDTH, height, theme, options.ss)

    seats = [
        SeatInfo(name, role, _swatch(SEAT_COLOURS[seat]),
                 f"wins with a {('white', 'blue')[seat]} creature")
        for seat, (name, role) in enumerate(seat_labels(game, state, options.players))
    ]
    laid = len(state.tiles)
    pending = ""
    if state.outcome is None:
        pending = "opening pair at 0,0 and a neighbour" if not laid else "two touching tiles"
    draw_header(canvas, game.title, state, seats, subtitle=f"{laid}/{TOTAL_TILES} tiles laid",
                pending=pending)

    # Empty cells a tile may go to, with the q,r a player types.
    label_size = max(10, min(16, int(size * 0.36)))
    targets = set(pic.targets)
    for q, r in list(pic.targets) + list(pic.partners):
        cx, cy = cell_center(fit, q, r)
        is_target = (q, r) in targets
        outline = mix(theme.background, theme.line, 0.9 if is_target else 0.5)
        fill = mix(theme.background, theme.empty, 1.0 if is_target else 0.5)
        canvas.polygon(hexagon_points(cx, cy, size * 0.96), fill=fill, outline=outline, width=1.5)
        text = f"{q},{r}"
        colour = theme.text if is_target else theme.muted
        fitting = label_size
        while fitting > 9 and text_width(text, fitting) > size * 1.5:
            fitting -= 1
        canvas.text(cx, cy, text, fitting, colour, anchor="mm")

    creature: dict[Cell, set[int]] = {}
    for q, r, k in pic.creature:
        creature.setdefault((q, r), set()).add(k)
    for q, r, o in state.tiles:
        cx, cy = cell_center(fit, q, r)
        faded: frozenset[int] = frozenset()
        if creature:
            faded = frozenset(set(range(4)) - creature.get((q, r), set()))
        draw_tile(canvas, cx, cy, size, o, faded, theme.background)

    last = options.last_move
    if last is not None:
        for index, (q, r, _) in enumerate(last.tiles):
            cx, cy = cell_center(fit, q, r)
            canvas.polygon(hexagon_points(cx, cy, size), outline=theme.highlight,
                           width=max(3, size * 0.1))
            label_box(canvas, cx, cy - size * 0.62, str(index + 1), max(10, int(size * 0.3)),
                      theme.background, theme.highlight)

    _legend(canvas, board_bottom + 16, state)
    return canvas.finish()


def _legend(canvas: Canvas, top: float, state) -> None:
    """The three orientations, so a player knows which ``/o`` to type."""
    theme = canvas.theme
    canvas.rect((0, top, WIDTH, top + LEGEND_HEIGHT), fill=theme.panel)
    size = 30
    cy = top + LEGEND_HEIGHT / 2
    x = MARGIN + size
    for o in range(3):
        draw_tile(canvas, x, cy, size, o)
        canvas.text(x + size + 8, cy, f"/{o}", 20, theme.text, bold=True, anchor="lm")
        x += 2 * size + 50
    text_x = x - size + 6
    if state.outcome is None:
        lines = ("Type q,r/o q,r/o: two touching empty cells,",
                 "one next to a tile. Close a creature of your colour.")
    else:
        lines = ("A creature: a closed shape of one colour", "holding at least one arch.")
    canvas.text(text_x, cy - 12, lines[0], SMALL_SIZE, theme.muted, anchor="lm")
    canvas.text(text_x, cy + 12, lines[1], SMALL_SIZE, theme.muted, anchor="lm")
