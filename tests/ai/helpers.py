"""Random positions of every game for the AI tests (seeded, so every run sees the same ones)."""

from __future__ import annotations

import dataclasses
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


def lppg_deal_from_view(view: Any, rng: random.Random) -> Any:
    """Another real LPPG state with the same view as ``view`` (for its seat): the cards it hides
    dealt afresh at random among the hidden places, each card back getting a card of its
    colour, and a new seed for the reshuffles."""
    from engines.lppg import DECK_SIZE, card_colour, visible_colour

    seen = {card for card, _, _, _ in view.placed}
    for cards in (*view.hands, view.pile_a, view.pile_b, view.discard):
        seen.update(c for c in cards if c >= 0)
    pool = [c for c in range(DECK_SIZE) if c not in seen]
    rng.shuffle(pool)
    by_colour: dict[int, list[int]] = {}
    for c in pool:
        by_colour.setdefault(card_colour(c), []).append(c)
    hands = [list(hand) for hand in view.hands]
    pile_a, pile_b, discard = list(view.pile_a), list(view.pile_b), list(view.discard)
    # Card backs first (they need a card of their colour), then the fully hidden places.
    for cards in (*hands, pile_a, pile_b):
        for i, card in enumerate(cards):
            if card < 0 and visible_colour(card) is not None:
                cards[i] = by_colour[visible_colour(card)].pop()
    rest = iter([c for cards in by_colour.values() for c in cards])
    for cards in (*hands, pile_a, pile_b, discard):
        for i, card in enumerate(cards):
            if card < 0:
                cards[i] = next(rest)
    return dataclasses.replace(
        view,
        seed=rng.randrange(2**62),
        hands=tuple(tuple(hand) for hand in hands),
        pile_a=tuple(pile_a),
        pile_b=tuple(pile_b),
        discard=tuple(discard),
    )
