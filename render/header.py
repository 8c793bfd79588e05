"""The header band of every board image: the game's title and a subtitle (move number,
round...), whose turn it is or who won, the clock when the caller gives one, the reason of the
result, and one cell per seat with its colour, name, role and counts."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from render.options import Options
from render.surface import WIDTH, Surface, fit_text, printable, text_width, wrap_text
from render.theme import mix
from render.words import Words, words

MARGIN = 24
TITLE_SIZE = 26
STATUS_SIZE = 24
SEAT_SIZE = 20
SEAT_ROW = 52
SMALL_SIZE = 16
LINE_SIZE = 17
LINE_HEIGHT = 22
MAX_LINES = 4  # clock and reason lines under the headline

Swatch = Callable[[Surface, float, float, float], None]  # draws a seat's piece at (x, y), radius


@dataclass(frozen=True)
class SeatInfo:
    name: str  # the player's display name (or the seat name when no player names are given)
    role: str  # the seat name in the game (Black, Isis, Red...), shown when it differs from name
    swatch: Swatch
    stats: str = ""  # "captures 3", "12 points", "markers 2 left"


def seat_columns(count: int) -> int:
    return 1 if count == 1 else 2 if count <= 4 else 3


def seat_labels(game, state, players: Sequence[str] | None,
                said: Words | None = None) -> list[tuple[str, str]]:
    """(display name, seat name) per seat, the seat name in the image's language and the
    display name without characters the font cannot draw."""
    said = said or words("en")
    labels = []
    for seat in range(state.players):
        role = said.seat(game.seat_name(state, seat))
        given = players[seat] if players and seat < len(players) and players[seat] else None
        labels.append((printable(str(given)) if given else role, role))
    return labels


def _reason(state) -> str:
    outcome = getattr(state, "outcome", None)
    reason = str(outcome.reason) if outcome is not None and outcome.reason else ""
    return reason[:1].upper() + reason[1:] + "." if reason else ""


def header_lines(state, options: Options | None) -> tuple[str | None, list[str]]:
    """The caller's headline (None: whose turn or who won, written by ``status_line``) and the
    muted lines under it: the clock, then the reason of the result.

    The engine's reason is English: it is written on English images only. A caller that wants
    it in another language passes the translated sentence in ``status`` (after a newline; an
    empty first line keeps the image's own headline)."""
    clock = options.clock if options is not None else None
    status = options.status if options is not None else None
    lang = options.words.lang if options is not None else "en"
    room = WIDTH - 2 * MARGIN
    lines = [fit_text(clock, LINE_SIZE, room)] if clock else []
    headline = None
    if status is not None:
        first, *rest = status.split("\n")
        headline = first or None
        for part in rest:
            lines += wrap_text(part, LINE_SIZE, room)
    elif lang == "en":
        lines += wrap_text(_reason(state), LINE_SIZE, room)
    return headline, lines[:MAX_LINES]


def header_height(state, options: Options | None = None) -> int:
    """Height of the header band: the seats' rows and the lines under the headline (replays pad
    every frame to the tallest)."""
    seat_count = state.players
    rows = math.ceil(seat_count / seat_columns(seat_count))
    lines = len(header_lines(state, options)[1])
    return 14 + 34 + 34 + lines * LINE_HEIGHT + rows * SEAT_ROW + 12


def status_line(state, seats: Sequence[SeatInfo], said: Words, doing: str = "") -> str:
    """Whose turn it is (and what to do), or who won."""
    outcome = state.outcome
    if outcome is not None:
        winners = sorted(outcome.winners)
        if not winners:
            return said("header.draw")
        names = " & ".join(seats[w].name for w in winners)
        return said.count("header.won", len(winners), names=names)
    if state.to_move is None:
        return ""
    name = seats[state.to_move].name
    if doing:
        return said("header.to_play_doing", name=name, doing=doing)
    return said("header.to_play", name=name)


def move_subtitle(state, said: Words) -> str:
    """"move 12" while the game runs, "40 moves" once it is over."""
    if state.outcome is None:
        return said("header.move", n=state.ply + 1)
    return said.count("header.moves", state.ply)


def draw_header(
    surface: Surface,
    title: str,
    state,
    seats: Sequence[SeatInfo],
    options: Options,
    *,
    subtitle: str = "",
    doing: str = "",
    top: float = 0,
) -> float:
    """Draw the header band; returns its bottom y. Layout: title and subtitle on the first
    line; the headline (whose turn or the result) on the second, in the accent colour; the
    clock and the reason in muted lines; then one cell per seat."""
    theme = surface.theme
    height = header_height(state, options)
    width = surface.width
    surface.rect((0, top, width, top + height), fill=theme.panel)
    y = top + 14
    surface.text(MARGIN, y, title, TITLE_SIZE, theme.text, bold=True)
    if subtitle:
        room = width - 3 * MARGIN - text_width(title, TITLE_SIZE, bold=True)
        surface.text(width - MARGIN, y + 4, fit_text(subtitle, SMALL_SIZE + 2, room),
                     SMALL_SIZE + 2, theme.muted, anchor="ra")
    y += 34
    headline, lines = header_lines(state, options)
    if headline is None:
        headline = status_line(state, seats, options.words, doing)
    headline = fit_text(headline, STATUS_SIZE, width - 2 * MARGIN, bold=True)
    surface.text(MARGIN, y, headline, STATUS_SIZE, theme.accent, bold=True)
    y += 34
    for line in lines:
        surface.text(MARGIN, y - 4, line, LINE_SIZE, theme.muted)
        y += LINE_HEIGHT
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
            surface.rect((x - 8, cy - half, x + column_width - 10, cy + half),
                         fill=mix(theme.panel, theme.accent, 0.22), radius=8)
        seat.swatch(surface, x + 12, cy, 12)
        marker = "★ " if index in winners else "▶ " if state.to_move == index else ""
        label = marker + seat.name
        if seat.role and seat.role.lower() != seat.name.lower():
            label += f" ({seat.role})"
        room = column_width - 50
        label = fit_text(label, SEAT_SIZE, room, bold=True)
        surface.text(x + 38, cy - 11, label, SEAT_SIZE, theme.text, bold=True, anchor="lm")
        if seat.stats:
            stats = fit_text(seat.stats, SMALL_SIZE + 1, room)
            surface.text(x + 38, cy + 12, stats, SMALL_SIZE + 1, theme.muted, anchor="lm")
    return top + height

