"""Drawing primitives shared by every game module.

Game modules draw in *logical* pixels (the size of the final image) on a ``Canvas``; the canvas
draws ``ss`` times bigger and shrinks the result at the end, which is how circles and slanted
edges get smooth borders (Pillow's ImageDraw does not antialias shapes). Replays use ``ss=1``:
GIF frames are cheaper and compress better without the in-between colours.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from PIL import Image, ImageDraw, ImageFont

from render.theme import RGB, Theme, mix

FONT_DIR = Path(__file__).resolve().parent / "fonts"
WIDTH = 800  # every board image is this wide (Discord shows ~400 px: text sizes assume half)
MARGIN = 24

Point = tuple[float, float]


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu font (never a system font) at a pixel size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def fit_text(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it fits ``max_width`` logical pixels."""
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold) > max_width:
        text = text[:-1]
    return text + "…"


SPRITE_MAX_CHARS = 12  # cache tiles for short labels only (coordinates, counts, letters)


@lru_cache(maxsize=4096)
def _text_sprite(
    text: str, px: int, bold: bool, fill: RGB, anchor: str
) -> tuple[Image.Image, int, int]:
    """Text drawn once on a transparent tile and reused: the same labels (coordinates, names,
    guides) come back in every image and every replay frame, and FreeType rendering is the
    slowest part of a board otherwise. Returns the tile and its offset from the anchor point."""
    face = font(px, bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    sprite = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*fill, 0))
    ImageDraw.Draw(sprite).text((-left, -top), text, fill=(*fill, 255), font=face, anchor=anchor)
    return sprite, left, top


class Canvas:
    """An RGB image drawn at ``ss`` times the logical size, shrunk by ``finish()``."""

    def __init__(self, width: int, height: int, theme: Theme, ss: int = 2) -> None:
        self.width = width
        self.height = height
        self.theme = theme
        self.ss = ss
        self.image = Image.new("RGB", (width * ss, height * ss), theme.background)
        self.draw = ImageDraw.Draw(self.image)

    # -- coordinates ---------------------------------------------------------------------------

    def _p(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.ss, y * self.ss)

    def _w(self, width: float) -> int:
        return max(1, round(width * self.ss))

    # -- shapes --------------------------------------------------------------------------------

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        x0, y0, x1, y1 = box
        scaled = (*self._p(x0, y0), *self._p(x1, y1))
        if radius:
            self.draw.rounded_rectangle(
                scaled, radius=radius * self.ss, fill=fill, outline=outline,
                width=self._w(width) if outline else 0,
            )
        else:
            self.draw.rectangle(
                scaled, fill=fill, outline=outline, width=self._w(width) if outline else 0
            )

    def circle(
        self,
        x: float,
        y: float,
        r: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        s = self.ss
        self.draw.ellipse(
            ((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s),
            fill=fill,
            outline=outline,
            width=self._w(width) if outline else 0,
        )

    def ring(self, x: float, y: float, r: float, colour: RGB, width: float) -> None:
        self.circle(x, y, r, outline=colour, width=width)

    def line(self, points: Sequence[Point], fill: RGB, width: float = 1) -> None:
        self.draw.line([self._p(x, y) for x, y in points], fill=fill, width=self._w(width))

    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        ss = self.ss
        scaled = [(x * ss, y * ss) for x, y in points]
        line_width = self._w(width) if outline else 0
        if line_width <= 1:
            self.draw.polygon(scaled, fill=fill, outline=outline)
            return
        # Pillow draws a thick polygon outline through a mask as large as the whole image;
        # a closed line is the same picture for a fraction of the cost.
        if fill is not None:
            self.draw.polygon(scaled, fill=fill)
        self.draw.line([*scaled, scaled[0], scaled[1]], fill=outline, width=line_width,
                       joint="curve")

    def pieslice(
        self, x: float, y: float, r: float, start: float, end: float, fill: RGB
    ) -> None:
        """A filled circular sector; angles in degrees, clockwise from +x (Pillow's convention,
        y pointing down)."""
        s = self.ss
        self.draw.pieslice(((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s), start, end, fill)

    def arc(
        self, x: float, y: float, r: float, start: float, end: float, fill: RGB, width: float
    ) -> None:
        s = self.ss
        self.draw.arc(
            ((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s), start, end, fill,
            width=self._w(width),
        )

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: int,
        fill: RGB,
        bold: bool = False,
        anchor: str = "la",
    ) -> None:
        px, py = self._p(x, y)
        if len(text) > SPRITE_MAX_CHARS:
            # Long texts (names, status, legends) rarely repeat: draw them directly rather than
            # filling the cache with large tiles.
            self.draw.text((px, py), text, fill=fill, font=font(size * self.ss, bold),
                           anchor=anchor)
            return
        sprite, left, top = _text_sprite(text, size * self.ss, bold, tuple(fill), anchor)
        self.image.paste(sprite, (round(px) + left, round(py) + top), sprite)

    # -- output --------------------------------------------------------------------------------

    def finish(self) -> Image.Image:
        if self.ss == 1:
            return self.image
        return self.image.reduce(self.ss)


def png_bytes(image: Image.Image) -> bytes:
    """A palette PNG with fast settings (DESIGN.md §10 budget). Boards have a few flat colours
    plus antialiased edges, so 256 colours from the fast octree quantizer look the same as RGB,
    and encoding a palette image costs about half as much and weighs less than half."""
    paletted = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                              dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    paletted.save(buffer, "PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------
# Header: title, whose turn or the result, the players with their colours and counts
# ---------------------------------------------------------------------------------------------

Swatch = Callable[[Canvas, float, float, float], None]  # draws a seat's piece at (x, y), radius


@dataclass(frozen=True)
class SeatInfo:
    name: str  # the player's display name (or the seat name when no player names are given)
    role: str  # the seat name in the game (Black, Isis, Red...), shown when it differs from name
    swatch: Swatch
    stats: str = ""  # "captures 3", "12 points", "markers 2 left"


def stone_swatch(fill: RGB, edge: RGB) -> Swatch:
    def draw(canvas: Canvas, x: float, y: float, r: float) -> None:
        # On a wood tile, as on the board, so a black stone reads on the dark header too.
        pad = r * 0.45
        canvas.rect((x - r - pad, y - r - pad, x + r + pad, y + r + pad),
                    fill=canvas.theme.wood, radius=4)
        canvas.circle(x, y, r, fill=fill, outline=edge, width=1.5)

    return draw


def square_swatch(fill: RGB, edge: RGB) -> Swatch:
    def draw(canvas: Canvas, x: float, y: float, r: float) -> None:
        canvas.rect((x - r, y - r, x + r, y + r), fill=fill, outline=edge, width=1.5, radius=3)

    return draw


TITLE_SIZE = 26
STATUS_SIZE = 24
SEAT_SIZE = 20
SEAT_ROW = 52
SMALL_SIZE = 16


def seat_columns(count: int) -> int:
    return 1 if count == 1 else 2 if count <= 4 else 3


REASON_SIZE = 17
REASON_LINE = 22


def wrap_text(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``max_width`` logical pixels."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size, bold) > max_width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def _reason_lines(state) -> list[str]:
    outcome = getattr(state, "outcome", None)
    if outcome is None or not outcome.reason:
        return []
    reason = outcome.reason[0].upper() + outcome.reason[1:]
    return wrap_text(reason + ".", REASON_SIZE, WIDTH - 2 * MARGIN)[:3]


def header_height(state) -> int:
    """Height of the header band: it depends on the number of seats, plus the lines of the
    engine's reason once the game is over (replays pad every frame to the tallest)."""
    seat_count = state.players
    rows = math.ceil(seat_count / seat_columns(seat_count))
    return 14 + 34 + 34 + len(_reason_lines(state)) * REASON_LINE + rows * SEAT_ROW + 12


def seat_labels(game, state, players: Sequence[str] | None) -> list[tuple[str, str]]:
    """(display name, seat name) per seat."""
    labels = []
    for seat in range(state.players):
        role = game.seat_name(state, seat)
        name = players[seat] if players and seat < len(players) and players[seat] else role
        labels.append((str(name), role))
    return labels


def status_line(state, seats: Sequence[SeatInfo], pending: str = "") -> str:
    """Whose turn it is, or who won."""
    outcome = state.outcome
    if outcome is not None:
        winners = sorted(outcome.winners)
        if not winners:
            return "Game over: draw"
        names = " & ".join(seats[w].name for w in winners)
        return f"Game over: {names} {'wins' if len(winners) == 1 else 'win'}"
    if state.to_move is None:
        return ""
    text = f"{seats[state.to_move].name} to play"
    return f"{text}: {pending}" if pending else text


def draw_header(
    canvas: Canvas,
    title: str,
    state,
    seats: Sequence[SeatInfo],
    *,
    subtitle: str = "",
    pending: str = "",
    top: float = 0,
) -> float:
    """Draw the header band; returns its bottom y. Layout: title and subtitle (move number,
    options) on the first line; whose turn or the result on the second, in the accent colour,
    with the engine's reason when the game is over; then one cell per seat."""
    theme = canvas.theme
    height = header_height(state)
    width = canvas.width
    canvas.rect((0, top, width, top + height), fill=theme.panel)
    y = top + 14
    canvas.text(MARGIN, y, title, TITLE_SIZE, theme.text, bold=True)
    if subtitle:
        canvas.text(width - MARGIN, y + 4, subtitle, SMALL_SIZE + 2, theme.muted, anchor="ra")
    y += 34
    status = fit_text(status_line(state, seats, pending), STATUS_SIZE, width - 2 * MARGIN,
                      bold=True)
    canvas.text(MARGIN, y, status, STATUS_SIZE, theme.accent, bold=True)
    y += 34
    for line in _reason_lines(state):
        canvas.text(MARGIN, y - 4, line, REASON_SIZE, theme.muted)
        y += REASON_LINE
    columns = seat_columns(len(seats))
    column_width = (width - 2 * MARGIN) / columns
    winners = state.outcome.winners if state.outcome is not None else frozenset()
    for index, seat in enumerate(seats):
        row, column = divmod(index, columns)
        x = MARGIN + column * column_width
        cy = y + row * SEAT_ROW + SEAT_ROW / 2
        active = state.to_move == index or index in winners
        if active:
            half = SEAT_ROW / 2 - 2
            canvas.rect((x - 8, cy - half, x + column_width - 10, cy + half),
                        fill=mix(theme.panel, theme.accent, 0.22), radius=8)
        seat.swatch(canvas, x + 12, cy, 12)
        marker = "★ " if index in winners else "▶ " if state.to_move == index else ""
        label = marker + seat.name
        if seat.role and seat.role.lower() != seat.name.lower():
            label += f" ({seat.role})"
        room = column_width - 50
        label = fit_text(label, SEAT_SIZE, room, bold=True)
        canvas.text(x + 38, cy - 11, label, SEAT_SIZE, theme.text, bold=True, anchor="lm")
        if seat.stats:
            stats = fit_text(seat.stats, SMALL_SIZE + 1, room)
            canvas.text(x + 38, cy + 12, stats, SMALL_SIZE + 1, theme.muted, anchor="lm")
    return top + height


# ---------------------------------------------------------------------------------------------
# Shapes used by several games
# ---------------------------------------------------------------------------------------------


SQRT3 = math.sqrt(3)


def hex_center(q: float, r: float, size: float) -> Point:
    """Centre of axial cell (q, r) for pointy-top hexagons of circumradius ``size``, origin at
    (0, 0): direction 0 (+1, 0) points east, 1 (+1, -1) north-east, 2 (0, -1) north-west, and so
    on counter-clockwise on screen (engines/hexgrid.py directions)."""
    return (size * SQRT3 * (q + r / 2), size * 1.5 * r)


def hex_corner(cx: float, cy: float, size: float, k: int) -> Point:
    """Corner k of a pointy-top hexagon, between edge k and edge k+1 (RULES.md §3): corner 0 is
    up-right of the east edge, corner 1 the top, and so on counter-clockwise."""
    angle = math.radians(60 * k + 30)
    return (cx + size * math.cos(angle), cy - size * math.sin(angle))


def hex_edge_mid(cx: float, cy: float, size: float, d: int) -> Point:
    """Middle of edge d, the edge shared with the neighbour in direction d."""
    angle = math.radians(60 * d)
    apothem = size * SQRT3 / 2
    return (cx + apothem * math.cos(angle), cy - apothem * math.sin(angle))


_UNIT_CORNERS = tuple(
    (math.cos(math.radians(60 * k + 30)), -math.sin(math.radians(60 * k + 30))) for k in range(6)
)


def hexagon_points(cx: float, cy: float, size: float) -> list[Point]:
    """The six corners, corner 0 first (see ``hex_corner``)."""
    return [(cx + size * ux, cy + size * uy) for ux, uy in _UNIT_CORNERS]


def highlight_ring(canvas: Canvas, x: float, y: float, r: float) -> None:
    """The last-move mark around a round piece."""
    canvas.ring(x, y, r, canvas.theme.highlight, width=max(3, r * 0.14))


def label_box(
    canvas: Canvas, x: float, y: float, text: str, size: int, fill: RGB, background: RGB
) -> None:
    """Centred text on a small rounded plate (coordinates printed over busy boards)."""
    half_w = text_width(text, size) / 2 + 3
    half_h = size * 0.62
    canvas.rect((x - half_w, y - half_h, x + half_w, y + half_h), fill=background, radius=3)
    canvas.text(x, y, text, size, fill, anchor="mm")


@dataclass(frozen=True)
class Fit:
    """Maps grid units to logical pixels so a bounded box of the grid fits an area (the
    crop-and-scale for unbounded boards)."""

    scale: float
    offset_x: float
    offset_y: float

    def __call__(self, x: float, y: float) -> Point:
        return (self.offset_x + x * self.scale, self.offset_y + y * self.scale)


def fit_box(
    box: tuple[float, float, float, float],
    area: tuple[float, float, float, float],
    max_scale: float,
    align_top: bool = True,
) -> Fit:
    """Scale ``box`` (grid units: min_x, min_y, max_x, max_y) into ``area`` (pixels), centred
    horizontally and at the top of the area (the image then ends below the board), never
    magnifying beyond ``max_scale`` pixels per unit."""
    bx0, by0, bx1, by1 = box
    ax0, ay0, ax1, ay1 = area
    width_units = max(bx1 - bx0, 1e-9)
    height_units = max(by1 - by0, 1e-9)
    scale = min((ax1 - ax0) / width_units, (ay1 - ay0) / height_units, max_scale)
    offset_x = ax0 + ((ax1 - ax0) - width_units * scale) / 2 - bx0 * scale
    spare_y = 0 if align_top else ((ay1 - ay0) - height_units * scale) / 2
    offset_y = ay0 + spare_y - by0 * scale
    return Fit(scale, offset_x, offset_y)


# ---------------------------------------------------------------------------------------------
# Unbounded square grids (LPPG, Kolory): crop to what is in play, scale to fit, x/y guides
# ---------------------------------------------------------------------------------------------

Extent = tuple[int, int, int, int]  # min_x, min_y, max_x, max_y squares, inclusive
Box = TypeVar("Box", bound=tuple[float, float, float, float])  # an Extent or a pixel box


def grow(extent: Extent, margin: int) -> Extent:
    x0, y0, x1, y1 = extent
    return (x0 - margin, y0 - margin, x1 + margin, y1 + margin)


def union(boxes: Sequence[Box]) -> Box:
    """The smallest box holding every box (square extents or pixel boxes alike)."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


@dataclass(frozen=True)
class GridView:
    """A window on an unbounded square grid drawn at ``cell`` pixels per square."""

    extent: Extent
    cell: float
    left: float  # pixel x of the left edge of square min_x
    top: float  # pixel y of the top edge of square min_y

    def corner(self, x: float, y: float) -> Point:
        """Pixel position of the top-left corner of square (x, y) (fractions allowed)."""
        return (self.left + (x - self.extent[0]) * self.cell,
                self.top + (y - self.extent[1]) * self.cell)

    def box(self, x: int, y: int, w: int = 1, h: int = 1) -> tuple[float, float, float, float]:
        x0, y0 = self.corner(x, y)
        return (x0, y0, x0 + w * self.cell, y0 + h * self.cell)

    def center(self, x: float, y: float) -> Point:
        return self.corner(x + 0.5, y + 0.5)

    @property
    def columns(self) -> int:
        return self.extent[2] - self.extent[0] + 1

    @property
    def rows(self) -> int:
        return self.extent[3] - self.extent[1] + 1

    @property
    def pixel_width(self) -> float:
        return self.columns * self.cell

    @property
    def pixel_height(self) -> float:
        return self.rows * self.cell


GUIDE = 30  # room for the x numbers above and the y numbers left of the grid


def grid_view(extent: Extent, top: float, max_width: float, max_height: float,
              max_cell: float) -> GridView:
    """Fit ``extent`` under ``top`` (guides included), centred horizontally in the image."""
    x0, y0, x1, y1 = extent
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    cell = min((max_width - GUIDE) / columns, (max_height - GUIDE) / rows, max_cell)
    width = columns * cell + GUIDE
    left = (WIDTH - width) / 2 + GUIDE
    return GridView(extent, cell, left, top + GUIDE)


def draw_guides(canvas: Canvas, view: GridView, lines: bool = True) -> None:
    """The x numbers above each column, the y numbers left of each row, and faint grid lines
    (the coordinates a player types). Labels thin out when squares get small."""
    theme = canvas.theme
    x0, y0, x1, y1 = view.extent
    size = max(11, min(17, int(view.cell * 0.5)))
    step = 1 if view.cell >= size * 1.6 else 2
    if lines:
        faint = mix(theme.background, theme.line, 0.35)
        for x in range(x0, x1 + 2):
            px, _ = view.corner(x, y0)
            canvas.line([(px, view.top), (px, view.top + view.pixel_height)], faint, 1)
        for y in range(y0, y1 + 2):
            _, py = view.corner(x0, y)
            canvas.line([(view.left, py), (view.left + view.pixel_width, py)], faint, 1)
    for x in range(x0, x1 + 1):
        if x % step == 0:
            cx, _ = view.center(x, y0)
            canvas.text(cx, view.top - 8, str(x), size, theme.muted, bold=x == 0, anchor="ms")
    for y in range(y0, y1 + 1):
        if y % step == 0:
            _, cy = view.center(x0, y)
            canvas.text(view.left - 6, cy, str(y), size, theme.muted, bold=y == 0, anchor="rm")
