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
- ``legal_moves`` lists ``pass``, every legal stone-only turn and every legal turn with a single
  wall. Turns with several walls are legal and ``play`` accepts them (``i9 h9 j8``, walls in any
  order), but they are not listed: their number explodes and a single wall per turn already
  offers every cell a wall can take.
- Scoring phase: ``dead``/``alive`` name cells; each names its whole group. ``dead`` marks
  groups that are alive, ``alive`` groups that are marked dead; naming a group already in the
  asked state is refused so that every mark changes something. ``resume`` forgets the marks.
- Territory is computed with the dead stones taken off the board (their cells count as empty);
  a region touching no stone at all belongs to nobody.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from engines import register
from engines.core import Game, IllegalMove, Move, Option, Outcome, dump_outcome, load_outcome
from engines.graphgo import (
    EMPTY,
    WALL,
    adjacency_from_cells,
    analyse_groups,
    capture_dead_enemies,
    group_points,
    has_liberty,
    territories,
)
from engines.hexgrid import hexagon, neighbours, star
from engines.squaregrid import orthogonal_neighbours

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
    """One board, precomputed once: cells, names and integer adjacency, plus every stone-only
    and single-wall move object so move generation allocates nothing per move."""

    kind: str
    #: Axial (q, r) for the hexagonal boards, (column, row) from 0 for ``square9``.
    coords: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    index: Mapping[str, int]
    adjacency: tuple[tuple[int, ...], ...]
    stone_moves: tuple[PolygoMove, ...]
    #: ``wall_moves[p][w]``: the stone on p with one wall on its neighbour w.
    wall_moves: tuple[Mapping[int, PolygoMove], ...]

    @property
    def size(self) -> int:
        return len(self.coords)


@cache
def geometry(kind: str) -> Geometry:
    if kind == "star":
        coords = tuple(star(4))
        names = tuple(f"{chr(97 + q + 8)}{r + 9}" for q, r in coords)
        adjacency = adjacency_from_cells(coords, neighbours)
    elif kind == "hex5":
        coords = tuple(hexagon(4))
        names = tuple(f"{chr(97 + q + 4)}{r + 5}" for q, r in coords)
        adjacency = adjacency_from_cells(coords, neighbours)
    elif kind == "square9":
        coords = tuple((x, y) for x in range(9) for y in range(9))
        names = tuple(f"{chr(97 + x)}{y + 1}" for x, y in coords)
        adjacency = adjacency_from_cells(coords, orthogonal_neighbours)
    else:
        raise ValueError(f"unknown Polygo board {kind!r}; boards: {', '.join(BOARDS)}")
    stone_moves = tuple(PolygoMove(STONE, (p,), kind) for p in range(len(coords)))
    wall_moves = tuple(
        {w: PolygoMove(STONE, (p, w), kind) for w in adjacency[p]} for p in range(len(coords))
    )
    return Geometry(
        kind=kind,
        coords=coords,
        names=names,
        index={name: i for i, name in enumerate(names)},
        adjacency=adjacency,
        stone_moves=stone_moves,
        wall_moves=wall_moves,
    )


@dataclass(frozen=True)
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
        raise IllegalMove("the move is empty")
    head = tokens[0]
    if head in _WORDS:
        if len(tokens) > 1:
            raise IllegalMove(f"{head} takes nothing after it")
        return PolygoMove(head, (), kind)
    geo = geometry(kind)
    if head in _MARKS:
        if len(tokens) == 1:
            raise IllegalMove(f"name a stone of each group to mark, e.g. {head} {geo.names[0]}")
        cells = sorted({_cell(token, geo) for token in tokens[1:]})
        return PolygoMove(head, tuple(cells), kind)
    stone = _cell(head, geo)
    walls = [_cell(token, geo) for token in tokens[1:]]
    if stone in walls:
        raise IllegalMove("a wall cannot go on the cell of the stone")
    if len(set(walls)) != len(walls):
        raise IllegalMove("the same wall is written twice")
    return PolygoMove(STONE, (stone, *sorted(walls)), kind)


def _cell(token: str, geo: Geometry) -> int:
    match = _CELL.fullmatch(token)
    if not match:
        raise IllegalMove(
            f"{token!r} is not a cell: type a letter then a number such as {geo.names[0]}, "
            "or pass"
        )
    try:
        return geo.index[match[1] + match[2]]  # leading zeros dropped: e05 is e5
    except KeyError:
        raise IllegalMove(f"there is no cell {token} on this board") from None


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

    def _legal_moves(self, state: PolygoState) -> list[PolygoMove]:
        if state.phase == SCORING:
            return self._scoring_moves(state)
        moves = self._stone_turns(state)
        moves.append(PolygoMove(PASS, (), state.board_kind))
        return moves

    def _stone_turns(self, state: PolygoState) -> list[PolygoMove]:
        """Every legal stone-only and single-wall turn.

        Group liberties are computed once for the whole board; a candidate is then judged with
        set sizes. The rare candidates that capture go through the full ``_turn`` (captures give
        liberties back and may trigger the ko rule), so both paths agree by construction; a test
        checks them against ``_turn`` on random positions."""
        geo = geometry(state.board_kind)
        board = state.board
        adjacency = geo.adjacency
        seat = state.to_move
        group_of, liberties = analyse_groups(board, adjacency)
        stone_moves, wall_moves = geo.stone_moves, geo.wall_moves
        moves: list[PolygoMove] = []
        for p, value in enumerate(board):
            if value != EMPTY:
                continue
            empties: list[int] = []
            friends: list[set[int]] = []
            captures = False
            for n in adjacency[p]:
                v = board[n]
                if v == EMPTY:
                    empties.append(n)
                elif v == seat:
                    friends.append(liberties[group_of[n]])
                elif v >= 0 and len(liberties[group_of[n]]) == 1:
                    captures = True  # that enemy group's only liberty is p
            if captures:
                moves.extend(self._checked_turns(state, geo, p))
                continue
            # Each friend's liberties include p; the stone lives if it keeps another one.
            if not empties and all(len(libs) == 1 for libs in friends):
                continue  # suicide; no empty neighbour either, so no wall
            moves.append(stone_moves[p])
            walls_here = wall_moves[p]
            for w in empties:
                wall_captures = other_friend_dies = False
                for n in adjacency[w]:
                    v = board[n]
                    if v < 0 or n == p:
                        continue
                    libs = liberties[group_of[n]]  # contains w
                    if v == seat:
                        if len(libs) == 1:
                            other_friend_dies = True  # w was its last liberty (p is not one)
                    elif len(libs) == 1 or (len(libs) == 2 and p in libs):
                        wall_captures = True
                        break
                if wall_captures:
                    # Captured cells become liberties: let the full turn decide.
                    if self._is_legal_turn(state, p, (w,)):
                        moves.append(walls_here[w])
                    continue
                if other_friend_dies:
                    continue
                if len(empties) > 1 or any(len(libs) > 1 + (w in libs) for libs in friends):
                    moves.append(walls_here[w])
        return moves

    def _checked_turns(self, state: PolygoState, geo: Geometry, p: int) -> list[PolygoMove]:
        """The legal stone-only and single-wall turns on p, each checked by ``_turn``."""
        found = []
        if self._is_legal_turn(state, p, ()):
            found.append(geo.stone_moves[p])
        for w, move in geo.wall_moves[p].items():
            if self._is_legal_turn(state, p, (w,)):
                found.append(move)
        return found

    def _is_legal_turn(self, state: PolygoState, stone: int, walls: Sequence[int]) -> bool:
        try:
            self._turn(state, stone, walls)
        except IllegalMove:
            return False
        return True

    def _turn(
        self, state: PolygoState, stone: int, walls: Sequence[int]
    ) -> tuple[tuple[int, ...], int]:
        """The board after a stone turn and the number of stones it captured, or IllegalMove."""
        geo = geometry(state.board_kind)
        names, adjacency = geo.names, geo.adjacency
        board = list(state.board)
        if board[stone] != EMPTY:
            what = "a wall" if board[stone] == WALL else "a stone"
            raise IllegalMove(f"{names[stone]} already holds {what}")
        seat = state.to_move
        enemy = 1 - seat
        board[stone] = seat
        captured = capture_dead_enemies(board, adjacency, (stone,), enemy)
        if walls:
            around = adjacency[stone]
            for w in walls:
                if w not in around:
                    raise IllegalMove(
                        f"a wall must touch the stone just placed: {names[w]} does not touch "
                        f"{names[stone]}"
                    )
                if board[w] != EMPTY:
                    raise IllegalMove(f"a wall needs an empty cell and {names[w]} is not empty")
            for w in walls:
                board[w] = WALL
            # All walls are down: they capture together.
            captured |= capture_dead_enemies(board, adjacency, walls, enemy)
        if not has_liberty(board, adjacency, stone):
            if walls:
                raise IllegalMove(
                    f"these walls would leave your stone on {names[stone]} without a liberty"
                )
            raise IllegalMove(
                f"a stone on {names[stone]} would have no liberty and captures nothing"
            )
        for w in walls:
            for n in adjacency[w]:
                if board[n] == seat and not has_liberty(board, adjacency, n):
                    raise IllegalMove(
                        f"the wall on {names[w]} would take the last liberty of your group on "
                        f"{names[n]}"
                    )
        result = tuple(board)
        # Without a capture the new stone (or a new wall) always differs from that position.
        if captured and result == state.previous_board:
            raise IllegalMove(
                "ko: this turn would bring back the position after your previous turn"
            )
        return result, len(captured)

    def _scoring_moves(self, state: PolygoState) -> list[PolygoMove]:
        kind = state.board_kind
        moves = [PolygoMove(ACCEPT, (), kind), PolygoMove(RESUME, (), kind)]
        group_of, _ = analyse_groups(state.board, geometry(kind).adjacency)
        seen: set[int] = set()
        for p, gid in enumerate(group_of):
            if gid >= 0 and gid not in seen:
                seen.add(gid)  # p is the group's first cell: it names the group
                moves.append(PolygoMove(ALIVE if p in state.dead else DEAD, (p,), kind))
        return moves

    def _play(self, state: PolygoState, move: PolygoMove) -> PolygoState:
        if not isinstance(move, PolygoMove) or move.board != state.board_kind:
            raise IllegalMove("not a Polygo move for this board")
        seat = state.to_move
        enemy = 1 - seat
        if state.phase == PLAY:
            if move.kind == STONE:
                board, taken = self._turn(state, move.cells[0], move.cells[1:])
                captures = list(state.captures)
                captures[seat] += taken
                return replace(
                    state,
                    board=board,
                    to_move=enemy,
                    passes=0,
                    previous_board=state.board,
                    captures=(captures[0], captures[1]),
                    ply=state.ply + 1,
                    last_move=move,
                )
            if move.kind == PASS:
                passes = state.passes + 1
                return replace(
                    state,
                    to_move=enemy,
                    # The second pass starts scoring with the player who did not pass last.
                    phase=SCORING if passes >= 2 else PLAY,
                    passes=passes,
                    previous_board=state.board,
                    ply=state.ply + 1,
                    last_move=move,
                )
            raise IllegalMove(f"{move.kind} is only for the scoring phase, after two passes")
        # Scoring phase.
        if move.kind == ACCEPT:
            final = replace(state, to_move=None, ply=state.ply + 1, last_move=move)
            return replace(final, outcome=_outcome(final))
        if move.kind == RESUME:
            return replace(
                state,
                to_move=enemy,
                phase=PLAY,
                passes=0,
                previous_board=None,
                dead=frozenset(),
                ply=state.ply + 1,
                last_move=move,
            )
        if move.kind in _MARKS:
            return replace(
                state,
                to_move=enemy,
                dead=self._marked(state, move),
                ply=state.ply + 1,
                last_move=move,
            )
        raise IllegalMove("the game is being scored: accept, mark dead/alive, or resume")

    def _marked(self, state: PolygoState, move: PolygoMove) -> frozenset[int]:
        geo = geometry(state.board_kind)
        dead = set(state.dead)
        groups: list[set[int]] = []
        for p in move.cells:
            if state.board[p] < 0:
                raise IllegalMove(f"there is no stone on {geo.names[p]}")
            if not any(p in group for group in groups):
                groups.append(group_points(state.board, geo.adjacency, p))
        for group, p in zip(groups, [min(g) for g in groups], strict=True):
            if move.kind == DEAD:
                if group <= dead:
                    raise IllegalMove(f"the group on {geo.names[p]} is already marked dead")
                dead |= group
            else:
                if not group & dead:
                    raise IllegalMove(f"the group on {geo.names[p]} is not marked dead")
                dead -= group
        return frozenset(dead)

    # ----- words, storage ---------------------------------------------------------------------

    def describe(self, state: PolygoState, move: PolygoMove) -> str:
        who = self.seat_names[state.to_move] if state.to_move is not None else "?"
        names = geometry(move.board).names
        cells = [names[c] for c in move.cells]
        if move.kind == STONE:
            text = f"{who} plays {cells[0]}"
            if len(cells) > 1:
                text += f" with a wall on {_and(cells[1:])}"
            try:
                after = self.play(state, move)
            except IllegalMove:
                return text
            taken = after.captures[state.to_move] - state.captures[state.to_move]
            if taken:
                text += f" and captures {taken} stone{'s' if taken > 1 else ''}"
            return text
        if move.kind == PASS:
            ends = " (two passes: scoring begins)" if state.passes == 1 else ""
            return f"{who} passes{ends}"
        if move.kind == ACCEPT:
            return f"{who} accepts the count"
        if move.kind == RESUME:
            return f"{who} resumes play"
        groups = "groups" if len(cells) > 1 else "group"
        return f"{who} marks the {groups} on {_and(cells)} {move.kind}"

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


def _board_text(board: Sequence[int]) -> str:
    return "".join(_TO_CHAR[v] for v in board)


def _board_from_text(text: str) -> tuple[int, ...]:
    return tuple(_FROM_CHAR[c] for c in text)


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _outcome(state: PolygoState) -> Outcome:
    counted = score(state)
    black, white = counted.points
    if black > white:
        winners, reason = frozenset({0}), f"Black wins {black} to {white}"
    elif white > black:
        winners, reason = frozenset({1}), f"White wins {white} to {black}"
    else:
        winners, reason = frozenset(), f"draw, {black} points each"
    return Outcome(winners, (float(black), float(white)), reason)


GAME = register(Polygo())
