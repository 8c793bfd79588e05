"""Whether an AI player accepts a draw offer: it accepts when it does not expect to win.

    ai.draws.accepts_draw("alak", view, seat, seed=0)   # True: the AI takes the draw

The estimate is ``expected_score``: ``ai.evaluate``'s value of the position for the seat, the
expected score on the scale of results (a win 1, a draw ½, a loss 0; with three or more
players, the mean over the opponents of finishing ahead, level or behind), calibrated on games
played by others than the AI as well as by its levels, so it holds on the games people play:
where such games mostly end drawn (Palago between weak players) it stays near ½ instead of
guessing a winner. It costs what one evaluation of a review costs (tenths of a second at most)
and runs in the bot's AI workers like a move. The AI accepts when that estimate is at most
``ACCEPT_AT_MOST`` (balanced, or worse for it): it never gives away a position it expects to
win, and it takes a draw from a lost or even one.

Deterministic: the same (game, view, seat, seed) gives the same answer anywhere.
"""

from __future__ import annotations

from typing import Any

from ai.evaluate import evaluate

#: The AI accepts a draw when its expected score is at most this (½ is an even position).
ACCEPT_AT_MOST = 0.55


def expected_score(game_name: str, view: Any, seat: int, seed: int | str = 0,
                   budget_s: float | None = None) -> float:
    """``seat``'s expected score from ``view`` (the seat's own view, or ``game.dump`` of it),
    in [0, 1]: ``ai.evaluate``'s value (``budget_s`` as there)."""
    return evaluate(game_name, view, seat, seed=seed, budget_s=budget_s)


def accepts_draw(game_name: str, view: Any, seat: int, seed: int | str = 0) -> bool:
    """Whether the AI in ``seat`` accepts a draw offered in ``view`` (module docstring)."""
    return expected_score(game_name, view, seat, seed) <= ACCEPT_AT_MOST
