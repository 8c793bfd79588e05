"""Palam AI: alpha-beta over duels, exact in the last duels; flat Monte Carlo for the draft.

Why this method: Palam is deterministic, fully visible once dealt, and short (12 duels of two
or three plies each), but a position offers up to 6 attacks and 66 swaps. Alpha-beta with a
transposition table handles that width well because most of the tree is the opponent's forced
or nearly forced answers (1 to 3 legal moves). The evaluation counts the points already taken
plus what the pieces still in play promise: each player's light pieces (11 points) are scored
by whether the opponent can attack them into a lost duel right now. Near the end the tree is
small enough to be searched to the last duel, so the endings are played exactly. Swaps of two
back-row pieces change nothing until a front piece leaves, so inside the tree only swaps
touching a front piece are tried (all swaps are tried at the root). The camp choice that opens
a dealt game is the root of the same search: both camps are searched, the better one is taken.

The draft (option ``setup=draft``) is 24 picks before any duel: too deep for the search, so the
picks are chosen by flat Monte Carlo: each candidate pick is followed by random completions of
the draft and a fast greedy play of the duels.

The search runs on its own tuple representation (``ai.palam_rules``, shared with the draft).

Levels: ``easy`` searches two plies (one duel) and picks at random among the moves within two
points of the best; ``medium`` searches four plies; ``hard`` deepens until the node budget is
spent.
"""

from __future__ import annotations

import random

from ai.alphabeta import AlphaBeta
from ai.core import Decision, Reason, budget_for, reason, work
from ai.palam_draft import choose_pick
from ai.palam_rules import (
    CAMP_MOVES,
    RULES,
    SWAP_BASE,
    Position,
    from_view,
    move_of,
    move_text,
)
from engines.palam import DRAFT, PalamState, role_phrase

#: Search nodes per second of one core of the reference machine (measured once).
NODES_PER_S = 80_000


def decide(view: PalamState, seat: int, level: str, rng: random.Random,
           budget_s: float | None) -> Decision:
    budget = budget_for(level, budget_s)
    if view.phase == DRAFT:
        return Decision(choose_pick(view, seat, level, rng, budget))
    pos = from_view(view)
    moves = RULES.moves(pos, every_swap=True)
    rng.shuffle(moves)
    # Attacks first: they are the usual best moves and make the pruning work.
    moves.sort(key=lambda m: m >= SWAP_BASE)
    nodes = work(budget, NODES_PER_S)
    if level == "easy":
        result = AlphaBeta(RULES, nodes, max_depth=2, exact_root=True).search(pos, moves)
        near = [m for m, v in result.scores if v >= result.value - 2.0]
        move = rng.choice(near)
    elif level == "medium":
        move = AlphaBeta(RULES, nodes, max_depth=4).search(pos, moves).move
    else:
        move = AlphaBeta(RULES, nodes).search(pos, moves).move
    return Decision(move_text(move), explain(pos, move))


def reason_for(view: PalamState, seat: int, move) -> Reason | None:
    if view.phase == DRAFT:
        return None
    return explain(from_view(view), move_of(move))


def explain(pos: Position, move: int) -> Reason | None:
    if move in CAMP_MOVES:
        return reason("palam.camp", role=role_phrase(CAMP_MOVES[move]))
    if move >= SWAP_BASE:
        return reason("palam.swap")
    after = RULES.play(pos, move)
    if not pos.answering:
        return None
    gained = after.points[pos.to_move] - pos.points[pos.to_move]
    if gained:
        return reason("palam.wins_duel", count=gained)
    return reason("palam.loses_least")
