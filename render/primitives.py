"""Shapes and grids shared by several games: seat swatches, hexagons, the last-move ring,
labels on plates, the crop-and-scale of unbounded boards and their x/y guides."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from PIL import Image

from render.header import MARGIN, Swatch
from render.surface import WIDTH, Frame, Surface, fit_text, text_width, wrap_text
from render.theme import RGB, Theme, mix

Point = tuple[float, float]


def stone_swatch(fill: RGB, edge: RGB) -> Swatch:
    def draw(surface: Surface, x: float, y: float, r: float) -> None:
        # On a wood tile, as on the board, so a black stone reads on the dark header too.
        pad = r * 0.45
        surface.rect((x - r - pad, y - r - pad, x + r + pad, y + r + pad),
                     fill=surface.theme.wood, radius=4)
        surface.circle(x, y, r, fill=fill, outline=edge, width=1.5)

    return draw


def square_swatch(fill: RGB, edge: RGB) -> Swatch:
    def draw(surface: Surface, x: float, y: float, r: float) -> None:
        surface.rect((x - r, y - r, x + r, y + r), fill=fill, outline=edge, width=1.5, radius=3)

    return draw


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


def highlight_ring(surface: Surface, x: float, y: float, r: float) -> None:
    """The last-move mark around a round piece."""
    surface.ring(x, y, r, surface.theme.highlight, width=max(3, r * 0.14))


def label_box(
    surface: Surface, x: float, y: float, text: str, size: int, fill: RGB, background: RGB
) -> None:
    """Centred text on a small rounded plate (coordinates printed over busy boards)."""
    half_w = text_width(text, size) / 2 + 3
    half_h = size * 0.62
    surface.rect((x - half_w, y - half_h, x + half_w, y + half_h), fill=background, radius=3)
    surface.text(x, y, text, size, fill, anchor="mm")


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
    """A window on an unbounded square grid drawn at ``cell`` pixels per square. Everything is
    a whole pixel, so squares are drawn crisp and every square has the same size."""

    extent: Extent
    cell: int
    left: int  # pixel x of the left edge of square min_x
    top: int  # pixel y of the top edge of square min_y

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
    def pixel_width(self) -> int:
        return self.columns * self.cell

    @property
    def pixel_height(self) -> int:
        return self.rows * self.cell


GUIDE = 34  # room for the x numbers above and the y numbers left of the grid
CELL_STEP = 4  # square sizes are multiples of this (above three steps)


def grid_view(extent: Extent, top: float, max_width: float, max_height: float,
              max_cell: float) -> GridView:
    """Fit ``extent`` under ``top`` (guides included), centred horizontally in the image."""
    x0, y0, x1, y1 = extent
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    cell = int(min((max_width - GUIDE) / columns, (max_height - GUIDE) / rows, max_cell))
    if cell > CELL_STEP * 3:
        cell -= cell % CELL_STEP  # few distinct sizes: each size's pieces are drawn once
    width = columns * cell + GUIDE
    left = round((WIDTH - width) / 2) + GUIDE
    return GridView(extent, max(1, cell), left, round(top) + GUIDE)


def guide_size(cell: float) -> int:
    """Size of the x/y numbers: as large as the squares allow (they are what a player reads
    to type a move, also in Discord's half-size preview)."""
    return max(13, min(22, int(cell * 0.6)))


@lru_cache(maxsize=64)
def guides_layer(view: GridView, theme: Theme, lines: bool = True) -> Image.Image:
    """The x numbers above each column, the y numbers left of each row and faint grid lines,
    as one opaque layer from (left - GUIDE, top - GUIDE) to the grid's far corner: it only
    changes when the area in view does. Numbers thin out when squares get small. Only text
    and straight lines: drawn at the final size, no supersampling needed."""
    x0, y0, x1, y1 = view.extent
    ox, oy = view.left - GUIDE, view.top - GUIDE
    frame = Frame(view.pixel_width + GUIDE + 1, view.pixel_height + GUIDE + 1, theme)
    size = guide_size(view.cell)
    widest = max(text_width(str(v), size, bold=True) for v in (x0, x1))
    step = 1 if view.cell >= widest + 4 else 2
    if lines:
        faint = mix(theme.background, theme.line, 0.35)
        for x in range(x0, x1 + 2):
            px = view.corner(x, y0)[0] - ox
            frame.rect((px, GUIDE, px + 1, GUIDE + view.pixel_height + 1), fill=faint)
        for y in range(y0, y1 + 2):
            py = view.corner(x0, y)[1] - oy
            frame.rect((GUIDE, py, GUIDE + view.pixel_width + 1, py + 1), fill=faint)
    for x in range(x0, x1 + 1):
        if x % step == 0:
            cx = view.center(x, y0)[0] - ox
            frame.text(cx, GUIDE - 8, str(x), size, theme.muted, bold=x == 0, anchor="ms")
    for y in range(y0, y1 + 1):
        if y % step == 0:
            cy = view.center(x0, y)[1] - oy
            frame.text(GUIDE - 6, cy, str(y), size, theme.muted, bold=y == 0, anchor="rm")
    return frame.finish()


def draw_guides(frame: Frame, view: GridView, lines: bool = True) -> None:
    """The cached guides (see ``guides_layer``) on ``frame``."""
    frame.layer(guides_layer(view, frame.theme, lines), view.left - GUIDE, view.top - GUIDE)


LEGEND_SIZE = 16
LEGEND_LINE = 21


def legend_lines(text: str, size: int = LEGEND_SIZE, lines: int = 2) -> list[str]:
    """The legend under a board, wrapped on at most ``lines`` lines across the image (the
    last one shortened with an ellipsis if the text is longer still)."""
    room = WIDTH - 2 * MARGIN
    wrapped = wrap_text(text, size, room)
    if len(wrapped) > lines:
        wrapped = [*wrapped[:lines - 1], fit_text(" ".join(wrapped[lines - 1:]), size, room)]
    return wrapped
