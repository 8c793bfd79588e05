"""Palam's draft (``setup=draft``): flat Monte Carlo over the picks.

Each candidate pick (a revealed piece and a cell) is followed by random completions of the
draft and a quick greedy play of the twelve duels (attack with any front piece, answer with a
winning piece when there is one, otherwise with the cheapest allowed); the pick with the best
mean result is played. The face-down batch is the complement of the pieces already seen, so
nothing hidden is needed.
"""

from __future__ import annotations

import random

from ai.core import work
from ai.palam_rules import RULES, Position, duel_winner
from engines.palam import (
    DUELS,
    EMPTY,
    PICKS,
    PIECES,
    VALUES,
    PalamState,
    _front_cell,
    _pick_row,
    _picker,
)

#: Draft playouts per second.
PLAYOUTS_PER_S = 3_000


def _complete_draft(board: list[int], pool: list[int], hidden: list[int], isis: int, picks: int,
                    rng: random.Random) -> None:
    while picks < 24:
        if not pool:
            pool, hidden = hidden, []
        seat = _picker(isis, picks)
        row = _pick_row(tuple(board), seat)
        base = seat * 12 + row * 6
        empty = [base + c for c in range(6) if board[base + c] == EMPTY]
        piece = pool.pop(rng.randrange(len(pool)))
        board[rng.choice(empty)] = piece
        picks += 1


def _greedy_duels(pos: Position, rng: random.Random) -> Position:
    rules = RULES
    while pos.duels < DUELS:
        seat = pos.to_move
        if pos.answering:
            options = rules.moves(pos)
            column_piece = pos.attack
            best, best_key = options[0], None
            for column in options:
                piece = pos.board[_front_cell(pos.board, seat, column)]
                wins = duel_winner(pos.isis, 1 - seat, column_piece[0], column_piece[1],
                                         column, piece) == seat
                key = (not wins, VALUES[piece] if not wins else -VALUES[piece])
                if best_key is None or key < best_key:
                    best, best_key = column, key
            pos = rules.play(pos, best)
        else:
            attacks = [c for c in range(6) if _front_cell(pos.board, seat, c) >= 0]
            pos = rules.play(pos, rng.choice(attacks))
    return pos


def choose_pick(view: PalamState, seat: int, level: str, rng: random.Random,
                budget: float) -> str:
    candidates = [PICKS[(p, c)] for p in view.pool for c in _empty_cells(view, seat)]
    seen = set(view.pool) | {p for p in view.board if p != EMPTY}
    hidden = [p for p in PIECES if p not in seen]
    playouts = work(budget, PLAYOUTS_PER_S, minimum=len(candidates))
    per = max(1, playouts // len(candidates))
    if level == "easy":
        per = 1
    best, best_mean = candidates[0], -1.0
    for pick in candidates:
        total = 0.0
        for _ in range(per):
            board = list(view.board)
            board[seat * 12 + pick.cell] = pick.piece
            pool = [p for p in view.pool if p != pick.piece]
            _complete_draft(board, pool, list(hidden), view.isis, view.picks + 1, rng)
            pos = Position(tuple(board), 1 - view.isis, False, True, None, (0, 0), 0,
                                 view.isis)
            end = _greedy_duels(pos, rng)
            mine, theirs = end.points[seat], end.points[1 - seat]
            total += 1.0 if mine > theirs else 0.0
        if total / per > best_mean:
            best, best_mean = pick, total / per
    return str(best)


def _empty_cells(view: PalamState, seat: int) -> list[int]:
    row = _pick_row(view.board, seat)
    return [row * 6 + c for c in range(6) if view.board[seat * 12 + row * 6 + c] == EMPTY]
