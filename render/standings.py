"""A tournament's final standings as a PNG table (Pillow), posted when a tournament ends.

Plain data in, bytes out: ``render_standings(title, headings, rows)``: the caller gives the
column headings in the reader's language and each row's cells as text (rank, player, points,
record, tie-breaks), names already resolved. The champion's row is drawn in the accent colour;
rows alternate their background so a long table reads across. At most ``MAX_ROWS`` rows (a
line says how many more). Names lose the characters the bundled font cannot draw
(``render.surface.printable``).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.surface import fit_text, font, png_bytes, printable, text_width
from render.theme import Theme, get_theme

MARGIN = 20
TITLE_SIZE = 20
FONT_SIZE = 15
ROW_HEIGHT = 26
TITLE_HEIGHT = 40
CELL_PADDING = 12
#: The widest a column may be (a long name is shortened with an ellipsis).
MAX_COLUMN_WIDTH = 260
MAX_ROWS = 32


def render_standings(
    title: str,
    headings: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    champion: bool = True,
    more: str = "",
    theme: str | Theme = "dark",
) -> bytes:
    """The table as PNG bytes. ``champion``: the first row is the winner (accent colour);
    ``more``: a last line under the table (e.g. "…and 3 more")."""
    colours = get_theme(theme)
    shown = [[printable(cell, "") for cell in row] for row in rows[:MAX_ROWS]]
    columns = len(headings)
    widths = []
    for column in range(columns):
        cells = [headings[column], *(row[column] for row in shown if column < len(row))]
        widest = max(text_width(cell, FONT_SIZE, True) for cell in cells)
        widths.append(min(MAX_COLUMN_WIDTH, widest) + 2 * CELL_PADDING)
    table_width = sum(widths)
    title_width = text_width(printable(title), TITLE_SIZE, True)
    width = 2 * MARGIN + max(table_width, min(title_width, 600))
    lines = len(shown) + 1 + (1 if more else 0)
    height = 2 * MARGIN + TITLE_HEIGHT + lines * ROW_HEIGHT
    image = Image.new("RGB", (int(width), height), colours.background)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), fit_text(printable(title), TITLE_SIZE, width - 2 * MARGIN,
                                         bold=True),
              font=font(TITLE_SIZE, bold=True), fill=colours.text)
    top = MARGIN + TITLE_HEIGHT
    regular, bold = font(FONT_SIZE), font(FONT_SIZE, bold=True)

    def row_at(y: int, cells: Sequence[str], fill, *, strong: bool) -> None:
        x = MARGIN
        for column, cell in enumerate(cells[:columns]):
            text = fit_text(cell, FONT_SIZE, widths[column] - 2 * CELL_PADDING, bold=strong)
            draw.text((x + CELL_PADDING, y + (ROW_HEIGHT - FONT_SIZE) / 2 - 1), text,
                      font=bold if strong else regular, fill=fill)
            x += widths[column]

    draw.rectangle((MARGIN, top, MARGIN + table_width, top + ROW_HEIGHT), fill=colours.panel)
    row_at(top, headings, colours.muted, strong=True)
    for index, cells in enumerate(shown):
        y = top + (index + 1) * ROW_HEIGHT
        if index % 2:
            draw.rectangle((MARGIN, y, MARGIN + table_width, y + ROW_HEIGHT),
                           fill=colours.panel)
        first = champion and index == 0
        row_at(y, cells, colours.accent if first else colours.text, strong=first)
    draw.line((MARGIN, top + ROW_HEIGHT, MARGIN + table_width, top + ROW_HEIGHT),
              fill=colours.line)
    if more:
        y = top + (len(shown) + 1) * ROW_HEIGHT
        draw.text((MARGIN + CELL_PADDING, y + (ROW_HEIGHT - FONT_SIZE) / 2 - 1),
                  fit_text(printable(more), FONT_SIZE, table_width), font=regular,
                  fill=colours.muted)
    return png_bytes(image)
