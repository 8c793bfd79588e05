"""Polygo: Go with walls on a Chinese-checkers star. RULES.md §2.

Seat 0 = Black moves first, seat 1 = White. A turn is a stone, then optionally walls on empty
cells next to that stone. Walls are permanent and take their cell out of the board.

Boards (option ``board``) and their notation (a letter then a number; cells are ordered by
letter then number, which is also how walls are sorted in canonical notation):

- ``star`` (default): the 121-cell star, axial (q, r); letter ``a`` + (q + 8), number r + 9
  (``a``..``q``, ``1``..``17``); the centre is ``i9``.
- ``hex5``: the hexagon of side 5 (61 cells, 6 neighbours); letter ``a`` + (q + 4), number
  r + 5 (``a``..``i``, ``1``..``9``); the centre is ``e5``.
- ``square9``: the 9×9 square (81 cells, 4 neighbours); letter = column ``a``..``i``, number =
  row ``1``..``9`` (row 1 drawn at the bottom, as on Go diagrams); the centre is ``e5``.

Rulings we made where RULES.md leaves room (each has a test in tests/engines/test_polygo.py):

- Order of a turn: the stone goes down and captures enemy groups left without liberty; the walls
  then go down together (on cells empty at that moment, each next to the stone); enemy groups
  left without liberty are captured; finally, if any friendly group has no liberty the whole
  turn is illegal. A lone stone without liberty is therefore legal only if it captures.
- Ko: a turn may not produce exactly the whole-board position (stones and walls) that existed
  after the same player's previous turn, i.e. before the opponent's last turn. Only turns that
  capture can do that, and walls never (they only accumulate), so only stone-only captures are
  compared. Longer cycles are allowed (the walls make them rare).
- ``legal_moves`` lists every legal turn with at most one wall, then ``pass``: first the
  stone-only turns, then the single-wall turns. Turns with several walls are legal and ``play``
  accepts them (``i9 h9 j8``, walls in any order), but they are not listed (their number
  explodes, and a single wall per turn already offers every cell a wall can take);
  ``legal_turns_with_walls`` enumerates every legal turn, walls included, for the AI.
- Scoring phase: ``dead``/``alive`` name cells; each names its whole group. ``dead`` marks
  groups that are alive, ``alive`` groups that are marked dead; naming a group already in the
  asked state is refused so that every mark changes something. ``resume`` forgets the marks.
- Territory is computed with the dead stones taken off the board (their cells count as empty);
  a region touching no stone at all belongs to nobody.

Speed: a state carries a ``GoBoard`` (engines/graphgo.py) with every group's stones and
liberties as bit masks, updated turn by turn. ``legal_moves`` classifies the cells with a few
mask operations (which cells have two empty neighbours, which are the last liberty of a group of
either colour) and returns a lazy ``TurnList``: it is counted at once but makes a move object
only for the moves asked for. Only the rare turns where a capture might save a friendly group
are judged one by one, by the same ``GoBoard.resolve`` that ``play`` uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from engines import register
from engines.core import (
    Game,
    IllegalMove,
    LazyMoves,
    Move,
    Option,
    Outcome,
    dump_outcome,
    fast_init,
    higher_score_wins,
    load_outcome,
)
from engines.graphgo import (
    EMPTY,
    WALL,
    GoBoard,
    Graph,
    Refusal,
    Turn,
    grid_graph,
    nth_bit,
    territories,
)
from engines.hexgrid import DIRECTIONS as HEX_DIRECTIONS
from engines.hexgrid import hexagon, star
from engines.phrases import Phrase, and_list
from engines.squaregrid import ORTHOGONAL

BOARDS = ("star", "hex5", "square9")
PLAY, SCORING = "play", "scoring"

# Move kinds.
STONE, PASS, ACCEPT, RESUME, DEAD, ALIVE = "stone", "pass", "accept", "resume", "dead", "alive"
_WORDS = (PASS, ACCEPT, RESUME)
_MARKS = (DEAD, ALIVE)

_CELL = re.compile(r"([a-z])0*([0-9]{1,2})")
_TO_CHAR = {EMPTY: ".", WALL: "#", 0: "b", 1: "w"}
_FROM_CHAR = {char: value for value, char in _TO_CHAR.items()}

@dataclass(frozen=True, slots=True)
class PolygoMove(Move):
    """``cells`` holds point indices: for a stone turn the stone then its walls (sorted), for
    ``dead``/``alive`` the named cells (sorted); empty for the other kinds."""

    kind: str
    cells: tuple[int, ...] = ()
    board: str = "star"

    def __str__(self) -> str:
        if self.kind == STONE:
            names = geometry(self.board).names
            return " ".join(names[c] for c in self.cells)
        if self.kind in _MARKS:
            names = geometry(self.board).names
            return " ".join((self.kind, *(names[c] for c in self.cells)))
        return self.kind


@dataclass(frozen=True, eq=False)
class Geometry:
    """One board, precomputed once: cells, names and integer adjacency, the bit-mask graph,
    plus every stone-only and single-wall move object so move generation allocates nothing per
    move."""

    kind: str
    #: Axial (q, r) for the hexagonal boards, (column, row) from 0 for ``square9``.
    coords: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    index: Mapping[str, int]
    adjacency: tuple[tuple[int, ...], ...]
    graph: Graph
    stone_moves: tuple[PolygoMove, ...]
    #: ``wall_moves[p][w]``: the stone on p with one wall on its neighbour w.
    wall_moves: tuple[Mapping[int, PolygoMove], ...]
    pass_move: PolygoMove
    #: The same moves by bit position (``None`` where no move starts): ``stone_at[pos]``, and
    #: ``wall_at[d][pos]`` with the wall on the neighbour in direction d.
    stone_at: tuple[PolygoMove | None, ...]
    wall_at: tuple[tuple[PolygoMove | None, ...], ...]

    @property
    def size(self) -> int:
        return len(self.coords)


@cache
def geometry(kind: str) -> Geometry:
    if kind == "star":
        coords = tuple(star(4))
        names = tuple(f"{chr(97 + q + 8)}{r + 9}" for q, r in coords)
        directions = HEX_DIRECTIONS
    elif kind == "hex5":
        coords = tuple(hexagon(4))
        names = tuple(f"{chr(97 + q + 4)}{r + 5}" for q, r in coords)
        directions = HEX_DIRECTIONS
    elif kind == "square9":
        coords = tuple((x, y) for x in range(9) for y in range(9))
        names = tuple(f"{chr(97 + x)}{y + 1}" for x, y in coords)
        directions = ORTHOGONAL
    else:
        raise ValueError(f"unknown Polygo board {kind!r}; boards: {', '.join(BOARDS)}")
    graph = grid_graph(coords, directions)
    adjacency = graph.adjacency
    stone_moves = tuple(PolygoMove(STONE, (p,), kind) for p in range(len(coords)))
    wall_moves = tuple(
        {w: PolygoMove(STONE, (p, w), kind) for w in adjacency[p]}
        for p in range(len(coords))
    )
    positions = len(graph.point_at)
    stone_at: list[PolygoMove | None] = [None] * positions
    wall_at: list[list[PolygoMove | None]] = [[None] * positions for _ in directions]
    index = {cell: i for i, cell in enumerate(coords)}
    for p, (a, b) in enumerate(coords):
        position = graph.bit[p].bit_length() - 1
        stone_at[position] = stone_moves[p]
        for d, (da, db) in enumerate(directions):
            w = index.get((a + da, b + db))
            if w is not None:
                wall_at[d][position] = wall_moves[p][w]
    return Geometry(
        kind=kind,
        coords=coords,
        names=names,
        index={name: i for i, name in enumerate(names)},
        adjacency=adjacency,
        graph=graph,
        stone_moves=stone_moves,
        wall_moves=wall_moves,
        pass_move=PolygoMove(PASS, (), kind),
        stone_at=tuple(stone_at),
        wall_at=tuple(tuple(row) for row in wall_at),
    )


@fast_init
@dataclass(frozen=True, slots=True)
class PolygoState:
    players: int
    seed: int | str | None
    board_kind: str
    #: One int per cell: ``EMPTY``, ``WALL`` or the seat owning the stone.
    board: tuple[int, ...]
    to_move: int | None
    phase: str
    #: Consecutive passes in the play phase (two start the scoring phase).
    passes: int
    #: The position after the previous turn of the player to move (the ko reference), or None.
    previous_board: tuple[int, ...] | None
    #: Stones each seat has captured during play.
    captures: tuple[int, int]
    #: Stones marked dead in the scoring phase.
    dead: frozenset[int]
    ply: int
    outcome: Outcome | None = None
    last_move: PolygoMove | None = None
    #: Derived from ``board`` (so never compared), filled in when first needed: the groups and
    #: liberties, and the legal moves.
    go: GoBoard | None = field(default=None, init=False, compare=False, repr=False)
    moves: Sequence[PolygoMove] | None = field(
        default=None, init=False, compare=False, repr=False
    )


_set_go = PolygoState.__dict__["go"].__set__
_set_moves = PolygoState.__dict__["moves"].__set__


def go_board(state: PolygoState) -> GoBoard:
    """The groups and liberties of a state's board (computed once per state)."""
    go = state.go
    if go is None:
        go = GoBoard.from_cells(geometry(state.board_kind).graph, state.board)
        _set_go(state, go)
    return go


@dataclass(frozen=True)
class Score:
    """The count of a position with its current dead marks (RULES.md §2)."""

    territory: tuple[int, int]
    #: Prisoners held against each seat: its stones captured in play plus its stones marked dead.
    prisoners: tuple[int, int]
    points: tuple[int, int]
    territory_cells: tuple[frozenset[int], frozenset[int]]


def score(state: PolygoState) -> Score:
    """Territory minus prisoners for both seats, dead stones taken off for the count."""
    geo = geometry(state.board_kind)
    cells = territories(state.board, geo.adjacency, state.dead)
    dead_of = [0, 0]
    for p in state.dead:
        dead_of[state.board[p]] += 1
    prisoners = (state.captures[1] + dead_of[0], state.captures[0] + dead_of[1])
    territory = (len(cells[0]), len(cells[1]))
    points = (territory[0] - prisoners[0], territory[1] - prisoners[1])
    return Score(territory, prisoners, points, (cells[0], cells[1]))


def parse_for_board(text: str, kind: str) -> PolygoMove:
    """Read normalized move text for a board (see ``Game.parse_move`` for the forgiving part)."""
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise IllegalMove(Phrase("illegal.empty"))
    head = tokens[0]
    if head in _WORDS:
        if len(tokens) > 1:
            raise IllegalMove(Phrase("polygo.takes_nothing", word=head))
        return PolygoMove(head, (), kind)
    geo = geometry(kind)
    if head in _MARKS:
        if len(tokens) == 1:
            raise IllegalMove(Phrase("polygo.name_a_group", example=f"{head} {geo.names[0]}"))
        cells = sorted({_cell(token, geo) for token in tokens[1:]})
        return PolygoMove(head, tuple(cells), kind)
    stone = _cell(head, geo)
    walls = [_cell(token, geo) for token in tokens[1:]]
    if stone in walls:
        raise IllegalMove(Phrase("polygo.wall_on_stone"))
    if len(set(walls)) != len(walls):
        raise IllegalMove(Phrase("polygo.wall_twice"))
    return PolygoMove(STONE, (stone, *sorted(walls)), kind)


def _cell(token: str, geo: Geometry) -> int:
    match = _CELL.fullmatch(token)
    if not match:
        raise IllegalMove(Phrase("polygo.not_a_cell", text=token, example=geo.names[0]))
    try:
        return geo.index[match[1] + match[2]]  # leading zeros dropped: e05 is e5
    except KeyError:
        raise IllegalMove(Phrase("polygo.no_such_cell", text=token)) from None


class TurnList(LazyMoves[PolygoMove]):
    """The legal moves of a play-phase position, in order: the stone-only turns (cell order),
    the single-wall turns (one direction of the wall after the other), then ``pass``.

    Held as masks: ``len`` is known at once and ``moves[i]`` finds its move by counting bits,
    so a random playout that picks one move never builds the others. Iterating builds them all.
    """

    __slots__ = ("_extra", "_geo", "_len", "_stones", "_stones_len", "_walls")

    def __init__(
        self, geo: Geometry, stones: int, walls: list[tuple[int, int]], extra: list[PolygoMove]
    ) -> None:
        self._geo = geo
        self._stones = stones
        self._stones_len = stones.bit_count()
        self._walls = [(d, mask, mask.bit_count()) for d, mask in walls]
        # The single-wall turns that were judged one by one, then pass.
        self._extra = [*extra, geo.pass_move]
        self._len = self._stones_len + sum(n for _, _, n in self._walls) + len(self._extra)

    def __len__(self) -> int:
        return self._len

    def _at(self, index: int) -> PolygoMove:
        if index < self._stones_len:
            return self._geo.stone_at[nth_bit(self._stones, index)]
        index -= self._stones_len
        for d, mask, count in self._walls:
            if index < count:
                return self._geo.wall_at[d][nth_bit(mask, index)]
            index -= count
        return self._extra[index]

    def __iter__(self) -> Iterator[PolygoMove]:
        yield from _moves_at(self._geo.stone_at, self._stones)
        for d, mask, _ in self._walls:
            yield from _moves_at(self._geo.wall_at[d], mask)
        yield from self._extra


def _moves_at(table: Sequence[PolygoMove | None], mask: int) -> Iterator[PolygoMove]:
    while mask:
        low = mask & -mask
        yield table[low.bit_length() - 1]
        mask ^= low


def _turn_list(state: PolygoState) -> TurnList:
    """Every legal turn with at most one wall, and pass (see ``TurnList``).

    With p the stone and w the wall, a turn that captures nothing is legal exactly when the
    stone's group keeps a liberty and no friendly group loses its last one to the wall.
    Captures only give liberties back, so they never make a turn illegal, but they can make
    an otherwise illegal one legal; they happen only where p or w is the last liberty of an
    enemy group, or {p, w} are its last two. So:

    - a stone alone is legal where it has an empty neighbour, or touches a friendly group
      with another liberty, or captures (and then the ko rule is checked);
    - with a wall, when p captures nothing and has two empty neighbours, its group keeps
      one whatever w is; w is then illegal only on the last liberty of another friendly
      group (and the turn is judged exactly if it also captures);
    - the other stones (those that capture, those with one empty neighbour) are few and
      judged one wall at a time.
    """
    geo = geometry(state.board_kind)
    graph = geo.graph
    go = go_board(state)
    seat = state.to_move
    bit, neighbours, adjacency = graph.bit, graph.neighbours, graph.adjacency
    owner, groups, cells = go.owner, go.groups, go.cells
    # Last liberties: of friendly groups (friend_last), of enemy groups (enemy_last);
    # liberties of friendly groups that have another one (friend_more); enemy groups'
    # liberty pairs when they have exactly two.
    friend_last = friend_more = enemy_last = 0
    enemy_pairs: set[int] = set()
    for colour, _, liberties in groups.values():
        rest = liberties & (liberties - 1)
        if colour == seat:
            if rest:
                friend_more |= liberties
            else:
                friend_last |= liberties
        elif not rest:
            enemy_last |= liberties
        elif not rest & (rest - 1):
            enemy_pairs.add(liberties)
    empty = go.empty
    # Cells with at least one, and at least two, empty neighbours.
    one = two = 0
    for shift in graph.shifts:
        moved = empty << shift if shift > 0 else empty >> -shift
        two |= one & moved
        one |= moved
    stones = empty & (one | friend_more | enemy_last)
    roomy = stones & two & ~enemy_last
    walls = []
    wall_cells = empty & ~friend_last
    for d in range(len(graph.shifts)):
        mask = roomy & graph.shifted(wall_cells, d)
        if mask:
            walls.append((d, mask))
    extra: list[PolygoMove] = []
    wall_moves = geo.wall_moves

    def judged(p: int, w: int) -> None:
        if type(go.resolve(p, (w,), seat)) is Turn:
            extra.append(wall_moves[p][w])

    # Stones that capture: the ko rule, and their walls (possibly on a captured cell).
    previous = state.previous_board
    for p in graph.points(enemy_last & empty):
        pb = bit[p]
        captured = kept = 0
        for n in adjacency[p]:
            gid = owner[n]
            if gid >= 0:
                colour, group_stones, liberties = groups[gid]
                if colour == seat:
                    kept |= liberties
                elif not liberties & ~pb:
                    captured |= group_stones
        if previous is not None and previous[p] == seat:
            after = list(cells)
            after[p] = seat
            for q in graph.points(captured):
                after[q] = EMPTY
            if tuple(after) == previous:
                stones &= ~pb
        free = neighbours[p] & (empty | captured)
        if free & (free - 1):
            # Two free neighbours: one stays a liberty whatever the wall.
            for w in graph.points(free):
                if bit[w] & friend_last:
                    judged(p, w)
                else:
                    extra.append(wall_moves[p][w])
        else:
            # No empty neighbour: the wall goes on the captured stone next to p, which
            # then gives p no liberty; p's friendly groups must have one to spare.
            w = graph.point_of(free)
            if kept & ~pb:
                extra.append(wall_moves[p][w])
            elif captured != free:
                judged(p, w)
    # Stones with a single empty neighbour (and no capture): a wall there is their last.
    for p in graph.points(stones & ~two & ~enemy_last):
        wb = neighbours[p] & empty
        if not wb:
            continue
        w = graph.point_of(wb)
        pb = bit[p]
        if wb & enemy_last or (pb | wb) in enemy_pairs:
            judged(p, w)
        elif not wb & friend_last:
            kept = 0
            for n in adjacency[p]:
                if cells[n] == seat:
                    kept |= groups[owner[n]].liberties
            if kept & ~(pb | wb):
                extra.append(wall_moves[p][w])
    # Roomy stones whose wall takes a friendly group's last liberty but also captures.
    if friend_last:
        for w in graph.points(friend_last & enemy_last):
            for p in graph.points(neighbours[w] & roomy):
                judged(p, w)
        for pair in enemy_pairs:
            if pair & friend_last:
                a, b = graph.points(pair)
                for p, w in ((a, b), (b, a)):
                    wb = bit[w]
                    if bit[p] & roomy and wb & friend_last & neighbours[p] & ~enemy_last:
                        judged(p, w)
    return TurnList(geo, stones, walls, extra)


class Polygo(Game):
    name = "polygo"
    title = "Polygo"
    min_players = 2
    max_players = 2
    seat_names = ("Black", "White")
    options = (
        Option(
            "board",
            "star",
            BOARDS,
            "star (121 cells, 6 neighbours), hex5 (hexagon of side 5) or square9 (9×9, "
            "4 neighbours)",
        ),
    )

    # ----- setup and parsing ------------------------------------------------------------------

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> PolygoState:
        kind = options["board"]
        return PolygoState(
            players=players,
            seed=seed,
            board_kind=kind,
            board=(EMPTY,) * geometry(kind).size,
            to_move=0,
            phase=PLAY,
            passes=0,
            previous_board=None,
            captures=(0, 0),
            dead=frozenset(),
            ply=0,
        )

    def _parse(self, text: str, state: PolygoState | None) -> PolygoMove:
        return parse_for_board(text, "star" if state is None else state.board_kind)

    # ----- moves ------------------------------------------------------------------------------

    def _legal_moves(self, state: PolygoState) -> Sequence[PolygoMove]:
        moves = state.moves
        if moves is None:
            scoring = state.phase == SCORING
            moves = self._scoring_moves(state) if scoring else _turn_list(state)
            _set_moves(state, moves)
        return moves

    def legal_turns_with_walls(self, state: PolygoState) -> list[PolygoMove]:
        """Every legal move, turns with any number of walls included (``legal_moves`` lists at
        most one wall per turn). In the play phase: each legal stone with every legal set of
        walls (none included), in cell order, then ``pass``; in the scoring phase the same as
        ``legal_moves``. A stone next to k free cells has up to 2**k wall sets, so expect
        thousands of turns on an open board."""
        if state.outcome is not None or state.phase != PLAY:
            return list(self.legal_moves(state))
        geo = geometry(state.board_kind)
        graph = geo.graph
        go = go_board(state)
        seat = state.to_move
        turns: list[PolygoMove] = []
        for p in graph.points(go.empty):
            pb = graph.bit[p]
            captured = 0
            for n in graph.adjacency[p]:
                group = go.group_at(n)
                if group is not None and group.colour != seat and not group.liberties & ~pb:
                    captured |= group.stones
            free = graph.points(graph.neighbours[p] & (go.empty | captured))
            for subset in range(1 << len(free)):
                walls = tuple(w for i, w in enumerate(free) if subset >> i & 1)
                if walls:
                    if type(go.resolve(p, walls, seat)) is Turn:
                        turns.append(PolygoMove(STONE, (p, *walls), geo.kind))
                elif self._is_legal_turn(state, p):
                    turns.append(geo.stone_moves[p])
        turns.append(geo.pass_move)
        return turns

    def _is_legal_turn(self, state: PolygoState, stone: int) -> bool:
        try:
            self._turn(state, stone, ())
        except IllegalMove:
            return False
        return True

    def _turn(self, state: PolygoState, stone: int, walls: Sequence[int]) -> tuple[GoBoard, int]:
        """The position after a stone turn and the number of stones it captured, or
        IllegalMove."""
        geo = geometry(state.board_kind)
        names = geo.names
        value = state.board[stone]
        if value != EMPTY:
            key = "polygo.holds_wall" if value == WALL else "polygo.holds_stone"
            raise IllegalMove(Phrase(key, cell=names[stone]))
        go = go_board(state)
        seat = state.to_move
        turn = go.resolve(stone, walls, seat)
        if type(turn) is Refusal:
            raise IllegalMove(_refusal_phrase(turn, stone, len(walls), names))
        after = go.after(stone, walls, seat, turn)
        # Without a capture the new stone (or a new wall) always differs from that position.
        if turn.captured and after.cells == state.previous_board:
            raise IllegalMove(Phrase("polygo.ko"))
        return after, turn.captured_mask.bit_count()

    def _scoring_moves(self, state: PolygoState) -> list[PolygoMove]:
        kind = state.board_kind
        graph = geometry(kind).graph
        moves = [PolygoMove(ACCEPT, (), kind), PolygoMove(RESUME, (), kind)]
        # Each group is named by its first cell.
        firsts = sorted(
            graph.point_of(group.stones & -group.stones)
            for group in go_board(state).groups.values()
        )
        for p in firsts:
            moves.append(PolygoMove(ALIVE if p in state.dead else DEAD, (p,), kind))
        return moves

    def _play(self, state: PolygoState, move: PolygoMove) -> PolygoState:
        if move.__class__ is not PolygoMove or move.board != state.board_kind:
            raise IllegalMove(Phrase("polygo.wrong_board"))
        seat = state.to_move
        enemy = 1 - seat
        if state.phase == PLAY:
            if move.kind == STONE:
                go, taken = self._turn(state, move.cells[0], move.cells[1:])
                captures = state.captures
                if taken:
                    captures = (captures[0] + taken, captures[1]) if seat == 0 else (
                        captures[0], captures[1] + taken)
                after = PolygoState(
                    state.players, state.seed, state.board_kind, go.cells, enemy, PLAY, 0,
                    state.board, captures, state.dead, state.ply + 1, None, move,
                )
                _set_go(after, go)
                return after
            if move.kind == PASS:
                passes = state.passes + 1
                after = replace(
                    state,
                    to_move=enemy,
                    # The second pass starts scoring with the player who did not pass last.
                    phase=SCORING if passes >= 2 else PLAY,
                    passes=passes,
                    previous_board=state.board,
                    ply=state.ply + 1,
                    last_move=move,
                )
                _set_go(after, state.go)
                return after
            raise IllegalMove(Phrase("polygo.scoring_only", word=move.kind))
        # Scoring phase.
        if move.kind == ACCEPT:
            final = replace(state, to_move=None, ply=state.ply + 1, last_move=move)
            return replace(final, outcome=self._outcome(final))
        if move.kind == RESUME:
            after = replace(
                state,
                to_move=enemy,
                phase=PLAY,
                passes=0,
                previous_board=None,
                dead=frozenset(),
                ply=state.ply + 1,
                last_move=move,
            )
        elif move.kind in _MARKS:
            after = replace(
                state,
                to_move=enemy,
                dead=self._marked(state, move),
                ply=state.ply + 1,
                last_move=move,
            )
        else:
            raise IllegalMove(Phrase("polygo.being_scored"))
        _set_go(after, state.go)
        return after

    def _marked(self, state: PolygoState, move: PolygoMove) -> frozenset[int]:
        geo = geometry(state.board_kind)
        go = go_board(state)
        dead = set(state.dead)
        groups: list[set[int]] = []
        for p in move.cells:
            group = go.group_at(p)
            if group is None:
                raise IllegalMove(Phrase("polygo.no_stone", cell=geo.names[p]))
            if not any(p in named for named in groups):
                groups.append(set(geo.graph.points(group.stones)))
        for group in groups:
            first = geo.names[min(group)]
            if move.kind == DEAD:
                if group <= dead:
                    raise IllegalMove(Phrase("polygo.already_dead", cell=first))
                dead |= group
            else:
                if not group & dead:
                    raise IllegalMove(Phrase("polygo.not_dead", cell=first))
                dead -= group
        return frozenset(dead)

    # ----- words, storage ---------------------------------------------------------------------

    def explain(self, state: PolygoState, move: PolygoMove) -> Phrase:
        if state.to_move is None or move.board != state.board_kind:
            return Phrase("move.plain", move=str(move))
        seat = self.seat_phrase(state, state.to_move)
        names = geometry(move.board).names
        cells = [names[c] for c in move.cells]
        if move.kind == STONE:
            try:
                after = self.play(state, move)
                taken = after.captures[state.to_move] - state.captures[state.to_move]
            except IllegalMove:
                taken = 0
            walls = (
                Phrase("polygo.walls", count=len(cells) - 1, cells=and_list(cells[1:]))
                if len(cells) > 1 else None
            )
            if walls is None and not taken:
                return Phrase("polygo.plays", seat=seat, stone=cells[0])
            if walls is None:
                return Phrase("polygo.plays_captures", seat=seat, stone=cells[0], count=taken)
            if not taken:
                return Phrase("polygo.plays_walls", seat=seat, stone=cells[0], walls=walls)
            return Phrase(
                "polygo.plays_walls_captures", seat=seat, stone=cells[0], walls=walls,
                count=taken,
            )
        if move.kind == PASS:
            key = "polygo.passes_scoring" if state.passes == 1 else "polygo.passes"
            return Phrase(key, seat=seat)
        if move.kind == ACCEPT:
            return Phrase("polygo.accepts", seat=seat)
        if move.kind == RESUME:
            return Phrase("polygo.resumes", seat=seat)
        return Phrase(
            f"polygo.marks_{move.kind}", seat=seat, count=len(cells), cells=and_list(cells)
        )

    def _outcome(self, state: PolygoState) -> Outcome:
        return higher_score_wins(self, state, score(state).points, "polygo.wins", "polygo.draw")

    def dump(self, state: PolygoState) -> dict:
        names = geometry(state.board_kind).names
        return {
            "game": self.name,
            "players": state.players,
            "seed": state.seed,
            "board_kind": state.board_kind,
            "board": _board_text(state.board),
            "to_move": state.to_move,
            "phase": state.phase,
            "passes": state.passes,
            "previous_board": (
                None if state.previous_board is None else _board_text(state.previous_board)
            ),
            "captures": list(state.captures),
            "dead": [names[p] for p in sorted(state.dead)],
            "ply": state.ply,
            "last_move": None if state.last_move is None else str(state.last_move),
            "outcome": dump_outcome(state.outcome),
        }

    def load(self, data: Mapping[str, Any]) -> PolygoState:
        kind = data["board_kind"]
        geo = geometry(kind)
        previous = data.get("previous_board")
        last = data.get("last_move")
        return PolygoState(
            players=data["players"],
            seed=data["seed"],
            board_kind=kind,
            board=_board_from_text(data["board"]),
            to_move=data["to_move"],
            phase=data["phase"],
            passes=data["passes"],
            previous_board=None if previous is None else _board_from_text(previous),
            captures=(data["captures"][0], data["captures"][1]),
            dead=frozenset(geo.index[name] for name in data["dead"]),
            ply=data["ply"],
            outcome=load_outcome(data.get("outcome")),
            last_move=None if last is None else parse_for_board(last, kind),
        )


def _refusal_phrase(refusal: Refusal, stone: int, walls: int, names: Sequence[str]) -> Phrase:
    reason = refusal.reason
    if reason == "wall_not_adjacent":
        return Phrase("polygo.wall_not_adjacent", wall=names[refusal.point], stone=names[stone])
    if reason == "wall_not_empty":
        return Phrase("polygo.wall_not_empty", wall=names[refusal.point])
    if reason == "no_liberty":
        return Phrase("polygo.no_liberty", stone=names[stone])
    if reason == "walls_take_last_liberty":
        return Phrase("polygo.walls_take_last_liberty", stone=names[stone], count=walls)
    return Phrase(
        "polygo.wall_takes_group_liberty", wall=names[refusal.point], stone=names[refusal.other]
    )


def _board_text(board: Sequence[int]) -> str:
    return "".join(_TO_CHAR[v] for v in board)


def _board_from_text(text: str) -> tuple[int, ...]:
    return tuple(_FROM_CHAR[c] for c in text)


GAME = register(Polygo())
