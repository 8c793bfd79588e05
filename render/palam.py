"""Palam: Anubis's camp at the top, the duel row across the middle, Isis's camp below, every
piece face up with its symbol and count (light background for the 11-point pieces). Each camp's
column letters run from its owner's own left, so Anubis's ``a`` is at the east. RULES.md §4."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engines.palam import (
    ANSWER,
    ATTACK,
    COLUMNS,
    DRAFT,
    DUELS,
    EMPTY,
    LIGHT_PIECES,
    Advance,
    Pick,
    Swap,
    cell_name,
    cells,
    count,
    piece_name,
    points,
    symbol,
    x2,
)
from render.header import MARGIN, SMALL_SIZE, SeatInfo, draw_header, header_height, seat_labels
from render.hitmap import Region, rectangle
from render.options import Options
from render.primitives import LEGEND_LINE, LEGEND_SIZE, legend_lines
from render.surface import WIDTH, Canvas, Frame, Sprite, make_sprite
from render.theme import RGB, Theme, hex_colour, mix

CELL = 96  # one board column; Anubis's columns sit half a column east of Isis's
PIECE = 80
DUEL_PIECE = 58
DUEL_ROW = 136
CHIP = 28
DRAFT_PIECE = 54

DARK_PIECE = hex_colour("4a3b2f")
LIGHT_PIECE = hex_colour("f3e3bf")
# Symbol inks: ankh gold, eye blue, scarab green, wave violet; darker on the light pieces.
INK_ON_DARK = (hex_colour("f2c14e"), hex_colour("6ec6ff"), hex_colour("8bd17c"),
               hex_colour("c9a7ff"))
INK_ON_LIGHT = (hex_colour("9a6a00"), hex_colour("0d5fa8"), hex_colour("2e7d32"),
                hex_colour("6a3fb5"))
ROLE_COLOURS = {"Isis": hex_colour("3fa7a0"), "Anubis": hex_colour("c2853d")}


@dataclass(frozen=True)
class Layout:
    left: float  # pixel x of board position x = 0's cell left edge
    anubis_rows: tuple[float, float]  # centre y of Anubis's row 1 and row 2
    duel_top: float
    isis_rows: tuple[float, float]
    bottom: float  # below Isis's column letters

    def x(self, position: float) -> float:
        """Pixel x of the centre of a board position (0..5.5, west to east)."""
        return self.left + position * CELL + CELL / 2

    def cell_center(self, state, seat: int, row: int, column: int) -> tuple[float, float]:
        """Centre of ``seat``'s cell (row 1 front / 2 back, column 0 = a from its own left)."""
        is_isis = seat == state.isis
        rows = self.isis_rows if is_isis else self.anubis_rows
        return (self.x(x2(is_isis, column) / 2), rows[row - 1])

    def duel_center(self, state, seat: int, column: int) -> tuple[float, float]:
        is_isis = seat == state.isis
        y = self.duel_top + (DUEL_ROW * 0.72 if is_isis else DUEL_ROW * 0.28)
        return (self.x(x2(is_isis, column) / 2), y)


LETTER_ROOM = 34  # above Anubis's camp, for his column letters


def _layout(top: float) -> Layout:
    left = (WIDTH - 6.5 * CELL) / 2
    anubis_rows = (top + CELL * 1.5, top + CELL * 0.5)
    duel_top = top + 2 * CELL + 8
    isis_top = duel_top + DUEL_ROW + 8
    isis_rows = (isis_top + CELL * 0.5, isis_top + CELL * 1.5)
    return Layout(left, anubis_rows, duel_top, isis_rows, isis_top + 2 * CELL + 30)


def layout(state, options: Options | None = None) -> Layout:
    """Where every cell goes (tests use it to find pieces)."""
    return _layout(header_height(state, options) + LETTER_ROOM)


# -- pieces ------------------------------------------------------------------------------------


def _ankh(canvas: Canvas, x: float, y: float, s: float, ink: RGB) -> None:
    w = max(2.0, s * 0.12)
    canvas.circle(x, y - s * 0.3, s * 0.2, outline=ink, width=w)
    canvas.line([(x, y - s * 0.1), (x, y + s * 0.5)], ink, w)
    canvas.line([(x - s * 0.32, y + s * 0.02), (x + s * 0.32, y + s * 0.02)], ink, w)


def _eye(canvas: Canvas, x: float, y: float, s: float, ink: RGB) -> None:
    steps = 12
    upper = [(x - s * 0.5 + s * i / steps, y - s * 0.32 * math.sin(math.pi * i / steps))
             for i in range(steps + 1)]
    lower = [(x + s * 0.5 - s * i / steps, y + s * 0.26 * math.sin(math.pi * i / steps))
             for i in range(steps + 1)]
    canvas.polygon(upper + lower, outline=ink, width=max(2.0, s * 0.09))
    canvas.circle(x, y - s * 0.02, s * 0.15, fill=ink)


def _scarab(canvas: Canvas, x: float, y: float, s: float, ink: RGB) -> None:
    w = max(1.5, s * 0.07)
    for side in (-1, 1):
        for dy in (-0.12, 0.08, 0.28):
            canvas.line([(x, y + s * dy), (x + side * s * 0.42, y + s * (dy + 0.1))], ink, w)
    canvas.circle(x, y + s * 0.12, s * 0.27, fill=ink)
    canvas.circle(x, y - s * 0.28, s * 0.13, fill=ink)


def _wave(canvas: Canvas, x: float, y: float, s: float, ink: RGB) -> None:
    w = max(2.0, s * 0.1)
    for dy in (-0.22, 0.0, 0.22):
        points = [(x - s * 0.45 + s * 0.9 * i / 16,
                   y + s * dy + s * 0.08 * math.sin(2 * math.pi * i / 8)) for i in range(17)]
        canvas.line(points, ink, w)


GLYPHS = (_ankh, _eye, _scarab, _wave)


def draw_piece(canvas, x: float, y: float, size: float, piece: int,
               label: bool = True) -> None:
    """A piece centred at (x, y): symbol above, code and count below (``A5``); without
    ``label``, symbol and count side by side (the small chips)."""
    light = piece in LIGHT_PIECES
    fill = LIGHT_PIECE if light else DARK_PIECE
    edge = mix(fill, (0, 0, 0), 0.5)
    half = size / 2
    canvas.rect((x - half, y - half, x + half, y + half), fill=fill, outline=edge,
                width=max(1.5, size * 0.03), radius=size * 0.16)
    ink = (INK_ON_LIGHT if light else INK_ON_DARK)[symbol(piece)]
    text = hex_colour("2a1f14") if light else hex_colour("f7f0e1")
    if label:
        GLYPHS[symbol(piece)](canvas, x, y - size * 0.14, size * 0.5, ink)
        canvas.text(x, y + size * 0.3, piece_name(piece), max(11, int(size * 0.27)), text,
                    bold=True, anchor="mm")
    else:
        GLYPHS[symbol(piece)](canvas, x - size * 0.17, y, size * 0.5, ink)
        canvas.text(x + size * 0.27, y, str(count(piece)), max(10, int(size * 0.45)), text,
                    bold=True, anchor="mm")


@lru_cache(maxsize=256)
def _piece(piece: int, size: float, label: bool = True) -> Sprite:
    half = size / 2 + 1
    return make_sprite((-half, -half, half, half),
                       lambda canvas: draw_piece(canvas, 0, 0, size, piece, label))




def _role_swatch(colour: RGB, letter: str):
    def swatch(surface, x: float, y: float, r: float) -> None:
        surface.rect((x - r, y - r, x + r, y + r), fill=colour, radius=3)
        surface.text(x, y, letter, int(r * 1.3), (255, 255, 255), bold=True, anchor="mm")

    return swatch


NO_ROLE = hex_colour("7d7f86")  # before the camps are chosen, seats have no role colour


def _camp_chosen(state) -> bool:
    return getattr(state, "camp_chosen", True)


def _seat_role(state, seat: int) -> str | None:
    """"Isis" or "Anubis", or None while the camps are not chosen."""
    if not _camp_chosen(state):
        return None
    return "Isis" if seat == state.isis else "Anubis"


def _pending(state, said) -> str:
    if not _camp_chosen(state):
        return said("palam.doing.camp")
    if state.phase == DRAFT:
        return said("palam.doing.draft")
    if state.phase == ANSWER and state.attack is not None:
        return said("palam.doing.answer", piece=piece_name(state.attack[1]))
    if state.phase == ATTACK:
        return said("palam.doing.attack" if state.may_swap else "palam.doing.attack_only")
    return ""


def _camp_box(geo: Layout, north: bool) -> tuple[float, float, float, float]:
    """The tinted band of a camp: Anubis's (north) or Isis's."""
    x_left = geo.x(0.5 if north else 0) - CELL / 2
    y_top = min(geo.anubis_rows if north else geo.isis_rows) - CELL / 2
    return (x_left - 4, y_top - 4, x_left + 6 * CELL + 4, y_top + 2 * CELL + 4)


@lru_cache(maxsize=8)
def _camps(theme: Theme, said) -> Image.Image:
    """Both camps (tinted bands, column letters from each owner's left, row numbers, the role
    names) and the duel row with its parity ends: the same in every position, drawn once.
    The layer starts ``LETTER_ROOM`` above Anubis's camp."""
    geo = _layout(LETTER_ROOM)
    canvas = Canvas(WIDTH, geo.bottom, theme)
    for role, rows, north in (("Anubis", geo.anubis_rows, True), ("Isis", geo.isis_rows, False)):
        tint = mix(theme.background, ROLE_COLOURS[role], 0.16)
        canvas.rect(_camp_box(geo, north), fill=tint, radius=10)
        for row in (1, 2):
            label_x = geo.left + 6.5 * CELL + 10 if north else geo.left - 10
            canvas.text(label_x, rows[row - 1], str(row), 20, theme.muted, bold=True,
                        anchor="lm" if north else "rm")
        letters_y = min(rows) - CELL / 2 - 18 if north else max(rows) + CELL / 2 + 18
        for column in range(6):
            cx = geo.x(x2(not north, column) / 2)
            canvas.text(cx, letters_y, COLUMNS[column], 20, theme.text, bold=True, anchor="mm")
        side_x = geo.left - 10 if north else geo.left + 6.5 * CELL + 10
        canvas.text(side_x, letters_y, said.seat(role), SMALL_SIZE, ROLE_COLOURS[role],
                    bold=True, anchor="rm" if north else "lm")
    top, bottom = geo.duel_top, geo.duel_top + DUEL_ROW
    band = mix(theme.background, theme.panel, 0.9)
    canvas.rect((geo.left - 40, top, geo.left + 6.5 * CELL + 40, bottom), fill=band, radius=12)
    mid = (top + bottom) / 2
    # The parity ends: "=" west (even totals go west), "≠" east.
    for x, sign, word in ((geo.left - 22, "=", "palam.even"),
                          (geo.left + 6.5 * CELL + 22, "≠", "palam.odd")):
        canvas.text(x, mid - 8, sign, 34, theme.text, bold=True, anchor="mm")
        canvas.text(x, mid + 22, said(word), 13, theme.muted, anchor="mm")
    return canvas.finish()


@lru_cache(maxsize=4)
def _slot(theme: Theme) -> Sprite:
    half = PIECE / 2
    outline = mix(theme.background, theme.line, 0.7)
    return make_sprite((-half - 1, -half - 1, half + 1, half + 1),
                       lambda canvas: canvas.rect((-half, -half, half, half), outline=outline,
                                                  width=1.5, radius=PIECE * 0.16))


def palette_keys(theme: Theme) -> list:
    return [DARK_PIECE, LIGHT_PIECE, *INK_ON_DARK, *INK_ON_LIGHT, *ROLE_COLOURS.values(),
            *(mix(theme.background, colour, 0.16) for colour in ROLE_COLOURS.values()),
            mix(theme.background, theme.panel, 0.9)]


# -- the board ---------------------------------------------------------------------------------


def draw(game, state, options: Options) -> Image.Image:
    theme = options.theme
    said = options.words
    geo = layout(state, options)
    chips_top = geo.bottom + 6
    extra = _chips_height(state)
    legend = legend_lines(_legend(state, said))
    frame = Frame(WIDTH, _height(geo, state, legend), theme)

    score = points(state)
    labels = seat_labels(game, state, options.players, said)
    seats = []
    for seat, (name, role) in enumerate(labels):
        english = _seat_role(state, seat)
        colour = ROLE_COLOURS[english] if english else NO_ROLE
        letter = role[:1] if english else str(seat + 1)
        seats.append(SeatInfo(name, role, _role_swatch(colour, letter),
                              said("palam.stats", points=said.count("palam.points", score[seat]),
                                   taken=said.count("palam.taken", len(state.captured[seat])))))
    if state.outcome is None:
        subtitle = said("palam.duel", n=min(state.duels + 1, DUELS), total=DUELS)
    elif state.duels < DUELS:  # ended early (a resignation, a timeout): the duels fought
        subtitle = said("palam.duels_fought", n=state.duels, total=DUELS)
    else:
        subtitle = said("palam.duels", total=DUELS)
    draw_header(frame, game.title, state, seats, options, subtitle=subtitle,
                doing=_pending(state, said))
    frame.layer(_camps(theme, said), 0, geo.anubis_rows[1] - CELL / 2 - LETTER_ROOM)

    highlight = _highlighted_cells(state, options.last_move)
    for cell in cells(state):
        x, y = geo.cell_center(state, cell.seat, cell.row, cell.column)
        if cell.piece == EMPTY:
            frame.paste(_slot(theme), x, y)
        else:
            frame.paste(_piece(cell.piece, PIECE), x, y)
        if (cell.seat, cell.row, cell.column) in highlight:
            half = PIECE / 2 + 4
            frame.rect((x - half, y - half, x + half, y + half), outline=theme.highlight,
                       width=4, radius=PIECE * 0.2)

    _draw_duel_row(frame, geo, state, options.last_move, said)
    _draw_captured(frame, state, labels, chips_top, said)
    y = chips_top + extra + LEGEND_LINE / 2
    for line in legend:
        frame.text(MARGIN, y, line, LEGEND_SIZE, theme.muted, anchor="lm")
        y += LEGEND_LINE
    return frame.finish()


def _attacker(state) -> int | None:
    """The seat whose piece waits on the duel row, or None: also once the game ended
    mid-duel (a resignation), when nobody is to move."""
    if state.phase != ANSWER or state.attack is None:
        return None
    if state.attacker is not None:
        return state.attacker
    return None if state.to_move is None else 1 - state.to_move


def _highlighted_cells(state, last_move) -> set[tuple[int, int, int]]:
    """Cells (seat, row, column) touched by the last move."""
    if isinstance(last_move, Swap):
        seat = 1 - state.to_move if state.to_move is not None else None
        if seat is None:
            return set()
        return {(seat, c // 6 + 1, c % 6) for c in (last_move.first, last_move.second)}
    if isinstance(last_move, Pick):
        for index, piece in enumerate(state.board):
            if piece == last_move.piece:
                seat, rest = divmod(index, 12)
                return {(seat, rest // 6 + 1, rest % 6)}
    if isinstance(last_move, Advance):
        # The cell the piece left: its column's front cell, now empty (or its back piece moved).
        attacker = _attacker(state)
        if attacker is not None:
            return {(attacker, 1, last_move.column)}
        duel = state.last_duel
        if duel is not None:
            return {(1 - duel.attacker, 1, duel.answer_column)}
    return set()


def _draw_duel_row(frame: Frame, geo: Layout, state, last_move, said) -> None:
    theme = frame.theme
    top, bottom = geo.duel_top, geo.duel_top + DUEL_ROW
    mid = (top + bottom) / 2
    attacker = _attacker(state)
    if attacker is not None:
        column, piece = state.attack
        x, y = geo.duel_center(state, attacker, column)
        frame.paste(_piece(piece, DUEL_PIECE, False), x, y)
        if isinstance(last_move, Advance):
            half = DUEL_PIECE / 2 + 4
            frame.rect((x - half, y - half, x + half, y + half), outline=theme.highlight,
                       width=4, radius=DUEL_PIECE * 0.2)
        return
    duel = state.last_duel
    if duel is None or not isinstance(last_move, Advance):
        band = mix(theme.background, theme.panel, 0.9)
        frame.text(WIDTH / 2, mid, said("palam.duel_row"), 18, mix(band, theme.muted, 0.6),
                   anchor="mm")
        return
    # The duel just fought, shown where the two pieces met, the winner's side marked.
    total = count(duel.attacker_piece) + count(duel.answer_piece)
    answerer = 1 - duel.attacker
    for seat, column, piece in ((duel.attacker, duel.attacker_column, duel.attacker_piece),
                                (answerer, duel.answer_column, duel.answer_piece)):
        x, y = geo.duel_center(state, seat, column)
        frame.paste(_piece(piece, DUEL_PIECE, False), x, y)
        colour = theme.accent if seat == duel.winner else theme.line
        half = DUEL_PIECE / 2 + 4
        frame.rect((x - half, y - half, x + half, y + half), outline=colour, width=3,
                   radius=DUEL_PIECE * 0.2)
    parity = said("palam.even_wins" if total % 2 == 0 else "palam.odd_wins")
    role = said.seat("Isis" if duel.winner == state.isis else "Anubis")
    # The caption goes in the half of the row the pieces leave free.
    pieces_x = (geo.duel_center(state, duel.attacker, duel.attacker_column)[0]
                + geo.duel_center(state, answerer, duel.answer_column)[0]) / 2
    x_text = geo.left + (1.6 if pieces_x > geo.x(2.75) else 4.9) * CELL
    sum_text = f"{count(duel.attacker_piece)} + {count(duel.answer_piece)} = {total}"
    frame.text(x_text, mid - 20, sum_text, 18, theme.text, bold=True, anchor="mm")
    frame.text(x_text, mid + 4, parity, 15, theme.muted, anchor="mm")
    frame.text(x_text, mid + 26, said("palam.takes_both", role=role), 15, theme.accent,
               bold=True, anchor="mm")


def _draw_captured(frame: Frame, state, labels, top: float, said) -> None:
    """Pieces each player took; during the draft, the revealed pieces to pick instead, big
    enough to read their codes."""
    theme = frame.theme
    y = top
    if state.phase == DRAFT:
        on_board = sum(1 for piece in state.board if piece != EMPTY)
        face_down = 24 - len(state.pool) - on_board
        text = said.count("palam.to_pick_more", face_down) if face_down else said("palam.to_pick")
        frame.text(MARGIN, y + 10, text, SMALL_SIZE, theme.muted, anchor="lm")
        for piece, centre in zip(state.pool, _pool_centres(state, y), strict=True):
            frame.paste(_piece(piece, DRAFT_PIECE), *centre)
        return
    for seat in (state.isis, state.anubis):
        taken = state.captured[seat]
        frame.text(MARGIN, y + 10, said("palam.took", name=labels[seat][0], n=len(taken)),
                   SMALL_SIZE, theme.muted, anchor="lm")
        x = MARGIN + CHIP / 2
        for piece in taken:
            frame.paste(_piece(piece, CHIP, False), x, y + 10 + 26)
            x += CHIP + 3
        y += 58


def _pool_centres(state, top: float) -> list[tuple[float, float]]:
    """Where the draft's revealed pieces are drawn, under the camps from ``top``."""
    y = top + 24 + DRAFT_PIECE / 2
    return [(MARGIN + DRAFT_PIECE / 2 + index * (DRAFT_PIECE + 6), y)
            for index in range(len(state.pool))]


def _chips_height(state) -> int:
    """The room under the camps: the draft's revealed pieces, or the pieces each side took."""
    return DRAFT_PIECE + 40 if state.phase == DRAFT else 2 * 58


def _height(geo: Layout, state, legend: list[str]) -> int:
    return int(geo.bottom + 6 + _chips_height(state) + 6 + LEGEND_LINE * len(legend))


def image_height(game, state, options: Options) -> int:
    return _height(layout(state, options), state,
                   legend_lines(_legend(state, options.words)))


def hit_regions(game, state, options: Options) -> list[Region]:
    """What the seat to move can click, named from its own side (``render.hitmap``): both
    camps' bands before the camps are chosen (``camp isis``); then its cells (``b1``: a swap,
    or where a draft pick goes), the revealed pieces of the draft (``A5``), and the duel-row
    spot in front of each of its columns (``c``: advance that column)."""
    geo = layout(state, options)
    if not _camp_chosen(state):
        return [Region("camp", "camp anubis", rectangle(*_camp_box(geo, True))),
                Region("camp", "camp isis", rectangle(*_camp_box(geo, False)))]
    seat = state.to_move
    regions = []
    if state.phase in (DRAFT, ATTACK):
        half = PIECE / 2 + 4
        for cell in range(12):
            x, y = geo.cell_center(state, seat, cell // 6 + 1, cell % 6)
            regions.append(Region("cell", cell_name(cell),
                                  rectangle(x - half, y - half, x + half, y + half)))
    if state.phase == DRAFT:
        half = DRAFT_PIECE / 2
        for piece, (x, y) in zip(state.pool, _pool_centres(state, geo.bottom + 6),
                                 strict=True):
            regions.append(Region("piece", piece_name(piece),
                                  rectangle(x - half, y - half, x + half, y + half)))
        return regions
    top = geo.duel_top + (DUEL_ROW / 2 if seat == state.isis else 0)
    for column in range(6):
        x, _ = geo.duel_center(state, seat, column)
        regions.append(Region("column", COLUMNS[column],
                              rectangle(x - CELL / 2, top, x + CELL / 2, top + DUEL_ROW / 2)))
    return regions


def _legend(state, said) -> str:
    if state.outcome is not None:
        return said("palam.legend.over")
    if not _camp_chosen(state):
        return said("palam.legend.camp")
    if state.phase == DRAFT:
        return said("palam.legend.draft")
    if state.phase == ANSWER:
        return said("palam.legend.answer")
    return said("palam.legend.attack")
