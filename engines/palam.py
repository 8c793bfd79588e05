"""Palam (Claude Leroy, 1999): twelve duels decided by parity. RULES.md §4.

Seats and roles
    Seats are plain "Player 1" and "Player 2" (``seat_names``); the roles Isis and Anubis are
    camps of the board. In the default setup the pieces are dealt face up to both camps, a
    seeded coin toss picks a seat, and that seat's first decision is its camp, ``camp isis`` or
    ``camp anubis``, made having seen the deal; the other seat then makes the first move of play.
    While the camp is not chosen (``state.phase == CAMP``, ``state.camp_chosen`` False) the seat
    to move is the one choosing, seats are named by their plain seat names, and the board is
    stored as if that seat were Isis (``state.isis`` is provisional): ``camp isis`` keeps it,
    ``camp anubis`` hands the two camps over. Once chosen, ``state.isis`` is the seat playing
    Isis and ``seat_name(state, seat)`` returns the role. With ``setup=draft`` there is no camp
    choice: seat 0 is Isis from the start.

Pieces
    A piece is an int 0..23: symbol ``p // 6`` (A E S W), count ``p % 6 + 1``. ``A6 E5 S4 W3``
    have the light background and are worth 11 points; the others 1.

Board
    ``state.board`` has 24 entries: seat ``s``, row ``r`` (0 = row 1, the front, next to the duel
    row; 1 = row 2, the back), column ``c`` (0 = a, the player's own left) is
    ``board[s * 12 + r * 6 + c]``, a piece or ``EMPTY``. Positions along the board (west to east,
    ``=`` at the west end) are kept doubled so they stay integers: Isis's column c is at
    ``2c`` (x = c), Anubis's at ``11 - 2c`` (x = 5.5 - c).

Duel row
    After an attack the attacker's piece waits on the duel row (``state.attack``,
    ``duel_row(state)``); the answer resolves the duel at once, so the renderer shows the result
    from ``state.last_duel`` and the pieces taken from ``state.captured``.

Notation
    camp choice: ``camp isis`` or ``camp anubis`` (``isis`` alone is understood too); attack /
    answer: the column letter, ``c``; swap: two of your cells, ``b1 e2`` (canonical order:
    column, then row); draft pick: piece then cell, ``A5 b2``.

Rulings (where RULES.md is silent; each has a test in tests/engines/test_palam.py)
    1. Camps: the coin toss picks ``rng_for(seed, "toss").randrange(2)`` to choose a camp; the deal
       gives Isis's camp the first twelve pieces of the shuffled deck, Anubis's the other twelve.
       The seat that did not choose makes the first move of play, whichever camp that leaves
       it. In a draft game seat 0 is Isis and Anubis (seat 1) makes the first move of play.
    2. A column with no piece cannot attack or answer. A column whose front cell is empty attacks
       with its back piece, which passes through the empty front cell (that is not a jump).
    3. A swap exchanges two occupied cells of your own camp; a piece cannot be moved onto an empty
       cell, and a cell cannot be swapped with itself. Same-column swaps (``b1 b2``) are allowed.
    4. Right after the opponent's swap you must attack (no swap back). Any other time you are to
       move — the first move of the game, after losing a duel — you may attack or swap.
    5. Only front-most pieces "can advance", so only they are considered when answering: a
       matching piece hidden behind another one does not count. With no matching front piece, the
       front-most piece of the leftmost non-empty column must answer (that column is the only
       legal answer).
    6. The duel is resolved as soon as the answer is played (no separate move); the loser is then
       to move. After the 12th duel the game ends at once.
    7. Scores always total 75, which is odd, so one seat always has more points: no draw.
    8. Draft: picks go in pairs (two moves by the same seat): in the first batch Isis, Anubis,
       Isis, Anubis, Isis, Anubis; in the second batch Anubis first. A pick goes to an empty cell
       of your row 2 while it has one, otherwise to row 1; with this order each player's row 2 is
       full exactly when the first batch runs out, so batch one fills row 2 and batch two row 1.
    9. Draft hidden information: the second batch is not shown in ``view`` until revealed
       (``unrevealed`` is None). Since the 24 pieces are a known set, the hidden batch can be
       deduced as the complement of the first; we hide it anyway so the shown state matches the
       table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from engines import register
from engines.core import (
    Game,
    IllegalMove,
    Move,
    Option,
    Outcome,
    dump_outcome,
    load_outcome,
    rng_for,
    seat_key,
)
from engines.phrases import Phrase

EMPTY = -1
SYMBOLS = "AESW"
COLUMNS = "abcdef"
PIECES = tuple(range(24))
LIGHT_PIECES = frozenset({5, 10, 15, 20})  # A6 E5 S4 W3
VALUES = tuple(11 if p in LIGHT_PIECES else 1 for p in PIECES)
LAST_DUEL_BONUS = 11
TOTAL_POINTS = sum(VALUES) + LAST_DUEL_BONUS  # 75
DUELS = 12
ISIS, ANUBIS = "Isis", "Anubis"
ROLES = (ISIS, ANUBIS)

# Phases: what the player to move must decide.
CAMP, DRAFT, ATTACK, ANSWER = "camp", "draft", "attack", "answer"

def symbol(piece: int) -> int:
    return piece // 6


def count(piece: int) -> int:
    return piece % 6 + 1


def piece_name(piece: int) -> str:
    return f"{SYMBOLS[piece // 6]}{piece % 6 + 1}"


def cell_name(cell: int) -> str:
    """A camp cell (0..11) as the player names it: column letter and row number, ``b2``."""
    return f"{COLUMNS[cell % 6]}{cell // 6 + 1}"


def role_phrase(role: str) -> Phrase:
    """The translatable name of a role (``ISIS`` or ``ANUBIS``)."""
    return Phrase(seat_key(role))


def x2(is_isis: bool, column: int) -> int:
    """Twice the x position (west to east) of a column: Isis 0..10, Anubis 11..1."""
    return 2 * column if is_isis else 11 - 2 * column


# ----- moves ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Advance(Move):
    """Attack or answer: the front-most piece of ``column`` goes onto the duel row."""

    column: int

    def __str__(self) -> str:
        return COLUMNS[self.column]


def _swap_key(cell: int) -> tuple[int, int]:
    return (cell % 6, cell // 6)


@dataclass(frozen=True, slots=True)
class Swap(Move):
    """Exchange the pieces on two cells of your camp (canonical: ``first`` before ``second`` by
    column, then row)."""

    first: int
    second: int

    def __str__(self) -> str:
        return f"{cell_name(self.first)} {cell_name(self.second)}"


@dataclass(frozen=True, slots=True)
class Pick(Move):
    """Draft: take ``piece`` from the revealed pieces and put it on your ``cell``."""

    piece: int
    cell: int

    def __str__(self) -> str:
        return f"{piece_name(self.piece)} {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Camp(Move):
    """The first decision of a default-setup game: the seat the toss picked takes a camp."""

    role: str  # ISIS or ANUBIS

    def __str__(self) -> str:
        return f"camp {self.role.lower()}"


CAMPS = {role: Camp(role) for role in ROLES}
ADVANCES = tuple(Advance(c) for c in range(6))
SWAPS: dict[tuple[int, int], Swap] = {}
for _a in range(12):
    for _b in range(12):
        if _a != _b:
            _lo, _hi = sorted((_a, _b), key=_swap_key)
            SWAPS[(_a, _b)] = Swap(_lo, _hi)
#: Canonical swaps in a fixed order, each pair once.
SWAP_LIST = tuple(sorted(set(SWAPS.values()), key=lambda s: (_swap_key(s.first),
                                                              _swap_key(s.second))))
PICKS = {(p, c): Pick(p, c) for p in PIECES for c in range(12)}


# ----- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Duel:
    """A resolved duel, kept for the board image and the chat description."""

    attacker: int  # seat
    attacker_column: int
    attacker_piece: int
    answer_column: int
    answer_piece: int
    winner: int  # seat


@dataclass(frozen=True)
class PalamState:
    players: int
    seed: int | str | None
    setup: str
    #: The seat playing Isis (the other plays Anubis); provisional while ``phase == CAMP``: the
    #: seat whose half of ``board`` holds Isis's camp, which is the seat choosing.
    isis: int
    board: tuple[int, ...]
    to_move: int | None
    #: CAMP (the seat to move chooses its camp), DRAFT (pick a piece), ATTACK (attack or, if
    #: ``may_swap``, swap) or ANSWER.
    phase: str
    #: False right after the opponent's swap (ruling 4).
    may_swap: bool
    #: The attacker's piece waiting on the duel row, as (column, piece); the attacker is the seat
    #: not to move. None unless ``phase == ANSWER``.
    attack: tuple[int, int] | None
    #: Pieces each seat has taken, in the order taken.
    captured: tuple[tuple[int, ...], tuple[int, ...]]
    duels: int
    #: Draft: revealed pieces not yet placed (sorted), the batch still face down (None in a view
    #: that may not see it), and how many picks were made.
    pool: tuple[int, ...] = ()
    unrevealed: tuple[int, ...] | None = ()
    picks: int = 0
    ply: int = 0
    last_duel: Duel | None = None
    last_move: Move | None = None
    outcome: Outcome | None = None
    #: The seat whose piece waits on the duel row (None unless ``attack``): kept when the game
    #: ends mid-duel (a resignation), when nobody is to move any more.
    attacker: int | None = None

    @property
    def anubis(self) -> int:
        return 1 - self.isis

    @property
    def camp_chosen(self) -> bool:
        """False until the seat the toss picked has chosen its camp (seats have no role yet)."""
        return self.phase != CAMP

    def piece_at(self, seat: int, row: int, column: int) -> int:
        """The piece on ``seat``'s cell (row 1 = front, 2 = back; column 0 = a) or EMPTY."""
        return self.board[seat * 12 + (row - 1) * 6 + column]


@dataclass(frozen=True)
class CellView:
    """One camp cell for the renderer: whose, where (x west to east, ``=`` at the west), what."""

    seat: int
    role: str
    row: int  # 1 front, 2 back
    column: int  # 0 = a, from the owner's left
    x: float
    piece: int  # EMPTY if none


def cells(state: PalamState) -> tuple[CellView, ...]:
    """Every cell of both camps with its piece and board position."""
    out = []
    for seat in (0, 1):
        is_isis = seat == state.isis
        role = ISIS if is_isis else ANUBIS
        for row in (1, 2):
            for column in range(6):
                out.append(
                    CellView(seat, role, row, column, x2(is_isis, column) / 2,
                             state.piece_at(seat, row, column))
                )
    return tuple(out)


def duel_row(state: PalamState) -> tuple[tuple[int, int, float, int], ...]:
    """Pieces on the duel row now, as (seat, column, x, piece): the pending attack, if any."""
    if state.attack is None or state.to_move is None:
        return ()
    attacker = 1 - state.to_move
    column, piece = state.attack
    return ((attacker, column, x2(attacker == state.isis, column) / 2, piece),)


def points(state: PalamState) -> tuple[int, int]:
    """Points per seat so far (the last-duel bonus is added once the 12th duel is played)."""
    totals = [sum(VALUES[p] for p in state.captured[s]) for s in (0, 1)]
    if state.duels == DUELS and state.last_duel is not None:
        totals[state.last_duel.winner] += LAST_DUEL_BONUS
    return (totals[0], totals[1])


# ----- the game -------------------------------------------------------------------------------

_PICK_RE = re.compile(r"^([aesw])([1-6]) ?(?:on |to |->? ?)?([a-f])([12])$")
_CELL_PAIR_RE = re.compile(r"^(?:swap )?([a-f])([12]) ?(?:[,/&-]|and|with|<->)? ?([a-f])([12])$")
_COLUMN_RE = re.compile(r"^(?:attack |answer |advance )?([a-f])$")
_CAMP_RE = re.compile(r"^(?:(?:camp|choose|play|take)(?: ?:)? )?(isis|anubis)$")


def _front_cell(board: tuple[int, ...], seat: int, column: int) -> int:
    """Board index of the front-most piece of a column, or -1 if the column is empty."""
    base = seat * 12 + column
    if board[base] != EMPTY:
        return base
    if board[base + 6] != EMPTY:
        return base + 6
    return -1


def _answer_columns(board: tuple[int, ...], seat: int, attacking_piece: int) -> list[int]:
    """Columns ``seat`` may answer with (ruling 5)."""
    sym, cnt = attacking_piece // 6, attacking_piece % 6
    matching = []
    leftmost = -1
    for column in range(6):
        index = _front_cell(board, seat, column)
        if index < 0:
            continue
        if leftmost < 0:
            leftmost = column
        piece = board[index]
        if piece // 6 == sym or piece % 6 == cnt:
            matching.append(column)
    if matching:
        return matching
    return [leftmost] if leftmost >= 0 else []


def _first_edition(players: int, seed: int | str, setup: str, deck: list[int]) -> PalamState:
    """A game under the first edition of our rules: the coin toss names Isis; with the random
    deal Anubis moves first, in the draft Isis picks first."""
    isis = rng_for(seed, "toss").randrange(2)
    captured: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    if setup == "draft":
        return PalamState(
            players=players, seed=seed, setup="draft", isis=isis,
            board=(EMPTY,) * 24, to_move=isis, phase=DRAFT, may_swap=False, attack=None,
            captured=captured, duels=0,
            pool=tuple(sorted(deck[:12])), unrevealed=tuple(sorted(deck[12:])), picks=0,
        )
    return PalamState(
        players=players, seed=seed, setup="random", isis=isis, board=tuple(deck),
        to_move=1 - isis, phase=ATTACK, may_swap=True, attack=None, captured=captured,
        duels=0,
    )


def _picker(isis: int, picks: int) -> int:
    """Draft order (ruling 8): pairs of picks, Isis first in batch one, Anubis in batch two."""
    first = isis if picks < 12 else 1 - isis
    return first if (picks % 12) // 2 % 2 == 0 else 1 - first


def _pick_row(board: tuple[int, ...], seat: int) -> int:
    """The row (0 = row 1, 1 = row 2) a draft pick goes to: row 2 until it is full."""
    base = seat * 12 + 6
    return 1 if EMPTY in board[base:base + 6] else 0


class Palam(Game):
    """The rules of Palam as one ``Game`` (module docstring: seats, board, notation, rulings).

    Longer than 300 lines on purpose: it is one game's rules. Each kind of move (camp choice,
    draft pick, advance, swap) is played by a method of its own, beside the legal moves,
    parsing, views, explanations and storage the ``Game`` API asks for, all reading one state;
    the helpers that need no rules are module functions already."""

    name = "palam"
    title = "Palam"
    min_players = 2
    max_players = 2
    seat_names = ("Player 1", "Player 2")
    options = (
        Option("setup", "random", ("random", "draft"),
               "random: pieces dealt at random; draft: players pick where their pieces go"),
        # Edition 1: the rules before the camp choice (the coin toss gave the camps, and in the
        # draft the toss named Isis), kept so games stored under them still replay exactly.
        Option("edition", 2, (1, 2), "rules edition of a stored game", hidden=True),
    )
    chance = True  # the deal and the coin toss
    hidden_information = True  # only the draft's second batch, until it is revealed (ruling 9)

    def seat_phrase(self, state: Any, seat: int) -> Phrase:
        if state is None or state.phase == CAMP:
            return super().seat_phrase(state, seat)
        return role_phrase(ISIS if seat == state.isis else ANUBIS)

    # ----- setup ------------------------------------------------------------------------------

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> PalamState:
        deck = list(PIECES)
        rng_for(seed, "deal").shuffle(deck)
        captured: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        if options.get("edition", 2) == 1:
            return _first_edition(players, seed, options["setup"], deck)
        if options["setup"] == "draft":
            return PalamState(
                players=players, seed=seed, setup="draft", isis=0,
                board=(EMPTY,) * 24, to_move=0, phase=DRAFT, may_swap=False, attack=None,
                captured=captured, duels=0,
                pool=tuple(sorted(deck[:12])), unrevealed=tuple(sorted(deck[12:])), picks=0,
            )
        # Isis's camp gets deck[:12], Anubis's deck[12:]; the chooser sits at Isis's for now.
        chooser = rng_for(seed, "toss").randrange(2)
        board = deck if chooser == 0 else deck[12:] + deck[:12]
        return PalamState(
            players=players, seed=seed, setup="random", isis=chooser, board=tuple(board),
            to_move=chooser, phase=CAMP, may_swap=False, attack=None, captured=captured,
            duels=0,
        )

    # ----- moves ------------------------------------------------------------------------------

    def _legal_moves(self, state: PalamState) -> list[Move]:
        board = state.board
        seat = state.to_move
        phase = state.phase
        if phase == CAMP:
            return [CAMPS[ISIS], CAMPS[ANUBIS]]
        if phase == ANSWER:
            return [ADVANCES[c] for c in _answer_columns(board, seat, state.attack[1])]
        if phase == ATTACK:
            moves: list[Move] = [
                ADVANCES[c] for c in range(6) if _front_cell(board, seat, c) >= 0
            ]
            if state.may_swap:
                base = seat * 12
                occupied = [c for c in range(12) if board[base + c] != EMPTY]
                if len(occupied) >= 2:
                    swaps = SWAPS
                    moves.extend(
                        swaps[(a, b)]
                        for i, a in enumerate(occupied)
                        for b in occupied[i + 1:]
                    )
            return moves
        # DRAFT
        row = _pick_row(board, seat)
        base = seat * 12 + row * 6
        empty = [row * 6 + c for c in range(6) if board[base + c] == EMPTY]
        return [PICKS[(p, c)] for p in state.pool for c in empty]

    def _parse(self, text: str, state: PalamState | None) -> Move:
        camp = _parse_camp(text)
        if camp is not None:
            return camp
        phase = None if state is None else state.phase
        if phase == DRAFT:
            pick = _parse_pick(text)
            if pick is None:
                raise IllegalMove(Phrase("palam.not_a_pick", text=text))
            return pick
        # Without a state, "a1 b2" reads as a swap (the common case), "s3 b2" as a pick.
        move = _parse_swap(text) or _parse_advance(text)
        if move is None and state is None:
            move = _parse_pick(text)
        if move is None:
            if phase == CAMP:
                raise IllegalMove(Phrase("palam.choose_camp"))
            raise IllegalMove(Phrase("palam.unreadable", text=text))
        return move

    def _play(self, state: PalamState, move: Move) -> PalamState:
        if isinstance(move, Camp):
            return self._choose_camp(state, move)
        if state.phase == CAMP:
            raise IllegalMove(Phrase("palam.choose_camp"))
        if isinstance(move, Advance):
            return self._advance(state, move)
        if isinstance(move, Swap):
            return self._swap(state, move)
        if isinstance(move, Pick):
            return self._pick(state, move)
        raise IllegalMove(Phrase("illegal.wrong_game"))

    def _choose_camp(self, state: PalamState, move: Camp) -> PalamState:
        if state.phase != CAMP:
            raise IllegalMove(Phrase("palam.camps_chosen"))
        if move.role not in CAMPS:
            raise IllegalMove(Phrase("palam.choose_camp"))
        chooser = state.to_move
        isis = chooser if move.role == ISIS else 1 - chooser
        board = state.board
        if isis != state.isis:  # the chooser takes the other camp: hand the halves over
            board = board[12:] + board[:12]
        return replace(
            state, isis=isis, board=board, to_move=1 - chooser, phase=ATTACK, may_swap=True,
            ply=state.ply + 1, last_move=CAMPS[move.role],
        )

    def _advance(self, state: PalamState, move: Advance) -> PalamState:
        seat = state.to_move
        column = move.column
        if not 0 <= column < 6:
            raise IllegalMove(Phrase("palam.no_such_column"))
        if state.phase == DRAFT:
            raise IllegalMove(Phrase("palam.draft_not_over"))
        board = state.board
        index = _front_cell(board, seat, column)
        if index < 0:
            raise IllegalMove(Phrase("palam.empty_column", column=COLUMNS[column]))
        piece = board[index]
        new_board = list(board)
        new_board[index] = EMPTY
        if state.phase == ATTACK:
            return replace(
                state, board=tuple(new_board), to_move=1 - seat, phase=ANSWER, may_swap=False,
                attack=(column, piece), ply=state.ply + 1, last_move=move, attacker=seat,
            )
        # ANSWER: only the allowed columns, then the duel is resolved at once (ruling 6).
        attack_column, attack_piece = state.attack
        allowed = _answer_columns(board, seat, attack_piece)
        if column not in allowed:
            raise IllegalMove(_answer_reason(attack_piece, allowed))
        attacker = 1 - seat
        total = count(attack_piece) + count(piece)
        attacker_x = x2(attacker == state.isis, attack_column)
        answer_x = x2(seat == state.isis, column)
        # Even total: nearer the west "=" end (smaller x) wins; odd: nearer the east end.
        attacker_wins = (attacker_x < answer_x) if total % 2 == 0 else (attacker_x > answer_x)
        winner = attacker if attacker_wins else seat
        captured = list(state.captured)
        captured[winner] = (*captured[winner], attack_piece, piece)
        duels = state.duels + 1
        after = replace(
            state, board=tuple(new_board), to_move=1 - winner, phase=ATTACK, may_swap=True,
            attack=None, attacker=None, captured=(captured[0], captured[1]), duels=duels,
            ply=state.ply + 1, last_move=move,
            last_duel=Duel(attacker, attack_column, attack_piece, column, piece, winner),
        )
        if duels == DUELS:
            after = replace(after, to_move=None, outcome=_outcome(after))
        return after

    def _swap(self, state: PalamState, move: Swap) -> PalamState:
        if state.phase == DRAFT:
            raise IllegalMove(Phrase("palam.draft_not_over"))
        if state.phase == ANSWER:
            raise IllegalMove(Phrase("palam.must_answer"))
        if not state.may_swap:
            raise IllegalMove(Phrase("palam.must_attack"))
        if not (0 <= move.first < 12 and 0 <= move.second < 12) or move.first == move.second:
            raise IllegalMove(Phrase("palam.swap_two_cells"))
        seat = state.to_move
        a = seat * 12 + move.first
        b = seat * 12 + move.second
        board = list(state.board)
        for index, cell in ((a, move.first), (b, move.second)):
            if board[index] == EMPTY:
                raise IllegalMove(Phrase("palam.swap_empty", cell=cell_name(cell)))
        board[a], board[b] = board[b], board[a]
        return replace(
            state, board=tuple(board), to_move=1 - seat, may_swap=False, ply=state.ply + 1,
            last_move=SWAPS[(move.first, move.second)],
        )

    def _pick(self, state: PalamState, move: Pick) -> PalamState:
        if state.phase != DRAFT:
            raise IllegalMove(Phrase("palam.draft_over"))
        if move.piece not in state.pool:
            raise IllegalMove(Phrase("palam.not_revealed", piece=piece_name(move.piece)))
        seat = state.to_move
        if not 0 <= move.cell < 12:
            raise IllegalMove(Phrase("palam.no_such_cell"))
        row = _pick_row(state.board, seat)
        if move.cell // 6 != row:
            raise IllegalMove(Phrase("palam.fill_row", row=row + 1))
        index = seat * 12 + move.cell
        if state.board[index] != EMPTY:
            raise IllegalMove(Phrase("palam.cell_taken", cell=cell_name(move.cell)))
        board = list(state.board)
        board[index] = move.piece
        pool = tuple(p for p in state.pool if p != move.piece)
        unrevealed = state.unrevealed
        if not pool and unrevealed:
            pool, unrevealed = unrevealed, ()
        picks = state.picks + 1
        if picks == 24:
            # The draft is over: Anubis makes the first move of play.
            return replace(
                state, board=tuple(board), pool=(), unrevealed=(), picks=picks,
                to_move=state.anubis, phase=ATTACK, may_swap=True, ply=state.ply + 1,
                last_move=move,
            )
        return replace(
            state, board=tuple(board), pool=pool, unrevealed=unrevealed, picks=picks,
            to_move=_picker(state.isis, picks), ply=state.ply + 1, last_move=move,
        )

    # ----- views, words, storage --------------------------------------------------------------

    def _view(self, state: PalamState, seat: int | None) -> PalamState:
        if state.outcome is None and state.unrevealed:
            return replace(state, unrevealed=None)
        return state

    def explain(self, state: PalamState, move: Move) -> Phrase:
        seat = state.to_move
        if seat is None:
            return super().explain(state, move)
        who = self.seat_phrase(state, seat)
        if isinstance(move, Camp) and move.role in CAMPS:
            other = ANUBIS if move.role == ISIS else ISIS
            return Phrase(
                "palam.camp", seat=who, role=role_phrase(move.role), first=role_phrase(other)
            )
        if isinstance(move, Pick):
            return Phrase(
                "palam.pick", seat=who, piece=piece_name(move.piece), cell=cell_name(move.cell)
            )
        if isinstance(move, Swap):
            return Phrase(
                "palam.swap", seat=who, first=cell_name(move.first), second=cell_name(move.second)
            )
        if isinstance(move, Advance) and 0 <= move.column < 6:
            column = COLUMNS[move.column]
            index = _front_cell(state.board, seat, move.column)
            piece = piece_name(state.board[index]) if index >= 0 else "?"
            if state.phase == ANSWER and state.attack is not None:
                try:
                    duel = self.play(state, move).last_duel
                except IllegalMove:
                    return Phrase("palam.answer_refused", seat=who, column=column)
                total = count(duel.attacker_piece) + count(duel.answer_piece)
                return Phrase(
                    "palam.answer", seat=who, attacker=piece_name(state.attack[1]), piece=piece,
                    column=column, total=total,
                    parity=Phrase("palam.even" if total % 2 == 0 else "palam.odd"),
                    winner=self.seat_phrase(state, duel.winner),
                )
            return Phrase("palam.attack", seat=who, piece=piece, column=column)
        return super().explain(state, move)

    def dump(self, state: PalamState) -> dict:
        def names(pieces: tuple[int, ...] | None) -> list[str] | None:
            return None if pieces is None else [piece_name(p) for p in pieces]

        duel = state.last_duel
        return {
            "game": self.name,
            "players": state.players,
            "seed": state.seed,
            "setup": state.setup,
            "isis": state.isis,
            "board": [None if p == EMPTY else piece_name(p) for p in state.board],
            "to_move": state.to_move,
            "phase": state.phase,
            "may_swap": state.may_swap,
            "attack": None if state.attack is None
            else [state.attack[0], piece_name(state.attack[1])],
            "attacker": state.attacker,
            "captured": [names(state.captured[0]), names(state.captured[1])],
            "duels": state.duels,
            "pool": names(state.pool),
            "unrevealed": names(state.unrevealed),
            "picks": state.picks,
            "ply": state.ply,
            "last_duel": None if duel is None else [
                duel.attacker, duel.attacker_column, piece_name(duel.attacker_piece),
                duel.answer_column, piece_name(duel.answer_piece), duel.winner,
            ],
            "last_move": None if state.last_move is None else str(state.last_move),
            "outcome": dump_outcome(state.outcome),
        }

    def load(self, data: dict) -> PalamState:
        def piece(name: str) -> int:
            return SYMBOLS.index(name[0]) * 6 + int(name[1:]) - 1

        def pieces(names: list[str] | None) -> tuple[int, ...] | None:
            return None if names is None else tuple(piece(n) for n in names)

        phase = data["phase"]
        duel = data.get("last_duel")
        last = data.get("last_move")
        attack = data.get("attack")
        return PalamState(
            players=data["players"],
            seed=data["seed"],
            setup=data["setup"],
            isis=data["isis"],
            board=tuple(EMPTY if n is None else piece(n) for n in data["board"]),
            to_move=data["to_move"],
            phase=phase,
            may_swap=data["may_swap"],
            attack=None if attack is None else (attack[0], piece(attack[1])),
            captured=(pieces(data["captured"][0]), pieces(data["captured"][1])),
            duels=data["duels"],
            pool=pieces(data["pool"]),
            unrevealed=pieces(data["unrevealed"]),
            picks=data["picks"],
            ply=data["ply"],
            last_duel=None if duel is None else Duel(
                duel[0], duel[1], piece(duel[2]), duel[3], piece(duel[4]), duel[5]
            ),
            last_move=None if last is None else _load_last_move(last, data),
            outcome=load_outcome(data.get("outcome")),
            # Dumps from before the field: the attacker is the seat not to move.
            attacker=data.get("attacker", None if attack is None or data["to_move"] is None
                              else 1 - data["to_move"]),
        )


def _parse_pick(text: str) -> Pick | None:
    m = _PICK_RE.match(text)
    if m is None:
        return None
    piece = SYMBOLS.index(m.group(1).upper()) * 6 + int(m.group(2)) - 1
    return PICKS[(piece, (int(m.group(4)) - 1) * 6 + COLUMNS.index(m.group(3)))]


def _parse_swap(text: str) -> Swap | None:
    m = _CELL_PAIR_RE.match(text)
    if m is None:
        return None
    first = (int(m.group(2)) - 1) * 6 + COLUMNS.index(m.group(1))
    second = (int(m.group(4)) - 1) * 6 + COLUMNS.index(m.group(3))
    if first == second:
        raise IllegalMove(Phrase("palam.swap_two_cells"))
    return SWAPS[(first, second)]


def _parse_camp(text: str) -> Camp | None:
    m = _CAMP_RE.match(text)
    return None if m is None else CAMPS[ISIS if m.group(1) == "isis" else ANUBIS]


def _parse_advance(text: str) -> Advance | None:
    m = _COLUMN_RE.match(text)
    return None if m is None else ADVANCES[COLUMNS.index(m.group(1))]


def _load_last_move(text: str, data: dict) -> Move:
    """Read back ``last_move``. A pick and a swap can read alike ("a1 b2"); every move of a
    draft game up to its 24th ply is a pick, and no other move is."""
    text = text.lower()
    if data["setup"] == "draft" and data["ply"] == data["picks"]:
        move = _parse_pick(text)
    else:
        move = _parse_camp(text) or _parse_swap(text) or _parse_advance(text)
    if move is None:
        raise ValueError(f"unreadable stored move {text!r}")
    return move


def _answer_reason(attack_piece: int, allowed: list[int]) -> Phrase:
    name = piece_name(attack_piece)
    if len(allowed) == 1:
        return Phrase("palam.answer_leftmost", piece=name, column=COLUMNS[allowed[0]])
    return Phrase(
        "palam.answer_matching", piece=name, columns=", ".join(COLUMNS[c] for c in allowed)
    )


def _outcome(state: PalamState) -> Outcome:
    scores = points(state)
    # 75 points in all, an odd number: one seat always has more (ruling 7).
    winner = 0 if scores[0] > scores[1] else 1
    role = ISIS if winner == state.isis else ANUBIS
    return Outcome.said(
        frozenset({winner}),
        (float(scores[0]), float(scores[1])),
        Phrase(
            "palam.wins", seat=role_phrase(role), points=scores[winner],
            other=scores[1 - winner],
        ),
    )


GAME = register(Palam())
