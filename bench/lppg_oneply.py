"""A one-ply greedy LPPG player, written apart from the AI: a second benchmark opponent.

It shares nothing with ``ai.lppg`` (no evaluation, no sampling) and sees only its view. For
every legal placement of either card of its hand it plays the rest of its turn too (the
``keep`` and ``mark`` decisions the placement forces, each chosen by the same preferences), and
it ranks the positions so reached by, in order:

1. the game is over and its side won (a game over without its side winning ranks last);
2. its side owns the smallest territory of a unique size (the one that wins if the game ends);
3. its own territories are small: the sum of 1 / size over them (more and smaller is better).

Ties are broken by its seeded generator. A ``keep`` that falls to another seat within its turn
is chosen by that seat's own preferences. Draws are at random. It is "one-ply": it never
considers what anybody else can do next.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.lppg import GAME, LppgState, territories


def team(players: int, seat: int) -> int:
    """Four players play in teams (seats 0 and 2 against 1 and 3); two play alone."""
    return seat % 2 if players == 4 else seat


def smallest_unique_owner(entries: Sequence[tuple[int, int]]) -> int | None:
    """The owner of the smallest territory whose size no other territory shares, if any."""
    sizes = [size for size, _ in entries]
    unique = [(size, owner) for size, owner in entries if sizes.count(size) == 1]
    return min(unique)[1] if unique else None


def preference(state: LppgState, seat: int) -> tuple[int, int, float]:
    """How much ``seat`` likes the position at the end of its turn (greater is better)."""
    players = state.players
    mine = team(players, seat)
    if state.outcome is not None:
        won = any(team(players, s) == mine for s in state.outcome.winners)
        return (1, 1, 0.0) if won else (-1, 0, 0.0)
    held = territories(state)
    owner = smallest_unique_owner([(len(squares), who) for who, _, squares in held])
    leads = owner is not None and team(players, owner) == mine
    small = sum(1.0 / len(squares) for who, _, squares in held if who == seat)
    return (0, int(leads), small)


def rest_of_turn(state: LppgState, rng: random.Random) -> LppgState:
    """Play the ``keep`` and ``mark`` decisions that follow a placement within the same turn,
    each by the deciding seat's preferences (ties at random)."""
    turn = state.turn_seat
    while state.outcome is None and state.pending in ("keep", "mark") and state.turn_seat == turn:
        chooser = state.to_move
        state = _best([GAME.play(state, move) for move in GAME.legal_moves(state)],
                      lambda after, chooser=chooser: preference(after, chooser), rng)
    return state


def _best(options: list, key, rng: random.Random):
    """The option with the greatest key; ties at random."""
    scored = [(key(option), option) for option in options]
    top = max(score for score, _ in scored)
    tied = [option for score, option in scored if score == top]
    return tied[rng.randrange(len(tied))]


def choose(view: LppgState, seat: int, rng: random.Random) -> str:
    """The move ``seat`` plays in ``view`` (its own view: other hands and the piles hidden)."""
    moves = list(GAME.legal_moves(view))
    if view.pending == "draw":
        return str(moves[rng.randrange(len(moves))])
    # A placement, or a keep asked of it after another seat's placement: the same ranking of
    # where the turn ends.
    return str(_best(moves, lambda move: preference(
        rest_of_turn(GAME.play(view, move), rng), seat), rng))
