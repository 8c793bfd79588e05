"""A rules-aware greedy LPPG player, the benchmark opponent of the issue (it sees only its view).

It looks one turn ahead and no further: a move that ends the game with its side winning first;
then a move after which its side holds the smallest territory of a unique size (the one that
wins if the game ends); then the move whose forced mark takes the smallest region; ties at
random. Marks and keeps are chosen the same way, draws at random.
"""

from __future__ import annotations

import random

from engines.lppg import GAME, LppgState, territories


def _side(players: int, seat: int) -> int:
    return seat % 2 if players == 4 else seat


def _score(before: LppgState, after: LppgState, seat: int) -> tuple[int, int]:
    players = before.players
    me = _side(players, seat)
    if after.outcome is not None:
        won = any(_side(players, s) == me for s in after.outcome.winners)
        return (2 if won else -2, 0)
    sizes: dict[int, int] = {}
    entries = []
    for owner, _, squares in territories(after):
        entries.append((len(squares), owner))
        sizes[len(squares)] = sizes.get(len(squares), 0) + 1
    unique = [e for e in entries if sizes[e[0]] == 1]
    leads = bool(unique) and _side(players, min(unique)[1]) == me
    new = [len(sq) for owner, _, sq in territories(after) if owner == seat]
    old = [len(sq) for owner, _, sq in territories(before) if owner == seat]
    marked = max(new) if len(new) > len(old) else 0
    return (1 if leads else 0, -marked)


def _through_turn(state: LppgState, seat: int) -> LppgState:
    """The position once this seat's own keep and mark decisions after a placement are made
    (each the best by the same score, first listed on ties)."""
    while state.outcome is None and state.pending in ("keep", "mark") and state.to_move == seat:
        state = max((GAME.play(state, m) for m in GAME.legal_moves(state)),
                    key=lambda after, before=state: _score(before, after, seat))
    return state


def choose(view: LppgState, seat: int, rng: random.Random) -> str:
    moves = list(GAME.legal_moves(view))
    if view.pending == "draw":
        return str(rng.choice(moves))
    best, best_score = [], None
    for move in moves:
        score = _score(view, _through_turn(GAME.play(view, move), seat), seat)
        if best_score is None or score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    return str(rng.choice(best))
