"""Polygo: stones and red walls on the star (or a hexagon, or a 9×9 square), on wood like a Go
board. Letters and numbers around the edge name the cells (RULES.md §2): on the hexagonal boards
a number at both ends of each row, a letter at both ends of each slanting line of equal letter;
on the square board letters below and above, numbers left and right, row 1 at the bottom. In the
scoring phase and at the end, dead stones are crossed and territory is dotted in its owner's
colour."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engines.graphgo import EMPTY, WALL
from engines.polygo import ALIVE, DEAD, PASS, SCORING, STONE, geometry, score
from render.primitives import (
    MARGIN,
    SMALL_SIZE,
    WIDTH,
    Canvas,
    Fit,
    SeatInfo,
    draw_header,
    fit_box,
    header_height,
    hex_center,
    hexagon_points,
    highlight_ring,
    seat_labels,
    stone_swatch,
)
from render.theme import STONE_EDGE, STONES, WALL_RED, WALL_RED_DARK, mix

MAX_SIZE = 44.0
BOARD_HEIGHT = 700

Point = tuple[float, float]


@dataclass(frozen=True)
class Board:
    """Where every cell and edge label of a board kind goes, in unit coordinates (circumradius
    1 for hexagons, side 1 for squares); the same for every position of that kind."""

    square: bool
    centres: tuple[Point, ...]
    labels: tuple[tuple[Point, str], ...]
    box: tuple[float, float, float, float]


_BOARDS: dict[str, Board] = {}


def board_geometry(kind: str) -> Board:
    cached = _BOARDS.get(kind)
    if cached is not None:
        return cached
    geo = geometry(kind)
    labels: list[tuple[Point, str]] = []
    if kind == "square9":
        # Column x, row y from 0; row 1 at the bottom.
        centres = tuple((float(x), float(8 - y)) for x, y in geo.coords)
        for i in range(9):
            letter, number = chr(97 + i), str(i + 1)
            labels += [((i, 9.0), letter), ((i, -1.0), letter)]
            labels += [((-1.0, 8 - i), number), ((9.0, 8 - i), number)]
        box = (-1.6, -1.6, 9.6, 9.6)
        board = Board(True, centres, tuple(labels), box)
    else:
        centres = tuple(hex_center(q, r, 1.0) for q, r in geo.coords)
        names = geo.names
        rows: dict[int, list[int]] = {}
        lines: dict[int, list[int]] = {}
        for q, r in geo.coords:
            rows.setdefault(r, []).append(q)
            lines.setdefault(q, []).append(r)
        used: set[tuple[int, int]] = set()
        number_of = {r: names[geo.coords.index((min(qs), r))][1:] for r, qs in rows.items()}
        letter_of = {q: names[geo.coords.index((q, min(rs)))][0] for q, rs in lines.items()}
        for r, qs in rows.items():
            for spot in ((min(qs) - 1, r), (max(qs) + 1, r)):
                used.add(spot)
                labels.append((hex_center(*spot, 1.0), number_of[r]))
        for q, rs in lines.items():
            # One step past each end of the slanting line, where no row number sits. When both
            # ends are taken (two of the star's inner corners), the letter goes closer, just past
            # the edge of the top cell and slightly shifted off the number.
            placed = False
            for end, step in ((min(rs), -1), (max(rs), 1)):
                spot = (q, end + step)
                if spot not in used:
                    used.add(spot)
                    labels.append((hex_center(*spot, 1.0), letter_of[q]))
                    placed = True
            if not placed:
                x, y = hex_center(q, min(rs) - 0.62, 1.0)
                labels.append(((x - 0.45, y), letter_of[q]))
        xs = [p[0] for p, _ in labels] + [c[0] for c in centres]
        ys = [p[1] for p, _ in labels] + [c[1] for c in centres]
        box = (min(xs) - 0.7, min(ys) - 0.7, max(xs) + 0.7, max(ys) + 0.7)
        board = Board(False, centres, tuple(labels), box)
    _BOARDS[kind] = board
    return board


def layout(state) -> tuple[Fit, Board]:
    """The unit-to-pixel map and the board geometry (tests use it to find cells)."""
    board = board_geometry(state.board_kind)
    top = header_height(state) + 8
    fit = fit_box(board.box, (MARGIN, top, WIDTH - MARGIN, top + BOARD_HEIGHT), MAX_SIZE)
    return fit, board


def cell_center(state, index: int) -> Point:
    fit, board = layout(state)
    return fit(*board.centres[index])


def _cell_shape(board: Board, x: float, y: float, size: float, shrink: float = 1.0):
    if board.square:
        half = size * 0.5 * shrink
        return [(x - half, y - half), (x + half, y - half), (x + half, y + half),
                (x - half, y + half)]
    return hexagon_points(x, y, size * shrink)


@lru_cache(maxsize=4)
def _empty_board(kind: str, theme, ss: int, fit: Fit, names: bool) -> tuple[Image.Image, int]:
    """The wood, the edge labels and (for boards to play on) every cell's name, drawn once per
    board kind, theme and size and pasted under the pieces: most of a Polygo image never
    changes. Returns the layer (at supersampled size) and the logical y of its top."""
    board = board_geometry(kind)
    top = int(fit(0, board.box[1])[1])
    bottom = int(fit(0, board.box[3])[1]) + 2
    canvas = Canvas(WIDTH, bottom - top, theme, ss)
    shifted = Fit(fit.scale, fit.offset_x, fit.offset_y - top)
    size = fit.scale
    # The wood: every cell, slightly larger so neighbouring cells join into one surface.
    for x, y in board.centres:
        px, py = shifted(x, y)
        canvas.polygon(_cell_shape(board, px, py, size, 1.04), fill=theme.wood)
    for x, y in board.centres:
        px, py = shifted(x, y)
        canvas.polygon(_cell_shape(board, px, py, size, 1.0), outline=theme.wood_line, width=1)
    label_size = max(12, min(22, int(size * 0.68)))
    for (x, y), text in board.labels:
        px, py = shifted(x, y)
        canvas.text(px, py, text, label_size, theme.text, bold=True, anchor="mm")
    if names:
        # Every cell also carries its name, faintly (pieces cover it): finding k7 along a
        # slanting line of letters is hard on the star otherwise.
        cell_names = geometry(kind).names
        name_size = max(9, min(14, int(size * 0.42)))
        name_colour = mix(theme.wood, theme.wood_line, 0.7)
        for index, (x, y) in enumerate(board.centres):
            px, py = shifted(x, y)
            canvas.text(px, py, cell_names[index], name_size, name_colour, anchor="mm")
    return canvas.image, top


def draw(game, state, options) -> Image.Image:
    theme = options.theme
    fit, board = layout(state)
    size = fit.scale
    bottom = fit(0, board.box[3])[1]
    height = int(bottom + 44)
    canvas = Canvas(WIDTH, height, theme, options.ss)

    counted = score(state) if state.phase == SCORING or state.outcome is not None else None
    stats = []
    for seat in range(2):
        if counted is not None:
            stats.append(f"{counted.points[seat]} points: {counted.territory[seat]} territory"
                         f" − {counted.prisoners[seat]} prisoners")
        else:
            stats.append(f"{state.captures[seat]} captured")
    seats = [
        SeatInfo(name, role, stone_swatch(*STONES[seat]), stats[seat])
        for seat, (name, role) in enumerate(seat_labels(game, state, options.players))
    ]
    pending = ""
    if state.outcome is None:
        if state.phase == SCORING:
            pending = "accept, mark dead/alive, or resume"
        elif state.passes:
            pending = "the opponent passed"
    subtitle = f"move {state.ply + 1}" if state.outcome is None else f"{state.ply} moves"
    if state.phase == SCORING and state.outcome is None:
        subtitle = "scoring"
    draw_header(canvas, game.title, state, seats, subtitle=subtitle, pending=pending)

    layer, layer_top = _empty_board(state.board_kind, theme, options.ss, fit,
                                    not options.replay)
    canvas.image.paste(layer, (0, layer_top * options.ss))

    radius = size * (0.44 if board.square else 0.78)
    territory = counted.territory_cells if counted is not None else (frozenset(), frozenset())
    for index, value in enumerate(state.board):
        px, py = fit(*board.centres[index])
        if value == WALL:
            canvas.polygon(_cell_shape(board, px, py, size, 0.9), fill=WALL_RED,
                           outline=WALL_RED_DARK, width=max(1.5, size * 0.08))
            # A brick joint so a wall never reads as a stone, even in a small preview.
            canvas.line([(px - size * 0.4, py), (px + size * 0.4, py)], WALL_RED_DARK,
                        max(1.0, size * 0.06))
        elif value != EMPTY:
            fill, edge = STONES[value]
            canvas.circle(px, py, radius, fill=fill, outline=edge, width=max(1.0, size * 0.05))
        for seat in (0, 1):
            if index in territory[seat]:
                mark = radius * 0.34
                canvas.rect((px - mark, py - mark, px + mark, py + mark),
                            fill=STONES[seat][0], outline=STONE_EDGE, width=1)
        if index in state.dead:
            d = radius * 0.5
            width = max(2, size * 0.12)
            canvas.line([(px - d, py - d), (px + d, py + d)], WALL_RED, width)
            canvas.line([(px - d, py + d), (px + d, py - d)], WALL_RED, width)

    last = options.last_move
    if last is not None and last.kind == STONE and last.cells:
        stone, *walls = last.cells
        px, py = fit(*board.centres[stone])
        highlight_ring(canvas, px, py, radius + 3)
        for wall in walls:
            # The theme's text colour around the highlight: orange alone is weak on red.
            px, py = fit(*board.centres[wall])
            ring = max(3, size * 0.12)
            canvas.polygon(_cell_shape(board, px, py, size, 1.02), outline=theme.text,
                           width=ring)
            canvas.polygon(_cell_shape(board, px, py, size, 1.02 - ring / size * 1.4),
                           outline=theme.highlight, width=ring)
    elif last is not None and last.kind in (DEAD, ALIVE):
        for cell in last.cells:
            px, py = fit(*board.centres[cell])
            highlight_ring(canvas, px, py, radius + 3)

    legend = _legend(state, last)
    canvas.text(MARGIN, height - 22, legend, SMALL_SIZE, theme.muted, anchor="lm")
    return canvas.finish()


def _legend(state, last) -> str:
    said = ""
    if last is not None and last.kind not in (STONE, DEAD, ALIVE):
        said = f"Last move: {last}. "
    if state.outcome is not None:
        return said + "Score: territory minus prisoners. Red cells are walls."
    if state.phase == SCORING:
        return said + "Type accept, dead i9 …, alive i9 … or resume. × = marked dead."
    if last is not None and last.kind == PASS:
        return said + "Type a cell (i9), optionally walls next to it (i9 h9), or pass."
    return said + "Type a cell (i9), then walls next to it if you like (i9 h9), or pass."
