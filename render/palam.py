"""Palam: Anubis's camp at the top, the duel row across the middle, Isis's camp below, every
piece face up with its symbol and count (light background for the 11-point pieces). Each camp's
column letters run from its owner's own left, so Anubis's ``a`` is at the east. RULES.md §4."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image

from engines.palam import (
    ANSWER,
    ATTACK,
    CAMP,
    COLUMNS,
    DRAFT,
    DUELS,
    EMPTY,
    LIGHT_PIECES,
    Advance,
    Pick,
    Swap,
    cells,
    count,
    piece_name,
    points,
    symbol,
    x2,
)
from render.primitives import (
    MARGIN,
    SMALL_SIZE,
    WIDTH,
    Canvas,
    SeatInfo,
    draw_header,
    header_height,
    seat_labels,
)
from render.theme import RGB, hex_colour, mix

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
#: A seat's swatch before it has a role (the camp is not chosen yet).
NO_ROLE_COLOUR = hex_colour("8a8f98")


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


def layout(state) -> Layout:
    left = (WIDTH - 6.5 * CELL) / 2
    top = header_height(state) + 34  # room for Anubis's column letters
    anubis_rows = (top + CELL * 1.5, top + CELL * 0.5)
    duel_top = top + 2 * CELL + 8
    isis_top = duel_top + DUEL_ROW + 8
    isis_rows = (isis_top + CELL * 0.5, isis_top + CELL * 1.5)
    return Layout(left, anubis_rows, duel_top, isis_rows, isis_top + 2 * CELL + 30)


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


def draw_piece(canvas: Canvas, x: float, y: float, size: float, piece: int,
               label: bool = True) -> None:
    """A piece centred at (x, y): symbol above, code and count below (``A5``)."""
    light = piece in LIGHT_PIECES
    fill = LIGHT_PIECE if light else DARK_PIECE
    edge = mix(fill, (0, 0, 0), 0.5)
    half = size / 2
    canvas.rect((x - half, y - half, x + half, y + half), fill=fill, outline=edge,
                width=max(1.5, size * 0.03), radius=size * 0.16)
    ink = (INK_ON_LIGHT if light else INK_ON_DARK)[symbol(piece)]
    if label:
        GLYPHS[symbol(piece)](canvas, x, y - size * 0.14, size * 0.5, ink)
        text = hex_colour("2a1f14") if light else hex_colour("f7f0e1")
        canvas.text(x, y + size * 0.3, piece_name(piece), max(11, int(size * 0.27)), text,
                    bold=True, anchor="mm")
    else:
        GLYPHS[symbol(piece)](canvas, x - size * 0.17, y, size * 0.5, ink)
        text = hex_colour("2a1f14") if light else hex_colour("f7f0e1")
        canvas.text(x + size * 0.27, y, str(count(piece)), max(10, int(size * 0.45)), text,
                    bold=True, anchor="mm")


def _role_swatch(role: str):
    colour = ROLE_COLOURS.get(role, NO_ROLE_COLOUR)

    def swatch(canvas: Canvas, x: float, y: float, r: float) -> None:
        canvas.rect((x - r, y - r, x + r, y + r), fill=colour, radius=3)
        canvas.text(x, y, role[0], int(r * 1.3), (255, 255, 255), bold=True, anchor="mm")

    return swatch


def _pending(state) -> str:
    if state.phase == CAMP:
        return "choose a camp (camp isis or camp anubis)"
    if state.phase == DRAFT:
        return "pick a piece and a cell"
    if state.phase == ANSWER and state.attack is not None:
        return f"answer {piece_name(state.attack[1])}"
    if state.phase == ATTACK:
        return "attack or swap" if state.may_swap else "attack (no swap after a swap)"
    return ""


# -- the board ---------------------------------------------------------------------------------


def draw(game, state, options) -> Image.Image:
    theme = options.theme
    geo = layout(state)
    chips_top = geo.bottom + 6
    extra = DRAFT_PIECE + 40 if state.phase == DRAFT else 2 * 58
    height = int(chips_top + extra + 36)
    canvas = Canvas(WIDTH, height, theme, options.ss)

    score = points(state)
    labels = seat_labels(game, state, options.players)
    seats = [
        SeatInfo(name, role, _role_swatch(role),
                 f"{score[seat]} points · {len(state.captured[seat])} pieces taken")
        for seat, (name, role) in enumerate(labels)
    ]
    subtitle = f"duel {min(state.duels + 1, DUELS)}/{DUELS}" if state.outcome is None \
        else f"{DUELS} duels"
    draw_header(canvas, game.title, state, seats, subtitle=subtitle, pending=_pending(state))

    anubis, isis = state.anubis, state.isis
    highlight = _highlighted_cells(state, options.last_move)

    # Camps: a tinted band per role, column letters from the owner's left, row numbers.
    for seat, rows in ((anubis, geo.anubis_rows), (isis, geo.isis_rows)):
        role = "Isis" if seat == isis else "Anubis"
        tint = mix(theme.background, ROLE_COLOURS[role], 0.16)
        x_left = geo.x(0.5 if seat == anubis else 0) - CELL / 2
        y_top = min(rows) - CELL / 2
        canvas.rect((x_left - 4, y_top - 4, x_left + 6 * CELL + 4, y_top + 2 * CELL + 4),
                    fill=tint, radius=10)
        for row in (1, 2):
            label_x = geo.left - 10 if seat == isis else geo.left + 6.5 * CELL + 10
            canvas.text(label_x, rows[row - 1], str(row), 20, theme.muted, bold=True,
                        anchor="rm" if seat == isis else "lm")
        letters_y = min(rows) - CELL / 2 - 18 if seat == anubis else max(rows) + CELL / 2 + 18
        for column in range(6):
            cx, _ = geo.cell_center(state, seat, 1, column)
            canvas.text(cx, letters_y, COLUMNS[column], 20, theme.text, bold=True, anchor="mm")
        side_y = letters_y
        side_x = geo.left - 10 if seat == anubis else geo.left + 6.5 * CELL + 10
        canvas.text(side_x, side_y, role, SMALL_SIZE, ROLE_COLOURS[role], bold=True,
                    anchor="rm" if seat == anubis else "lm")

    for cell in cells(state):
        x, y = geo.cell_center(state, cell.seat, cell.row, cell.column)
        key = (cell.seat, cell.row, cell.column)
        if cell.piece == EMPTY:
            half = PIECE / 2
            canvas.rect((x - half, y - half, x + half, y + half),
                        outline=mix(theme.background, theme.line, 0.7), width=1.5,
                        radius=PIECE * 0.16)
        else:
            draw_piece(canvas, x, y, PIECE, cell.piece)
        if key in highlight:
            half = PIECE / 2 + 4
            canvas.rect((x - half, y - half, x + half, y + half), outline=theme.highlight,
                        width=4, radius=PIECE * 0.2)

    _draw_duel_row(canvas, geo, state, options.last_move)
    _draw_captured(canvas, geo, state, labels, chips_top)
    legend = _legend(state)
    canvas.text(MARGIN, height - 20, legend, SMALL_SIZE, theme.muted, anchor="lm")
    return canvas.finish()


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
        if state.phase == ANSWER and state.to_move is not None:
            return {(1 - state.to_move, 1, last_move.column)}
        duel = state.last_duel
        if duel is not None:
            return {(1 - duel.attacker, 1, duel.answer_column)}
    return set()


def _draw_duel_row(canvas: Canvas, geo: Layout, state, last_move) -> None:
    theme = canvas.theme
    top, bottom = geo.duel_top, geo.duel_top + DUEL_ROW
    band = mix(theme.background, theme.panel, 0.9)
    canvas.rect((geo.left - 40, top, geo.left + 6.5 * CELL + 40, bottom), fill=band, radius=12)
    mid = (top + bottom) / 2
    # The parity ends: "=" west (even totals go west), "odd" east.
    canvas.text(geo.left - 22, mid - 8, "=", 34, theme.text, bold=True, anchor="mm")
    canvas.text(geo.left - 22, mid + 22, "even", 13, theme.muted, anchor="mm")
    canvas.text(geo.left + 6.5 * CELL + 22, mid - 8, "≠", 34, theme.text, bold=True,
                anchor="mm")
    canvas.text(geo.left + 6.5 * CELL + 22, mid + 22, "odd", 13, theme.muted, anchor="mm")

    if state.phase == ANSWER and state.attack is not None and state.to_move is not None:
        attacker = 1 - state.to_move
        column, piece = state.attack
        x, y = geo.duel_center(state, attacker, column)
        draw_piece(canvas, x, y, DUEL_PIECE, piece, label=False)
        if isinstance(last_move, Advance):
            half = DUEL_PIECE / 2 + 4
            canvas.rect((x - half, y - half, x + half, y + half), outline=theme.highlight,
                        width=4, radius=DUEL_PIECE * 0.2)
        return
    duel = state.last_duel
    if duel is None or not isinstance(last_move, Advance):
        canvas.text(WIDTH / 2, mid, "duel row", 18, mix(band, theme.muted, 0.6), anchor="mm")
        return
    # The duel just fought, shown where the two pieces met, the winner's side marked.
    total = count(duel.attacker_piece) + count(duel.answer_piece)
    answerer = 1 - duel.attacker
    for seat, column, piece in ((duel.attacker, duel.attacker_column, duel.attacker_piece),
                                (answerer, duel.answer_column, duel.answer_piece)):
        x, y = geo.duel_center(state, seat, column)
        draw_piece(canvas, x, y, DUEL_PIECE, piece, label=False)
        colour = theme.accent if seat == duel.winner else theme.line
        half = DUEL_PIECE / 2 + 4
        canvas.rect((x - half, y - half, x + half, y + half), outline=colour, width=3,
                    radius=DUEL_PIECE * 0.2)
    parity = "even: west wins" if total % 2 == 0 else "odd: east wins"
    role = "Isis" if duel.winner == state.isis else "Anubis"
    # The caption goes in the half of the row the pieces leave free.
    pieces_x = (geo.duel_center(state, duel.attacker, duel.attacker_column)[0]
                + geo.duel_center(state, answerer, duel.answer_column)[0]) / 2
    x_text = geo.left + (1.6 if pieces_x > geo.x(2.75) else 4.9) * CELL
    sum_text = f"{count(duel.attacker_piece)} + {count(duel.answer_piece)} = {total}"
    canvas.text(x_text, mid - 20, sum_text, 18, theme.text, bold=True, anchor="mm")
    canvas.text(x_text, mid + 4, parity, 15, theme.muted, anchor="mm")
    canvas.text(x_text, mid + 26, f"{role} takes both", 15, theme.accent, bold=True,
                anchor="mm")


def _draw_captured(canvas: Canvas, geo: Layout, state, labels, top: float) -> None:
    """Pieces each player took; during the draft, the revealed pieces to pick instead, big
    enough to read their codes."""
    theme = canvas.theme
    y = top
    if state.phase == DRAFT:
        on_board = sum(1 for piece in state.board if piece != EMPTY)
        face_down = 24 - len(state.pool) - on_board
        text = "Pieces to pick"
        if face_down:
            text += f" ({face_down} more stay face down until these are placed)"
        canvas.text(MARGIN, y + 10, text + ":", SMALL_SIZE, theme.muted, anchor="lm")
        x = MARGIN + DRAFT_PIECE / 2
        for piece in state.pool:
            draw_piece(canvas, x, y + 24 + DRAFT_PIECE / 2, DRAFT_PIECE, piece)
            x += DRAFT_PIECE + 6
        return
    for seat in (state.isis, state.anubis):
        name = labels[seat][0]
        taken = state.captured[seat]
        canvas.text(MARGIN, y + 10, f"{name} took {len(taken)}:", SMALL_SIZE, theme.muted,
                    anchor="lm")
        x = MARGIN + CHIP / 2
        for piece in taken:
            draw_piece(canvas, x, y + 10 + 26, CHIP, piece, label=False)
            x += CHIP + 3
        y += 58


def _legend(state) -> str:
    if state.outcome is not None:
        return "Light pieces are worth 11 points, the others 1; the last duel adds 11."
    if state.phase == CAMP:
        return "Take a camp with its pieces as dealt: camp isis or camp anubis. The other starts."
    if state.phase == DRAFT:
        return "Type a piece and one of your cells: A5 b2."
    if state.phase == ANSWER:
        return "Answer with a column letter: same symbol or same count, else your leftmost."
    return "Attack: a column letter (c). Swap: two of your cells (b1 e2). Light pieces = 11 pts."
