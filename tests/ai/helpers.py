"""Random positions of every game for the AI tests (seeded, so every run sees the same ones)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import engines


def random_states(name: str, count: int, seed: int = 0, players: int | None = None,
                  options: dict | None = None) -> Iterator[Any]:
    """``count`` running positions, each at a random ply of a random game (every ply of a game
    is equally likely to be picked, so early, middle and late positions all come up)."""
    game = engines.get(name)
    rng = random.Random(f"{name}:{seed}")
    made = 0
    while made < count:
        n = players or rng.choice(game.allowed_player_counts())
        state = game.new(n, seed=rng.randrange(10**9), options=options)
        states = [state]
        while state.to_move is not None:
            moves = game.legal_moves(state)
            state = game.play(state, moves[rng.randrange(len(moves))])
            states.append(state)
        running = [s for s in states if s.to_move is not None]
        for state in rng.sample(running, min(len(running), 3, count - made)):
            made += 1
            yield state


def random_walk(name: str, seed: int, players: int = 2, options: dict | None = None):
    """Every state of one random game, with the move played from each (None at the end)."""
    game = engines.get(name)
    rng = random.Random(f"walk:{name}:{seed}")
    state = game.new(players, seed=seed, options=options)
    while state.to_move is not None:
        moves = game.legal_moves(state)
        move = moves[rng.randrange(len(moves))]
        yield state, move
        state = game.play(state, move)
    yield state, None
