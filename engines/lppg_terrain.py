"""LPPG's terrain (RULES.md §5, Terrain and definitions) and the search for legal placements.

Squares are integers, ``key(x, y) = (y + OFF) * W + (x + OFF)``, so neighbours are ``k ± 1``
and ``k ± W`` and the hot loops handle no tuples or strings. ``Geometry`` is what the placed
cards alone determine (the visible colour of every covered square, the white components, open
or closed); ``Board`` adds the markers (territories, closed unmarked regions).

The legal-move search runs once per placement decision, thousands of times in an AI's
playouts, so it works on every box position at once: ``Frame`` holds the terrain as bitboards
(Python integers, one bit per square of a frame around the terrain), and "covers 1 to 5
squares, no territory, one square of the same colour" for a card at a rotation is a handful of
shifts and ors over all positions. The consequences are decided in bulk too where they can
be: a card touching no territory is legal; when a mark would end the game, ``Frame.calm`` finds
the positions where only the card's own white squares can close, so the verdict there depends
on the card alone. The remaining positions (territories of two owners or a permanent one
touched, regions cut by the box at the end of the game) are looked at one by one, through
``Surroundings``: what lies around that box whatever the card, and the illegal ones cleared
from the bitboard; ``placements`` keeps the result as bitboards, a lazy sequence of moves.
``Lppg._place`` applies the rules in full; ``test_fast_and_full_placement_checks_agree`` keeps
it and the search in step, ``test_placements_decided_in_bulk_match_the_one_by_one_checks`` the
bulk and the one-by-one checks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engines.core import LazyMoves
from engines.graphgo import nth_bit
from engines.lppg_cards import CARD_SQUARES, DECK_SIZE, WHITE

W = 1024
OFF = W // 2
#: Far enough from OFF that neighbours of the terrain never wrap around a row.
COORD_LIMIT = OFF - 8


def key(x: int, y: int) -> int:
    return (y + OFF) * W + (x + OFF)


def xy(k: int) -> tuple[int, int]:
    return k % W - OFF, k // W - OFF


def in_range(x: int, y: int) -> bool:
    return -COORD_LIMIT < x < COORD_LIMIT and -COORD_LIMIT < y < COORD_LIMIT


def yx_order(square: tuple[int, int]) -> tuple[int, int]:
    """Sort key of a square: top to bottom, then left to right."""
    return square[1], square[0]


# ----- card tables in square keys ----------------------------------------------------------------

#: Box shapes: 0 = 3 wide × 2 tall (rotations 0 and 180), 1 = 2 wide × 3 tall (90 and 270).
DIMS = ((3, 2), (2, 3))
_BOX = tuple(tuple(dy * W + dx for dy in range(h) for dx in range(w)) for w, h in DIMS)
#: Squares orthogonally next to the box, outside it.
_RING = tuple(
    tuple(
        dy * W + dx
        for dy in range(-1, h + 1)
        for dx in range(-1, w + 1)
        if (0 <= dx < w) != (0 <= dy < h)
    )
    for w, h in DIMS
)


def _outside_neighbour_squares(width: int, height: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square of a box (bit order ``dy * width + dx``), its neighbours outside the box, as
    (dx, dy) from the box's top-left square."""
    out = []
    for dy in range(height):
        for dx in range(width):
            out.append(tuple(
                (nx, ny)
                for nx, ny in ((dx + 1, dy), (dx - 1, dy), (dx, dy + 1), (dx, dy - 1))
                if not (0 <= nx < width and 0 <= ny < height)
            ))
    return tuple(out)


_OUTSIDE_NEIGHBOUR_SQUARES = tuple(_outside_neighbour_squares(w, h) for w, h in DIMS)

#: The ring squares of each shape as (dx, dy), and for each its neighbours outside the box.
_RING_SQUARES = tuple(
    tuple(
        (dx, dy)
        for dy in range(-1, h + 1)
        for dx in range(-1, w + 1)
        if (0 <= dx < w) != (0 <= dy < h)
    )
    for w, h in DIMS
)
_NEIGHBOURS_OUT = tuple(
    {
        (dx, dy): tuple(
            (nx, ny)
            for nx, ny in ((dx + 1, dy), (dx - 1, dy), (dx, dy + 1), (dx, dy - 1))
            if not (0 <= nx < w and 0 <= ny < h)
        )
        for dx, dy in ring
    }
    for (w, h), ring in zip(DIMS, _RING_SQUARES, strict=True)
)


def _build_card_tables():
    cells, whites = [], []
    for card in range(DECK_SIZE):
        per_rot_cells, per_rot_whites = [], []
        for r, squares in enumerate(CARD_SQUARES[card]):
            width = DIMS[r % 2][0]
            white_mask = 0
            for dx, dy, colour in squares:
                if colour == WHITE:
                    white_mask |= 1 << (dy * width + dx)
            per_rot_cells.append(tuple((dy * W + dx, colour) for dx, dy, colour in squares))
            per_rot_whites.append(white_mask)
        cells.append(tuple(per_rot_cells))
        whites.append(tuple(per_rot_whites))
    return tuple(cells), tuple(whites)


#: ``CELLS[card][r]``: (key offset, colour) of each square at rotation ``ROTATIONS[r]``;
#: ``WHITE_BITS[card][r]``: its white squares as bits ``dy * width + dx`` of the box, and
#: ``WHITE_SQUARES[card][r]`` the same as a tuple of bit indices.
CELLS, WHITE_BITS = _build_card_tables()
WHITE_SQUARES = tuple(
    tuple(tuple(j for j in range(6) if mask >> j & 1) for mask in per_rot)
    for per_rot in WHITE_BITS
)


# ----- geometry and board ------------------------------------------------------------------------


class Geometry:
    """What the placed cards alone determine: the visible colour of every covered square and
    the white components with their open/closed status."""

    __slots__ = (
        "_colour_bits",
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

    def __init__(
        self, colour: dict[int, int], bounds: tuple[int, int, int, int] | None = None
    ) -> None:
        """``bounds``: (min_x, max_x, min_y, max_y) of the covered squares, if known."""
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
        if bounds is None:
            # W is a power of two: a key's column is ``k & (W - 1)``; its row orders the keys.
            columns = list(map((W - 1).__and__, colour))
            bounds = (
                min(columns) - OFF, max(columns) - OFF,
                min(colour) // W - OFF, max(colour) // W - OFF,
            )
        self.min_x, self.max_x, self.min_y, self.max_y = bounds
        self._colour_bits: tuple[int, ...] | None = None

    def covered_by(self, base: int, cells: Sequence[tuple[int, int]]) -> Geometry:
        """The geometry once a card whose squares are ``cells`` (key offset, colour) lies with
        its box's top-left at ``base``. The bounds and, while the bitboard frame stays the
        same, the colour bitboards follow from this geometry's instead of being recomputed."""
        colour = dict(self.colour)
        x, y = xy(base)
        min_x, max_x, min_y, max_y = self.min_x, self.max_x, self.min_y, self.max_y
        for dk, c in cells:
            colour[base + dk] = c
            cx, cy = x + dk % W, y + dk // W
            if cx < min_x:
                min_x = cx
            elif cx > max_x:
                max_x = cx
            if cy < min_y:
                min_y = cy
            elif cy > max_y:
                max_y = cy
        after = Geometry(colour, (min_x, max_x, min_y, max_y))
        if self._colour_bits is not None and after.frame_origin() == self.frame_origin():
            x0, y0, width = self.frame_origin()
            shift = (y0 + OFF) * width + x0 + OFF
            masks = list(self._colour_bits)
            old = self.colour
            for dk, c in cells:
                k = base + dk
                bit = 1 << ((k // W) * width + k % W - shift)
                was = old.get(k)
                if was is not None:
                    masks[was] &= ~bit
                masks[c] |= bit
            after._colour_bits = tuple(masks)
        return after

    @classmethod
    def from_placed(cls, placed: Sequence[tuple[int, int, int, int]]) -> Geometry:
        colour: dict[int, int] = {}
        for card, x, y, rot in placed:
            base = key(x, y)
            for dk, c in CELLS[card][rot // 90]:
                colour[base + dk] = c
        return cls(colour)

    def frame_origin(self) -> tuple[int, int, int]:
        """(x0, y0, width) of the bitboard frame: the terrain with at least 4 empty columns and
        rows on each side, enough for a box and its ring at every position that touches the
        terrain, and so that a box shifted past the right edge lands in empty columns. The
        width is a power of two, so a bit index splits into row and column with shifts."""
        needed = self.max_x - self.min_x + 9
        return self.min_x - 4, self.min_y - 4, 1 << (needed - 1).bit_length()

    def colour_bits(self) -> tuple[int, ...]:
        """The covered squares of each colour code (0 white..4) as bitboards of the frame."""
        if self._colour_bits is None:
            x0, y0, width = self.frame_origin()
            shift = (y0 + OFF) * width + x0 + OFF
            masks = [0, 0, 0, 0, 0]
            for k, c in self.colour.items():
                masks[c] |= 1 << ((k // W) * width + k % W - shift)
            self._colour_bits = tuple(masks)
        return self._colour_bits


class Board:
    """The geometry plus the markers: territories, closed unmarked regions, marker counts; and
    the caches of the legal-move search on it."""

    __slots__ = (
        "_closed_by_size",
        "_frame",
        "_kinds",
        "_wins",
        "cached_surroundings",
        "closed_regions",
        "comp_owner",
        "comp_permanent",
        "geo",
        "marker_comp",
        "markers_of",
        "territory_of",
    )

    def __init__(self, geo: Geometry, markers: Sequence[tuple[int, str, int, int]]) -> None:
        self.geo = geo
        self.marker_comp = [geo.comp_of[key(x, y)] for _, _, x, y in markers]
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
        self._frame: Frame | None = None
        self._kinds: tuple[list[int], list[int]] | None = None
        self._closed_by_size: list[tuple[int, int]] | None = None
        self.cached_surroundings: dict[int, Surroundings] = {}
        self._wins: dict[tuple[int, int, int], bool] = {}

    def comp_kinds(self) -> tuple[list[int], list[int]]:
        """Per component, what it is to a box placed next to it (territory, closed, open, or
        open with few liberties), and its size."""
        if self._kinds is None:
            geo = self.geo
            kinds = []
            for comp in range(len(geo.comps)):
                if comp in self.comp_owner:
                    kinds.append(_TERRITORY)
                elif not geo.comp_open[comp]:
                    kinds.append(_CLOSED)
                elif len(geo.comp_liberties[comp]) > 6:
                    kinds.append(_OPEN)
                else:
                    kinds.append(_FEW_LIBERTIES)
            self._kinds = (kinds, [len(squares) for squares in geo.comps])
        return self._kinds

    def closed_by_size(self) -> list[tuple[int, int]]:
        """(size, component) of the closed unmarked regions, largest first."""
        if self._closed_by_size is None:
            comps = self.geo.comps
            self._closed_by_size = sorted(
                ((len(comps[comp]), comp) for comp in self.closed_regions), reverse=True
            )
        return self._closed_by_size

    def territory_entries(self) -> list[tuple[int, int]]:
        """(size, owner) of every territory."""
        return [(len(self.geo.comps[comp]), seat) for comp, seat in self.comp_owner.items()]

    @property
    def frame(self) -> Frame:
        if self._frame is None:
            self._frame = Frame(self)
        return self._frame

    def surroundings(self, base: int, shape: int) -> Surroundings:
        """What surrounds a box of ``shape`` at ``base`` (cached in ``cached_surroundings``
        under ``base * 2 + shape``)."""
        cache_key = base * 2 + shape
        around = self.cached_surroundings.get(cache_key)
        if around is None:
            around = self.cached_surroundings[cache_key] = Surroundings(self, base, shape)
        return around

    def losing_sizes(self, mover: int, players: int) -> tuple[frozenset[int], int]:
        """The sizes of region whose marking, as ``mover``'s third marker with the territories
        as they are, does not make their side win; as (sizes up to ``top``, ``top``): every
        size from ``top`` on (larger than any territory) gives the same verdict as ``top``."""
        top = max((size for size, _ in self.territory_entries()), default=0) + 1
        losing = frozenset(
            size for size in range(1, top + 1)
            if not self.third_marker_wins(size, mover, players)
        )
        return losing, top

    def third_marker_wins(self, size: int, mover: int, players: int) -> bool:
        """Whether ``mover`` ending the game by marking a region of ``size`` squares, the
        territories staying as they are, makes their side win."""
        memo_key = (size, mover, players)
        wins = self._wins.get(memo_key)
        if wins is None:
            winner = smallest_unique([*self.territory_entries(), (size, mover)])
            wins = winner is not None and side(players, winner[1]) == side(players, mover)
            self._wins[memo_key] = wins
        return wins


# ----- scoring -----------------------------------------------------------------------------------


def smallest_unique(entries: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """(size, owner) of the smallest territory whose size no other territory shares."""
    counts: dict[int, int] = {}
    for size, _ in entries:
        counts[size] = counts.get(size, 0) + 1
    best = None
    for entry in entries:
        if counts[entry[0]] == 1 and (best is None or entry < best):
            best = entry
    return best


def side(players: int, seat: int) -> int:
    """The side of a seat: itself, or with four players its team (0: North and South)."""
    return seat % 2 if players == 4 else seat


# ----- the search over every position at once ----------------------------------------------------


class Frame:
    """The terrain as bitboards: bit ``(y - y0) * width + (x - x0)`` stands for square (x, y).
    ``valid[shape]`` has the bit of every box top-left where a box of that shape covers 1 to 5
    squares and no territory; ``shifted(c, d)`` has, at each box top-left, whether its square
    at frame offset ``d`` (``dy * width + dx``) is covered in colour ``c``."""

    __slots__ = (
        "_calm",
        "board",
        "colours",
        "covered",
        "height",
        "near_by_owner",
        "near_permanent",
        "near_territory",
        "row_keys",
        "shifted_cache",
        "valid",
        "width",
        "x0",
        "y0",
    )

    def __init__(self, board: Board) -> None:
        geo = board.geo
        self.board = board
        self.x0, self.y0, width = geo.frame_origin()
        self.width = width
        self.height = geo.max_y - geo.min_y + 9
        #: The square key of the first square of each frame row.
        first = (self.y0 + OFF) * W + self.x0 + OFF
        self.row_keys = list(range(first, first + self.height * W, W))
        self.colours = geo.colour_bits()
        covered = 0
        for mask in self.colours:
            covered |= mask
        self.covered = covered
        bit = self.bit
        by_owner: dict[int, int] = {}
        permanent = 0
        for comp, owner in board.comp_owner.items():
            squares = _or(bit(k) for k in geo.comps[comp])
            by_owner[owner] = by_owner.get(owner, 0) | squares
            if board.comp_permanent[comp]:
                permanent |= squares
        territory = _or(by_owner.values())
        # Territory squares never lie on the frame's edges, so shifting by one square does not
        # wrap around a row.
        outside_territory = covered & ~territory

        def beside(mask: int) -> int:
            return ((mask << 1) | (mask >> 1) | (mask << width) | (mask >> width)) & (
                outside_territory
            )

        #: Covered squares next to a territory: a white card square there makes it grow; per
        #: owner, and next to a permanent territory (which may not be opened).
        self.near_by_owner = [beside(mask) for mask in by_owner.values()]
        self.near_territory = _or(self.near_by_owner)
        self.near_permanent = beside(permanent) if permanent else 0
        self.shifted_cache: dict[int, int] = {}
        self._calm: tuple[list[int], list[list[int]], int] | None = None
        self.valid = []
        for w, h in DIMS:
            any_covered, all_covered, any_territory = 0, -1, 0
            for dy in range(h):
                for dx in range(w):
                    d = dy * width + dx
                    any_covered |= covered >> d
                    all_covered &= covered >> d
                    any_territory |= territory >> d
            self.valid.append(any_covered & ~all_covered & ~any_territory)

    def bit(self, k: int) -> int:
        """The bit of square key ``k``."""
        width = self.width
        return 1 << ((k // W - OFF - self.y0) * width + k % W - OFF - self.x0)

    def shifted(self, colour: int, d: int) -> int:
        """``colours[colour] >> d``, cached in ``shifted_cache`` under ``d * 8 + colour`` (a
        card's squares reuse a few offsets)."""
        cache_key = d * 8 + colour
        mask = self.shifted_cache.get(cache_key)
        if mask is None:
            mask = self.shifted_cache[cache_key] = self.colours[colour] >> d
        return mask

    def calm(self) -> tuple[list[int], list[list[int]], int, int]:
        """What the end-of-game check needs, for every position at once.

        ``calm[shape]``: the box positions where covering the box closes nothing but perhaps
        the card's own white squares: no closed region under the box, and every white square
        of an open region next to it stays open (it has an uncovered neighbour outside the
        box; or, when the box covers no white square, its region keeps a liberty outside the
        box). There, unless the card's white squares join a closed region or a territory
        (``near_closed``: the covered squares next to one), the closed regions after the
        placement are the older ones and perhaps the card's white squares. ``reach[shape][j]``:
        the positions where a white card square at box bit ``j`` reaches the outside (an
        uncovered neighbour outside the box, or a white square of an open region).
        ``largest``: the size of the largest closed unmarked region (0: none)."""
        if self._calm is None:
            self._calm = self._compute_calm()
        return self._calm

    def _compute_calm(self) -> tuple[list[int], list[list[int]], int, int]:
        board = self.board
        geo = board.geo
        width = self.width
        full = (1 << (width * self.height)) - 1
        uncovered = full & ~self.covered
        bit = self.bit
        # White squares of closed regions (territories included), the covered squares next to
        # them, and the white squares of open regions.
        closed = 0
        # Per shape, positions whose box holds every liberty of an open region with few.
        smothering = [0, 0]
        for comp, squares in enumerate(geo.comps):
            if not geo.comp_open[comp]:
                closed |= _or(bit(k) for k in squares)
                continue
            liberties = geo.comp_liberties[comp]
            if len(liberties) > 6:
                continue
            xs = [k % W - OFF for k in liberties]
            ys = [k // W - OFF for k in liberties]
            for shape, (w, h) in enumerate(DIMS):
                for bx in range(max(xs) - w + 1, min(xs) + 1):
                    for by in range(max(ys) - h + 1, min(ys) + 1):
                        smothering[shape] |= bit(key(bx, by))
        open_white = self.colours[WHITE] & ~closed
        # Closed squares never lie on the frame's edges: shifting by one does not wrap.
        near_closed = (
            (closed << 1) | (closed >> 1) | (closed << width) | (closed >> width)
        ) & self.covered & ~closed
        reaching = uncovered | open_white

        def shift(mask: int, d: int) -> int:
            return mask >> d if d >= 0 else (mask << -d) & full

        calm = []
        reach = []
        for shape, (w, h) in enumerate(DIMS):
            cuts = 0
            bad = 0
            for dy in range(h):
                for dx in range(w):
                    cuts |= open_white >> (dy * width + dx)
                    bad |= closed >> (dy * width + dx)
            unsure = cuts | smothering[shape]
            for dx, dy in _RING_SQUARES[shape]:
                self_open = _or(
                    shift(uncovered, ny * width + nx)
                    for nx, ny in _NEIGHBOURS_OUT[shape][(dx, dy)]
                )
                bad |= shift(open_white, dy * width + dx) & ~self_open & unsure
            calm.append(self.valid[shape] & ~bad)
            reach.append([
                _or(shift(reaching, ny * width + nx) for nx, ny in neighbours)
                for neighbours in _OUTSIDE_NEIGHBOUR_SQUARES[shape]
            ])
        largest = max((len(geo.comps[c]) for c in board.closed_regions), default=0)
        return calm, reach, largest, near_closed


def _or(masks) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first (through its binary text: one C
    call instead of a Python loop over a few-thousand-bit integer)."""
    text = bin(mask)[:1:-1]
    out = []
    find = text.find
    i = find("1")
    while i >= 0:
        out.append(i)
        i = find("1", i + 1)
    return out


class _Codes:
    """The identity mapping: ``placement_codes`` returns the codes themselves."""

    def __getitem__(self, code: int) -> int:
        return code


CODES = _Codes()


def placement_codes(
    board: Board,
    hand: Sequence[int],
    mover: int,
    players: int,
    first_only: bool = False,
    *,
    moves: Mapping[int, Any] = CODES,
    one_by_one: bool = False,
) -> list[Any]:
    """Every legal placement of the cards in ``hand`` for ``mover``, as codes
    ``key(x, y) << 3 | (slot - 1) << 2 | r`` (``r`` indexes ``ROTATIONS``) or, with ``moves``,
    as ``moves[code]``; in the order slot, rotation, then box top-left from top to bottom and
    left to right. Hidden placeholders in the hand are skipped. With ``first_only``, stops at
    the first one found. With ``one_by_one``, every position is checked by
    ``consequences_allowed``, none decided in bulk (for the tests that keep the two in step)."""
    return list(_search(board, hand, mover, players, first_only, moves, one_by_one, None))


def placements(
    board: Board, hand: Sequence[int], mover: int, players: int, moves: Mapping[int, Any]
) -> Placements:
    """``placement_codes(board, hand, mover, players, moves=moves)`` as a lazy sequence: the
    legal positions stay bitboards until a move is asked for."""
    segments: list[tuple[int, int, int]] = []
    _search(board, hand, mover, players, False, moves, False, segments)
    return Placements(board.frame, segments, moves)


class Placements(LazyMoves[Any]):
    """Legal placements in ``placement_codes`` order, held as segments ``(count, mask, tag)``:
    per slot and rotation (``tag``), the bitboard of the legal box top-lefts. ``len`` is known
    at once; ``moves[i]`` makes one move by counting bits, so a random playout builds only the
    move it plays."""

    __slots__ = ("_column", "_len", "_moves", "_row_keys", "_row_shift", "_segments")

    def __init__(
        self,
        frame: Frame,
        segments: list[tuple[int, int, int]],
        moves: Mapping[int, Any],
    ) -> None:
        self._segments = segments
        self._moves = moves
        self._row_keys = frame.row_keys
        self._row_shift = frame.width.bit_length() - 1
        self._column = frame.width - 1
        self._len = sum(segment[0] for segment in segments)

    def __len__(self) -> int:
        return self._len

    def _at(self, index: int) -> Any:
        for count, mask, tag in self._segments:
            if index < count:
                i = nth_bit(mask, index)
                return self._moves[
                    (self._row_keys[i >> self._row_shift] + (i & self._column)) << 3 | tag
                ]
            index -= count
        raise IndexError("move index out of range")

    def __iter__(self) -> Iterator[Any]:
        moves, row_keys = self._moves, self._row_keys
        row_shift, column = self._row_shift, self._column
        for _, mask, tag in self._segments:
            for i in _bits(mask):
                yield moves[(row_keys[i >> row_shift] + (i & column)) << 3 | tag]


def _search(
    board: Board,
    hand: Sequence[int],
    mover: int,
    players: int,
    first_only: bool,
    moves: Mapping[int, Any],
    one_by_one: bool,
    segments: list[tuple[int, int, int]] | None,
) -> list[Any]:
    """The search behind ``placement_codes`` (which see). With ``segments``, the legal
    positions of each slot and rotation are appended there as a bitboard ``(count, mask,
    tag)`` and nothing is returned; otherwise the moves are returned as a list."""
    frame = board.frame
    width = frame.width
    row_shift = width.bit_length() - 1
    column = width - 1
    row_keys = frame.row_keys
    shifted = frame.shifted
    shifted_cache = frame.shifted_cache
    valid = frame.valid
    # Covered squares where a white card square has consequences to check one by one: next
    # to a territory (it grows); at the end check, next to any closed region.
    near = frame.near_territory
    # With two markers down, any mark this turn would be the third and end the game, unless
    # the mover's side would win whatever the size of the region marked: then only placements
    # that change territories (and so who wins) are looked at one by one.
    check_end = board.markers_of[mover] == 2
    if check_end:
        losing, top = board.losing_sizes(mover, players)
    always_wins = check_end and not losing
    if check_end and not always_wins:
        calm, reach, largest, near = frame.calm()
        open_ok = largest == 0 or board.third_marker_wins(largest, mover, players)
    surroundings = board.cached_surroundings
    out: list[Any] = []
    append = out.append
    for slot, card in enumerate(hand):
        if card < 0:
            continue  # a view's hidden placeholder
        for r in range(4):
            match = 0
            whites = []
            # Where a white card square lies on a ``near`` square.
            joins = 0
            for dx, dy, c in CARD_SQUARES[card][r]:
                d = dy * width + dx
                match |= shifted_cache.get(d * 8 + c) or shifted(c, d)
                if c == WHITE:
                    whites.append(d)
                    if near:
                        joins |= near >> d
            shape = r & 1
            match &= valid[shape]
            if not match:
                continue
            tag = slot << 2 | r
            white = WHITE_BITS[card][r]
            if always_wins:
                risky = match & joins
            elif check_end:
                # Where nothing but the card's own white squares can close, the verdict is
                # the same for every position: decide them all at once. Where a white card
                # square joins a closed region or a territory, look one by one.
                quiet = match & calm[shape] & ~joins
                risky = match ^ quiet
                if quiet:
                    reaches = 0
                    for j in WHITE_SQUARES[card][r]:
                        reaches |= reach[shape][j]
                    size = max(largest, white.bit_count())
                    closed_ok = board.third_marker_wins(size, mover, players)
                    match = risky
                    if open_ok:
                        match |= quiet & reaches
                    if closed_ok:
                        match |= quiet & ~reaches
            elif match & joins:
                # A card joining territories may break a rule only if they have two owners
                # or one is permanent (it may be opened).
                risky = 0
                permanent = frame.near_permanent
                if permanent:
                    for d in whites:
                        risky |= permanent >> d
                if len(frame.near_by_owner) > 1:
                    seen = 0
                    for mask in frame.near_by_owner:
                        touched = 0
                        for d in whites:
                            touched |= mask >> d
                        risky |= seen & touched
                        seen |= touched
                risky &= match
            else:
                risky = 0
            if one_by_one:
                risky = match
            if risky:
                # The positions not decided in bulk, one by one: drop the illegal ones. The
                # set bits of ``risky``, lowest first, through its binary text.
                rejected = 0
                text = bin(risky)[:1:-1]
                find = text.find
                i = find("1")
                while i >= 0:
                    base = row_keys[i >> row_shift] + (i & column)
                    around = surroundings.get(base * 2 + shape)
                    if around is None:
                        around = surroundings[base * 2 + shape] = Surroundings(board, base, shape)
                    if check_end and not white & around.territory_bits and not one_by_one:
                        # The common case of ``consequences_allowed``, inline: no territory
                        # touched, so the largest closed region left gets the third marker.
                        most = around.largest_closed_after(white)
                        if most and (most if most < top else top) in losing:
                            rejected |= 1 << i
                    elif not consequences_allowed(
                        board, base, shape, white, mover, players, check_end
                    ):
                        rejected |= 1 << i
                    i = find("1", i + 1)
                match &= ~rejected
            if not match:
                continue
            if first_only:
                i = (match & -match).bit_length() - 1
                return [moves[(row_keys[i >> row_shift] + (i & column)) << 3 | tag]]
            if segments is not None:
                segments.append((match.bit_count(), match, tag))
                continue
            for i in _bits(match):
                append(moves[(row_keys[i >> row_shift] + (i & column)) << 3 | tag])
    return out


# ----- one position at a time: what surrounds a box ---------------------------------------------




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


_RING_BITS = tuple(_ring_bits(w, h) for w, h in DIMS)

_OPEN, _CLOSED, _TERRITORY = 0, 1, 2
#: An open region with at most 6 liberties: a box may cover them all and close it.
_FEW_LIBERTIES = 3
_RING_MASKS = tuple(
    tuple((dk, 1 << bit) for dk, bit in zip(_RING[shape], _RING_BITS[shape], strict=True))
    for shape in range(2)
)


class Surroundings:
    """What lies around one box position once the box is covered, whatever the card: the white
    pieces next to the box (open regions, closed regions, territories) with the box squares
    they touch, the box squares next to the outside, and the closed regions out of reach. A
    card's consequences then follow from its white squares alone, with a few bit operations.

    ``opening``: box squares from which a white card square reaches the outside (directly or
    through an open region); ``territory_bits``: box squares next to a territory;
    ``closed``: (box squares touched, size) of each closed piece next to the box;
    ``far_largest``: the size of the largest closed region not next to the box (0: none)."""

    __slots__ = ("closed", "far_largest", "opening", "pieces", "territory_bits")

    def __init__(self, board: Board, base: int, shape: int) -> None:
        geo = board.geo
        colour = geo.colour
        comp_of = geo.comp_of
        kinds, sizes = board.comp_kinds()
        box = {base + d for d in _BOX[shape]}
        cut = {comp_of.get(k) for k in box}
        # Box squares next to an uncovered square (the ring squares are exactly the squares
        # outside the box next to one of its squares).
        edge = 0
        # pieces: [touched box bits, kind, size, component (territories: for owner lookups)]
        pieces: list[list[int]] = []
        piece_of_comp: dict[int, int] = {}
        piece_of_square: dict[int, int] = {}
        for dk, mask in _RING_MASKS[shape]:
            r = base + dk
            comp = comp_of.get(r)
            if comp is None:
                if r not in colour:
                    edge |= mask
                continue  # uncovered, or a coloured square
            if comp not in cut:
                index = piece_of_comp.get(comp)
                if index is None:
                    index = piece_of_comp[comp] = len(pieces)
                    kind = kinds[comp]
                    if kind == _FEW_LIBERTIES:
                        liberties = geo.comp_liberties[comp]
                        kind = _OPEN if any(lib not in box for lib in liberties) else _CLOSED
                    pieces.append([mask, kind, 0 if kind == _OPEN else sizes[comp], comp])
                else:
                    pieces[index][0] |= mask
                continue
            index = piece_of_square.get(r)
            if index is None:
                index = self._fragment(r, colour, box, pieces, piece_of_square)
            pieces[index][0] |= mask
        self.pieces = pieces
        opening = edge
        territory_bits = 0
        closed = []
        for mask, kind, size, _ in pieces:
            if kind == _OPEN:
                opening |= mask
            elif kind == _TERRITORY:
                territory_bits |= mask
            else:
                closed.append((mask, size))
        self.opening = opening
        self.territory_bits = territory_bits
        self.closed = closed
        far_largest = 0
        for size, comp in board.closed_by_size():
            if comp not in cut and comp not in piece_of_comp:
                far_largest = size
                break
        self.far_largest = far_largest

    def largest_closed_after(self, white_mask: int) -> int:
        """The size of the largest closed region once a card whose white squares are
        ``white_mask`` lies in the box (0: none), when it touches no territory."""
        largest = self.far_largest
        joined = white_mask.bit_count()
        for mask, size in self.closed:
            if mask & white_mask:
                joined += size
            elif size > largest:
                largest = size
        if not white_mask & self.opening and joined > largest:
            largest = joined
        return largest

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
        get = colour.get
        while stack and not is_open:
            a = stack.pop()
            for n in (a + 1, a - 1, a + W, a - W):
                if n in seen or n in box:
                    continue
                c = get(n)
                if c is None:
                    is_open = True
                    break
                if c:
                    continue  # a coloured square
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


def consequences_allowed(
    board: Board,
    base: int,
    shape: int,
    white_mask: int,
    mover: int,
    players: int,
    check_end: bool,
) -> bool:
    """Whether a card whose white squares are ``white_mask`` (box bits), its box's top-left at
    ``base``, passes the consequence rules of ``Lppg._place``: no territories of two players
    joined, no permanent territory opened, and no third marker that ends the game without the
    mover's side winning."""
    around = board.cached_surroundings.get(base * 2 + shape) or board.surroundings(base, shape)
    if not white_mask & around.territory_bits:
        if not check_end:
            return True
        # No territory touched: the mover's two markers stay, so any closed region left means
        # a mark that ends the game. The largest one is what gets marked.
        largest = around.largest_closed_after(white_mask)
        return largest == 0 or board.third_marker_wins(largest, mover, players)
    opened = bool(white_mask & around.opening)
    card_size = white_mask.bit_count()
    touched = []
    for mask, kind, size, comp in around.pieces:
        if mask & white_mask and kind != _OPEN:
            card_size += size
            if kind == _TERRITORY:
                touched.append(comp)
    owners = {board.comp_owner[comp] for comp in touched}
    if len(owners) > 1:
        return False
    if opened and any(board.comp_permanent[comp] for comp in touched):
        return False
    if not check_end:
        return True
    count = board.markers_of[mover]
    if owners == {mover}:
        count -= len(touched) if opened else len(touched) - 1
    if count != 2:
        return True
    most = around.far_largest
    for mask, size in around.closed:
        if size > most and not mask & white_mask:
            most = size
    if not most:
        return True
    entries = [
        (len(board.geo.comps[comp]), seat)
        for comp, seat in board.comp_owner.items()
        if comp not in touched
    ]
    if not opened:
        entries.append((card_size, next(iter(owners))))
    entries.append((most, mover))
    winner = smallest_unique(entries)
    return winner is not None and side(players, winner[1]) == side(players, mover)

