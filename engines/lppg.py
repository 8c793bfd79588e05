"""LPPG — Le Plus Petit Gagne (Sébastien Blondiau). RULES.md §5.

2 players, or 4 in two teams: seats 0 and 2 (North and South) against seats 1 and 3 (East and
West). Seat names are ``North, East, South, West``; a 2-player game seats North (0) against
South (1) (see ``seat_name``).

A turn is several moves by the same seat; ``state.pending`` says which decision is expected:

- ``"play"``: ``play <slot> <x>,<y> <rot>`` (place hand card 1 or 2 with its box's top-left at
  x,y, turned 0/90/180/270 clockwise), or ``pass`` when neither card has a legal placement.
- ``"keep"``: ``keep <x>,<y>`` — after two territories of one player merged, their owner picks
  the marker that stays (``to_move`` is that owner, who may not be the player whose turn it is).
- ``"mark"``: ``mark o <x>,<y>`` / ``mark p <x>,<y>`` on a largest closed unmarked region.
- ``"draw"``: ``draw a b`` / ``draw a a`` / ``draw b b``; the cards are drawn in the written order.

Rulings where RULES.md is silent (each has a test):

- ``pass`` discards both cards; the player then draws two as usual with a ``draw`` move (in the
  last round, where nobody draws, ``pass`` simply ends the turn). A pass has no consequences, so
  no marking follows it.
- ``draw b a`` is read as ``draw a b``: one card from each pile, pile A first.
- If a pile is still empty after the reshuffle (only one card was left to split, and it went to
  pile A), the card is drawn from the other pile.
- Connecting territories of different players is illegal even when the joined area would be
  open: the placement still merges them.
- The discard pile is face down: views show only its size. Other players' hands are hidden
  entirely (not even their colours), also after the game.
- Option ``deck`` (not offered by ``/play``: it is for tests and for replaying a physical game):
  the 76 card ids in dealing order, as a list or one string separated by spaces or commas.

Storage and views: ``dump()`` names cards by their ids (``R1``..``Y19``). In a view, a card the
viewer may not see is ``?`` and the top card of a draw pile shows only its colour (``R?``), so
pile sizes stay visible; ``view(state, seat)`` keeps that seat's hand only (``None``, a
spectator, sees no hand).

Helpers for rendering: ``terrain``, ``territories``, ``closed_regions``, ``card_squares``,
``card_id``; ``LppgMatch`` scores a match of several rounds.

Squares are kept as integers (``(y + OFF) * W + (x + OFF)``) so neighbours are ``k ± 1`` and
``k ± W``: the legal-move search runs thousands of times per playout and stays free of tuples
and strings.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engines import register
from engines.core import Game, IllegalMove, Move, Outcome, dump_outcome, load_outcome, rng_for
from engines.phrases import Phrase

# ----- cards -------------------------------------------------------------------------------------

WHITE = 0
#: Colour codes: 0 white, then 1..4 for the card colours in this order.
COLOUR_LETTERS = "RBGY"
COLOUR_NAMES = ("white", "red", "blue", "green", "yellow")

#: The 19 white-patterns (RULES.md §5), squares as (row, col) of the upright 2×3 card.
PATTERNS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0),), ((0, 1),), ((0, 2),), ((1, 0),), ((1, 1),), ((1, 2),),
    ((0, 0), (0, 1)), ((0, 1), (0, 2)), ((1, 0), (1, 1)), ((1, 1), (1, 2)),
    ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((0, 2), (1, 2)),
    ((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (1, 2)), ((0, 0), (0, 1), (1, 0)),
    ((0, 1), (1, 0), (1, 1)), ((0, 1), (0, 2), (1, 2)), ((0, 1), (1, 1), (1, 2)),
)
PER_COLOUR = len(PATTERNS)
DECK_SIZE = 4 * PER_COLOUR
#: Card ``n`` (0..75) is ``CARD_IDS[n]``: colour ``n // 19``, pattern ``n % 19 + 1``.
CARD_IDS: tuple[str, ...] = tuple(f"{c}{p}" for c in COLOUR_LETTERS for p in range(1, 20))
_CARD_INDEX = {card_id: n for n, card_id in enumerate(CARD_IDS)}
ROTATIONS = (0, 90, 180, 270)

#: Placeholders in views: a card nobody may see, and one whose colour only is visible (the top
#: of a draw pile): ``-2 - colour_index``.
HIDDEN = -1
_HIDDEN_TEXT = "?"


def card_colour(card: int) -> int:
    """Colour code (1..4) of card ``card``."""
    return card // PER_COLOUR + 1


def card_id(card: int) -> str:
    """``R7``-style id of a card; ``?`` or ``R?`` for the placeholders of a view."""
    if card >= 0:
        return CARD_IDS[card]
    if card == HIDDEN:
        return _HIDDEN_TEXT
    return COLOUR_LETTERS[-2 - card] + _HIDDEN_TEXT


def card_from_id(text: str) -> int:
    text = text.strip().upper()
    if text == _HIDDEN_TEXT:
        return HIDDEN
    if len(text) == 2 and text[1] == _HIDDEN_TEXT and text[0] in COLOUR_LETTERS:
        return -2 - COLOUR_LETTERS.index(text[0])
    try:
        return _CARD_INDEX[text]
    except KeyError:
        raise ValueError(
            f"{text!r} is not a card id (R1..R19, B1..B19, G1..G19, Y1..Y19)"
        ) from None


def _rotate(row: int, col: int, rot: int) -> tuple[int, int]:
    """(row', col') of square (row, col) once the card is turned ``rot`` degrees clockwise."""
    if rot == 0:
        return row, col
    if rot == 90:
        return col, 1 - row
    if rot == 180:
        return 1 - row, 2 - col
    return 2 - col, row


def _card_squares(card: int, rot: int) -> tuple[tuple[int, int, int], ...]:
    whites = set(PATTERNS[card % PER_COLOUR])
    colour = card_colour(card)
    out = []
    for row in range(2):
        for col in range(3):
            r2, c2 = _rotate(row, col, rot)
            out.append((c2, r2, WHITE if (row, col) in whites else colour))
    return tuple(sorted(out, key=lambda s: (s[1], s[0])))


#: ``CARD_SQUARES[card][r]``: the (dx, dy, colour) of the card's 6 squares at rotation
#: ``ROTATIONS[r]``, relative to the top-left of its box (rendering uses this too).
CARD_SQUARES: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...] = tuple(
    tuple(_card_squares(card, rot) for rot in ROTATIONS) for card in range(DECK_SIZE)
)


def card_squares(card: int, rot: int) -> tuple[tuple[int, int, int], ...]:
    """(dx, dy, colour code) of each square of ``card`` turned ``rot`` degrees clockwise."""
    return CARD_SQUARES[card][ROTATIONS.index(rot)]


# ----- squares as integers -------------------------------------------------------------------

W = 1024
OFF = W // 2
#: Far enough from OFF that neighbours of the terrain never wrap around a row.
_COORD_LIMIT = OFF - 8


def _key(x: int, y: int) -> int:
    return (y + OFF) * W + (x + OFF)


def _xy(k: int) -> tuple[int, int]:
    return k % W - OFF, k // W - OFF


#: Box shapes: 0 = 3 wide × 2 tall (rotations 0 and 180), 1 = 2 wide × 3 tall (90 and 270).
_DIMS = ((3, 2), (2, 3))
_BOX = tuple(tuple(dy * W + dx for dy in range(h) for dx in range(w)) for w, h in _DIMS)
#: Squares orthogonally next to the box, outside it.
_RING = tuple(
    tuple(
        dy * W + dx
        for dy in range(-1, h + 1)
        for dx in range(-1, w + 1)
        if (0 <= dx < w) != (0 <= dy < h)
    )
    for w, h in _DIMS
)


def _build_card_tables():
    cells, masks = [], []
    for card in range(DECK_SIZE):
        per_rot_cells, per_rot_masks = [], []
        for r in range(len(ROTATIONS)):
            shape = r % 2
            width = _DIMS[shape][0]
            white_mask = 0
            rot_cells = []
            for dx, dy, colour in CARD_SQUARES[card][r]:
                rot_cells.append((dy * W + dx, colour))
                if colour == WHITE:
                    white_mask |= 1 << (dy * width + dx)
            per_rot_cells.append(tuple(rot_cells))
            per_rot_masks.append((shape, white_mask, 0b111111 & ~white_mask, card_colour(card)))
        cells.append(tuple(per_rot_cells))
        masks.append(tuple(per_rot_masks))
    return tuple(cells), tuple(masks)


#: ``_CELLS[card][r]``: (offset, colour) per square; ``_MASKS[card][r]``: (shape, white bits,
#: colour bits, colour code) with bit ``dy * width + dx`` of the box.
_CELLS, _MASKS = _build_card_tables()


# ----- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayMove(Move):
    slot: int
    x: int
    y: int
    rot: int

    def __str__(self) -> str:
        return f"play {self.slot} {self.x},{self.y} {self.rot}"


@dataclass(frozen=True, slots=True)
class PassMove(Move):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class KeepMove(Move):
    x: int
    y: int

    def __str__(self) -> str:
        return f"keep {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class MarkMove(Move):
    kind: str  # "o" ordinary or "p" permanent
    x: int
    y: int

    def __str__(self) -> str:
        return f"mark {self.kind} {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class DrawMove(Move):
    first: str  # "a" or "b"
    second: str

    def __str__(self) -> str:
        return f"draw {self.first} {self.second}"


_NUM = r"(-?\d{1,6})"
_XY = _NUM + r" ?, ?" + _NUM
_PLAY_RE = re.compile(r"play ([12]) " + _XY + r" (\d{1,4})")
_KEEP_RE = re.compile(r"keep " + _XY)
_MARK_RE = re.compile(r"mark ([op]) " + _XY)
_DRAW_RE = re.compile(r"draw ([ab]) ?([ab])")
_DRAWS = (DrawMove("a", "b"), DrawMove("a", "a"), DrawMove("b", "b"))

# ----- derived views of the terrain (cached per state) -------------------------------------------


class _Geometry:
    """What the placed cards alone determine: the visible colour of every covered square and
    the white components with their open/closed status."""

    __slots__ = (
        "colour",
        "comp_liberties",
        "comp_of",
        "comp_open",
        "comps",
        "max_x",
        "max_y",
        "min_x",
        "min_y",
    )

    def __init__(self, colour: dict[int, int]) -> None:
        self.colour = colour
        comp_of: dict[int, int] = {}
        comps: list[list[int]] = []
        comp_open: list[bool] = []
        comp_liberties: list[set[int]] = []
        for k, c in colour.items():
            if c != WHITE or k in comp_of:
                continue
            index = len(comps)
            comp_of[k] = index
            squares = [k]
            stack = [k]
            liberties = set()
            while stack:
                a = stack.pop()
                for n in (a + 1, a - 1, a + W, a - W):
                    cn = colour.get(n)
                    if cn is None:
                        liberties.add(n)
                    elif cn == WHITE and n not in comp_of:
                        comp_of[n] = index
                        squares.append(n)
                        stack.append(n)
            comps.append(squares)
            comp_open.append(bool(liberties))
            comp_liberties.append(liberties)
        self.comp_of = comp_of
        self.comps = comps
        self.comp_open = comp_open
        #: The outside squares next to each component.
        self.comp_liberties = comp_liberties
        xs = [k % W for k in colour]
        ys = [k // W for k in colour]
        self.min_x, self.max_x = min(xs) - OFF, max(xs) - OFF
        self.min_y, self.max_y = min(ys) - OFF, max(ys) - OFF

    @classmethod
    def from_placed(cls, placed: Sequence[tuple[int, int, int, int]]) -> _Geometry:
        colour: dict[int, int] = {}
        for card, x, y, rot in placed:
            base = _key(x, y)
            for dk, c in _CELLS[card][rot // 90]:
                colour[base + dk] = c
        return cls(colour)


class _Board:
    """The geometry plus the markers: territories, closed unmarked regions, marker counts."""

    __slots__ = (
        "closed_regions",
        "comp_owner",
        "comp_permanent",
        "geo",
        "marker_comp",
        "markers_of",
        "territory_of",
    )

    def __init__(self, geo: _Geometry, markers: Sequence[tuple[int, str, int, int]]) -> None:
        self.geo = geo
        self.marker_comp = [geo.comp_of[_key(x, y)] for _, _, x, y in markers]
        self.comp_owner: dict[int, int] = {}
        self.comp_permanent: dict[int, bool] = {}
        self.markers_of = [0, 0, 0, 0]
        for (seat, kind, _, _), comp in zip(markers, self.marker_comp, strict=True):
            self.comp_owner[comp] = seat
            self.comp_permanent[comp] = self.comp_permanent.get(comp, False) or kind == "p"
            self.markers_of[seat] += 1
        #: Every square of a territory -> its component.
        self.territory_of = {k: comp for comp in self.comp_owner for k in geo.comps[comp]}
        self.closed_regions = [
            comp
            for comp in range(len(geo.comps))
            if not geo.comp_open[comp] and comp not in self.comp_owner
        ]

    def territory_entries(self) -> list[tuple[int, int]]:
        """(size, owner) of every territory."""
        return [(len(self.geo.comps[comp]), seat) for comp, seat in self.comp_owner.items()]


class _Positions:
    """Every box position (per shape) where a card covers 1 to 5 squares and no territory, with
    bit masks of the covered colours, so checking a card there is a couple of bit operations."""

    __slots__ = ("by_shape",)

    def __init__(self, board: _Board) -> None:
        colour = board.geo.colour
        territory = board.territory_of
        frontier = set()
        for k in colour:
            for n in (k + 1, k - 1, k + W, k - W):
                if n not in colour:
                    frontier.add(n)
        # Covered squares next to a territory: a white card square there makes it grow.
        territory_adjacent = set()
        for k in territory:
            for n in (k + 1, k - 1, k + W, k - W):
                if n not in territory:
                    territory_adjacent.add(n)
        self.by_shape = []
        for box in _BOX:
            # A legal box holds an outside square next to a covered one (it covers 1..5).
            bases = {f - dk for f in frontier for dk in box}
            entries = []
            for base in sorted(bases):
                masks = [0, 0, 0, 0, 0]
                grow = 0
                covered = 0
                for bit, dk in enumerate(box):
                    k = base + dk
                    c = colour.get(k)
                    if c is None:
                        continue
                    if k in territory:
                        covered = -1
                        break
                    covered += 1
                    masks[c] |= 1 << bit
                    if k in territory_adjacent:
                        grow |= 1 << bit
                if covered <= 0:
                    continue
                x, y = _xy(base)
                entries.append((base, x, y, tuple(masks), grow))
            self.by_shape.append(entries)


def _outside_neighbour_offsets(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Per square of a box (bit order), its neighbours outside the box, as offsets from the
    box's top-left square."""
    out = []
    for dy in range(height):
        for dx in range(width):
            offsets = []
            for nx, ny in ((dx + 1, dy), (dx - 1, dy), (dx, dy + 1), (dx, dy - 1)):
                if not (0 <= nx < width and 0 <= ny < height):
                    offsets.append(ny * W + nx)
            out.append(tuple(offsets))
    return tuple(out)


_OUTSIDE_NEIGHBOURS = tuple(_outside_neighbour_offsets(w, h) for w, h in _DIMS)


def _ring_bits(width: int, height: int) -> tuple[int, ...]:
    """For each ring square (in ``_RING`` order), the bit of the box square it touches."""
    bits = []
    for dy in range(-1, height + 1):
        for dx in range(-1, width + 1):
            if (0 <= dx < width) != (0 <= dy < height):
                bx = min(max(dx, 0), width - 1)
                by = min(max(dy, 0), height - 1)
                bits.append(by * width + bx)
    return tuple(bits)


_RING_BITS = tuple(_ring_bits(w, h) for w, h in _DIMS)

_OPEN, _CLOSED, _TERRITORY = 0, 1, 2


class _Surroundings:
    """What lies around one box position once the box is covered, whatever the card: the white
    pieces next to the box (open regions, closed regions, territories) with the box squares
    they touch, the box squares next to the outside, and the far closed regions. A card's
    consequences then follow from its white squares alone, with a few bit operations."""

    __slots__ = ("edge", "far_closed", "pieces")

    def __init__(self, board: _Board, base: int, shape: int) -> None:
        geo = board.geo
        colour = geo.colour
        comp_of = geo.comp_of
        comp_liberties = geo.comp_liberties
        box_offsets = _BOX[shape]
        box = {base + dk for dk in box_offsets}
        self.edge = 0
        for bit, offsets in enumerate(_OUTSIDE_NEIGHBOURS[shape]):
            for d in offsets:
                if base + d not in colour:
                    self.edge |= 1 << bit
                    break
        cut = {comp_of[k] for k in box if k in comp_of}
        # pieces: [touched box bits, kind, size, component (territories: for owner lookups)]
        pieces: list[list[int]] = []
        piece_of_comp: dict[int, int] = {}
        piece_of_square: dict[int, int] = {}
        for dk, bit in zip(_RING[shape], _RING_BITS[shape], strict=True):
            r = base + dk
            if colour.get(r) != WHITE:
                continue
            comp = comp_of[r]
            if comp not in cut:
                index = piece_of_comp.get(comp)
                if index is None:
                    index = piece_of_comp[comp] = len(pieces)
                    size = len(geo.comps[comp])
                    if comp in board.comp_owner:
                        pieces.append([0, _TERRITORY, size, comp])
                    elif any(lib not in box for lib in comp_liberties[comp]):
                        pieces.append([0, _OPEN, 0, comp])
                    else:
                        pieces.append([0, _CLOSED, size, comp])
                pieces[index][0] |= 1 << bit
                continue
            index = piece_of_square.get(r)
            if index is None:
                index = self._fragment(r, colour, box, pieces, piece_of_square)
            pieces[index][0] |= 1 << bit
        self.pieces = pieces
        self.far_closed = [
            len(geo.comps[comp])
            for comp in board.closed_regions
            if comp not in cut and comp not in piece_of_comp
        ]

    @staticmethod
    def _fragment(
        start: int,
        colour: dict[int, int],
        box: set[int],
        pieces: list[list[int]],
        piece_of_square: dict[int, int],
    ) -> int:
        """Explore the part of a component the box cuts off around ``start``; stop as soon as
        it is known to be open."""
        local = [start]
        seen = {start}
        is_open = False
        index = -1
        stack = [start]
        while stack and not is_open:
            a = stack.pop()
            for n in (a + 1, a - 1, a + W, a - W):
                if n in seen or n in box:
                    continue
                c = colour.get(n)
                if c is None:
                    is_open = True
                    break
                if c != WHITE:
                    continue
                known = piece_of_square.get(n)
                if known is not None:
                    # Reached a piece stopped early, so an open one: this is part of it.
                    is_open = True
                    index = known
                    break
                seen.add(n)
                local.append(n)
                stack.append(n)
        if index < 0:
            index = len(pieces)
            pieces.append([0, _OPEN if is_open else _CLOSED, 0 if is_open else len(local), -1])
        for k in local:
            piece_of_square[k] = index
        return index


# ----- state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LppgState:
    players: int
    seed: int | str | None
    to_move: int | None
    #: The seat whose turn it is (``to_move`` differs only while another owner picks a marker).
    turn_seat: int
    #: "play", "keep", "mark" or "draw"; None once the game is over.
    pending: str | None
    #: Cards on the table in the order they were laid, terrain cards first: (card, x, y, rot).
    placed: tuple[tuple[int, int, int, int], ...]
    #: Markers on the terrain: (seat, "o"|"p", x, y); the territory is the region holding it.
    markers: tuple[tuple[int, str, int, int], ...]
    hands: tuple[tuple[int, ...], ...]
    pile_a: tuple[int, ...]  # top first
    pile_b: tuple[int, ...]
    discard: tuple[int, ...]
    #: Merges waiting for their owner's choice: (owner, marker squares), first one first.
    keeps: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = ()
    #: Turns left in the last round (after someone drew the last cards); None before it.
    final_turns: int | None = None
    reshuffles: int = 0
    ply: int = 0
    outcome: Outcome | None = None
    last_move: Move | None = None

    @cached_property
    def geometry(self) -> _Geometry:
        return _Geometry.from_placed(self.placed)

    @cached_property
    def board(self) -> _Board:
        return _Board(self.geometry, self.markers)

    @cached_property
    def positions(self) -> _Positions:
        return _Positions(self.board)

    @cached_property
    def surroundings(self) -> dict[tuple[int, int], _Surroundings]:
        """Filled lazily by the legal-move search, per (shape, box position)."""
        return {}


def _derive(state: LppgState, **changes: Any) -> LppgState:
    """``replace`` that keeps the cached geometry when the cards on the table did not change."""
    new = dataclasses.replace(state, **changes)
    if "placed" not in changes and "geometry" in state.__dict__:
        new.__dict__["geometry"] = state.__dict__["geometry"]
    return new


def terrain(state: LppgState) -> dict[tuple[int, int], int]:
    """The visible colour code (0 white, 1..4 red/blue/green/yellow) of every covered square."""
    return {_xy(k): c for k, c in state.geometry.colour.items()}


def territories(state: LppgState) -> list[tuple[int, str, tuple[tuple[int, int], ...]]]:
    """(owner, marker kind, squares) of every territory (for rendering and summaries)."""
    geo = state.geometry
    return [
        (seat, kind, tuple(sorted(_xy(k) for k in geo.comps[geo.comp_of[_key(x, y)]])))
        for seat, kind, x, y in state.markers
    ]


def closed_regions(state: LppgState) -> list[tuple[tuple[int, int], ...]]:
    """The squares of every closed unmarked region."""
    geo = state.geometry
    return [tuple(sorted(_xy(k) for k in geo.comps[c])) for c in state.board.closed_regions]


# ----- scoring ---------------------------------------------------------------------------------


def _smallest_unique(entries: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """(size, owner) of the smallest territory whose size no other territory shares."""
    counts: dict[int, int] = {}
    for size, _ in entries:
        counts[size] = counts.get(size, 0) + 1
    best = None
    for entry in entries:
        if counts[entry[0]] == 1 and (best is None or entry < best):
            best = entry
    return best


def _side(players: int, seat: int) -> int:
    return seat % 2 if players == 4 else seat


def _turn_order_next(state: LppgState) -> int:
    return (state.turn_seat + 1) % state.players


# ----- the game --------------------------------------------------------------------------------


class Lppg(Game):
    name = "lppg"
    title = "LPPG — Le Plus Petit Gagne"
    min_players = 2
    max_players = 4
    player_counts = (2, 4)
    seat_names = ("North", "East", "South", "West")
    chance = True
    hidden_information = True

    # ----- setup ----------------------------------------------------------------------------

    def seat_phrase(self, state: Any, seat: int) -> Phrase:
        # Two players sit face to face: North and South.
        if state is not None and getattr(state, "players", 4) == 2:
            seat *= 2
        return super().seat_phrase(state, seat)

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        # ``deck`` is a list of 76 ids, not one of a few choices, so it has its own check.
        options = dict(options or {})
        deck = options.pop("deck", None)
        resolved = super().resolve_options(options)
        resolved["deck"] = None if deck is None else _parse_deck(deck)
        return resolved

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> LppgState:
        deck = options.get("deck")
        if deck is None:
            order = list(range(DECK_SIZE))
            rng_for(seed, "deal").shuffle(order)
            deck = tuple(order)
        placed = tuple((deck[i], 0, 2 * i, 0) for i in range(players))
        hands = tuple(
            tuple(deck[players + 2 * s : players + 2 * s + 2]) for s in range(players)
        )
        rest = deck[3 * players :]
        half = (len(rest) + 1) // 2
        return LppgState(
            players=players,
            seed=seed,
            to_move=0,
            turn_seat=0,
            pending="play",
            placed=placed,
            markers=(),
            hands=hands,
            pile_a=tuple(rest[:half]),
            pile_b=tuple(rest[half:]),
            discard=(),
        )

    # ----- legal moves ------------------------------------------------------------------------

    def _legal_moves(self, state: LppgState) -> list[Move]:
        pending = state.pending
        if pending == "play":
            placements = self._placements(state)
            return placements if placements else [PassMove()]
        if pending == "draw":
            return list(_DRAWS)
        if pending == "keep":
            return [KeepMove(x, y) for x, y in state.keeps[0][1]]
        if pending == "mark":
            return self._marks(state)
        return []

    def _placements(self, state: LppgState, first_only: bool = False) -> list[Move]:
        board = state.board
        positions = state.positions.by_shape
        mover = state.turn_seat
        # With two markers down, any mark this turn would be the third and end the game.
        check_end = board.markers_of[mover] == 2
        out: list[Move] = []
        for slot, card in enumerate(state.hands[mover], start=1):
            if card < 0:
                continue  # a view's hidden placeholder
            for r in range(4):
                shape, white_mask, colour_mask, colour = _MASKS[card][r]
                rot = ROTATIONS[r]
                for base, x, y, masks, grow in positions[shape]:
                    if not (masks[WHITE] & white_mask or masks[colour] & colour_mask):
                        continue
                    if (check_end or grow & white_mask) and not self._consequences_allowed(
                        state, base, shape, white_mask, check_end
                    ):
                        continue
                    out.append(PlayMove(slot, x, y, rot))
                    if first_only:
                        return out
        return out

    def _consequences_allowed(
        self, state: LppgState, base: int, shape: int, white_mask: int, check_end: bool
    ) -> bool:
        """Fast version of the checks in ``_place``, from the surroundings of the box (shared
        by every card placed there). ``test_fast_and_full_placement_checks_agree`` keeps the
        two in step."""
        cache = state.surroundings
        around = cache.get((shape, base))
        if around is None:
            around = cache[(shape, base)] = _Surroundings(state.board, base, shape)
        board = state.board
        opened = bool(white_mask & around.edge)
        card_size = white_mask.bit_count()
        touched = []
        for mask, kind, size, comp in around.pieces:
            if mask & white_mask:
                if kind == _OPEN:
                    opened = True
                else:
                    card_size += size
                    if kind == _TERRITORY:
                        touched.append(comp)
        owners = {board.comp_owner[comp] for comp in touched}
        if len(owners) > 1:
            return False
        if touched and opened and any(board.comp_permanent[comp] for comp in touched):
            return False
        if not check_end:
            return True
        mover = state.turn_seat
        count = board.markers_of[mover]
        if touched and owners == {mover}:
            count -= len(touched) if opened else len(touched) - 1
        if count != 2:
            return True
        closed = [
            size
            for mask, kind, size, _ in around.pieces
            if kind == _CLOSED and not mask & white_mask
        ]
        closed.extend(around.far_closed)
        if not opened and not touched:
            closed.append(card_size)
        if not closed:
            return True
        entries = [
            (len(board.geo.comps[comp]), seat)
            for comp, seat in board.comp_owner.items()
            if comp not in touched
        ]
        if touched and not opened:
            entries.append((card_size, next(iter(owners))))
        entries.append((max(closed), mover))
        winner = _smallest_unique(entries)
        players = state.players
        return winner is not None and _side(players, winner[1]) == _side(players, mover)

    def _marks(self, state: LppgState) -> list[Move]:
        board = state.board
        comps = board.geo.comps
        regions = board.closed_regions
        if not regions:
            return []
        largest = max(len(comps[c]) for c in regions)
        kinds = self._free_kinds(state, state.turn_seat)
        out: list[Move] = []
        for comp in sorted(regions, key=lambda c: min(comps[c])):
            if len(comps[comp]) == largest:
                x, y = _xy(min(comps[comp]))
                out.extend(MarkMove(kind, x, y) for kind in kinds)
        return out

    @staticmethod
    def _free_kinds(state: LppgState, seat: int) -> list[str]:
        used = [kind for s, kind, _, _ in state.markers if s == seat]
        kinds = []
        if used.count("o") < 2:
            kinds.append("o")
        if "p" not in used:
            kinds.append("p")
        return kinds

    # ----- parsing ---------------------------------------------------------------------------

    def _parse(self, text: str, state: LppgState | None) -> Move:
        if text == "pass":
            return PassMove()
        match = _PLAY_RE.fullmatch(text)
        if match:
            slot, x, y, rot = (int(g) for g in match.groups())
            if rot not in ROTATIONS:
                raise IllegalMove("the rotation must be 0, 90, 180 or 270")
            return PlayMove(slot, x, y, rot)
        match = _MARK_RE.fullmatch(text)
        if match:
            kind = match.group(1)
            x, y = int(match.group(2)), int(match.group(3))
            if state is not None and state.pending == "mark":
                # Any square names its region; the canonical name is the top-left square.
                geo = state.geometry
                comp = geo.comp_of.get(_key(x, y)) if _in_range(x, y) else None
                if comp is not None and comp in state.board.closed_regions:
                    x, y = _xy(min(geo.comps[comp]))
            return MarkMove(kind, x, y)
        match = _KEEP_RE.fullmatch(text)
        if match:
            return KeepMove(int(match.group(1)), int(match.group(2)))
        match = _DRAW_RE.fullmatch(text)
        if match:
            first, second = sorted(match.groups())
            return DrawMove(first, second)
        raise IllegalMove(
            f"{text[:40]!r} is not an LPPG move: try `play 1 3,-1 90`, `mark o 1,2`, "
            "`keep 1,2`, `draw a b` or `pass`"
        )

    # ----- playing ---------------------------------------------------------------------------

    def _play(self, state: LppgState, move: Move) -> LppgState:
        pending = state.pending
        if isinstance(move, PlayMove):
            self._expect(pending, "play")
            return self._place(state, move)
        if isinstance(move, PassMove):
            self._expect(pending, "play")
            return self._pass(state)
        if isinstance(move, KeepMove):
            self._expect(pending, "keep")
            return self._keep(state, move)
        if isinstance(move, MarkMove):
            self._expect(pending, "mark")
            return self._mark(state, move)
        if isinstance(move, DrawMove):
            self._expect(pending, "draw")
            return self._draw(state, move)
        raise IllegalMove("not an LPPG move")

    @staticmethod
    def _expect(pending: str | None, wanted: str) -> None:
        if pending == wanted:
            return
        hints = {
            "play": "it is time to place a card (`play …`) or `pass`",
            "keep": "it is time to choose which marker stays (`keep x,y`)",
            "mark": "it is time to mark the largest closed region (`mark o|p x,y`)",
            "draw": "it is time to draw two cards (`draw a b`, `draw a a` or `draw b b`)",
        }
        raise IllegalMove(hints.get(pending or "", "the game is over"))

    def _place(self, state: LppgState, move: PlayMove) -> LppgState:
        mover = state.turn_seat
        hand = state.hands[mover]
        if not 1 <= move.slot <= len(hand) or hand[move.slot - 1] < 0:
            raise IllegalMove(f"you have no card in slot {move.slot}")
        card = hand[move.slot - 1]
        board = state.board
        geo = board.geo
        x, y = move.x, move.y
        if not (
            geo.min_x - 3 <= x <= geo.max_x + 1
            and geo.min_y - 3 <= y <= geo.max_y + 1
            and _in_range(x, y)
        ):
            raise IllegalMove("the card must cover at least one square of the terrain")
        base = _key(x, y)
        cells = _CELLS[card][move.rot // 90]
        covered = 0
        same_colour = False
        for dk, c in cells:
            k = base + dk
            old = geo.colour.get(k)
            if old is None:
                continue
            covered += 1
            if k in board.territory_of:
                raise IllegalMove("a card may not cover any square of a territory")
            if old == c:
                same_colour = True
        if covered == 0:
            raise IllegalMove("the card must cover at least one square of the terrain")
        if covered == 6:
            raise IllegalMove("the card must reach past the terrain: it may not cover 6 squares")
        if not same_colour:
            raise IllegalMove(
                "at least one square of the card must lie on a square of the same colour"
            )
        colour = dict(geo.colour)
        for dk, c in cells:
            colour[base + dk] = c
        new_geo = _Geometry(colour)

        # Consequences for the territories (RULES §5, turn step 2).
        markers = state.markers
        by_comp: dict[int, list[int]] = {}
        for i, (_, _, mx, my) in enumerate(markers):
            by_comp.setdefault(new_geo.comp_of[_key(mx, my)], []).append(i)
        returned: set[int] = set()
        keep_groups = []
        kept_entries = []
        for comp, indices in by_comp.items():
            owners = {markers[i][0] for i in indices}
            if len(owners) > 1:
                raise IllegalMove("territories of different players may not be joined")
            owner = markers[indices[0]][0]
            if new_geo.comp_open[comp]:
                if any(markers[i][1] == "p" for i in indices):
                    raise IllegalMove("a permanent territory may not be opened")
                returned.update(indices)
                continue
            kept_entries.append((len(new_geo.comps[comp]), owner))
            if len(indices) > 1:
                squares = tuple(sorted((markers[i][2:] for i in indices), key=_yx))
                keep_groups.append((owner, squares))
        closed = [
            len(new_geo.comps[c])
            for c in range(len(new_geo.comps))
            if not new_geo.comp_open[c] and c not in by_comp
        ]
        # A mark that would be this player's third marker ends the game: only allowed when
        # their side then wins (and a territory is left).
        count = sum(1 for i, m in enumerate(markers) if m[0] == mover and i not in returned)
        count -= sum(len(squares) - 1 for owner, squares in keep_groups if owner == mover)
        if closed and count == 2:
            winner = _smallest_unique([*kept_entries, (max(closed), mover)])
            if winner is None or _side(state.players, winner[1]) != _side(state.players, mover):
                raise IllegalMove(
                    "this would make you place your third marker and end the game without "
                    + ("your team" if state.players == 4 else "you")
                    + " winning"
                )

        new_markers = tuple(m for i, m in enumerate(markers) if i not in returned)
        hands = list(state.hands)
        hands[mover] = tuple(c for i, c in enumerate(hand) if i != move.slot - 1)
        keep_groups.sort(key=lambda group: _yx(group[1][0]))
        after = dataclasses.replace(
            state,
            placed=(*state.placed, (card, x, y, move.rot)),
            markers=new_markers,
            hands=tuple(hands),
            keeps=tuple(keep_groups),
            to_move=keep_groups[0][0] if keep_groups else mover,
            pending="keep" if keep_groups else "mark",
            ply=state.ply + 1,
            last_move=move,
        )
        after.__dict__["geometry"] = new_geo
        if keep_groups:
            return after
        return self._after_consequences(after)

    def _after_consequences(self, state: LppgState) -> LppgState:
        """Marking if a closed region is visible, otherwise the end of the turn."""
        if state.board.closed_regions:
            return _derive(state, pending="mark", to_move=state.turn_seat)
        return self._end_turn(state)

    def _keep(self, state: LppgState, move: KeepMove) -> LppgState:
        owner, squares = state.keeps[0]
        chosen = (move.x, move.y)
        if chosen not in squares:
            listed = ", ".join(f"{x},{y}" for x, y in squares)
            raise IllegalMove(f"choose one of the merged markers: {listed}")
        dropped = {square for square in squares if square != chosen}
        markers = tuple(
            m for m in state.markers if not (m[0] == owner and (m[2], m[3]) in dropped)
        )
        rest = state.keeps[1:]
        after = _derive(
            state,
            markers=markers,
            keeps=rest,
            to_move=rest[0][0] if rest else state.turn_seat,
            ply=state.ply + 1,
            last_move=move,
        )
        if rest:
            return after
        return self._after_consequences(after)

    def _mark(self, state: LppgState, move: MarkMove) -> LppgState:
        board = state.board
        geo = board.geo
        mover = state.turn_seat
        comp = geo.comp_of.get(_key(move.x, move.y)) if _in_range(move.x, move.y) else None
        if comp is None or comp not in board.closed_regions:
            raise IllegalMove(f"{move.x},{move.y} is not in a closed unmarked region")
        largest = max(len(geo.comps[c]) for c in board.closed_regions)
        if len(geo.comps[comp]) != largest:
            raise IllegalMove(
                f"you must mark one of the largest closed regions ({largest} squares)"
            )
        if move.kind not in self._free_kinds(state, mover):
            kind = "ordinary" if move.kind == "o" else "permanent"
            raise IllegalMove(f"you have no {kind} marker left")
        tx, ty = _xy(min(geo.comps[comp]))
        markers = (*state.markers, (mover, move.kind, tx, ty))
        after = _derive(
            state,
            markers=markers,
            ply=state.ply + 1,
            last_move=MarkMove(move.kind, tx, ty),
        )
        if sum(1 for m in markers if m[0] == mover) == 3:
            outcome = self._score(after, "a third marker ended the game")
            if not outcome.winners or mover not in outcome.winners:
                # The placement check rules this out; kept as a guard for hand-built states.
                raise IllegalMove("your third marker may only end the game if your side wins")
            return _derive(after, to_move=None, pending=None, outcome=outcome)
        return self._end_turn(after)

    def _end_turn(self, state: LppgState) -> LppgState:
        mover = state.turn_seat
        hands = list(state.hands)
        discard = (*state.discard, *hands[mover])
        hands[mover] = ()
        if state.final_turns is None:
            return _derive(
                state, hands=tuple(hands), discard=discard, pending="draw", to_move=mover
            )
        left = state.final_turns - 1
        after = _derive(state, hands=tuple(hands), discard=discard, final_turns=left)
        if left == 0:
            outcome = self._score(after, "the cards ran out")
            return _derive(after, to_move=None, pending=None, outcome=outcome)
        nxt = _turn_order_next(state)
        return _derive(after, turn_seat=nxt, to_move=nxt, pending="play")

    def _pass(self, state: LppgState) -> LppgState:
        if self._placements(state, first_only=True):
            raise IllegalMove("one of your cards can be placed: you may pass only when neither can")
        after = _derive(state, ply=state.ply + 1, last_move=PassMove())
        return self._end_turn(after)

    def _draw(self, state: LppgState, move: DrawMove) -> LppgState:
        piles = {"a": list(state.pile_a), "b": list(state.pile_b)}
        discard = list(state.discard)
        reshuffles = state.reshuffles
        mover = state.turn_seat
        hand = list(state.hands[mover])
        for name in (move.first, move.second):
            other = "b" if name == "a" else "a"
            if not piles[name]:
                pool = discard + piles[other]
                rng_for(state.seed, "reshuffle", reshuffles).shuffle(pool)
                reshuffles += 1
                half = (len(pool) + 1) // 2
                piles["a"], piles["b"], discard = pool[:half], pool[half:], []
            if not piles[name]:
                name = other  # only one card was left and it went to pile A
            if piles[name]:
                hand.append(piles[name].pop(0))
        hands = list(state.hands)
        hands[mover] = tuple(hand)
        last_cards = not piles["a"] and not piles["b"] and not discard
        nxt = _turn_order_next(state)
        return _derive(
            state,
            hands=tuple(hands),
            pile_a=tuple(piles["a"]),
            pile_b=tuple(piles["b"]),
            discard=tuple(discard),
            reshuffles=reshuffles,
            final_turns=state.players if last_cards else state.final_turns,
            turn_seat=nxt,
            to_move=nxt,
            pending="play",
            ply=state.ply + 1,
            last_move=move,
        )

    def _score(self, state: LppgState, how: str) -> Outcome:
        players = state.players
        winner = _smallest_unique(state.board.territory_entries())
        if winner is None:
            return Outcome(
                frozenset(),
                (0.0,) * players,
                f"{how}: no territory is left once equal sizes cancel, so nobody wins",
            )
        size, seat = winner
        if players == 4:
            winners = frozenset({seat % 2, seat % 2 + 2})
            names = " and ".join(self.seat_name(state, s) for s in sorted(winners))
            verb = "win"
        else:
            winners = frozenset({seat})
            names = self.seat_name(state, seat)
            verb = "wins"
        scores = tuple(float(size) if s in winners else 0.0 for s in range(players))
        return Outcome(
            winners,
            scores,
            f"{how}: {names} {verb} with the smallest territory of its size "
            f"({size} square{'s' if size > 1 else ''})",
        )

    # ----- views, words, storage -------------------------------------------------------------

    def _view(self, state: LppgState, seat: int | None) -> LppgState:
        # Both faces of a card show its colour, so the colours in other hands are public; their
        # patterns are not.
        hands = tuple(
            hand if s == seat else tuple(_card_back(card) for card in hand)
            for s, hand in enumerate(state.hands)
        )
        return _derive(
            state,
            hands=hands,
            pile_a=_pile_view(state.pile_a),
            pile_b=_pile_view(state.pile_b),
            discard=(HIDDEN,) * len(state.discard),
        )

    def describe(self, state: LppgState, move: Move) -> str:
        who = self.seat_name(state, state.to_move if state.to_move is not None else 0)
        if isinstance(move, PlayMove):
            hand = state.hands[state.turn_seat]
            card = hand[move.slot - 1] if move.slot <= len(hand) else HIDDEN
            what = f"card {card_id(card)}" if card >= 0 else "a card"
            turned = f", turned {move.rot}°" if move.rot else ""
            return f"{who} places {what} at {move.x},{move.y}{turned}"
        if isinstance(move, PassMove):
            return f"{who} cannot place either card and discards both"
        if isinstance(move, KeepMove):
            return f"{who} keeps the marker on {move.x},{move.y} and takes the other back"
        if isinstance(move, MarkMove):
            kind = "an ordinary" if move.kind == "o" else "the permanent"
            return f"{who} puts {kind} marker on the region at {move.x},{move.y}"
        if isinstance(move, DrawMove):
            if move.first == move.second:
                return f"{who} draws two cards from pile {move.first.upper()}"
            return f"{who} draws a card from pile A and one from pile B"
        return str(move)

    def dump(self, state: LppgState) -> dict:
        return {
            "game": self.name,
            "players": state.players,
            "seed": state.seed,
            "to_move": state.to_move,
            "turn_seat": state.turn_seat,
            "pending": state.pending,
            "placed": [[card_id(c), x, y, rot] for c, x, y, rot in state.placed],
            "markers": [[seat, kind, x, y] for seat, kind, x, y in state.markers],
            "hands": [[card_id(c) for c in hand] for hand in state.hands],
            "pile_a": [card_id(c) for c in state.pile_a],
            "pile_b": [card_id(c) for c in state.pile_b],
            "discard": [card_id(c) for c in state.discard],
            "keeps": [[owner, [list(sq) for sq in squares]] for owner, squares in state.keeps],
            "final_turns": state.final_turns,
            "reshuffles": state.reshuffles,
            "ply": state.ply,
            "last_move": None if state.last_move is None else str(state.last_move),
            "outcome": dump_outcome(state.outcome),
        }

    def load(self, data: Mapping[str, Any]) -> LppgState:
        last = data.get("last_move")
        return LppgState(
            players=data["players"],
            seed=data["seed"],
            to_move=data["to_move"],
            turn_seat=data["turn_seat"],
            pending=data["pending"],
            placed=tuple((card_from_id(c), x, y, rot) for c, x, y, rot in data["placed"]),
            markers=tuple((seat, kind, x, y) for seat, kind, x, y in data["markers"]),
            hands=tuple(tuple(card_from_id(c) for c in hand) for hand in data["hands"]),
            pile_a=tuple(card_from_id(c) for c in data["pile_a"]),
            pile_b=tuple(card_from_id(c) for c in data["pile_b"]),
            discard=tuple(card_from_id(c) for c in data["discard"]),
            keeps=tuple(
                (owner, tuple((x, y) for x, y in squares)) for owner, squares in data["keeps"]
            ),
            final_turns=data["final_turns"],
            reshuffles=data["reshuffles"],
            ply=data["ply"],
            outcome=load_outcome(data.get("outcome")),
            last_move=None if last is None else self._parse(last, None),
        )


def _yx(square: tuple[int, int]) -> tuple[int, int]:
    return square[1], square[0]


def _in_range(x: int, y: int) -> bool:
    return -_COORD_LIMIT < x < _COORD_LIMIT and -_COORD_LIMIT < y < _COORD_LIMIT


def _card_back(card: int) -> int:
    """The placeholder for a card seen from its back: its colour only (``R?``)."""
    return -2 - (card_colour(card) - 1)


def _pile_view(pile: tuple[int, ...]) -> tuple[int, ...]:
    """A draw pile as everyone sees it: its size and the colour of its top card."""
    if not pile:
        return ()
    return (_card_back(pile[0]), *((HIDDEN,) * (len(pile) - 1)))


def _parse_deck(deck: Any) -> tuple[int, ...]:
    if isinstance(deck, str):
        deck = deck.replace(",", " ").split()
    if not isinstance(deck, Sequence) or isinstance(deck, str | bytes):
        raise ValueError("option deck must be the 76 card ids in dealing order")
    try:
        cards = tuple(card_from_id(str(c)) for c in deck)
    except ValueError as error:
        raise ValueError(f"option deck: {error}") from None
    if any(c < 0 for c in cards) or sorted(cards) != list(range(DECK_SIZE)):
        raise ValueError("option deck must list each of the 76 cards exactly once")
    return cards


# ----- match ("Tournoi") -------------------------------------------------------------------------


@dataclass(frozen=True)
class LppgMatch:
    """A match of several rounds (the seed's "Tournoi"), as a pure value.

    ``participants`` are the players in match order (4 players: participants 0 and 2 form a
    team against 1 and 3). Every game starts with seat 0, so the first seat rotates by seating
    participants differently: in round ``r`` seat ``s`` is ``participants[(s + r) % n]``. This
    keeps partners opposite each other. The winner of a round scores the size of the winning
    territory (in 4-player matches both partners); the first side with ``target`` points at
    the end of a round wins the match.
    """

    participants: tuple[Any, ...]
    target: int = 10
    #: Outcomes of the finished rounds, in order.
    rounds: tuple[Outcome, ...] = ()

    def __post_init__(self) -> None:
        if len(self.participants) not in (2, 4):
            raise ValueError("an LPPG match has 2 or 4 participants")

    def seating(self, round_index: int | None = None) -> tuple[Any, ...]:
        """Who sits in each seat in a round (by default the next one)."""
        r = len(self.rounds) if round_index is None else round_index
        n = len(self.participants)
        return tuple(self.participants[(s + r) % n] for s in range(n))

    def record(self, outcome: Outcome) -> LppgMatch:
        """The match after the next round ended with ``outcome``."""
        if self.finished:
            raise ValueError("the match is already over")
        return dataclasses.replace(self, rounds=(*self.rounds, outcome))

    def points(self) -> dict[Any, int]:
        totals = {p: 0 for p in self.participants}
        for r, outcome in enumerate(self.rounds):
            seating = self.seating(r)
            for seat in outcome.winners:
                totals[seating[seat]] += int(outcome.scores[seat])
        return totals

    @property
    def finished(self) -> bool:
        return self.winners is not None

    @property
    def winners(self) -> frozenset[Any] | None:
        """The winning participant (or team) once someone has ``target`` points."""
        points = self.points()
        best = max(points.values())
        if best < self.target:
            return None
        return frozenset(p for p, v in points.items() if v == best)


GAME = register(Lppg())
