"""Polygo: stones and red walls on the star (or a hexagon, or a 9×9 square), on wood like a Go
board. Letters and numbers around the edge name the cells (RULES.md §2): on the hexagonal boards
a number at each end of a row and a letter at the ends of each slanting line of equal letter,
placed so no two collide; on the square board letters below and above, numbers left and right,
row 1 at the bottom. Every cell also carries its name: faintly on the wood, in a small label on
a stone (so ``dead k7`` can be read off the board). In the scoring phase and at the end, dead
stones are crossed and territory is dotted in its owner's colour."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engines.graphgo import EMPTY, WALL
from engines.polygo import ALIVE, DEAD, SCORING, STONE, geometry, go_board, score
from render.header import (
    MARGIN,
    SeatInfo,
    draw_header,
    header_height,
    move_subtitle,
    seat_labels,
)
from render.hitmap import Region, polygon
from render.options import Options
from render.primitives import (
    LEGEND_LINE,
    LEGEND_SIZE,
    Fit,
    fit_box,
    hex_center,
    hexagon_points,
    highlight_ring,
    legend_lines,
    stone_swatch,
)
from render.surface import WIDTH, Canvas, Frame, Sprite, make_sprite
from render.theme import (
    BLACK_STONE,
    STONE_EDGE,
    STONES,
    WALL_RED,
    WALL_RED_DARK,
    WHITE_STONE,
    Theme,
    mix,
)

MAX_SIZE = 44.0
BOARD_HEIGHT = 700
# The cell names on stones: light on black, dark on white.
NAME_ON_STONE = (mix(BLACK_STONE, WHITE_STONE, 0.72), mix(WHITE_STONE, BLACK_STONE, 0.68))

Point = tuple[float, float]
Hex = tuple[int, int]


@dataclass(frozen=True)
class Board:
    """Where every cell and edge label of a board kind goes, in unit coordinates (circumradius
    1 for hexagons, side 1 for squares); the same for every position of that kind."""

    square: bool
    centres: tuple[Point, ...]
    labels: tuple[tuple[Point, str], ...]
    box: tuple[float, float, float, float]


def _hex_labels(coords: tuple[Hex, ...], names: tuple[str, ...]) -> list[tuple[Hex, str]]:
    """Edge labels of a hexagonal board, one label per free spot just outside the board.

    Every row gets its number at both ends. Every slanting line gets its letter at each end
    whose spot no row number holds. A line with neither end free (the star's inner corners)
    takes the spot two steps out along the line if that is outside the board, or else an end
    spot from a row that keeps its number at its other end. So every row and every line is
    named at least once and no two labels share a spot."""
    cells = set(coords)
    index = {cell: i for i, cell in enumerate(coords)}
    rows: dict[int, list[int]] = {}
    lines: dict[int, list[int]] = {}
    for q, r in coords:
        rows.setdefault(r, []).append(q)
        lines.setdefault(q, []).append(r)
    spots: dict[Hex, tuple[str, int]] = {}  # spot -> ("row", r) or ("line", q)
    for r, qs in rows.items():
        for spot in ((min(qs) - 1, r), (max(qs) + 1, r)):
            spots[spot] = ("row", r)

    def row_labels(r: int) -> int:
        return sum(1 for kind, value in spots.values() if kind == "row" and value == r)

    for q in sorted(lines):
        rs = lines[q]
        ends = [(q, min(rs) - 1), (q, max(rs) + 1)]
        free = [spot for spot in ends if spot not in spots]
        if not free:
            further = [(q, min(rs) - 2), (q, max(rs) + 2)]
            free = [spot for spot in further if spot not in cells and spot not in spots]
        if not free:
            free = [next(spot for spot in ends if row_labels(spots[spot][1]) > 1)]
        for spot in free:
            spots[spot] = ("line", q)
    labels = []
    for (q, r), (kind, value) in spots.items():
        if kind == "row":
            first = index[(min(rows[value]), value)]
            labels.append(((q, r), names[first][1:]))
        else:
            first = index[(value, min(lines[value]))]
            labels.append(((q, r), names[first][0]))
    return labels


@lru_cache(maxsize=8)
def board_geometry(kind: str) -> Board:
    geo = geometry(kind)
    labels: list[tuple[Point, str]] = []
    if kind == "square9":
        # Column x, row y from 0; row 1 at the bottom.
        centres = tuple((float(x), float(8 - y)) for x, y in geo.coords)
        for i in range(9):
            letter, number = chr(97 + i), str(i + 1)
            labels += [((i, 9.0), letter), ((i, -1.0), letter)]
            labels += [((-1.0, 8 - i), number), ((9.0, 8 - i), number)]
        return Board(True, centres, tuple(labels), (-1.6, -1.6, 9.6, 9.6))
    centres = tuple(hex_center(q, r, 1.0) for q, r in geo.coords)
    labels = [(hex_center(q, r, 1.0), text) for (q, r), text in _hex_labels(geo.coords, geo.names)]
    xs = [p[0] for p, _ in labels] + [c[0] for c in centres]
    ys = [p[1] for p, _ in labels] + [c[1] for c in centres]
    box = (min(xs) - 0.7, min(ys) - 0.7, max(xs) + 0.7, max(ys) + 0.7)
    return Board(False, centres, tuple(labels), box)


def _board_fit(kind: str) -> Fit:
    """The unit-to-pixel map of a board kind with the board's top at y = 0."""
    board = board_geometry(kind)
    return fit_box(board.box, (MARGIN, 0, WIDTH - MARGIN, BOARD_HEIGHT), MAX_SIZE)


def _board_top(state, options: Options | None) -> int:
    return header_height(state, options) + 8


def layout(state, options: Options | None = None) -> tuple[Fit, Board]:
    """The unit-to-pixel map and the board geometry (tests use it to find cells)."""
    fit = _board_fit(state.board_kind)
    top = _board_top(state, options)
    return Fit(fit.scale, fit.offset_x, fit.offset_y + top), board_geometry(state.board_kind)


def cell_center(state, index: int) -> Point:
    fit, board = layout(state)
    return fit(*board.centres[index])


def _cell_shape(square: bool, x: float, y: float, size: float, shrink: float = 1.0):
    if square:
        half = size * 0.5 * shrink
        return [(x - half, y - half), (x + half, y - half), (x + half, y + half),
                (x - half, y + half)]
    return hexagon_points(x, y, size * shrink)


def edge_label_size(scale: float) -> int:
    return max(14, min(24, int(scale * 0.88)))


def name_size(scale: float) -> int:
    """The cell names on the wood and on stones: as large as a cell allows."""
    return max(11, min(16, int(scale * 0.6)))


def stone_radius(square: bool, scale: float) -> float:
    return scale * (0.44 if square else 0.78)


@lru_cache(maxsize=12)
def _board_layer(kind: str, theme: Theme, names: bool) -> Image.Image:
    """The wood, the edge labels and (for boards to play on) every cell's name, drawn once per
    board kind and theme and pasted under the pieces: most of a Polygo image never changes."""
    board = board_geometry(kind)
    fit = _board_fit(kind)
    height = int(fit(0, board.box[3])[1]) + 2
    canvas = Canvas(WIDTH, height, theme)
    size = fit.scale
    # The wood: every cell, slightly larger so neighbouring cells join into one surface.
    for x, y in board.centres:
        canvas.polygon(_cell_shape(board.square, *fit(x, y), size, 1.04), fill=theme.wood)
    for x, y in board.centres:
        canvas.polygon(_cell_shape(board.square, *fit(x, y), size, 1.0),
                       outline=theme.wood_line, width=1)
    label_size = edge_label_size(size)
    for (x, y), text in board.labels:
        canvas.text(*fit(x, y), text, label_size, theme.text, bold=True, anchor="mm")
    if names:
        cell_names = geometry(kind).names
        colour = mix(theme.wood, theme.wood_line, 0.75)
        for index, (x, y) in enumerate(board.centres):
            canvas.text(*fit(x, y), cell_names[index], name_size(size), colour, anchor="mm")
    return canvas.finish()


@lru_cache(maxsize=1024)
def _stone(seat: int, radius: float, name: str, name_px: int) -> Sprite:
    """A stone, with its cell's name in a small label when ``name`` is given."""
    fill, edge = STONES[seat]
    width = max(1.0, radius * 0.064)

    def paint(canvas: Canvas) -> None:
        canvas.circle(0, 0, radius, fill=fill, outline=edge, width=width)
        if name:
            canvas.text(0, 0, name, name_px, NAME_ON_STONE[seat], bold=True, anchor="mm")

    return make_sprite((-radius - 1, -radius - 1, radius + 1, radius + 1), paint)


@lru_cache(maxsize=8)
def _wall(square: bool, size: float) -> Sprite:
    def paint(canvas: Canvas) -> None:
        canvas.polygon(_cell_shape(square, 0, 0, size, 0.9), fill=WALL_RED,
                       outline=WALL_RED_DARK, width=max(1.5, size * 0.08))
        # A brick joint so a wall never reads as a stone, even in a small preview.
        canvas.line([(-size * 0.4, 0), (size * 0.4, 0)], WALL_RED_DARK, max(1.0, size * 0.06))

    return make_sprite((-size, -size, size, size), paint)


def palette_keys(theme: Theme) -> list:
    return [BLACK_STONE, WHITE_STONE, STONE_EDGE, WALL_RED, WALL_RED_DARK, *NAME_ON_STONE,
            mix(theme.wood, theme.wood_line, 0.75)]


def draw(game, state, options: Options) -> Image.Image:
    theme = options.theme
    said = options.words
    fit, board = layout(state, options)
    size = fit.scale
    last = options.last_move
    legend = legend_lines(_legend(state, last, said))
    board_bottom = fit(0, board.box[3])[1]
    frame = Frame(WIDTH, _height(board_bottom, legend), theme)

    counted = score(state) if state.phase == SCORING or state.outcome is not None else None
    stats = []
    for seat in range(2):
        if counted is not None:
            stats.append(said("polygo.score",
                              points=said.count("polygo.points", counted.points[seat]),
                              territory=counted.territory[seat],
                              prisoners=said.count("polygo.prisoners", counted.prisoners[seat])))
        else:
            stats.append(said.count("polygo.captured", state.captures[seat]))
    seats = [
        SeatInfo(name, role, stone_swatch(*STONES[seat]), stats[seat])
        for seat, (name, role) in enumerate(seat_labels(game, state, options.players, said))
    ]
    doing = ""
    if state.outcome is None:
        if state.phase == SCORING:
            doing = said("polygo.doing.scoring")
        elif state.passes:
            doing = said("polygo.passed")
    subtitle = move_subtitle(state, said)
    if state.phase == SCORING and state.outcome is None:
        subtitle = said("polygo.scoring")
    draw_header(frame, game.title, state, seats, options, subtitle=subtitle, doing=doing)
    frame.layer(_board_layer(state.board_kind, theme, not options.replay), 0,
                _board_top(state, options))

    radius = stone_radius(board.square, size)
    names = geometry(state.board_kind).names
    label_px = name_size(size)
    territory = counted.territory_cells if counted is not None else (frozenset(), frozenset())
    for index, value in enumerate(state.board):
        px, py = fit(*board.centres[index])
        if value == WALL:
            frame.paste(_wall(board.square, size), px, py)
        elif value != EMPTY:
            name = "" if options.replay else names[index]
            frame.paste(_stone(value, radius, name, label_px), px, py)
        for seat in (0, 1):
            if index in territory[seat]:
                mark = radius * 0.34
                frame.rect((px - mark, py - mark, px + mark, py + mark),
                           fill=STONES[seat][0], outline=STONE_EDGE, width=1)
        if index in state.dead:
            d = radius * 0.5
            width = max(2, size * 0.12)
            frame.line([(px - d, py - d), (px + d, py + d)], WALL_RED, width)
            frame.line([(px - d, py + d), (px + d, py - d)], WALL_RED, width)

    if last is not None and last.kind == STONE and last.cells:
        stone, *walls = last.cells
        px, py = fit(*board.centres[stone])
        highlight_ring(frame, px, py, radius + 3)
        for wall in walls:
            # The theme's text colour around the highlight: orange alone is weak on red.
            px, py = fit(*board.centres[wall])
            ring = max(3, size * 0.12)
            frame.polygon(_cell_shape(board.square, px, py, size, 1.02), outline=theme.text,
                          width=ring)
            frame.polygon(_cell_shape(board.square, px, py, size, 1.02 - ring / size * 1.4),
                          outline=theme.highlight, width=ring)
    elif last is not None and last.kind in (DEAD, ALIVE):
        for cell in last.cells:
            px, py = fit(*board.centres[cell])
            highlight_ring(frame, px, py, radius + 3)

    y = board_bottom + 2 + LEGEND_LINE / 2
    for line in legend:
        frame.text(MARGIN, y, line, LEGEND_SIZE, theme.muted, anchor="lm")
        y += LEGEND_LINE
    return frame.finish()


def _height(board_bottom: float, legend: list[str]) -> int:
    return int(board_bottom + 12 + LEGEND_LINE * len(legend))


def image_height(game, state, options: Options) -> int:
    fit, board = layout(state, options)
    return _height(fit(0, board.box[3])[1],
                   legend_lines(_legend(state, options.last_move, options.words)))


def hit_regions(game, state, options: Options) -> list[Region]:
    """While playing, every cell (a stone or a wall goes there); in the scoring phase, every
    stone, adding ``dead`` or ``alive`` and the cell that names its group (``render.hitmap``)."""
    fit, _ = layout(state, options)
    cells = _cell_regions(state.board_kind, fit)
    if state.phase != SCORING:
        return list(cells)
    names = geometry(state.board_kind).names
    graph = geometry(state.board_kind).graph
    regions = []
    for group in go_board(state).groups.values():
        stones = graph.points(group.stones)
        first = min(stones)
        part = f"{ALIVE if first in state.dead else DEAD} {names[first]}"
        regions += [Region("group", part, cells[index].polygon) for index in sorted(stones)]
    return regions


@lru_cache(maxsize=16)
def _cell_regions(kind: str, fit: Fit) -> tuple[Region, ...]:
    """Every cell of a board kind where ``fit`` puts it, in cell order (cached: the same for
    every position of a board drawn under a header of the same height)."""
    board = board_geometry(kind)
    return tuple(Region("cell", name, polygon(_cell_shape(board.square, *fit(*centre),
                                                          fit.scale)))
                 for name, centre in zip(geometry(kind).names, board.centres, strict=True))


def _legend(state, last, said) -> str:
    said_last = ""
    if last is not None and last.kind not in (STONE, DEAD, ALIVE):
        said_last = said("polygo.last", move=last) + " "
    if state.outcome is not None:
        return said_last + said("polygo.legend.over")
    if state.phase == SCORING:
        return said_last + said("polygo.legend.scoring")
    return said_last + said("polygo.legend.play")
