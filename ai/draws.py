"""Whether an AI player accepts a draw offer: it accepts when it does not expect to win.

    ai.draws.accepts_draw("alak", view, seat, seed=0)   # True: the AI takes the draw

The estimate is ``expected_score``: the seat's mean result over seeded, uniformly random
playouts from ``view`` (a win 1, a draw or a shared win ½, a loss 0). Random playouts are a
rough judge, but a fair one for these games (they count material, territory and points as the
game does) and cheap: 64 playouts cost at most a few tenths of a second even in Polygo, and run
in the bot's AI workers like a move. The AI accepts when that estimate is at most
``ACCEPT_AT_MOST`` (balanced, or worse for it): it never gives away a position it expects to
win, and it takes a draw from a lost or even one.

``expected_score`` is the one place to swap for a better evaluation (a search's value, such as
an ``ai.evaluate`` returning the seat's expected score): nothing else depends on how it is
computed. Deterministic: the same (game, view, seat, seed) gives the same answer anywhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import engines

#: How many random playouts the estimate averages.
PLAYOUTS = 64
#: The AI accepts a draw when its expected score is at most this (½ is an even position).
ACCEPT_AT_MOST = 0.55
#: A playout longer than this many moves is scored as a draw (no game here comes close).
MAX_PLAYOUT_MOVES = 2000


def _result(outcome: engines.Outcome, seat: int) -> float:
    if seat not in outcome.winners:
        return 0.0 if outcome.winners else 0.5
    return 1.0 if len(outcome.winners) == 1 else 0.5


def expected_score(game_name: str, view: Any, seat: int, seed: int | str = 0,
                   playouts: int = PLAYOUTS) -> float:
    """``seat``'s mean result over ``playouts`` seeded random playouts from ``view`` (the
    seat's own view, or ``game.dump`` of it), in [0, 1]."""
    game = engines.get(game_name)
    if isinstance(view, Mapping):
        view = game.load(view)
    if view.outcome is not None:
        return _result(view.outcome, seat)
    rng = random.Random(f"draw:{game_name}:{seat}:{seed}")
    total = 0.0
    for _ in range(playouts):
        state = view
        for _ in range(MAX_PLAYOUT_MOVES):
            if state.outcome is not None:
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        total += 0.5 if state.outcome is None else _result(state.outcome, seat)
    return total / playouts


def accepts_draw(game_name: str, view: Any, seat: int, seed: int | str = 0) -> bool:
    """Whether the AI in ``seat`` accepts a draw offered in ``view`` (module docstring)."""
    return expected_score(game_name, view, seat, seed) <= ACCEPT_AT_MOST
