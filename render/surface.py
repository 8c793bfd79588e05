"""Where pixels are made: fonts, the supersampled ``Canvas``, cached ``Sprite`` tiles, the
final-size ``Frame`` and the palette PNG encoder.

A board image is composed at its final size on a ``Frame`` from pieces drawn once and cached:
layers (a board's wood and edge labels, a legend), sprites (a stone, a tile, a card, a ring)
and text tiles. Shapes are drawn ``SS`` times bigger on a ``Canvas`` and shrunk when they are
cached, which gives them smooth edges (Pillow's ImageDraw does not antialias shapes); after that
a shape costs one paste, whatever its complexity. Text is rendered by FreeType at the final
size, which antialiases it already.

The frame is finally mapped onto a fixed palette (``png_bytes``): a palette PNG is several times
faster to encode than an RGB one and less than half its size, and a palette fixed per game and
theme costs one table lookup per pixel instead of a colour search per image. A frame's image
is mapped by its ``PalettePlan``: what was laid flat (the background, cached layers, plain
rectangles) is laid again in palette indices, and only what was blended is looked up.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from render.theme import RGB, Theme, palette_exact

FONT_DIR = Path(__file__).resolve().parent / "fonts"
WIDTH = 800  # every board image is this wide (Discord previews it at about 400 px)
SS = 4  # supersampling of cached shapes and layers: drawn once, so smooth edges cost nothing
PNG_LEVEL = 1  # ISA-L's deflate level (0..3): 1 is as fast as 0 and packs a board smaller
PALETTE_SIZE = 255  # one palette index stays free (GIF frames use it for "unchanged")

Point = tuple[float, float]


# ---------------------------------------------------------------------------------------------
# Fonts and text
# ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu font (never a system font) at a pixel size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


@lru_cache(maxsize=4096)
def fit_text(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it fits ``max_width`` pixels."""
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold) > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap_text(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``max_width`` pixels. Only ordinary spaces break a line: a no-break
    space (French ``:``) keeps its neighbours together."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        if not word:
            continue
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size, bold) > max_width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def fit_name(text: str, size: int, max_width: float, *, lines: int = 2,
             smallest: int = 11) -> tuple[list[str], int]:
    """A name set in a narrow place, whole if at all possible: on one line at ``size`` or a
    smaller size down to ``smallest``, else wrapped on up to ``lines`` lines (at the largest
    size that fits), and cut with an ellipsis only as a last resort. Returns the lines and
    their size."""
    for step in range(size, smallest - 1, -1):
        if text_width(text, step) <= max_width:
            return [text], step
    for step in range(size, smallest - 1, -1):
        wrapped = wrap_text(text, step, max_width)
        if len(wrapped) <= lines and all(text_width(w, step) <= max_width for w in wrapped):
            return wrapped, step
    wrapped = wrap_text(text, smallest, max_width)[:lines] or [text]
    return [fit_text(w, smallest, max_width) for w in wrapped], smallest


_MISSING_PROBE = "\U0010fffd"  # a private code point no font maps: FreeType draws .notdef


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    if char.isspace():
        return True
    face = font(20)
    mask = face.getmask(char)
    missing = face.getmask(_MISSING_PROBE)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


def printable(text: str, fallback: str = "?") -> str:
    """``text`` without the characters the bundled font cannot draw (most emoji, some scripts),
    which would otherwise show as empty boxes; spaces they leave are collapsed, and a text
    made only of such characters becomes ``fallback``."""
    kept = "".join(char for char in text if _has_glyph(char) and char.isprintable())
    kept = " ".join(kept.split())
    return kept or fallback


# ---------------------------------------------------------------------------------------------
# The supersampled canvas: what cached layers and sprites are drawn on
# ---------------------------------------------------------------------------------------------


class Canvas:
    """An image drawn ``ss`` times bigger than its logical size and shrunk by ``finish()``.

    Coordinates are logical pixels; ``origin`` is the logical point at the image's top-left
    corner (a sprite is drawn around its anchor at 0,0). A transparent canvas gives an RGBA
    tile whose edges blend into whatever it is pasted on."""

    def __init__(
        self,
        width: float,
        height: float,
        theme: Theme,
        ss: int = SS,
        *,
        origin: Point = (0.0, 0.0),
        transparent: bool = False,
    ) -> None:
        self.width = width
        self.height = height
        self.theme = theme
        self.ss = ss
        self.ox, self.oy = origin
        size = (max(1, math.ceil(width * ss)), max(1, math.ceil(height * ss)))
        if transparent:
            self.image = Image.new("RGBA", size, (0, 0, 0, 0))
        else:
            self.image = Image.new("RGB", size, theme.background)
        self.draw = ImageDraw.Draw(self.image)

    def _p(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.ox) * self.ss, (y - self.oy) * self.ss)

    def _w(self, width: float) -> int:
        return max(1, round(width * self.ss))

    def _box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, ...]:
        return (*self._p(x0, y0), *self._p(x1, y1))

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        scaled = self._box(*box)
        line = self._w(width) if outline else 0
        if radius:
            self.draw.rounded_rectangle(scaled, radius=radius * self.ss, fill=fill,
                                        outline=outline, width=line)
        else:
            self.draw.rectangle(scaled, fill=fill, outline=outline, width=line)

    def circle(
        self,
        x: float,
        y: float,
        r: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        self.draw.ellipse(self._box(x - r, y - r, x + r, y + r), fill=fill, outline=outline,
                          width=self._w(width) if outline else 0)

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
        scaled = [self._p(x, y) for x, y in points]
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
        self.draw.pieslice(self._box(x - r, y - r, x + r, y + r), start, end, fill)

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
        self.draw.text(self._p(x, y), text, fill=fill, font=font(size * self.ss, bold),
                       anchor=anchor)

    def finish(self) -> Image.Image:
        if self.ss == 1:
            return self.image
        return self.image.reduce(self.ss)


# ---------------------------------------------------------------------------------------------
# Sprites: small transparent tiles drawn once and pasted many times
# ---------------------------------------------------------------------------------------------


SPLIT_AREA = 1600  # sprites at least this large paste their opaque middle without blending


class Sprite:
    """An RGBA tile and where its top-left corner lies relative to its anchor point.

    Pasting blends every pixel by its alpha, which costs in proportion to the area; a large
    sprite (a card, a tile, a stone) is mostly opaque, so it is kept as pieces: its opaque
    middle, copied as is, and the strips around it, blended. ``pieces`` holds them as
    (Pillow core, x, y, width, height, blended) relative to the sprite's top-left corner
    (Pillow's own paste checks its arguments in Python on every call; a frame pastes a
    hundred pieces, so it talks to the C core directly, see ``Frame.paste``)."""

    __slots__ = ("height", "image", "left", "pieces", "top", "width")

    def __init__(self, image: Image.Image, left: int, top: int) -> None:
        image.load()
        self.image = image
        self.left = left
        self.top = top
        self.width, self.height = image.size
        self.pieces = _pieces(image)


def _opaque_middle(image: Image.Image) -> tuple[int, int, int, int] | None:
    """A large box centred in the sprite whose pixels are all opaque, or None: for a few
    left/right margins (none, a little, up to three eighths of the width), the least top/bottom
    margin that works, found by bisection; the box of largest area wins."""
    alpha = image.getchannel("A")
    width, height = image.size

    def opaque(edge: int, side: int) -> bool:
        box = (edge, side, width - edge, height - side)
        return box[2] > box[0] and box[3] > box[1] and alpha.crop(box).getextrema()[0] == 255

    best, best_area = None, 0
    for edge in sorted({0, 1, 2, width // 16, width // 8, width // 4, 3 * width // 8}):
        low, high = 0, (height - 1) // 2  # the answer lies in [low, high] if any does
        if not opaque(edge, high):
            continue
        while low < high:
            middle = (low + high) // 2
            if opaque(edge, middle):
                high = middle
            else:
                low = middle + 1
        area = (width - 2 * edge) * (height - 2 * high)
        if area > best_area:
            best, best_area = (edge, high, width - edge, height - high), area
    return best


def _pieces(image: Image.Image) -> tuple[tuple, ...]:
    width, height = image.size
    if image.getchannel("A").getextrema()[0] == 255:  # opaque: a plain copy
        return ((image.convert("RGB").im, 0, 0, width, height, False),)
    whole = ((image.im, 0, 0, width, height, True),)
    if width * height < SPLIT_AREA:
        return whole
    middle = _opaque_middle(image)
    if middle is None or (middle[2] - middle[0]) * (middle[3] - middle[1]) < width * height / 3:
        return whole
    x0, y0, x1, y1 = middle
    strips = [(0, 0, width, y0), (0, y1, width, height), (0, y0, x0, y1), (x1, y0, width, y1)]
    pieces = [(image.convert("RGB").crop(middle).im, x0, y0, x1 - x0, y1 - y0, False)]
    for box in strips:
        if box[2] > box[0] and box[3] > box[1]:
            crop = image.crop(box)
            pieces.append((crop.im, box[0], box[1], box[2] - box[0], box[3] - box[1], True))
    return tuple(pieces)


def make_sprite(
    box: tuple[float, float, float, float],
    paint: Callable[[Canvas], None],
    theme: Theme | None = None,
) -> Sprite:
    """``paint(canvas)`` drawn supersampled on a transparent tile covering ``box`` (logical
    coordinates around the anchor at 0,0) and shrunk: what every cached sprite is made of."""
    x0, y0 = math.floor(box[0]), math.floor(box[1])
    x1, y1 = math.ceil(box[2]), math.ceil(box[3])
    canvas = Canvas(x1 - x0, y1 - y0, theme, SS, origin=(x0, y0), transparent=True)  # type: ignore[arg-type]
    paint(canvas)
    return Sprite(canvas.finish(), x0, y0)


def _quantized(values: Iterable[float]) -> tuple[float, ...]:
    """Shape coordinates on the supersampling grid: the same shape at the same sub-pixel
    phase gives the same cache key."""
    return tuple(round(v * SS) / SS for v in values)


@lru_cache(maxsize=4096)
def _shape(kind: str, geometry: tuple, fill, outline, width: float, extra: tuple) -> Sprite:
    """One shape drawn by ``Canvas`` on its own tile (``Frame`` pastes it)."""
    pad = width + 1
    if kind in ("polygon", "line"):
        xs, ys = geometry[0::2], geometry[1::2]
        box = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
        points = list(zip(xs, ys, strict=True))
    else:  # circles, sectors and rounded rectangles: (x0, y0, x1, y1)
        x0, y0, x1, y1 = geometry
        box = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)

    def paint(canvas: Canvas) -> None:
        if kind == "polygon":
            canvas.polygon(points, fill, outline, width)
        elif kind == "line":
            canvas.line(points, fill, width)
        elif kind == "ellipse":
            canvas.draw.ellipse(canvas._box(*geometry), fill=fill, outline=outline,
                                width=canvas._w(width) if outline else 0)
        elif kind == "pieslice":
            canvas.draw.pieslice(canvas._box(*geometry), *extra, fill)
        else:  # rounded rectangle
            canvas.rect(geometry, fill, outline, width, radius=extra[0])

    return make_sprite(box, paint)


@lru_cache(maxsize=8192)
def _short_text(text: str, size: int, bold: bool, fill: RGB, anchor: str) -> Sprite:
    return _text_tile(text, size, bold, fill, anchor)


@lru_cache(maxsize=512)
def _long_text(text: str, size: int, bold: bool, fill: RGB, anchor: str) -> Sprite:
    return _text_tile(text, size, bold, fill, anchor)


SHORT_TEXT = 12  # texts up to this length (coordinates, counts, names) share the big cache


def _text_tile(text: str, size: int, bold: bool, fill: RGB, anchor: str) -> Sprite:
    """Text rendered once on a transparent tile (FreeType antialiases it at the final size)."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    tile = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*fill, 0))
    ImageDraw.Draw(tile).text((-left, -top), text, fill=(*fill, 255), font=face, anchor=anchor)
    return Sprite(tile, left, top)


def text_sprite(text: str, size: int, fill: RGB, bold: bool = False,
                anchor: str = "la") -> Sprite:
    cache = _short_text if len(text) <= SHORT_TEXT else _long_text
    return cache(text, size, bold, tuple(fill), anchor)


# ---------------------------------------------------------------------------------------------
# The frame: one image at its final size, composed of cached pieces
# ---------------------------------------------------------------------------------------------


class Frame:
    """The image of one position at its final size. It has the drawing methods of ``Canvas``
    (so headers, swatches and legends draw on either), but each shape comes from the sprite
    cache and costs a paste; axis-aligned rectangles and lines are drawn directly, crisp."""

    def __init__(self, width: int, height: int, theme: Theme) -> None:
        self.width = width
        self.height = height
        self.theme = theme
        self.image = Image.new("RGB", (width, math.ceil(height)), theme.background)
        self.draw = ImageDraw.Draw(self.image)
        self._core = self.image.im
        self._plan = PalettePlan(theme.background)

    def paste(self, sprite: Sprite, x: float, y: float) -> None:
        """``sprite`` with its anchor at (x, y), rounded to the pixel grid, blended by its
        alpha."""
        left = round(x) + sprite.left
        top = round(y) + sprite.top
        self._plan.blended.append((left, top, left + sprite.width, top + sprite.height))
        core = self._core
        for piece, dx, dy, width, height, blended in sprite.pieces:
            box = (left + dx, top + dy, left + dx + width, top + dy + height)
            if blended:
                core.paste(piece, box, piece)
            else:
                core.paste(piece, box)

    def layer(self, image: Image.Image, x: float = 0, y: float = 0) -> None:
        """An opaque cached layer (a board, a legend band) with its top-left at (x, y)."""
        at = (round(x), round(y))
        self.image.paste(image, at)
        self._plan.opaque.append((image, at))

    def _at(self, kind: str, x0: float, y0: float, geometry: Iterable[float], fill, outline,
            width: float, extra: tuple = ()) -> None:
        # The shape is cached relative to the pixel at its top-left, so the same shape drawn
        # at another place on the same sub-pixel phase reuses the tile.
        ax, ay = math.floor(x0), math.floor(y0)
        values = list(geometry)
        relative = _quantized(v - (ax if i % 2 == 0 else ay) for i, v in enumerate(values))
        sprite = _shape(kind, relative, _colour(fill), _colour(outline), float(width), extra)
        self.paste(sprite, ax, ay)

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        x0, y0, x1, y1 = box
        if radius:
            self._at("rect", x0, y0, box, fill, outline, width, (float(radius),))
            return
        # Crisp: the box covers the pixels from x0 up to (not including) x1.
        left, top, right, bottom = round(x0), round(y0), round(x1) - 1, round(y1) - 1
        if right < left or bottom < top:
            return
        line = max(1, round(width)) if outline else 0
        self.draw.rectangle((left, top, right, bottom), fill=_colour(fill),
                            outline=_colour(outline), width=line)
        box = (left, top, right + 1, bottom + 1)
        if fill is not None and not outline:
            self._plan.opaque.append((_colour(fill), box))
        else:
            self._plan.blended.append(box)

    def circle(
        self,
        x: float,
        y: float,
        r: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        self._at("ellipse", x - r, y - r, (x - r, y - r, x + r, y + r), fill, outline, width)

    def ring(self, x: float, y: float, r: float, colour: RGB, width: float) -> None:
        self.circle(x, y, r, outline=colour, width=width)

    def line(self, points: Sequence[Point], fill: RGB, width: float = 1) -> None:
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        if len(set(xs)) == 1 or len(set(ys)) == 1:
            # Horizontal or vertical: a crisp rectangle as thick as the line.
            half = width / 2
            self.rect((min(xs) - (half if len(set(xs)) == 1 else 0),
                       min(ys) - (half if len(set(ys)) == 1 else 0),
                       max(xs) + (half if len(set(xs)) == 1 else 0),
                       max(ys) + (half if len(set(ys)) == 1 else 0)), fill=fill)
            return
        flat = [v for point in points for v in point]
        self._at("line", min(xs), min(ys), flat, fill, None, width)

    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        flat = [v for point in points for v in point]
        self._at("polygon", min(flat[0::2]), min(flat[1::2]), flat, fill, outline, width)

    def pieslice(
        self, x: float, y: float, r: float, start: float, end: float, fill: RGB
    ) -> None:
        self._at("pieslice", x - r, y - r, (x - r, y - r, x + r, y + r), fill, None, 1,
                 (float(start), float(end)))

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
        if text:
            self.paste(text_sprite(text, size, fill, bold, anchor), x, y)

    def finish(self) -> Image.Image:
        """The frame's image; ``to_palette`` maps it onto a palette by its plan (the frame is
        done: nothing may draw on the image after this)."""
        self.image._palette_plan = self._plan  # type: ignore[attr-defined]
        return self.image


#: Above this share of the image in blended boxes, the image is mapped whole (less work).
WHOLE_SHARE = 0.5


class PalettePlan:
    """How a ``Frame``'s image was composed, so that mapping it onto a palette costs less than
    a lookup per pixel: its opaque parts (the background, cached layers, plain rectangles) are
    laid out again in palette indices (each layer mapped once and kept), and only the boxes
    where something was blended or drawn (sprites, text, outlines) are mapped from the image.

    The result is the same, index for index, as mapping the whole image: Pillow maps a pixel by
    its colour alone, and a pixel outside every blended box holds the colour of the last
    opaque part laid over it."""

    __slots__ = ("background", "blended", "opaque")

    def __init__(self, background: RGB) -> None:
        self.background = tuple(background)
        #: (layer image or fill colour, top-left corner or box), in drawing order.
        self.opaque: list[tuple[Image.Image | tuple, tuple[int, ...]]] = []
        #: Boxes (left, top, right, bottom) whose pixels are mapped from the image.
        self.blended: list[tuple[int, int, int, int]] = []

    def apply(self, image: Image.Image, palette: Image.Image) -> Image.Image:
        width, height = image.size
        blended = sum((right - left) * (bottom - top)
                      for left, top, right, bottom in self.blended)
        if blended > WHOLE_SHARE * width * height:  # tiles everywhere: the boxes overlap
            return image.quantize(palette=palette, dither=Image.Dither.NONE)
        # Pillow's core calls directly: the boxes are many and small, and its Python wrappers
        # (crop, quantize, paste) cost more than the mapping itself.
        mapped = Image.new("P", image.size, _colour_index(palette, self.background))
        mapped.putpalette(_palette_colours(palette))
        out, source, colours = mapped.im, image.im, palette.im
        for part, where in self.opaque:
            if isinstance(part, Image.Image):
                layer = _mapped_layer(part, palette)
                out.paste(layer, (*where, where[0] + layer.size[0], where[1] + layer.size[1]))
            else:
                out.paste(_colour_index(palette, part), where)
        for left, top, right, bottom in self.blended:
            box = (max(0, left), max(0, top), min(width, right), min(height, bottom))
            if box[2] > box[0] and box[3] > box[1]:
                out.paste(source.crop(box).convert("P", 0, colours), box)
        return mapped


def _palette_colours(palette: Image.Image) -> list[int]:
    cached = getattr(palette, "_colours", None)
    if cached is None:
        cached = palette._colours = palette.getpalette()  # type: ignore[attr-defined]
    return cached


def _colour_index(palette: Image.Image, colour: tuple) -> int:
    """The index ``colour`` is mapped onto in ``palette`` (kept with the palette)."""
    indices = getattr(palette, "_indices", None)
    if indices is None:
        indices = palette._indices = {}  # type: ignore[attr-defined]
    index = indices.get(colour)
    if index is None:
        pixel = Image.new("RGB", (1, 1), colour)
        index = indices[colour] = pixel.quantize(palette=palette,
                                                 dither=Image.Dither.NONE).getpixel((0, 0))
    return index


def _mapped_layer(layer: Image.Image, palette: Image.Image) -> Any:
    """A cached layer mapped onto ``palette`` (Pillow's core image), kept with the layer (a
    layer lives in a cache of its own and is never drawn on)."""
    mapped = getattr(layer, "_mapped", None)
    if mapped is None:
        mapped = layer._mapped = {}  # type: ignore[attr-defined]
    found = mapped.get(id(palette))
    if found is None or found[0] is not palette:
        paletted = layer.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
        found = mapped[id(palette)] = (palette, paletted.im)
    return found[1]


Surface = Canvas | Frame  # what headers, swatches and legends draw on


def _colour(value):
    return None if value is None else tuple(value)


# ---------------------------------------------------------------------------------------------
# Palettes and encoding
# ---------------------------------------------------------------------------------------------


def palette_image(colours: Sequence[RGB]) -> Image.Image:
    """A 1×1 palette image carrying ``colours`` (at most ``PALETTE_SIZE``), for quantizing."""
    flat = [channel for colour in colours[:PALETTE_SIZE] for channel in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def fixed_palette(samples: Sequence[Image.Image], keys: Sequence[RGB]) -> Image.Image:
    """A palette for every image of a game: its named colours exactly (``keys``: backgrounds,
    pieces, highlights, so flat areas keep their true colour; see ``theme.palette_exact``), then
    the colours a fast octree finds in sample images of the game (the antialiased edges and text
    in between)."""
    unique = list(dict.fromkeys(palette_exact(k) for k in keys))[:PALETTE_SIZE]
    sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample, (0, y))
        y += sample.height
    room = PALETTE_SIZE - len(unique)
    found: list[RGB] = []
    if room > 0:
        octree = sheet.quantize(colors=room, method=Image.Quantize.FASTOCTREE,
                                dither=Image.Dither.NONE)
        flat = octree.getpalette()[: 3 * room]
        found = [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    return palette_image(unique + [c for c in found if c not in unique])


def to_palette(image: Image.Image, palette: Image.Image | None) -> Image.Image:
    """``image`` as a palette image: mapped onto ``palette``, or on 256 colours of its own
    (fast octree) when there is none."""
    if palette is None:
        return image.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                              dither=Image.Dither.NONE)
    plan = getattr(image, "_palette_plan", None)
    if isinstance(plan, PalettePlan):
        return plan.apply(image, palette)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """The image as a palette PNG (docs/architecture.md budget: see ``encode_png``)."""
    return encode_png(to_palette(image, palette))


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(image: Image.Image) -> bytes:
    """A palette ("P") image as PNG bytes: header, palette, the pixel rows deflated by ISA-L.

    Pillow's PNG writer deflates with zlib through its own buffering, which takes about 3 ms
    for a board; ISA-L (the ``isal`` package) deflates the same rows in a fifth of a
    millisecond to a slightly smaller file. A palette PNG is four chunks, so they are written
    here (every row with filter type 0, "none": palette indices gain nothing from filters)."""
    if image.mode != "P":
        raise ValueError(f"encode_png takes a palette image, not {image.mode}")
    width, height = image.size
    # Each row behind its filter byte: the image pasted one column right on a zeroed one, so
    # Pillow lays the rows out (a Python loop over the rows took twice as long).
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(image, (1, 0))
    rows = framed.tobytes()
    colours = bytes(image.getpalette() or [0, 0, 0])[:768]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((
        _PNG_SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", colours),
        _chunk(b"IDAT", isal_zlib.compress(rows, PNG_LEVEL)),
        _chunk(b"IEND", b""),
    ))
