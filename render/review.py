"""The picture of a post-game review: a graph of each seat's expected score by move, a line per
player, and each player's biggest mistakes with a small board of the position.

Drawn with Pillow over the project's theme and bundled fonts (``render.theme``,
``render.surface.font``) rather than matplotlib: the graph is a few polylines and labels, the
rest of the picture is boards drawn by ``render.board_image`` and text in the house style, and
matplotlib would add a large dependency (and its own fonts and colours) for one chart.

Everything said on the picture comes translated (``ReviewTexts``): ``render`` imports
``engines`` only, the bot translates.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

import engines
from render import board_image
from render.surface import WIDTH, font, text_width, wrap_text
from render.theme import BLACK_STONE, RGB, WHITE_STONE, Theme, get_theme, mix

#: The graph's height on the picture, and its supersampling (smooth lines).
GRAPH_HEIGHT = 280
SS = 2
MARGIN = 24
#: A mistake's board is this wide (three fit side by side).
THUMB_WIDTH = 240
TITLE_SIZE = 26
TEXT_SIZE = 18
SMALL_SIZE = 15
#: How far apart (in the graph's pixels) the curves of seats whose scores are the same are drawn
#: (partners in a team game), so that each colour shows.
CURVES_APART = 4
FALLBACK_COLOURS: tuple[RGB, ...] = ((229, 57, 53), (30, 136, 229), (67, 160, 71),
                                     (253, 216, 53), (251, 140, 0))


@dataclass(frozen=True)
class MistakePanel:
    """One mistake as shown: the position before the move, and what the caption says."""

    state: Any
    seat: int
    caption: Sequence[str]  # translated lines: "Move 12 · Alice", "played e4 (−0.32)", "AI: f5"
    played: str | None = None  # highlighted on the board: where the mistake was played


@dataclass(frozen=True)
class ReviewTexts:
    """The picture's words, already translated and filled in."""

    title: str
    notes: Sequence[str]  # under the title: how positions were evaluated, what a mistake is
    axis_moves: str  # the x axis' name ("move")
    axis_score: str  # the y axis' name ("expected score")
    ticks: Sequence[str]  # labels of 0, 0.5 and 1 as the language writes them
    result: str  # written at the end of the curves ("result")
    results: Sequence[str]  # each seat's result as the language writes it ("1", "0,5")
    player_lines: Sequence[str]  # one per seat
    mistakes_heading: Sequence[str]  # one per seat ("Alice's biggest mistakes"), "" for none
    no_mistakes: str


def seat_colours(game_name: str, state: Any, players: int) -> list[RGB]:
    """The players' colours as their boards show them (stones, tiles, camps, markers)."""
    name = engines.get(game_name).name
    if name in ("alak", "polygo"):
        return [BLACK_STONE, WHITE_STONE][:players]
    if name == "palago":
        from render import palago
        return list(palago.SEAT_COLOURS[:players])
    if name == "palam":
        from render import palam
        roles = [palam._seat_role(state, seat) for seat in range(players)]
        return [palam.ROLE_COLOURS[role] if role else FALLBACK_COLOURS[seat]
                for seat, role in enumerate(roles)]
    if name == "lppg":
        from render import lppg
        return [lppg._seat_colour(state, seat) for seat in range(players)]
    if name == "kolory":
        from render import kolory
        return list(kolory.SEAT_COLOURS[:players])
    return list(FALLBACK_COLOURS[:players])


def move_ticks(moves: int, most: int = 10) -> list[int]:
    """Move numbers to write on the axis: 0 and every multiple of a round step (1, 2, 5, 10,
    20, 50…), at most ``most`` + 1 of them."""
    step = 1
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000):
        if moves // step <= most:
            break
    return list(range(0, moves + 1, step))


def curve_offsets(scores: Sequence[Sequence[float]], ended: Sequence[float] | None,
                  players: int, apart: float) -> list[float]:
    """How far each seat's curve is moved up or down: seats with the same scores throughout
    (partners) are drawn side by side, ``apart`` from each other, not one over the other."""
    def series(seat: int) -> tuple[float, ...]:
        values = [round(row[seat], 6) for row in scores]
        if ended is not None:
            values.append(round(ended[seat], 6))
        return tuple(values)

    groups: dict[tuple[float, ...], list[int]] = {}
    for seat in range(players):
        groups.setdefault(series(seat), []).append(seat)
    offsets = [0.0] * players
    for seats in groups.values():
        for index, seat in enumerate(seats):
            offsets[seat] = (index - (len(seats) - 1) / 2) * apart
    return offsets


#: A curve's colour must stand this far (summed over red, green, blue) from the graph's panel.
CURVE_CONTRAST = 200


def curve_colour(colour: RGB, theme: Theme) -> RGB:
    """A seat's colour as its curve, dot and legend show it: its own, unless it is lost on the
    panel (Black's stones on the dark theme, White's on the light one), then moved towards the
    text's colour until it stands out, so the curve reads as a line, not a hollow outline."""
    shown = colour
    for step in range(1, 11):
        if sum(abs(a - b) for a, b in zip(shown, theme.panel, strict=True)) >= CURVE_CONTRAST:
            break
        shown = mix(colour, theme.text, 0.06 * step)
    return shown


def _curve_edge(colour: RGB, theme: Theme) -> RGB:
    """An outline that keeps crossing curves apart: the curve's colour half way to the panel's
    (``curve_colour`` already keeps each curve apart from the panel; an outline lighter than
    the curve made Black's look hollow)."""
    return mix(colour, theme.panel, 0.5)


def _graph(scores: Sequence[Sequence[float]], colours: Sequence[RGB],
           marks: Sequence[tuple[int, int]], texts: ReviewTexts, theme: Theme,
           width: int, ended: Sequence[float] | None = None) -> Image.Image:
    """The expected-score graph (``marks``: (move, seat) of the mistakes shown, ringed;
    ``ended``: the result of a game that ended without a move, one step after the last)."""
    w, h = width * SS, GRAPH_HEIGHT * SS
    image = Image.new("RGB", (w, h), theme.panel)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 70 * SS, w - 70 * SS, 34 * SS, h - 50 * SS
    moves = max(1, len(scores) - 1)
    span = moves + (1 if ended is not None else 0)

    def x_of(ply: float) -> float:
        return left + (right - left) * ply / span

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * value

    small = font(SMALL_SIZE * SS)
    for value, label in zip((0.0, 0.5, 1.0), texts.ticks, strict=True):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=theme.line if value == 0.5 else theme.empty,
                  width=SS)
        draw.text((left - 8 * SS, y), label, font=small, fill=theme.muted, anchor="rm")
    for ply in move_ticks(moves):
        x = x_of(ply)
        draw.line([(x, bottom), (x, bottom + 5 * SS)], fill=theme.line, width=SS)
        draw.text((x, bottom + 8 * SS), str(ply), font=small, fill=theme.muted, anchor="mt")
    draw.text(((left + right) / 2, h - 4 * SS), texts.axis_moves, font=small, fill=theme.muted,
              anchor="mb")
    # The y axis' name, written upwards beside the tick labels.
    label = Image.new("RGBA", (int(text_width(texts.axis_score, SMALL_SIZE * SS)) + 4,
                               (SMALL_SIZE + 6) * SS), (0, 0, 0, 0))
    ImageDraw.Draw(label).text((2, 0), texts.axis_score, font=small, fill=theme.muted)
    label = label.rotate(90, expand=True)
    image.paste(label, (4 * SS, max(0, int((top + bottom) / 2 - label.height / 2))), label)
    final = list(ended) if ended is not None else list(scores[-1])
    offsets = curve_offsets(scores, ended, len(colours), CURVES_APART * SS)
    for seat, colour in enumerate(colours):
        points = [(x_of(p), y_of(row[seat]) + offsets[seat]) for p, row in enumerate(scores)]
        draw.line(points, fill=_curve_edge(colour, theme), width=6 * SS, joint="curve")
        draw.line(points, fill=colour, width=3 * SS, joint="curve")
        if ended is not None:  # the resignation (or time): a thin step to the result
            points.append((x_of(span), y_of(ended[seat]) + offsets[seat]))
            draw.line(points[-2:], fill=_curve_edge(colour, theme), width=SS)
        # The result at the end of the curve.
        x, y = points[-1]
        r = 6 * SS
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=_curve_edge(colour, theme),
                     width=2 * SS)
    for ply, seat in marks:
        x, y = x_of(ply), y_of(scores[ply][seat]) + offsets[seat]
        r = 7 * SS
        draw.ellipse([x - r, y - r, x + r, y + r], outline=theme.highlight, width=3 * SS)
    # The result: its name above the end of the curves, each seat's value beside its dot
    # (kept within the plot, so that none is written over the name).
    draw.text((right, top - 12 * SS), texts.result, font=small, fill=theme.text, anchor="mb")
    for seat, y in result_labels([y_of(final[s]) for s in range(len(colours))],
                                 (SMALL_SIZE + 2) * SS, top, bottom):
        draw.text((right + 12 * SS, y), texts.results[seat], font=small, fill=theme.text,
                  anchor="lm")
    return image.resize((width, GRAPH_HEIGHT), Image.Resampling.LANCZOS)


def _spread(ys: Sequence[float], gap: float) -> list[tuple[int, float]]:
    """(index, y) of labels wanted at ``ys``, moved apart so that none overlap (close results
    of several seats would write their values over each other)."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed: list[tuple[int, float]] = []
    for index in order:
        y = ys[index] if not placed else max(ys[index], placed[-1][1] + gap)
        placed.append((index, y))
    # Centre the group on where it was wanted.
    shift = (sum(ys) - sum(y for _, y in placed)) / len(ys) if ys else 0.0
    return [(index, y + shift) for index, y in placed]


def result_labels(ys: Sequence[float], gap: float, top: float,
                  bottom: float) -> list[tuple[int, float]]:
    """(seat, y) of the result values: apart (``_spread``) and, as a group, within ``top`` to
    ``bottom`` (four results at 1 would otherwise climb over the name written above)."""
    placed = _spread(ys, gap)
    if not placed:
        return placed
    low = min(y for _, y in placed)
    high = max(y for _, y in placed)
    shift = max(0.0, top - low) - max(0.0, high - bottom)
    return [(seat, y + shift) for seat, y in placed]


def _text_block(draw: ImageDraw.ImageDraw, x: int, y: int, lines: Sequence[str], size: int,
                fill: RGB, max_width: int, bold: bool = False) -> int:
    """Writes wrapped lines; returns the y under them."""
    for line in lines:
        for part in wrap_text(line, size, max_width, bold) or [""]:
            draw.text((x, y), part, font=font(size, bold), fill=fill)
            y += int(size * 1.35)
    return y


def _thumbnail(game_name: str, panel: MistakePanel, names: Sequence[str], theme: Theme,
               lang: str) -> Image.Image:
    image = board_image(game_name, panel.state, players=names, theme=theme, lang=lang,
                        last_move=panel.played, status="")
    height = round(image.height * THUMB_WIDTH / image.width)
    return image.resize((THUMB_WIDTH, height), Image.Resampling.LANCZOS)


def review_image(
    game_name: str, scores: Sequence[Sequence[float]], final_state: Any,
    panels: Sequence[MistakePanel], marks: Sequence[tuple[int, int]], names: Sequence[str],
    texts: ReviewTexts, *, theme: str | Theme = "dark", lang: str = "en",
    ended: Sequence[float] | None = None,
) -> Image.Image:
    """The review as an RGB image (``review`` encodes it)."""
    palette = get_theme(theme)
    players = len(names)
    colours = [curve_colour(c, palette) for c in seat_colours(game_name, final_state, players)]
    inner = WIDTH - 2 * MARGIN
    graph = _graph(scores, colours, marks, texts, palette, inner, ended)
    thumbs = [_thumbnail(game_name, panel, names, palette, lang) for panel in panels]
    by_seat: dict[int, list[int]] = {}
    for index, panel in enumerate(panels):
        by_seat.setdefault(panel.seat, []).append(index)
    # Heights first, then one canvas (a guess too small would cut the picture).
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    height = MARGIN + _text_block(scratch, 0, 0, [texts.title], TITLE_SIZE, palette.text, inner,
                                  True)
    height += _text_block(scratch, 0, 0, texts.notes, SMALL_SIZE, palette.muted, inner) + 8
    height += GRAPH_HEIGHT + 12 + (TEXT_SIZE + 10) * players + 8
    for seat in range(players):
        height += int(TEXT_SIZE * 1.35) + 10
        rows = by_seat.get(seat, [])
        if rows:
            caption = max(len(panels[i].caption) for i in rows)
            height += max(thumbs[i].height for i in rows) + int(SMALL_SIZE * 1.35) * caption + 16
        else:
            height += int(SMALL_SIZE * 1.35) + 8
    image = Image.new("RGB", (WIDTH, height + MARGIN), palette.background)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    y = _text_block(draw, MARGIN, y, [texts.title], TITLE_SIZE, palette.text, inner, True)
    y = _text_block(draw, MARGIN, y, texts.notes, SMALL_SIZE, palette.muted, inner) + 8
    image.paste(graph, (MARGIN, y))
    y += GRAPH_HEIGHT + 12
    for seat, line in enumerate(texts.player_lines):
        box = TEXT_SIZE - 2
        draw.rectangle([MARGIN, y + 2, MARGIN + box, y + 2 + box], fill=colours[seat],
                       outline=_curve_edge(colours[seat], palette), width=2)
        draw.text((MARGIN + box + 10, y), line, font=font(TEXT_SIZE), fill=palette.text)
        y += TEXT_SIZE + 10
    y += 8
    for seat in range(players):
        y = _text_block(draw, MARGIN, y, [texts.mistakes_heading[seat]], TEXT_SIZE,
                        palette.text, inner, True) + 10 - int(TEXT_SIZE * 0.35) + 4
        rows = by_seat.get(seat, [])
        if not rows:
            y = _text_block(draw, MARGIN + 8, y, [texts.no_mistakes], SMALL_SIZE, palette.muted,
                            inner) + 8
            continue
        x = MARGIN
        bottom = y
        for index in rows:
            image.paste(thumbs[index], (x, y))
            under = _text_block(draw, x, y + thumbs[index].height + 4, panels[index].caption,
                                SMALL_SIZE, palette.text, THUMB_WIDTH)
            bottom = max(bottom, under)
            x += THUMB_WIDTH + 16
        y = bottom + 12
    return image.crop((0, 0, WIDTH, min(image.height, y + MARGIN)))


def review(
    game_name: str, scores: Sequence[Sequence[float]], final_state: Any,
    panels: Sequence[MistakePanel], marks: Sequence[tuple[int, int]], names: Sequence[str],
    texts: ReviewTexts, *, theme: str | Theme = "dark", lang: str = "en",
    ended: Sequence[float] | None = None,
) -> bytes:
    """PNG of a review: ``scores[p][s]`` is seat ``s``'s expected score at position ``p`` (the
    last one the result, or ``ended`` one step after it for a game that ended without a move),
    ``panels`` the mistakes shown (each with the position before it),
    ``marks`` the (move, seat) ringed on the graph; ``names`` per seat; ``texts`` translated."""
    image = review_image(game_name, scores, final_state, panels, marks, names, texts,
                         theme=theme, lang=lang, ended=ended)
    buffer = io.BytesIO()
    # Boards and curves: 256 colours lose nothing visible and make the file several times
    # smaller.
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                   dither=Image.Dither.NONE).save(buffer, "PNG", optimize=True)
    return buffer.getvalue()
