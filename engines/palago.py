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
* ``arches``: how many arch regions it holds.

Placing a tile adds four singleton components whose ``open`` counts the half-edges facing empty
cells; then each of the up to 12 half-edges facing an occupied neighbour is a join: the old
component loses one open half-edge (it now faces the new tile) and is merged with the new region.
Only components touching the new tile can change, so after each tile the check for creatures
looks at the (at most four) components holding the new regions: ``open == 0 and arches > 0`` is a
creature (a closed ring of tips, an "eye", has no arch and is not one). Each check is O(1).

``legal_moves`` must know, for every cell and orientation, whether a first tile would end the game
(then only the single tile is legal there). It does not place the tile: the components facing the
cell and how many of their half-edges face it do not depend on the orientation, and a component
can only close through this cell if *all* its open half-edges face it ("closable"). Cells with no
closable neighbour component are skipped at once; for the others, the closed groups of each
orientation are worked out from the regions' half-edges (see ``_Board.ending_colours``).
The listing itself is lazy (``LegalMoves``): blocks of "these first tiles x these second tiles",
made into move values only when indexed or iterated.

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
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, overload

from engines import register
from engines.core import Game, IllegalMove, Move, Option, Outcome, dump_outcome, load_outcome
from engines.hexgrid import DIRECTIONS

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


_TILES_AT: dict[int, tuple[Tile, Tile, Tile]] = {}


def _tiles_at(cell_id: int) -> tuple[Tile, Tile, Tile]:
    """The three (q, r, o) tuples of a cell, made once and shared by every move listing."""
    tiles = _TILES_AT.get(cell_id)
    if tiles is None:
        q, r = _cell_of(cell_id)
        tiles = _TILES_AT[cell_id] = ((q, r, 0), (q, r, 1), (q, r, 2))
    return tiles


@dataclass(frozen=True, slots=True)
class PalagoMove(Move):
    """One or two tiles in placement order; a single tile only when it ends the game."""

    tiles: tuple[Tile, ...]

    def __str__(self) -> str:
        return " ".join(f"{q},{r}/{o}" for q, r, o in self.tiles)


class _Board:
    """The incremental union-find described in the module docstring. Mutated only while a move
    is being built on a fresh copy; shared read-only by the state that owns it afterwards."""

    __slots__ = ("arches", "border", "cells", "label", "members", "open", "orients")

    def __init__(self) -> None:
        self.cells: dict[int, int] = {}  # cell id -> placement index
        self.orients: list[int] = []
        self.label: list[int] = []  # region id -> label of its component
        self.members: dict[int, tuple[int, ...]] = {}  # label -> region ids
        self.open: dict[int, int] = {}  # label -> half-edges facing an empty cell
        self.arches: dict[int, int] = {}  # label -> arch regions
        self.border: dict[int, int] = {}  # empty cell next to a tile -> occupied neighbours

    def copy(self) -> _Board:
        new = _Board.__new__(_Board)
        new.cells = self.cells.copy()
        new.orients = self.orients.copy()
        new.label = self.label.copy()
        new.members = self.members.copy()
        new.open = self.open.copy()
        new.arches = self.arches.copy()
        new.border = self.border.copy()
        return new

    def region_colour(self, region: int) -> int:
        return REGION_COLOUR[self.orients[region >> 2]][region & 3]

    def place(self, cell: int, o: int) -> int:
        """Lay a tile; return a bit mask of the colours that now have a creature."""
        cells, label, open_, border = self.cells, self.label, self.open, self.border
        t = len(self.orients)
        base = 4 * t
        self.orients.append(o)
        region_of = REGION_OF[o]
        for k in range(4):
            region = base + k
            label.append(region)
            self.members[region] = (region,)
            open_[region] = 0
            self.arches[region] = IS_ARCH[k]
        border.pop(cell, None)
        cells[cell] = t
        joins = []
        for d in range(6):
            other = cell + _DELTA[d]
            neighbour = cells.get(other)
            if neighbour is None:
                open_[base + region_of[2 * d]] += 1
                open_[base + region_of[2 * d + 1]] += 1
                border[other] = border.get(other, 0) + 1
            else:
                other_regions = REGION_OF[self.orients[neighbour]]
                for h in (2 * d, 2 * d + 1):
                    old_region = 4 * neighbour + other_regions[_OTHER_HALF[h]]
                    joins.append((base + region_of[h], old_region))
        for new_region, old_region in joins:
            old_label = label[old_region]
            open_[old_label] -= 1  # this half-edge now faces the new tile
            self._union(label[new_region], old_label)
        found = 0
        for k in range(4):
            lab = label[base + k]
            if open_[lab] == 0 and self.arches[lab] > 0:
                found |= 1 << REGION_COLOUR[o][k]
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

    def _legal_moves(self, state: PalagoState) -> LegalMoves:
        board = state._board
        if not board.cells:
            return _opening_moves()
        cells, border = board.cells, board.border
        # Only reachable in a hand-built position with an odd tile count: no room for a pair.
        pairs_fit = len(state.tiles) + 2 <= TOTAL_TILES
        singles: list[Tile] = []
        blocks: list[tuple[tuple[Tile, ...], tuple[Tile, ...]]] = []
        append = blocks.append
        for cell, occupied in border.items():
            cell_tiles = _tiles_at(cell)
            colours = board.ending_colours(cell)
            if colours is None:
                first_tiles: tuple[Tile, ...] = cell_tiles
            else:
                singles.extend(cell_tiles[o] for o in range(3) if colours[o])
                first_tiles = tuple(cell_tiles[o] for o in range(3) if not colours[o])
            if occupied == 6 or not pairs_fit:
                continue  # a hole: only a single game-ending tile may go there
            for delta in _DELTA:
                partner = cell + delta
                if partner in cells:
                    continue
                partner_tiles = _tiles_at(partner)
                if first_tiles:
                    append((first_tiles, partner_tiles))
                if partner not in border:
                    # The partner touches nothing, so as a first tile it can end nothing.
                    append((partner_tiles, cell_tiles))
        return LegalMoves(tuple(singles), blocks)

    def _parse(self, text: str, state: PalagoState | None) -> PalagoMove:
        tokens = _SPACES_AROUND_MARKS.sub(r"\1", text).split()
        if not 1 <= len(tokens) <= 2:
            raise IllegalMove(
                "a move is one or two tiles written q,r/o, for example `0,0/1 1,0/2`"
            )
        tiles = []
        for token in tokens:
            match = _TILE_TEXT.fullmatch(token)
            if match is None:
                raise IllegalMove(f"{token!r} is not a tile: write q,r/o, for example `1,-1/2`")
            q, r, o = (int(part) for part in match.groups())
            if o > 2:
                raise IllegalMove(f"{token}: the orientation after the slash is 0, 1 or 2")
            tiles.append((q, r, o))
        return PalagoMove(tuple(tiles))

    def _play(self, state: PalagoState, move: PalagoMove) -> PalagoState:
        if not isinstance(move, PalagoMove):
            raise IllegalMove("not a Palago move")
        tiles = move.tiles
        if not 1 <= len(tiles) <= 2:
            raise IllegalMove("a move lays one or two tiles")
        for q, r, o in tiles:
            if o not in (0, 1, 2):
                raise IllegalMove("a tile's orientation is 0, 1 or 2")
            if abs(q) > _REACH or abs(r) > _REACH:
                raise IllegalMove(f"{q},{r} is too far from the tiles on the table")
        if len(state.tiles) + len(tiles) > TOTAL_TILES:
            raise IllegalMove(f"only {TOTAL_TILES - len(state.tiles)} tile(s) remain")
        board = state._board
        ids = [_cell_id(q, r) for q, r, _ in tiles]
        for tile, cell in zip(tiles, ids, strict=True):
            if cell in board.cells:
                raise IllegalMove(f"{tile[0]},{tile[1]} already holds a tile")
        if len(tiles) == 2:
            first, second = ids
            if first == second:
                raise IllegalMove("the two tiles must go on two different cells")
            if second - first not in _DELTA:
                raise IllegalMove("the two tiles of a move must be neighbours")
        if not board.cells:
            if len(tiles) != 2 or tiles[0][:2] != (0, 0):
                raise IllegalMove(
                    "the opening lays two tiles: the first at 0,0, the second next to it"
                )
        elif not any(cell in board.border for cell in ids):
            raise IllegalMove("at least one of the tiles must touch a tile already laid")
        work = board.copy()
        seat = state.to_move
        laid = state.tiles
        creatures = 0
        for index, (tile, cell) in enumerate(zip(tiles, ids, strict=True)):
            creatures = work.place(cell, tile[2])
            laid = (*laid, tile)
            if creatures and index == 0 and len(tiles) == 2:
                raise IllegalMove(
                    f"{tile[0]},{tile[1]}/{tile[2]} ends the game on its own: "
                    "lay it as a single tile"
                )
        if len(tiles) == 1 and not creatures:
            raise IllegalMove(
                "a single tile is only allowed when it ends the game; lay two neighbouring tiles"
            )
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

    def describe(self, state: PalagoState, move: PalagoMove) -> str:
        who = self.seat_names[state.to_move] if state.to_move is not None else "?"
        if len(move.tiles) == 1:
            return f"{who} lays a single tile on {move}, which ends the game"
        first, second = str(move).split(" ")
        return f"{who} lays tiles on {first} and {second}"

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


class LegalMoves(Sequence[PalagoMove]):
    """Every legal move, made on demand: single game-ending tiles first, then two-tile moves as
    blocks "any of these first tiles, then any of these second tiles". A late position has
    thousands of moves; a random playout needs one, so building them all would be waste."""

    __slots__ = ("_blocks", "_ends", "_singles")

    def __init__(
        self, singles: tuple[Tile, ...], blocks: list[tuple[tuple[Tile, ...], tuple[Tile, ...]]]
    ) -> None:
        self._singles = singles
        self._blocks = blocks
        ends = []
        total = len(singles)
        for firsts, seconds in blocks:
            total += len(firsts) * len(seconds)
            ends.append(total)
        self._ends = ends

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else len(self._singles)

    @overload
    def __getitem__(self, index: int) -> PalagoMove: ...

    @overload
    def __getitem__(self, index: slice) -> list[PalagoMove]: ...

    def __getitem__(self, index: int | slice) -> PalagoMove | list[PalagoMove]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("move index out of range")
        singles = self._singles
        if index < len(singles):
            return PalagoMove((singles[index],))
        block = bisect_right(self._ends, index)
        firsts, seconds = self._blocks[block]
        start = self._ends[block - 1] if block else len(singles)
        first, second = divmod(index - start, len(seconds))
        return PalagoMove((firsts[first], seconds[second]))

    def __iter__(self) -> Iterator[PalagoMove]:
        # One comprehension is much faster than a generator when the caller wants them all.
        moves = [PalagoMove((tile,)) for tile in self._singles]
        moves += [
            PalagoMove((first, second))
            for firsts, seconds in self._blocks
            for first in firsts
            for second in seconds
        ]
        return iter(moves)

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, PalagoMove):
            return False
        if len(move.tiles) == 1:
            return move.tiles[0] in self._singles
        first, second = move.tiles
        return any(first in firsts and second in seconds for firsts, seconds in self._blocks)


def _opening_moves() -> LegalMoves:
    centre = _cell_id(0, 0)
    return LegalMoves((), [(_tiles_at(centre), _tiles_at(centre + delta)) for delta in _DELTA])


def _creature_outcome(creatures: int, placer: int) -> Outcome:
    placer_name = Palago.seat_names[placer]
    if creatures == (1 << BLUE) | (1 << WHITE):
        winner = 1 - placer
        reason = (
            f"{Palago.seat_names[winner]} wins: {placer_name}'s tile closed a creature "
            "of each colour at once"
        )
    else:
        colour = BLUE if creatures == 1 << BLUE else WHITE
        winner = SEAT_OF_COLOUR[colour]
        if winner == placer:
            reason = f"{placer_name} wins with a {COLOUR_NAMES[colour]} creature"
        else:
            reason = (
                f"{Palago.seat_names[winner]} wins: {placer_name} closed a "
                f"{COLOUR_NAMES[colour]} creature"
            )
    scores = tuple(1.0 if seat == winner else 0.0 for seat in range(2))
    return Outcome(frozenset({winner}), scores, reason)


def _exhausted_outcome(tiebreak: bool, board: _Board) -> Outcome:
    if not tiebreak:
        return Outcome(frozenset(), (0.0, 0.0), "draw: all 48 tiles are down and no creature")
    best = board.largest_arches()
    white, blue = best[WHITE], best[BLUE]
    scores = (float(white), float(blue))
    if white > blue:
        return Outcome(
            frozenset({0}), scores, f"White wins the tiebreak, {white} arches to {blue}"
        )
    if blue > white:
        return Outcome(
            frozenset({1}), scores, f"Blue wins the tiebreak, {blue} arches to {white}"
        )
    return Outcome(frozenset(), scores, f"draw: the tiebreak is level at {white} arches")


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
