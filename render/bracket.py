"""A single-elimination bracket as a PNG (Pillow), for the tournament posts.

Plain data in, bytes out: ``render_bracket(rounds, title=..., total_rounds=..., lang=...)``
where each round lists its boards as ``BracketMatch`` values (names already resolved by the
caller). Rounds not played yet are drawn as empty boxes, so the whole bracket shows from the
first round on, each column headed by its name (final, semi-finals...) in the image's language.
Names lose the characters the bundled font cannot draw (``render.surface.printable``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.surface import fit_text, font, png_bytes, printable
from render.theme import Theme, get_theme
from render.words import Words, words

BOX_WIDTH = 200
LINE_HEIGHT = 24
BOX_HEIGHT = 2 * LINE_HEIGHT
GAP = 16  # between boxes of the first round
COLUMN_GAP = 44
MARGIN = 20
TITLE_HEIGHT = 40
HEADING_HEIGHT = 24  # the name of each column (round)
FONT_SIZE = 15


@dataclass(frozen=True)
class BracketMatch:
    """One board: ``second`` None is a bye; ``winner`` 0 or 1 (None while undecided);
    ``note`` a short mark such as "bye", "forfeit" or "2nd game"."""

    first: str | None
    second: str | None
    winner: int | None = None
    note: str = ""


def column_name(column: int, columns: int, said: Words) -> str:
    """"Final", "Semi-finals", "Quarter-finals", else "Round n"."""
    from_end = columns - 1 - column
    if from_end == 0:
        return said("bracket.final")
    if from_end == 1:
        return said("bracket.semi")
    if from_end == 2:
        return said("bracket.quarter")
    return said("bracket.round", n=column + 1)


def render_bracket(
    rounds: Sequence[Sequence[BracketMatch]],
    *,
    title: str,
    total_rounds: int | None = None,
    theme: str | Theme = "dark",
    lang: str = "en",
) -> bytes:
    """The bracket as PNG bytes. ``rounds[0]`` fixes the bracket's size; later rounds halve it.
    ``total_rounds`` (default: enough to reach a final) adds empty columns still to play;
    ``lang`` is the language of the column names."""
    if not rounds or not rounds[0]:
        raise ValueError("a bracket needs a first round")
    colours = get_theme(theme)
    background, box, text, muted = colours.background, colours.panel, colours.text, colours.muted
    line, accent = colours.line, colours.accent
    first_boards = len(rounds[0])
    needed = max(1, (first_boards - 1).bit_length() + 1)
    columns = max(total_rounds or needed, len(rounds))
    width = 2 * MARGIN + columns * BOX_WIDTH + (columns - 1) * COLUMN_GAP
    height = TITLE_HEIGHT + HEADING_HEIGHT + 2 * MARGIN + first_boards * (BOX_HEIGHT + GAP) - GAP
    image = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(image)
    regular, bold = font(FONT_SIZE), font(FONT_SIZE, bold=True)
    draw.text((MARGIN, MARGIN), fit_text(printable(title), 20, width - 2 * MARGIN, bold=True),
              font=font(20, bold=True), fill=text)
    said = words(lang)
    for column in range(columns):
        x = MARGIN + column * (BOX_WIDTH + COLUMN_GAP)
        draw.text((x, TITLE_HEIGHT + MARGIN),
                  fit_text(column_name(column, columns, said), 13, BOX_WIDTH, bold=True),
                  font=font(13, bold=True), fill=muted)

    top = TITLE_HEIGHT + HEADING_HEIGHT + MARGIN
    pitch = BOX_HEIGHT + GAP
    centres: list[list[float]] = []
    for column in range(columns):
        boards = max(1, first_boards >> column)
        span = pitch * (1 << column)  # the height each board of this column owns
        x = MARGIN + column * (BOX_WIDTH + COLUMN_GAP)
        played = rounds[column] if column < len(rounds) else ()
        column_centres = []
        for index in range(boards):
            centre = top + span * index + span / 2 - GAP / 2
            column_centres.append(centre)
            y = centre - BOX_HEIGHT / 2
            draw.rectangle((x, y, x + BOX_WIDTH, y + BOX_HEIGHT), fill=box, outline=line)
            draw.line((x, centre, x + BOX_WIDTH, centre), fill=line)
            match = played[index] if index < len(played) else None
            names = (match.first, match.second) if match else (None, None)
            for slot, name in enumerate(names):
                won = match is not None and match.winner == slot
                label = printable(name) if name is not None else (
                    "—" if match and slot == 1 else "")
                colour = accent if won else (text if name is not None else muted)
                ty = y + slot * LINE_HEIGHT + (LINE_HEIGHT - FONT_SIZE) / 2 - 1
                draw.text((x + 8, ty), fit_text(label, FONT_SIZE, BOX_WIDTH - 60, bold=won),
                          font=bold if won else regular, fill=colour)
            if match is not None and match.note:
                note = fit_text(match.note, 11, 50)
                draw.text((x + BOX_WIDTH - 6 - draw.textlength(note, font=font(11)),
                           y + BOX_HEIGHT - 15), note, font=font(11), fill=muted)
            if column:  # connect the two boards this one comes from
                upper, lower = centres[-1][2 * index], centres[-1][2 * index + 1]
                mid = x - COLUMN_GAP / 2
                draw.line((x - COLUMN_GAP, upper, mid, upper), fill=line)
                draw.line((x - COLUMN_GAP, lower, mid, lower), fill=line)
                draw.line((mid, upper, mid, lower), fill=line)
                draw.line((mid, centre, x, centre), fill=line)
        centres.append(column_centres)
    return png_bytes(image)
