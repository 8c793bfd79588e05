"""Palago: the tiles with their true geometry (RULES.md §3): a straight boundary through the
centre from the middle of edge o to the middle of edge o+3, and two 120° circular tips around
corners o+1 and o+4; even corners Blue, odd corners White. Empty cells where a tile may go carry
their ``q,r`` in large type; a finished creature is shown in full colour over a faded table.

The table grows without bound, so the image shows the area in play (tiles, cells next to them
and the cells a second tile may take) as large as the image allows. Cells sit on a lattice of
whole pixels (an even hexagon width and a row height within a quarter of a pixel of the true
one), so every tile is one cached sprite pasted without seams."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engines.palago import TOTAL_TILES, PalagoPicture, picture
from render.header import MARGIN, SMALL_SIZE, SeatInfo, draw_header, header_height, seat_labels
from render.hitmap import Region, polygon, rectangle
from render.options import Options
from render.primitives import SQRT3, hex_corner, hex_edge_mid, hexagon_points, label_box
from render.surface import WIDTH, Canvas, Frame, Sprite, make_sprite, text_width, wrap_text
from render.theme import RGB, Theme, hex_colour, mix

BLUE = hex_colour("2c6fbb")
WHITE = hex_colour("f4f4ef")
TILE_EDGE = hex_colour("8a8f98")
COLOURS = {0: BLUE, 1: WHITE}  # corner parity -> colour (even Blue, odd White)
SEAT_COLOURS = (WHITE, BLUE)  # seat 0 plays White, seat 1 Blue
FADE = 0.62  # how far tiles outside the winning creature fade towards the background
MAX_WIDTH = 84  # pixels across a hexagon, at most
BOARD_HEIGHT = 680
LEGEND_HEIGHT = 92
LEGEND_TILE = 30

# Hexagon widths (even, in pixels) whose row height 0.866 × width is a whole number within a
# quarter of a pixel (rows then meet without a visible seam): the sizes the lattice may take.
# Every other one of them is kept: the lattice then takes few sizes, each drawn once.
WIDTHS = tuple(w for w in range(20, MAX_WIDTH + 1, 2)
               if abs(w * SQRT3 / 2 - round(w * SQRT3 / 2)) <= 0.25)[::2]

Cell = tuple[int, int]
Bounds = tuple[int, int, int, int]  # min u, min r, max u, max r, with u = 2q + r (half-columns)


@dataclass(frozen=True)
class Lattice:
    """Whole-pixel positions of hex cells: cell (q, r) is centred at
    (x0 + width × (q + r/2), y0 + row × r)."""

    width: int  # pixels across a hexagon, flat side to flat side (even)
    row: int  # pixels between two rows
    x0: int  # centre of cell (0, 0)
    y0: int

    @property
    def scale(self) -> float:
        """The hexagons' circumradius."""
        return self.width / SQRT3

    def center(self, q: int, r: int) -> tuple[int, int]:
        return (self.x0 + self.width * q + self.width // 2 * r, self.y0 + self.row * r)


_last_picture: tuple = (None, None)  # the last state asked for and its picture


def _picture(state) -> PalagoPicture:
    """``picture(state)``, kept for the last state: its board and its hit map both need it.
    (One tuple, replaced whole, so threads drawing at once never mix two states.)"""
    global _last_picture
    last = _last_picture
    if last[0] is not state:
        last = _last_picture = (state, picture(state))
    return last[1]


def _cells_in_play(pic) -> list[Cell]:
    return [(q, r) for q, r, _ in pic.tiles] + list(pic.targets) + list(pic.partners)


def _bounds(cells: Sequence[Cell]) -> Bounds:
    cells = list(cells) or [(0, 0)]
    us = [2 * q + r for q, r in cells]
    rs = [r for _, r in cells]
    return (min(us), min(rs), max(us), max(rs))


def extent(states: Sequence) -> Bounds:
    """The area every replay frame shows: every tile and target cell of the whole game."""
    boxes = [_bounds(_cells_in_play(picture(s))) for s in states]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _board_top(state, options: Options | None) -> int:
    return header_height(state, options) + 12


def layout(state, fixed: Bounds | None = None, options: Options | None = None) -> Lattice:
    """The lattice of the cells in view (tests use it to find cells): the largest hexagon
    width that fits the area in play into the image."""
    u0, r0, u1, r1 = fixed or _bounds(_cells_in_play(picture(state)))
    width = WIDTHS[0]
    for candidate in WIDTHS:
        row = round(candidate * SQRT3 / 2)
        pixel_width = candidate / 2 * (u1 - u0) + candidate
        pixel_height = row * (r1 - r0) + 2 * candidate / SQRT3
        if pixel_width <= WIDTH - 2 * MARGIN and pixel_height <= BOARD_HEIGHT:
            width = candidate
    row = round(width * SQRT3 / 2)
    top = _board_top(state, options)
    half = width // 2
    # Centre the area horizontally; its top row's hexagons touch the top of the board area.
    left = (WIDTH - (half * (u1 - u0) + width)) // 2
    x0 = left + half - half * u0
    y0 = top + round(width / SQRT3) - row * r0
    return Lattice(width, row, x0, y0)


def cell_center(lattice: Lattice, q: int, r: int) -> tuple[int, int]:
    return lattice.center(q, r)


def _board_bottom(lattice: Lattice, bounds: Bounds) -> float:
    return lattice.y0 + lattice.row * bounds[3] + lattice.scale


def draw_tile(canvas, cx: float, cy: float, size: float, o: int,
              faded: frozenset[int] = frozenset(), fade_to: RGB | None = None) -> None:
    """One tile; ``faded`` lists region numbers (engine order: 0 tip at o+1, 1 arch on corners
    o and o+2, 2 tip at o+4, 3 the other arch) drawn faded towards ``fade_to``."""

    def colour(parity: int, region: int) -> RGB:
        base = COLOURS[parity % 2]
        if region in faded and fade_to is not None:
            return mix(base, fade_to, FADE)
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


@lru_cache(maxsize=256)
def _tile(size: float, o: int, faded: frozenset[int], fade_to: RGB | None) -> Sprite:
    return make_sprite((-size - 1, -size - 1, size + 1, size + 1),
                       lambda canvas: draw_tile(canvas, 0, 0, size, o, faded, fade_to))


@lru_cache(maxsize=64)
def _empty_cell(size: float, fill: RGB, outline: RGB) -> Sprite:
    return make_sprite((-size - 1, -size - 1, size + 1, size + 1),
                       lambda canvas: canvas.polygon(hexagon_points(0, 0, size * 0.96),
                                                     fill=fill, outline=outline, width=1.5))


@lru_cache(maxsize=32)
def _highlight(size: float, colour: RGB) -> Sprite:
    width = max(3, size * 0.1)
    return make_sprite((-size - width, -size - width, size + width, size + width),
                       lambda canvas: canvas.polygon(hexagon_points(0, 0, size),
                                                     outline=colour, width=width))


TYPICAL_LABEL = "-9,-9"  # the widest label of most boards


@lru_cache(maxsize=4096)
def label_size(cell_width: int, text: str) -> int:
    """The type size of a cell's ``q,r``: one size for every label of a hexagon width (the
    largest, up to 22 px, in which a typical widest label fits across the cell), smaller only
    for a label longer still."""
    room = cell_width * 0.84
    size = _fitting_size(TYPICAL_LABEL, room)
    if len(text) > len(TYPICAL_LABEL):
        size = min(size, _fitting_size(text, room))
    return size


def _fitting_size(text: str, room: float) -> int:
    # Type width grows in proportion to its size: one measure gives the size, a second
    # (rarely a third) checks it after rounding.
    size = min(22, int(22 * room / text_width(text, 22, bold=True)))
    while size > 10 and text_width(text, size, bold=True) > room:
        size -= 1
    return max(10, size)


def _swatch(colour: RGB):
    def swatch(surface, x: float, y: float, r: float) -> None:
        surface.polygon(hexagon_points(x, y, r * 1.1), fill=colour, outline=TILE_EDGE, width=1.5)

    return swatch


def palette_keys(theme: Theme) -> list:
    return [BLUE, WHITE, TILE_EDGE, mix(BLUE, theme.background, FADE),
            mix(WHITE, theme.background, FADE), mix(theme.background, theme.empty, 0.5),
            mix(theme.background, theme.line, 0.9), mix(theme.background, theme.line, 0.5)]


def draw(game, state, options: Options) -> Image.Image:
    theme = options.theme
    said = options.words
    pic = _picture(state)
    bounds = options.extent or _bounds(_cells_in_play(pic))
    lattice = layout(state, bounds, options)
    size = lattice.scale
    board_bottom = _board_bottom(lattice, bounds)
    frame = Frame(WIDTH, int(board_bottom + 16 + LEGEND_HEIGHT), theme)

    seats = [
        SeatInfo(name, role, _swatch(SEAT_COLOURS[seat]), said(f"palago.goal.{seat}"))
        for seat, (name, role) in enumerate(seat_labels(game, state, options.players, said))
    ]
    laid = len(state.tiles)
    doing = ""
    if state.outcome is None:
        doing = said("palago.doing.play" if laid else "palago.doing.opening")
    draw_header(frame, game.title, state, seats, options,
                subtitle=said("palago.laid", laid=laid, total=TOTAL_TILES), doing=doing)

    # Empty cells a tile may go to, with the q,r a player types: bright next to a tile, dim
    # where only the second tile of a pair may go.
    targets = set(pic.targets)
    bright = (mix(theme.background, theme.empty, 1.0), mix(theme.background, theme.line, 0.9))
    dim = (mix(theme.background, theme.empty, 0.5), mix(theme.background, theme.line, 0.5))
    empty = list(pic.targets) + list(pic.partners)
    for q, r in empty:
        cx, cy = lattice.center(q, r)
        is_target = (q, r) in targets
        frame.paste(_empty_cell(size, *(bright if is_target else dim)), cx, cy)
        colour = theme.text if is_target else theme.muted
        text = f"{q},{r}"
        frame.text(cx, cy, text, label_size(lattice.width, text), colour, bold=is_target,
                   anchor="mm")

    creature: dict[Cell, set[int]] = {}
    for q, r, k in pic.creature:
        creature.setdefault((q, r), set()).add(k)
    for q, r, o in state.tiles:
        faded: frozenset[int] = frozenset()
        if creature:
            faded = frozenset(set(range(4)) - creature.get((q, r), set()))
        frame.paste(_tile(size, o, faded, theme.background if faded else None),
                    *lattice.center(q, r))

    last = options.last_move
    if last is not None:
        for index, (q, r, _) in enumerate(last.tiles):
            cx, cy = lattice.center(q, r)
            frame.paste(_highlight(size, theme.highlight), cx, cy)
            label_box(frame, cx, cy - size * 0.62, str(index + 1), max(11, int(size * 0.32)),
                      theme.background, theme.highlight)

    frame.layer(_legend(theme, said, state.outcome is None), 0, board_bottom + 16)
    return frame.finish()


@lru_cache(maxsize=8)
def _legend(theme: Theme, said, playing: bool) -> Image.Image:
    """The three orientations, so a player knows which ``/o`` to type, and a line on what to
    type (while playing) or what a creature is (at the end)."""
    canvas = Canvas(WIDTH, LEGEND_HEIGHT, theme)
    canvas.rect((0, 0, WIDTH, LEGEND_HEIGHT), fill=theme.panel)
    size = LEGEND_TILE
    cy = LEGEND_HEIGHT / 2
    for o in range(3):
        x = _legend_tile_x(o)
        draw_tile(canvas, x, cy, size, o)
        canvas.text(x + size + 8, cy, f"/{o}", 20, theme.text, bold=True, anchor="lm")
    text_x = _legend_tile_x(3) - size + 6
    text = said("palago.legend.play" if playing else "palago.legend.over")
    lines = wrap_text(text, SMALL_SIZE, WIDTH - MARGIN - text_x)[:3]
    first = cy - (len(lines) - 1) * 12
    for index, line in enumerate(lines):
        canvas.text(text_x, first + index * 24, line, SMALL_SIZE, theme.muted, anchor="lm")
    return canvas.finish()


def _legend_tile_x(o: int) -> float:
    """The centre x of the legend's tile in orientation ``o`` (3: where the text begins)."""
    return MARGIN + LEGEND_TILE + o * (2 * LEGEND_TILE + 50)


ORIENTATION_LABEL = 36  # room right of a legend tile for its "/o"


def image_height(game, state, options: Options) -> int:
    bounds = options.extent or _bounds(_cells_in_play(_picture(state)))
    return int(_board_bottom(layout(state, bounds, options), bounds) + 16 + LEGEND_HEIGHT)


def hit_regions(game, state, options: Options) -> list[Region]:
    """Every empty cell a tile may go to (``q,r``), and the legend's three tiles with their
    labels (``/o``): the orientation follows each cell (``render.hitmap``)."""
    pic = _picture(state)
    bounds = options.extent or _bounds(_cells_in_play(pic))
    lattice = layout(state, bounds, options)
    made = _cell_regions(lattice)
    corners = _hexagon_offsets(lattice.width)
    regions = []
    for q, r in (*pic.targets, *pic.partners):
        region = made.get((q, r))
        if region is None:
            # Cell centres are whole pixels: the rounded corners are the centre plus the
            # rounded offsets, the same for every cell of the lattice.
            cx, cy = lattice.center(q, r)
            region = made[(q, r)] = Region(
                "cell", f"{q},{r}", tuple([(cx + dx, cy + dy) for dx, dy in corners]))
        regions.append(region)
    return regions + list(_orientation_regions(_board_bottom(lattice, bounds) + 16))


@lru_cache(maxsize=16)
def _cell_regions(lattice: Lattice) -> dict[Cell, Region]:
    """The cells' regions made so far on a lattice (a lattice lasts while the area in play
    keeps its size: the same cells come back move after move)."""
    return {}


@lru_cache(maxsize=16)
def _hexagon_offsets(width: int) -> tuple[tuple[int, int], ...]:
    return polygon(hexagon_points(0, 0, width / SQRT3))


@lru_cache(maxsize=64)
def _orientation_regions(legend_top: float) -> tuple[Region, ...]:
    cy = legend_top + LEGEND_HEIGHT / 2
    size = LEGEND_TILE
    return tuple(Region("orientation", f"/{o}",
                        rectangle(_legend_tile_x(o) - size, cy - size,
                                  _legend_tile_x(o) + size + ORIENTATION_LABEL, cy + size))
                 for o in range(3))
