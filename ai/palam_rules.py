"""Palam on tuples, for the search: positions, moves as ints, the rules that play them, and
the evaluation (RULES.md §4 with the engine's rulings). Shared by the duel search
(``ai.palam``) and the draft's playouts (``ai.palam_draft``), which import it and not each
other.

tests/ai/test_palam.py plays it side by side with the engine over thousands of random
positions.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ai.alphabeta import WIN
from engines.palam import (
    ADVANCES,
    ANSWER,
    ANUBIS,
    CAMP,
    CAMPS,
    DUELS,
    EMPTY,
    ISIS,
    LAST_DUEL_BONUS,
    SWAP_LIST,
    SWAPS,
    VALUES,
    Camp,
    PalamState,
    _answer_columns,
    _front_cell,
    points,
    x2,
)

#: Moves are ints: 0..5 advance that column; SWAP_BASE + i is SWAP_LIST[i]; CAMP_ISIS and
#: CAMP_ANUBIS choose a camp.
SWAP_BASE = 6
CAMP_ISIS, CAMP_ANUBIS = 1000, 1001
CAMP_MOVES = {CAMP_ISIS: ISIS, CAMP_ANUBIS: ANUBIS}
_SWAP_CELLS = tuple((s.first, s.second) for s in SWAP_LIST)
_SWAP_INDEX = {cells: i for i, cells in enumerate(_SWAP_CELLS)}
LIGHT_VALUE = 11


@dataclass(frozen=True, slots=True)
class Position:
    board: tuple[int, ...]
    to_move: int
    answering: bool
    may_swap: bool
    attack: tuple[int, int] | None
    points: tuple[int, int]
    duels: int
    #: The seat playing Isis; while ``choosing`` a camp, the seat choosing (the engine stores
    #: the board as if it were Isis until it decides).
    isis: int
    choosing: bool = False


def from_view(view: PalamState) -> Position:
    return Position(
        board=view.board,
        to_move=view.to_move,
        answering=view.phase == ANSWER,
        may_swap=view.may_swap,
        attack=view.attack,
        points=points(view),
        duels=view.duels,
        isis=view.isis,
        choosing=view.phase == CAMP,
    )


def move_text(move: int) -> str:
    if move in CAMP_MOVES:
        return str(CAMPS[CAMP_MOVES[move]])
    if move < SWAP_BASE:
        return str(ADVANCES[move])
    return str(SWAP_LIST[move - SWAP_BASE])


def move_of(engine_move) -> int:
    if isinstance(engine_move, Camp):
        return CAMP_ISIS if engine_move.role == ISIS else CAMP_ANUBIS
    if hasattr(engine_move, "column"):
        return engine_move.column
    return SWAP_BASE + _SWAP_INDEX[(engine_move.first, engine_move.second)]


def duel_winner(isis: int, attacker: int, attack_column: int, attack_piece: int,
                answer_column: int, answer_piece: int) -> int:
    total = attack_piece % 6 + answer_piece % 6 + 2
    ax = x2(attacker == isis, attack_column)
    dx = x2(attacker != isis, answer_column)
    attacker_wins = (ax < dx) if total % 2 == 0 else (ax > dx)
    return attacker if attacker_wins else 1 - attacker


class Rules:
    """Palam on tuples (RULES.md §4 with the engine's rulings)."""

    def moves(self, pos: Position, every_swap: bool = False) -> list[int]:
        board, seat = pos.board, pos.to_move
        if pos.choosing:
            return [CAMP_ISIS, CAMP_ANUBIS]
        if pos.answering:
            return _answer_columns(board, seat, pos.attack[1])
        moves = [c for c in range(6) if _front_cell(board, seat, c) >= 0]
        if pos.may_swap:
            base = seat * 12
            occupied = [c for c in range(12) if board[base + c] != EMPTY]
            fronts = {_front_cell(board, seat, c) - base for c in range(6)}
            for i, a in enumerate(occupied):
                for b in occupied[i + 1:]:
                    if every_swap or a in fronts or b in fronts:
                        cells = SWAPS[(a, b)]
                        moves.append(SWAP_BASE + _SWAP_INDEX[(cells.first, cells.second)])
        return moves

    def play(self, pos: Position, move: int) -> Position:
        seat = pos.to_move
        if move in CAMP_MOVES:
            # Choosing Anubis hands the two halves of the board over; the other seat starts.
            isis = seat if move == CAMP_ISIS else 1 - seat
            board = pos.board if isis == pos.isis else pos.board[12:] + pos.board[:12]
            return Position(board, 1 - seat, False, True, None, pos.points, pos.duels, isis)
        board = list(pos.board)
        if move >= SWAP_BASE:
            a, b = _SWAP_CELLS[move - SWAP_BASE]
            a += seat * 12
            b += seat * 12
            board[a], board[b] = board[b], board[a]
            return Position(tuple(board), 1 - seat, False, False, None, pos.points, pos.duels,
                            pos.isis)
        index = _front_cell(pos.board, seat, move)
        piece = board[index]
        board[index] = EMPTY
        if not pos.answering:
            return Position(tuple(board), 1 - seat, True, False, (move, piece), pos.points,
                            pos.duels, pos.isis)
        attacker = 1 - seat
        attack_column, attack_piece = pos.attack
        winner = duel_winner(pos.isis, attacker, attack_column, attack_piece, move, piece)
        gained = VALUES[attack_piece] + VALUES[piece]
        duels = pos.duels + 1
        if duels == DUELS:
            gained += LAST_DUEL_BONUS
        pts = list(pos.points)
        pts[winner] += gained
        return Position(tuple(board), 1 - winner, False, True, None, (pts[0], pts[1]), duels,
                        pos.isis)

    def to_move(self, pos: Position) -> int:
        return pos.to_move

    def terminal(self, pos: Position, root: int) -> float | None:
        if pos.duels < DUELS:
            return None
        margin = pos.points[root] - pos.points[1 - root]
        return WIN + margin if margin > 0 else -WIN + margin

    def evaluate(self, pos: Position, root: int) -> float:
        value = pos.points[root] - pos.points[1 - root]
        return value + self._prospects(pos, root) - self._prospects(pos, 1 - root)

    def _prospects(self, pos: Position, seat: int) -> float:
        """Half the value of ``seat``'s light pieces, less for the ones the opponent can win
        at once by attacking with a front piece they must answer with."""
        board = pos.board
        isis = pos.isis
        enemy = 1 - seat
        total = 0.0
        base = seat * 12
        lights = [c for c in range(12) if board[base + c] != EMPTY
                  and VALUES[board[base + c]] == LIGHT_VALUE]
        if not lights:
            return 0.0
        threatened: set[int] = set()
        for attack_column in range(6):
            index = _front_cell(board, enemy, attack_column)
            if index < 0:
                continue
            attack_piece = board[index]
            answers = _answer_columns(board, seat, attack_piece)
            # The defender picks its best answer: a light front piece is only lost if every
            # answer loses or the light piece is the only one allowed.
            if len(answers) == 1:
                column = answers[0]
                front = _front_cell(board, seat, column)
                if VALUES[board[front]] == LIGHT_VALUE and duel_winner(
                        isis, enemy, attack_column, attack_piece, column, board[front]) == enemy:
                    threatened.add(front - base)
        for cell in lights:
            total += 3.0 if cell in threatened else 5.5
        return total

    def key(self, pos: Position) -> Hashable:
        return (pos.board, pos.to_move, pos.answering, pos.may_swap, pos.attack, pos.points,
                pos.duels, pos.isis, pos.choosing)


RULES = Rules()
