"""Palago (Cameron Browne, 2008): two players share 48 two-coloured hexagonal tiles. RULES.md §3.

Geometry (fixed by RULES.md §3, ``engines.hexgrid`` directions)
----------------------------------------------------------------
Edge d of a cell faces the neighbour in direction d; corner k lies between edges k and k+1; even
corners are Blue, odd corners White. Edge d is split into two half-edges: ``d-`` next to corner
d-1 and ``d+`` next to corner d. We number half-edges ``h = 2*d + s`` with s = 0 for ``d-`` and
s = 1 for ``d+``. A tile in orientation o (0, 1, 2) has four regions, numbered here

    k = 0  tip around corner o+1, colour(o+1), half-edges (o+1)+ (o+2)-
    k = 1  arch on the side of corners o, o+2, colour(o), half-edges o+ (o+1)- (o+2)+ (o+3)-
    k = 2  tip around corner o+4, colour(o), half-edges (o+4)+ (o+5)-
    k = 3  arch on the side of corners o+3, o+5, colour(o+1), half-edges (o+3)+ (o+4)- (o+5)+ o-

(so turning a tile by 180° maps region k to k+2). Across neighbours X and Y = X + dir d, X's
``d+`` joins Y's ``(d+3)-`` and X's ``d-`` joins Y's ``(d+3)+``; joined half-edges always have the
same colour.

Creature detection: incremental union-find
------------------------------------------
Every region of every placed tile has an id ``4*t + k`` (t = placement index). Regions joined
across edges form components. The board keeps, per component (keyed by a label region):

* ``members``: its region ids, so a union relabels the smaller side only;
* ``open``: how many of its half-edges face an empty cell;
* ``arches``: how many arch regions it holds;
* ``face_sum`` and ``face_sq``: the sum, and the sum of squares, of the ids of the empty cells
  its open half-edges face (a cell counted once per half-edge), and ``closing``: the one cell
  all of them face, when there is one (see below).

Placing a tile adds four singleton components whose ``open`` counts the half-edges facing empty
cells; then each of the up to 12 half-edges facing an occupied neighbour is a join: the old
component loses one open half-edge (it now faces the new tile) and is merged with the new region.
Only components touching the new tile can change, so after each tile the check for creatures
looks at the (at most four) components holding the new regions: ``open == 0 and arches > 0`` is a
creature (a closed ring of tips, an "eye", has no arch and is not one). Each check is O(1).

``legal_moves`` must know, for every cell and orientation, whether a first tile would end the game
(then only the single tile is legal there). A component can only be closed by one tile if *all*
its open half-edges face that tile's cell. With n open half-edges facing cells c1..cn, they all
face one cell c exactly when sum(ci) = n*c and sum(ci²) = n*c² (the equality case of
Cauchy-Schwarz), so each component's ``closing`` cell is kept up to date in O(1) as the tile
changes it. Only those few cells (``_Board.closable_cells``) can take a game-ending tile; for each
of them the closed groups of each orientation are worked out without placing the tile, from the
regions' half-edges (see ``_Board.ending_colours``).

Move values are made once and shared (``_single_moves``, ``_around``: bounded caches), so a
listing of thousands of moves is a list of references, built by concatenating blocks of nine.

States are immutable: the board structure above is copied (a handful of small dicts and lists)
before a move changes it, so ``play`` never touches its input. It is derived from ``tiles`` alone
and therefore excluded from equality and from ``dump``; ``load`` rebuilds it by replaying tiles.

Rulings (where RULES.md §3 leaves room)
---------------------------------------
* Holes are judged at the start of a move, as the source sheet explains them ("a cell where one
  could not lay the second, adjacent tile"). The two cells of a two-tile move are neighbours of
  each other, so neither is ever a hole; a hole can only take a single game-ending tile.
* A single tile may end the game anywhere it is placed (in a hole or not); a two-tile move whose
  first tile would end the game is illegal (the single tile is the legal move).
* The opening's two tiles cannot close anything, so the opening is always a two-tile move.
* Tiebreak: each colour's score is the largest arch count among its components (all are open
  once 48 tiles lie without a creature); seat 0 (White) and seat 1 (Blue) get their colour's
  figure as score; the higher figure wins, equal is a draw. A game won by a creature scores
  1 / 0 even with the option on: arch counts are scores only when the tiebreak decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from engines import register
from engines.core import Game, IllegalMove, Move, Option, Outcome, dump_outcome, load_outcome
from engines.hexgrid import DIRECTIONS
from engines.phrases import Phrase

TOTAL_TILES = 48

BLUE, WHITE = 0, 1  # the colour of corner k is k % 2
COLOUR_NAMES = ("blue", "white")
#: Seat 0 plays White, seat 1 plays Blue.
SEAT_OF_COLOUR = (1, 0)
COLOUR_OF_SEAT = (WHITE, BLUE)

IS_ARCH = (0, 1, 0, 1)

Tile = tuple[int, int, int]  # (q, r, orientation)
Cell = tuple[int, int]


def _half(d: int, sign: str) -> int:
    return 2 * (d % 6) + (1 if sign == "+" else 0)


def _region_half_edges(o: int) -> tuple[tuple[int, ...], ...]:
    """RULES.md §3 ownership, written as there, in region order k = 0..3."""
    return (
        (_half(o + 1, "+"), _half(o + 2, "-")),
        (_half(o, "+"), _half(o + 1, "-"), _half(o + 2, "+"), _half(o + 3, "-")),
        (_half(o + 4, "+"), _half(o + 5, "-")),
        (_half(o + 3, "+"), _half(o + 4, "-"), _half(o + 5, "+"), _half(o, "-")),
    )


#: REGION_HALF_EDGES[o][k]: half-edges owned by region k of a tile in orientation o.
REGION_HALF_EDGES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    _region_half_edges(o) for o in range(3)
)
#: REGION_OF[o][h]: the region of a tile in orientation o that owns half-edge h.
REGION_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(next(k for k in range(4) if h in REGION_HALF_EDGES[o][k]) for h in range(12))
    for o in range(3)
)
#: REGION_COLOUR[o][k]: BLUE or WHITE.
REGION_COLOUR: tuple[tuple[int, ...], ...] = tuple(
    ((o + 1) % 2, o % 2, o % 2, (o + 1) % 2) for o in range(3)
)
#: REGION_CORNERS[o][k]: the corners a region covers (a tip: its corner; an arch: its two).
REGION_CORNERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    (((o + 1) % 6,), (o % 6, (o + 2) % 6), ((o + 4) % 6,), ((o + 3) % 6, (o + 5) % 6))
    for o in range(3)
)
#: REGION_EDGE_MASK[o][k]: bit d set when region k has a half-edge on edge d.
REGION_EDGE_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum({1 << (h // 2) for h in REGION_HALF_EDGES[o][k]}) for k in range(4))
    for o in range(3)
)


def joined_half_edge(h: int) -> int:
    """The neighbour's half-edge that half-edge ``h`` touches: d+ meets (d+3)-, d- meets (d+3)+."""
    d, s = divmod(h, 2)
    return 2 * ((d + 3) % 6) + (1 - s)


# Cells are packed into ints for speed. 48 tiles grown from the origin stay within 48 steps of
# it, so a 128-wide grid centred at 64 never wraps.
_WIDTH = 128
_OFFSET = 64
_REACH = 56  # coordinates beyond this can never be next to a tile
_DELTA = tuple(dr * _WIDTH + dq for dq, dr in DIRECTIONS)
_OTHER_HALF = tuple(joined_half_edge(h) for h in range(12))


def _cell_id(q: int, r: int) -> int:
    return (r + _OFFSET) * _WIDTH + (q + _OFFSET)


def _cell_of(cell_id: int) -> Cell:
    r, q = divmod(cell_id, _WIDTH)
    return (q - _OFFSET, r - _OFFSET)


@dataclass(frozen=True, slots=True)
class PalagoMove(Move):
    """One or two tiles in placement order; a single tile only when it ends the game."""

    tiles: tuple[Tile, ...]

    def __str__(self) -> str:
        return " ".join(f"{q},{r}/{o}" for q, r, o in self.tiles)


# Move values are made once per cell (single tiles) and per ordered pair of neighbouring cells
# (the nine two-tile moves), then shared by every listing: a late position lists thousands of
# moves, and building them afresh each turn was most of a random playout's time. Both caches
# are bounded: past the limit they start again empty.
_CACHE_LIMIT = 1024  # cells: about 6 KB of moves each, far more than a game reaches
_SINGLE_MOVES: dict[int, tuple[PalagoMove, PalagoMove, PalagoMove]] = {}
#: cell -> per direction d: (the neighbour, the nine moves laying a tile on the cell then one on
#: that neighbour, by the first tile's orientation, then the second's).
_AROUND: dict[int, tuple[tuple[int, tuple[PalagoMove, ...]], ...]] = {}
_OPPOSITE = (3, 4, 5, 0, 1, 2)


def _tiles_at(cell_id: int) -> tuple[Tile, Tile, Tile]:
    q, r = _cell_of(cell_id)
    return ((q, r, 0), (q, r, 1), (q, r, 2))


def _single_moves(cell: int) -> tuple[PalagoMove, PalagoMove, PalagoMove]:
    """The single-tile moves on ``cell``, by orientation."""
    moves = _SINGLE_MOVES.get(cell)
    if moves is None:
        if len(_SINGLE_MOVES) >= _CACHE_LIMIT:
            _SINGLE_MOVES.clear()
        a, b, c = _tiles_at(cell)
        moves = _SINGLE_MOVES[cell] = (PalagoMove((a,)), PalagoMove((b,)), PalagoMove((c,)))
    return moves


def _around(cell: int) -> tuple[tuple[int, tuple[PalagoMove, ...]], ...]:
    """The two-tile moves starting on ``cell``, per direction (see ``_AROUND``)."""
    around = _AROUND.get(cell)
    if around is None:
        if len(_AROUND) >= _CACHE_LIMIT:
            _AROUND.clear()
        here = _tiles_at(cell)
        around = _AROUND[cell] = tuple(
            (cell + delta, tuple(PalagoMove((a, b)) for a in here for b in _tiles_at(cell + delta)))
            for delta in _DELTA
        )
    return around


class _Board:
    """The incremental union-find described in the module docstring. Mutated only while a move
    is being built on a fresh copy; shared read-only by the state that owns it afterwards."""

    __slots__ = (
        "arches", "border", "cells", "closing", "face_sq", "face_sum", "label", "members",
        "open", "orients",
    )

    def __init__(self) -> None:
        self.cells: dict[int, int] = {}  # cell id -> placement index
        self.orients: list[int] = []
        self.label: list[int] = []  # region id -> label of its component
        self.members: dict[int, tuple[int, ...]] = {}  # label -> region ids
        self.open: dict[int, int] = {}  # label -> half-edges facing an empty cell
        self.arches: dict[int, int] = {}  # label -> arch regions
        # label -> sum and sum of squares of the cell ids its open half-edges face
        self.face_sum: dict[int, int] = {}
        self.face_sq: dict[int, int] = {}
        # label -> the one empty cell all its open half-edges face, when there is one
        self.closing: dict[int, int] = {}
        self.border: dict[int, int] = {}  # empty cell next to a tile -> occupied neighbours

    def copy(self) -> _Board:
        new = _Board.__new__(_Board)
        new.cells = self.cells.copy()
        new.orients = self.orients.copy()
        new.label = self.label.copy()
        new.members = self.members.copy()
        new.open = self.open.copy()
        new.arches = self.arches.copy()
        new.face_sum = self.face_sum.copy()
        new.face_sq = self.face_sq.copy()
        new.closing = self.closing.copy()
        new.border = self.border.copy()
        return new

    def region_colour(self, region: int) -> int:
        return REGION_COLOUR[self.orients[region >> 2]][region & 3]

    def place(self, cell: int, o: int) -> int:
        """Lay a tile; return a bit mask of the colours that now have a creature."""
        cells, label, open_, border = self.cells, self.label, self.open, self.border
        members, arches = self.members, self.arches
        face_sum, face_sq = self.face_sum, self.face_sq
        t = len(self.orients)
        base = 4 * t
        self.orients.append(o)
        region_of = REGION_OF[o]
        for k in range(4):
            region = base + k
            label.append(region)
            members[region] = (region,)
            open_[region] = face_sum[region] = face_sq[region] = 0
            arches[region] = IS_ARCH[k]
        border.pop(cell, None)
        cells[cell] = t
        joins = []
        for d in range(6):
            other = cell + _DELTA[d]
            neighbour = cells.get(other)
            if neighbour is None:
                other_sq = other * other
                for region in (base + region_of[2 * d], base + region_of[2 * d + 1]):
                    open_[region] += 1
                    face_sum[region] += other
                    face_sq[region] += other_sq
                border[other] = border.get(other, 0) + 1
            else:
                other_regions = REGION_OF[self.orients[neighbour]]
                for h in (2 * d, 2 * d + 1):
                    old_region = 4 * neighbour + other_regions[_OTHER_HALF[h]]
                    joins.append((base + region_of[h], old_region))
        cell_sq = cell * cell
        for new_region, old_region in joins:
            old_label = label[old_region]
            # This half-edge now faces the new tile, no longer an empty cell.
            open_[old_label] -= 1
            face_sum[old_label] -= cell
            face_sq[old_label] -= cell_sq
            self._union(label[new_region], old_label)
        # Every component this tile changed now holds one of its regions.
        found = 0
        closing = self.closing
        for k in range(4):
            lab = label[base + k]
            n = open_[lab]
            if n == 0:
                closing.pop(lab, None)
                if arches[lab] > 0:
                    found |= 1 << REGION_COLOUR[o][k]
                continue
            # All n open half-edges face one cell c exactly when sum = n*c and
            # sum of squares = n*c*c (equality in Cauchy-Schwarz).
            c, rest = divmod(face_sum[lab], n)
            if rest == 0 and face_sq[lab] == n * c * c:
                closing[lab] = c
            else:
                closing.pop(lab, None)
        return found

    def _union(self, a: int, b: int) -> None:
        if a == b:
            return
        members = self.members
        if len(members[a]) < len(members[b]):
            a, b = b, a
        label = self.label
        moved = members.pop(b)
        for region in moved:
            label[region] = a
        members[a] = members[a] + moved
        self.open[a] += self.open.pop(b)
        self.arches[a] += self.arches.pop(b)
        self.face_sum[a] += self.face_sum.pop(b)
        self.face_sq[a] += self.face_sq.pop(b)
        self.closing.pop(b, None)

    def closable_cells(self) -> set[int]:
        """Empty cells where one tile could close some component: all of that component's open
        half-edges face the cell. Only these cells can take a game-ending tile."""
        return set(self.closing.values())

    def ending_colours(self, cell: int) -> tuple[int, int, int] | None:
        """Per orientation, the mask of colours a tile laid on ``cell`` would complete a creature
        of; None when no orientation closes anything (the common case, found cheaply)."""
        cells, label, orients = self.cells, self.label, self.orients
        facing: dict[int, int] = {}
        joins = []  # (half-edge of the new tile, label of the old component it meets)
        empty_edges = 0
        for d in range(6):
            neighbour = cells.get(cell + _DELTA[d])
            if neighbour is None:
                empty_edges |= 1 << d
                continue
            other_regions = REGION_OF[orients[neighbour]]
            for h in (2 * d, 2 * d + 1):
                lab = label[4 * neighbour + other_regions[_OTHER_HALF[h]]]
                facing[lab] = facing.get(lab, 0) + 1
                joins.append((h, lab))
        open_ = self.open
        closable = {lab for lab, n in facing.items() if open_[lab] == n}
        if not closable:
            return None
        arches = self.arches
        result = []
        for o in range(3):
            region_of = REGION_OF[o]
            met: list[set[int]] = [set(), set(), set(), set()]
            for h, lab in joins:
                met[region_of[h]].add(lab)
            edge_mask = REGION_EDGE_MASK[o]
            # A group is closed when its new regions face no empty cell and every old
            # component in it is closable.
            closed = [
                not (edge_mask[k] & empty_edges) and met[k] <= closable for k in range(4)
            ]
            found = 0
            for tip, arch in ((0, 3), (2, 1)):  # the tip and arch of one colour
                colour = REGION_COLOUR[o][tip]
                if met[tip] & met[arch]:  # joined through an old component: one group
                    if closed[tip] and closed[arch]:
                        found |= 1 << colour
                    continue
                if closed[arch] or (closed[tip] and any(arches[lab] for lab in met[tip])):
                    found |= 1 << colour
            result.append(found)
        if not any(result):
            return None
        return (result[0], result[1], result[2])

    def largest_arches(self) -> tuple[int, int]:
        """Per colour (BLUE, WHITE), the largest arch count of one component."""
        best = [0, 0]
        for lab, count in self.arches.items():
            colour = self.region_colour(lab)
            if count > best[colour]:
                best[colour] = count
        return (best[0], best[1])

    def creature_regions(self) -> list[int]:
        """Region ids of every closed component that holds an arch."""
        found: list[int] = []
        for lab, count in self.arches.items():
            if count and self.open[lab] == 0:
                found.extend(self.members[lab])
        return sorted(found)


def _build_board(tiles: tuple[Tile, ...]) -> _Board:
    board = _Board()
    for q, r, o in tiles:
        board.place(_cell_id(q, r), o)
    return board


@dataclass(frozen=True)
class PalagoState:
    players: int
    seed: int | str | None
    tiebreak: bool
    #: Every tile laid so far, (q, r, orientation), in placement order.
    tiles: tuple[Tile, ...]
    to_move: int | None
    outcome: Outcome | None = None
    last_move: PalagoMove | None = None
    #: Derived from ``tiles`` (see the module docstring); not part of equality or of ``dump``.
    _board: _Board = field(default_factory=_Board, compare=False, repr=False)


_SPACES_AROUND_MARKS = re.compile(r"\s*([,/])\s*")
_TILE_TEXT = re.compile(r"([+-]?\d{1,4}),([+-]?\d{1,4})/(\d{1,4})")


class Palago(Game):
    name = "palago"
    title = "Palago"
    min_players = 2
    max_players = 2
    seat_names = ("White", "Blue")
    options = (
        Option(
            "tiebreak",
            False,
            (False, True),
            "if all 48 tiles are laid without a creature, the largest open shape (in arches) wins",
        ),
    )

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> PalagoState:
        return PalagoState(
            players=players, seed=seed, tiebreak=options["tiebreak"], tiles=(), to_move=0
        )

    # ----- moves ---------------------------------------------------------------------------

    def _legal_moves(self, state: PalagoState) -> list[PalagoMove]:
        board = state._board
        if not board.cells:
            return _opening_moves()
        cells, border = board.cells, board.border
        # Only reachable in a hand-built position with an odd tile count: no room for a pair.
        pairs_fit = len(state.tiles) + 2 <= TOTAL_TILES
        closable = board.closable_cells()
        singles: list[PalagoMove] = []
        pairs: list[PalagoMove] = []
        extend = pairs.extend
        cached = _AROUND.get
        for cell, occupied in border.items():
            colours = board.ending_colours(cell) if cell in closable else None
            if colours is not None:
                cell_singles = _single_moves(cell)
                singles.extend(cell_singles[o] for o in range(3) if colours[o])
            if occupied == 6 or not pairs_fit:
                continue  # a hole: only a single game-ending tile may go there
            for d, (partner, forward) in enumerate(cached(cell) or _around(cell)):
                if partner in cells:
                    continue
                if colours is None:
                    extend(forward)
                else:  # a first tile that ends the game goes alone
                    extend(forward[3 * o + i] for o in range(3) if not colours[o] for i in range(3))
                if partner not in border:
                    # The partner touches nothing, so as a first tile it can end nothing.
                    extend((cached(partner) or _around(partner))[_OPPOSITE[d]][1])
        singles += pairs
        return singles

    def _parse(self, text: str, state: PalagoState | None) -> PalagoMove:
        tokens = _SPACES_AROUND_MARKS.sub(r"\1", text).split()
        if not 1 <= len(tokens) <= 2:
            raise IllegalMove(Phrase("palago.syntax"))
        tiles = []
        for token in tokens:
            match = _TILE_TEXT.fullmatch(token)
            if match is None:
                raise IllegalMove(Phrase("palago.not_a_tile", text=token))
            q, r, o = (int(part) for part in match.groups())
            if o > 2:
                raise IllegalMove(Phrase("palago.orientation", tile=token))
            tiles.append((q, r, o))
        return PalagoMove(tuple(tiles))

    def _play(self, state: PalagoState, move: PalagoMove) -> PalagoState:
        if not isinstance(move, PalagoMove):
            raise IllegalMove(Phrase("illegal.wrong_game"))
        tiles = move.tiles
        if not 1 <= len(tiles) <= 2:
            raise IllegalMove(Phrase("palago.tile_count"))
        for q, r, o in tiles:
            if o not in (0, 1, 2):
                raise IllegalMove(Phrase("palago.orientation", tile=f"{q},{r}/{o}"))
            if abs(q) > _REACH or abs(r) > _REACH:
                raise IllegalMove(Phrase("palago.too_far", cell=f"{q},{r}"))
        if len(state.tiles) + len(tiles) > TOTAL_TILES:
            raise IllegalMove(Phrase("palago.tiles_left", count=TOTAL_TILES - len(state.tiles)))
        board = state._board
        ids = [_cell_id(q, r) for q, r, _ in tiles]
        for tile, cell in zip(tiles, ids, strict=True):
            if cell in board.cells:
                raise IllegalMove(Phrase("palago.occupied", cell=f"{tile[0]},{tile[1]}"))
        if len(tiles) == 2:
            first, second = ids
            if first == second:
                raise IllegalMove(Phrase("palago.same_cell"))
            if second - first not in _DELTA:
                raise IllegalMove(Phrase("palago.not_neighbours"))
        if not board.cells:
            if len(tiles) != 2 or tiles[0][:2] != (0, 0):
                raise IllegalMove(Phrase("palago.opening"))
        elif not any(cell in board.border for cell in ids):
            raise IllegalMove(Phrase("palago.not_touching"))
        work = board.copy()
        seat = state.to_move
        laid = state.tiles
        creatures = 0
        for index, (tile, cell) in enumerate(zip(tiles, ids, strict=True)):
            creatures = work.place(cell, tile[2])
            laid = (*laid, tile)
            if creatures and index == 0 and len(tiles) == 2:
                raise IllegalMove(Phrase("palago.ends_alone", tile=str(PalagoMove((tile,)))))
        if len(tiles) == 1 and not creatures:
            raise IllegalMove(Phrase("palago.single_not_ending"))
        outcome = None
        if creatures:
            outcome = _creature_outcome(creatures, seat)
        elif len(laid) >= TOTAL_TILES:
            outcome = _exhausted_outcome(state.tiebreak, work)
        return replace(
            state,
            tiles=laid,
            to_move=None if outcome else 1 - seat,
            outcome=outcome,
            last_move=move,
            _board=work,
        )

    def explain(self, state: PalagoState, move: PalagoMove) -> Phrase:
        if state.to_move is None or not 1 <= len(move.tiles) <= 2:
            return super().explain(state, move)
        seat = self.seat_phrase(state, state.to_move)
        if len(move.tiles) == 1:
            return Phrase("palago.single", seat=seat, tile=str(move))
        first, second = (str(PalagoMove((tile,))) for tile in move.tiles)
        return Phrase("palago.pair", seat=seat, first=first, second=second)

    # ----- storage -------------------------------------------------------------------------

    def dump(self, state: PalagoState) -> dict:
        return {
            "game": self.name,
            "players": state.players,
            "seed": state.seed,
            "tiebreak": state.tiebreak,
            "tiles": [list(tile) for tile in state.tiles],
            "to_move": state.to_move,
            "last_move": None if state.last_move is None else str(state.last_move),
            "outcome": dump_outcome(state.outcome),
        }

    def load(self, data: dict) -> PalagoState:
        tiles = tuple((int(q), int(r), int(o)) for q, r, o in data["tiles"])
        last = data.get("last_move")
        return PalagoState(
            players=data["players"],
            seed=data["seed"],
            tiebreak=bool(data["tiebreak"]),
            tiles=tiles,
            to_move=data["to_move"],
            outcome=load_outcome(data.get("outcome")),
            last_move=None if last is None else self._parse(last, None),
            _board=_build_board(tiles),
        )


def _opening_moves() -> list[PalagoMove]:
    return [move for _, forward in _around(_cell_id(0, 0)) for move in forward]


def _seat(seat: int) -> Phrase:
    return GAME.seat_phrase(None, seat)


def _creature_outcome(creatures: int, placer: int) -> Outcome:
    if creatures == (1 << BLUE) | (1 << WHITE):
        winner = 1 - placer
        phrase = Phrase("palago.both_colours", seat=_seat(winner), placer=_seat(placer))
    else:
        colour = BLUE if creatures == 1 << BLUE else WHITE
        winner = SEAT_OF_COLOUR[colour]
        creature = Phrase(f"palago.creature.{COLOUR_NAMES[colour]}")
        if winner == placer:
            phrase = Phrase("palago.own_creature", seat=_seat(winner), creature=creature)
        else:
            phrase = Phrase(
                "palago.gift", seat=_seat(winner), placer=_seat(placer), creature=creature
            )
    scores = tuple(1.0 if seat == winner else 0.0 for seat in range(2))
    return Outcome.said(frozenset({winner}), scores, phrase)


def _exhausted_outcome(tiebreak: bool, board: _Board) -> Outcome:
    if not tiebreak:
        return Outcome.said(frozenset(), (0.0, 0.0), Phrase("palago.draw", count=TOTAL_TILES))
    best = board.largest_arches()
    white, blue = best[WHITE], best[BLUE]
    scores = (float(white), float(blue))
    if white == blue:
        return Outcome.said(frozenset(), scores, Phrase("palago.tiebreak_draw", count=white))
    winner = SEAT_OF_COLOUR[WHITE] if white > blue else SEAT_OF_COLOUR[BLUE]
    phrase = Phrase(
        "palago.tiebreak_win", seat=_seat(winner), count=max(white, blue), other=min(white, blue)
    )
    return Outcome.said(frozenset({winner}), scores, phrase)


# ----- for the renderer ------------------------------------------------------------------------


@dataclass(frozen=True)
class RegionShape:
    """One of a tile's four regions: a ``tip`` (120° sector round one corner) or an ``arch``
    (the rest of that colour's half, bounded by the straight line through the centre)."""

    kind: str
    colour: str
    corners: tuple[int, ...]
    half_edges: tuple[int, ...]


def tile_regions(orientation: int) -> tuple[RegionShape, ...]:
    """The four regions of a tile in ``orientation``, in region order k = 0..3."""
    return tuple(
        RegionShape(
            "arch" if IS_ARCH[k] else "tip",
            COLOUR_NAMES[REGION_COLOUR[orientation][k]],
            REGION_CORNERS[orientation][k],
            REGION_HALF_EDGES[orientation][k],
        )
        for k in range(4)
    )


@dataclass(frozen=True)
class PalagoPicture:
    """What a board image needs. ``targets``: empty cells where the next move's first tile may
    go that touch the table; ``partners``: further empty cells that only a move's other tile
    (or a first tile whose partner touches the table) can use; ``creature``: the regions
    (q, r, k) of the finished creature(s), empty while the game runs or after a draw."""

    tiles: tuple[Tile, ...]
    targets: tuple[Cell, ...]
    partners: tuple[Cell, ...]
    creature: tuple[Tile, ...]


def picture(state: PalagoState) -> PalagoPicture:
    board = state._board
    targets: list[Cell] = []
    partners: set[Cell] = set()
    if state.outcome is None:
        if not board.cells:
            targets = [(0, 0)]
            partners = {_cell_of(_cell_id(0, 0) + delta) for delta in _DELTA}
        else:
            for cell, occupied in board.border.items():
                if occupied < 6 or board.ending_colours(cell) is not None:
                    targets.append(_cell_of(cell))
                if occupied < 6:
                    for delta in _DELTA:
                        other = cell + delta
                        if other not in board.cells and other not in board.border:
                            partners.add(_cell_of(other))
    creature: tuple[Tile, ...] = ()
    if state.outcome is not None and state.outcome.winners and board.cells:
        creature = tuple(
            (*state.tiles[region >> 2][:2], region & 3) for region in board.creature_regions()
        )
    return PalagoPicture(state.tiles, tuple(sorted(targets)), tuple(sorted(partners)), creature)


GAME = register(Palago())
