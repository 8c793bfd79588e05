"""AI players for the six games (docs/architecture.md).

    import ai
    ai.LEVELS                                            # ("easy", "medium", "hard")
    text = ai.choose("palago", view, seat, level="hard", seed=0)
    tip = ai.hint("alak", view, seat)                    # Hint(move="f", reason=Phrase(...))
    value = ai.evaluate("polygo", view, seat)            # expected score in [0, 1]
    found = ai.analyse("polygo", view, seat)             # Analysis(value, move or None)

Pure: imports ``engines`` only, no I/O and no global state that a worker process would need to
share, so a worker can call ``choose`` with plain arguments: the view may be passed as
``game.dump(view)`` (a JSON-safe dict; some views hold read-only mappings that do not pickle).
The answer depends only on (game, view, seat, level, seed, budget_s): searches are sized by
counts derived from the budget, never by reading the clock. ``view`` is what ``seat`` sees
(``game.view(state, seat)``) with ``state.to_move == seat``; the AI never needs more. Each game's
method and why it was chosen is in its module (``ai/alak.py``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engines
from ai import alak, kolory, lppg, palago, palam, polygo
from ai.core import DEFAULT_BUDGET_S, LEVELS, Decision, Reason, check_level, make_rng
from ai.evaluate import EVAL_BUDGET_S, Analysis, analyse, evaluate, opponents, result_score

_PLAYERS = {
    "alak": alak,
    "kolory": kolory,
    "lppg": lppg,
    "palago": palago,
    "palam": palam,
    "polygo": polygo,
}

#: The level whose move ``hint`` suggests.
HINT_LEVEL = "hard"


@dataclass(frozen=True)
class Hint:
    """A suggested move (canonical text) and why, as an ``engines.phrases.Phrase`` the bot
    translates (keys ``ai.*``, in ``words/locales/<language>/phrases_ai.toml``), or ``None``
    when there is nothing short to say."""

    move: str
    reason: Reason | None


def decide(game_name: str, view: Any, seat: int, level: str = "hard", seed: int | str = 0,
           budget_s: float | None = None) -> Decision:
    """The move ``seat`` plays in ``view`` at ``level``, with the reason for it. ``view`` may
    also be given as ``game.dump(view)`` (plain data, for a worker process)."""
    game = engines.get(game_name)
    check_level(level)
    if isinstance(view, Mapping):
        view = game.load(view)
    if view.outcome is not None or view.to_move is None:
        raise ValueError("the game is over: there is no move to choose")
    if view.to_move != seat:
        raise ValueError(f"it is seat {view.to_move}'s turn, not seat {seat}'s")
    player = _PLAYERS[game.name]
    legal = game.legal_moves(view)
    if len(legal) == 1:
        return Decision(str(legal[0]), player.reason_for(view, seat, legal[0]))
    return player.decide(view, seat, level, make_rng(game.name, level, seed), budget_s)


def choose(game_name: str, view: Any, seat: int, level: str = "hard", seed: int | str = 0,
           budget_s: float | None = None) -> str:
    """The canonical text of the move ``seat`` plays in ``view`` at ``level``."""
    return decide(game_name, view, seat, level, seed, budget_s).move


def hint(game_name: str, view: Any, seat: int, seed: int | str = 0,
         budget_s: float | None = None) -> Hint:
    """The ``hard`` level's move for ``seat`` and, where the game allows it, why."""
    decision = decide(game_name, view, seat, HINT_LEVEL, seed, budget_s)
    return Hint(decision.move, decision.reason)


__all__ = ["DEFAULT_BUDGET_S", "EVAL_BUDGET_S", "HINT_LEVEL", "LEVELS", "Analysis", "Hint",
           "analyse", "choose", "decide", "evaluate", "hint", "opponents", "result_score"]
