"""Colours of the two themes (dark matches Discord's dark mode, light its light mode).

Game pieces keep the same colours in both themes (a black stone is black everywhere); what
changes is the background, the text and the board furniture around the pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


def palette_exact(colour: RGB) -> RGB:
    """``colour`` with each channel rounded down to a multiple of 4.

    Images are mapped onto a fixed palette (``render.surface.to_palette``); Pillow looks each
    pixel up by its channels' top six bits and takes the palette colour nearest to the lower
    corner of that 4×4×4 cube, so a colour on that corner is always mapped onto itself. Every
    named colour is defined that way (a shift of at most 3 in 255, which no eye sees)."""
    return (colour[0] & ~3, colour[1] & ~3, colour[2] & ~3)


def hex_colour(text: str) -> RGB:
    text = text.lstrip("#")
    return palette_exact((int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)))


@dataclass(frozen=True)
class Theme:
    name: str
    background: RGB
    panel: RGB  # a slightly different surface (header band, legend boxes)
    text: RGB
    muted: RGB  # secondary text: coordinates, reasons, counts
    line: RGB  # grid lines and outlines of empty cells
    empty: RGB  # empty cell fill on boards without wood
    highlight: RGB  # the last move
    accent: RGB  # whose turn it is / the winner
    wood: RGB  # Go-like boards (Alak, Polygo) so stones read the same in both themes
    wood_line: RGB


DARK = Theme(
    name="dark",
    background=hex_colour("2b2d31"),
    panel=hex_colour("1e1f22"),
    text=hex_colour("f2f3f5"),
    muted=hex_colour("b5bac1"),
    line=hex_colour("6d717b"),
    empty=hex_colour("383a40"),
    highlight=hex_colour("ff9f1a"),
    accent=hex_colour("57f287"),
    wood=hex_colour("d9b26f"),
    wood_line=hex_colour("6b4f24"),
)

LIGHT = Theme(
    name="light",
    background=hex_colour("ffffff"),
    panel=hex_colour("ebedef"),
    text=hex_colour("1e1f22"),
    muted=hex_colour("4e5058"),
    line=hex_colour("9a9ca3"),
    empty=hex_colour("f2f3f5"),
    highlight=hex_colour("e8590c"),
    accent=hex_colour("1f8b4c"),
    wood=hex_colour("dcb776"),
    wood_line=hex_colour("6b4f24"),
)

THEMES: dict[str, Theme] = {"dark": DARK, "light": LIGHT}


def get_theme(name: str | Theme) -> Theme:
    if isinstance(name, Theme):
        return name
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; themes: {', '.join(THEMES)}") from None


# Piece colours shared by every game and theme.
BLACK_STONE = hex_colour("1b1b1d")
WHITE_STONE = hex_colour("f4f4f0")
STONE_EDGE = hex_colour("3a3a3a")
STONES = ((BLACK_STONE, STONE_EDGE), (WHITE_STONE, STONE_EDGE))  # (fill, edge): seat 0, seat 1
WALL_RED = hex_colour("c0392b")
WALL_RED_DARK = hex_colour("7b1f16")


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


#: Each game's own colour (its lines and bars in charts, e.g. ``render.profile``), in the order
#: the games are listed. The hues of the ``/rules`` embeds, made light enough to read on the
#: dark theme's background; Alak, whose embed is the background's own grey, is violet here.
GAME_COLOURS: dict[str, RGB] = {
    "alak": hex_colour("a78bfa"),
    "polygo": hex_colour("e5534b"),
    "palago": hex_colour("4aa3df"),
    "palam": hex_colour("e0b43a"),
    "lppg": hex_colour("3ecf7a"),
    "kolory": hex_colour("f0883e"),
}
