"""Palago AI: one-move search over every move with an incremental evaluation, then a tactical
check of the best candidates (can the opponent close a creature next turn? how many of ours
can we close?).

Why this method: a Palago position offers hundreds to thousands of two-tile moves, so even two
plies of full-width search are out of reach in Python, and random playouts are useless (random
games nearly always fill the 48 tiles without a creature). What decides the game is tactical:
a component of your colour whose open edges all face one or two neighbouring empty cells can be
closed next turn, and the opponent must then spend their move blocking it — or lose. So:

1. Every legal move is tried on the search board, whose evaluation is kept up to date as tiles
   are laid: for each colour, the sum over its components holding an arch of a weight that
   grows quickly as the component's open half-edges run out (a creature closes at zero).
2. A move that closes a creature of our colour alone wins at once; a move that closes the
   opponent's (or both) loses and is never played.
3. The best candidates by evaluation are checked exactly: if the opponent then has a move
   that closes a creature of theirs, the candidate is discarded (it is a blunder); our own
   winning moves for the next turn are counted — two of them on cells too far apart for one
   move to block both is a win, one makes the opponent answer it ("holes" included: a cell the
   opponent must not fill is one more place where they cannot move freely).

The winning-move check only needs to look at "hot" cells: every component of the creature a
move would close has all its open half-edges facing the one or two cells of that move, so at
least one of the move's cells is faced by such a component. That makes the check a few hundred
tile placements instead of millions.

The search board is our own incremental union-find of tile regions over the engine's geometry
tables (RULES.md §3). It is built like the engine's (whose figures serve move listing) but keeps
what the search needs instead: the evaluation, updated in O(1) per tile from the components a
tile merges, and each component's faced cells on demand. The tests check it against the engine
tests' from-scratch reference after every tile of random games.

Levels: ``easy`` plays a random move but takes a win when one is on the table; ``medium``
evaluates a sample of the moves and checks a few; ``hard`` evaluates every move (up to the
budget) and checks many.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ai.core import Decision, Reason, budget_for, reason, work
from engines.hexgrid import DIRECTIONS
from engines.palago import (
    COLOUR_NAMES,
    COLOUR_OF_SEAT,
    GAME,
    IS_ARCH,
    REGION_COLOUR,
    REGION_HALF_EDGES,
    REGION_OF,
    TOTAL_TILES,
    PalagoMove,
    PalagoState,
    joined_half_edge,
)
from engines.phrases import Phrase

#: Moves tried (two tiles laid and evaluated) per second of one core of the reference machine.
SIMULATIONS_PER_S = 12_000
#: One tactical check costs about this many simulations.
CHECK_COST = 120

_WIDTH = 128
_OFFSET = 64
DELTA = tuple(dr * _WIDTH + dq for dq, dr in DIRECTIONS)
_OTHER_HALF = tuple(joined_half_edge(h) for h in range(12))

#: Weight of a component holding an arch by its open half-edges: fewer is closer to a creature.
WEIGHT = tuple([0.0, 24.0, 12.0, 6.0, 3.5, 2.0, 1.2, 0.8, 0.5] + [0.3] * 200)
#: Bonus for our winning moves next turn (one threat, two threats the opponent cannot block).
THREAT_BONUS = 15.0
DOUBLE_THREAT_BONUS = 400.0
#: With the tiebreak option, from this many tiles on, each arch of our largest open shape over
#: theirs is worth this much.
TIEBREAK_FROM = 30
TIEBREAK_WEIGHT = 2.0
#: Hard: how many of the opponent's best replies to a candidate are looked at.
REPLIES = 3
LOSS = -10_000.0
WIN = 10_000.0

Tile = tuple[int, int, int]


def cell_id(q: int, r: int) -> int:
    return (r + _OFFSET) * _WIDTH + (q + _OFFSET)


def cell_of(cell: int) -> tuple[int, int]:
    r, q = divmod(cell, _WIDTH)
    return (q - _OFFSET, r - _OFFSET)


class Board:
    """Tiles and the components of their regions, changed in place (``copy`` to branch).

    Region ``4 t + k`` is region k of tile t (RULES.md §3 tables). ``value[c]`` is the sum of
    ``WEIGHT[open]`` over the components of colour c holding an arch, kept up to date by
    ``place``."""

    __slots__ = ("arches", "border", "cells", "label", "members", "open", "orients", "tile_cell",
                 "value")

    def __init__(self) -> None:
        self.cells: dict[int, int] = {}
        self.orients: list[int] = []
        self.tile_cell: list[int] = []
        self.label: list[int] = []
        self.members: dict[int, list[int]] = {}
        self.open: dict[int, int] = {}
        self.arches: dict[int, int] = {}
        self.border: dict[int, int] = {}
        self.value = [0.0, 0.0]

    @classmethod
    def from_tiles(cls, tiles: Iterable[Tile]) -> Board:
        board = cls()
        for q, r, o in tiles:
            board.place(cell_id(q, r), o)
        return board

    def copy(self) -> Board:
        new = Board.__new__(Board)
        new.cells = self.cells.copy()
        new.orients = self.orients.copy()
        new.tile_cell = self.tile_cell.copy()
        new.label = self.label.copy()
        new.members = self.members.copy()
        new.open = self.open.copy()
        new.arches = self.arches.copy()
        new.border = self.border.copy()
        new.value = self.value.copy()
        return new

    @property
    def tiles(self) -> int:
        return len(self.orients)

    def colour(self, label: int) -> int:
        return REGION_COLOUR[self.orients[label >> 2]][label & 3]

    def _weight(self, label: int) -> float:
        return WEIGHT[self.open[label]] if self.arches[label] else 0.0

    def place(self, cell: int, o: int) -> int:
        """Lay a tile; return the mask (1 << colour) of the colours that now have a creature."""
        cells, label, open_, border = self.cells, self.label, self.open, self.border
        t = len(self.orients)
        base = 4 * t
        self.orients.append(o)
        self.tile_cell.append(cell)
        region_of = REGION_OF[o]
        for k in range(4):
            region = base + k
            label.append(region)
            self.members[region] = [region]
            open_[region] = 0
            self.arches[region] = IS_ARCH[k]
        border.pop(cell, None)
        cells[cell] = t
        joins = []
        for d in range(6):
            other = cell + DELTA[d]
            neighbour = cells.get(other)
            if neighbour is None:
                open_[base + region_of[2 * d]] += 1
                open_[base + region_of[2 * d + 1]] += 1
                border[other] = border.get(other, 0) + 1
            else:
                other_regions = REGION_OF[self.orients[neighbour]]
                for h in (2 * d, 2 * d + 1):
                    joins.append((base + region_of[h],
                                  4 * neighbour + other_regions[_OTHER_HALF[h]]))
        value = self.value
        touched = {label[old] for _, old in joins}
        for lab in touched:
            value[self.colour(lab)] -= self._weight(lab)
        for new_region, old_region in joins:
            old_label = label[old_region]
            open_[old_label] -= 1
            self._union(label[new_region], old_label)
        found = 0
        for lab in {label[base + k] for k in range(4)}:
            colour = self.colour(lab)
            value[colour] += self._weight(lab)
            if open_[lab] == 0 and self.arches[lab]:
                found |= 1 << colour
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

    def largest_arches(self) -> tuple[int, int]:
        """Per colour, the most arches one component holds (the tiebreak's measure)."""
        best = [0, 0]
        for lab, arches in self.arches.items():
            colour = self.colour(lab)
            if arches > best[colour]:
                best[colour] = arches
        return (best[0], best[1])

    def faced(self, lab: int) -> set[int]:
        """The empty cells the open half-edges of component ``lab`` face."""
        cells, orients, tile_cell = self.cells, self.orients, self.tile_cell
        out = set()
        for region in self.members[lab]:
            t = region >> 2
            cell = tile_cell[t]
            for h in REGION_HALF_EDGES[orients[t]][region & 3]:
                n = cell + DELTA[h >> 1]
                if n not in cells:
                    out.add(n)
        return out

    def hot_cells(self, colour: int) -> set[int]:
        """Cells one of which any move closing a ``colour`` creature must use: those faced by
        a component of that colour whose open half-edges face one cell, or two neighbouring
        cells."""
        hot: set[int] = set()
        colour_of = self.colour
        for lab, n in self.open.items():
            if n > 12 or colour_of(lab) != colour:
                continue
            faced = self.faced(lab)
            if len(faced) == 1:
                hot |= faced
            elif len(faced) == 2:
                a, b = faced
                if b - a in DELTA:
                    hot |= faced
        return hot


def _pair_cells(board: Board, cell: int) -> list[int]:
    """Empty neighbours of ``cell`` (partners of a two-tile move)."""
    cells = board.cells
    return [cell + d for d in DELTA if cell + d not in cells]


def winning_moves(board: Board, colour: int, limit: int = 1_000) -> list[tuple[Tile, ...]]:
    """Moves (one or two tiles, in order) with which the player of ``colour`` closes a
    creature of that colour alone, at most ``limit`` of them. Two-tile moves whose first tile
    would end the game are not moves (the single tile is)."""
    if board.tiles == 0:
        return []
    found: list[tuple[Tile, ...]] = []
    want = 1 << colour
    room = TOTAL_TILES - board.tiles
    for hot in sorted(board.hot_cells(colour)):
        # A single tile on the hot cell.
        for o in range(3):
            trial = board.copy()
            if trial.place(hot, o) == want:
                found.append((_tile(hot, o),))
        if room < 2:
            continue
        for partner in _pair_cells(board, hot):
            for first, second in ((hot, partner), (partner, hot)):
                if first not in board.border and second not in board.border:
                    continue
                for o1 in range(3):
                    after_first = board.copy()
                    if after_first.place(first, o1):
                        continue  # ends the game on its own: not a pair
                    for o2 in range(3):
                        trial = after_first.copy()
                        if trial.place(second, o2) == want:
                            found.append((_tile(first, o1), _tile(second, o2)))
            if len(found) >= limit:
                return found[:limit]
    return found[:limit]


def creature_phrase(colour: int) -> Phrase:
    """"a white creature" / "a blue creature", in the engine's words."""
    return Phrase(f"palago.creature.{COLOUR_NAMES[colour]}")


def _tile(cell: int, o: int) -> Tile:
    q, r = cell_of(cell)
    return (q, r, o)


def _blockable_together(moves: list[tuple[Tile, ...]]) -> bool:
    """Whether one opponent move (two neighbouring tiles) can occupy a cell of every one of
    these winning moves: if not, at least one survives."""
    cell_sets = [{cell_id(q, r) for q, r, _ in move} for move in moves]
    candidates = set().union(*cell_sets)
    for a in candidates:
        if all(a in cells for cells in cell_sets):
            return True
        for d in DELTA:
            b = a + d
            if all(a in cells or b in cells for cells in cell_sets):
                return True
    return False


def decide(view: PalagoState, seat: int, level: str, rng: random.Random,
           budget_s: float | None) -> Decision:
    legal = GAME.legal_moves(view)
    budget = budget_for(level, budget_s)
    board = Board.from_tiles(view.tiles)
    mine = COLOUR_OF_SEAT[seat]
    theirs = 1 - mine
    wins = winning_moves(board, mine, limit=1)
    if wins:
        move = PalagoMove(wins[0])
        return Decision(str(move), reason("palago.creature", creature=creature_phrase(mine)))
    if level == "easy":
        move = legal[rng.randrange(len(legal))]
        return Decision(str(move), None)
    sims = work(budget, SIMULATIONS_PER_S)
    checks = 4 if level == "medium" else max(4, sims // (8 * CHECK_COST))
    moves = list(legal)
    if len(moves) > sims:
        moves = rng.sample(moves, sims)
    else:
        rng.shuffle(moves)
    scored = []
    for move in moves:
        value = _simulate(board, move.tiles, mine, theirs, view.tiebreak)
        if value is not None:
            scored.append((value, move))
    if not scored:
        # Every move loses at once: play any.
        return Decision(str(moves[0]), None)
    scored.sort(key=lambda vm: -vm[0])
    threats = winning_moves(board, theirs)
    if threats:
        # The opponent could close a creature next turn: the moves that lay a tile on one of
        # the cells they need are checked first (any other move leaves that threat standing).
        needed = {cell_id(q, r) for move in threats for q, r, _ in move}
        scored.sort(key=lambda vm: not any(cell_id(q, r) in needed for q, r, _ in vm[1].tiles))
    checked = []
    for value, move in scored[:checks]:
        after = board.copy()
        for q, r, o in move.tiles:
            after.place(cell_id(q, r), o)
        if winning_moves(after, theirs, limit=1):
            checked.append((LOSS + value, move, 0))
            continue
        ours = winning_moves(after, mine, limit=8)
        if ours:
            value += THREAT_BONUS if _blockable_together(ours) else DOUBLE_THREAT_BONUS
        checked.append((value, move, len(ours)))
    checked.sort(key=lambda entry: -entry[0])
    if level == "hard":
        checked = _second_ply(view, board, checked, mine, theirs, sims)
    best_value, best_move, best_threats = checked[0]
    return Decision(str(best_move), _reason(best_threats, best_value, mine))


def _second_ply(view: PalagoState, board: Board, checked: list, mine: int, theirs: int,
                sims: int) -> list:
    """The safe candidates, best first, each judged after the opponent's reply: of their
    three best replies by their own evaluation, the one worst for us (a reply after which we
    can close a creature is worth a win to us). Runs while ``sims`` simulations last; the
    candidates it did not reach keep their order below the ones it judged."""
    judged = []
    spent = 0
    for value, move, threats in checked:
        if value <= LOSS / 2 or (judged and spent >= sims):
            break
        state = GAME.play(view, move)
        after = board.copy()
        for q, r, o in move.tiles:
            after.place(cell_id(q, r), o)
        replies = []
        for reply in GAME.legal_moves(state):
            reply_value = _simulate(after, reply.tiles, theirs, mine, view.tiebreak)
            if reply_value is not None:
                replies.append((reply_value, reply))
            spent += 1
        replies.sort(key=lambda vm: -vm[0])
        worst = None
        for _, reply in replies[:REPLIES]:
            then = after.copy()
            for q, r, o in reply.tiles:
                then.place(cell_id(q, r), o)
            ours = then.value[mine] * 1.3 - then.value[theirs]
            if winning_moves(then, mine, limit=1):
                ours = WIN / 2
            worst = ours if worst is None else min(worst, ours)
        judged.append((LOSS / 4 if worst is None else worst, move, threats))
    rest = checked[len(judged):]
    judged.sort(key=lambda entry: -entry[0])
    return judged + rest if judged else checked


def _simulate(board: Board, tiles: tuple[Tile, ...], mine: int, theirs: int,
              tiebreak: bool = False) -> float | None:
    """The evaluation after laying ``tiles`` (our value minus theirs, the opponent's shapes
    weighing more since they move next), or None if the move closes an opponent's creature (a
    loss). With the ``tiebreak`` option, near the end the largest open shape counts too."""
    trial = board.copy()
    for q, r, o in tiles:
        found = trial.place(cell_id(q, r), o)
        if found:
            return WIN if found == 1 << mine else None
    value = trial.value[mine] - 1.3 * trial.value[theirs]
    if tiebreak and trial.tiles >= TIEBREAK_FROM:
        largest = trial.largest_arches()
        value += TIEBREAK_WEIGHT * (largest[mine] - largest[theirs])
    return value


def _reason(threats: int, value: float | None, mine: int) -> Reason | None:
    if value is not None and value <= LOSS / 2:
        return None
    if threats >= 2:
        return reason("palago.double_threat", creature=creature_phrase(mine))
    if threats == 1:
        return reason("palago.threat", creature=creature_phrase(mine))
    return None


def reason_for(view: PalagoState, seat: int, move: PalagoMove) -> Reason | None:
    board = Board.from_tiles(view.tiles)
    mine = COLOUR_OF_SEAT[seat]
    for q, r, o in move.tiles:
        if board.place(cell_id(q, r), o) == 1 << mine:
            return reason("palago.creature", creature=creature_phrase(mine))
    return None
