"""Pure game rules: no I/O, no Discord, no Pillow, no asyncio (docs/architecture.md).

``engines.get(name)`` returns a game; ``engines.GAMES`` maps every name to its game.
"""

from __future__ import annotations

from engines.core import Game, IllegalMove, Move, Option, Outcome
from engines.phrases import Phrase

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    GAMES[game.name] = game
    return game


def get(name: str) -> Game:
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(GAMES)
        raise KeyError(f"unknown game {name!r}; games: {known}") from None


# Each game module registers itself on import; add a game by importing it here.
from engines import alak as _alak  # noqa: E402,F401
from engines import kolory as _kolory  # noqa: E402,F401
from engines import lppg as _lppg  # noqa: E402,F401
from engines import palago as _palago  # noqa: E402,F401
from engines import palam as _palam  # noqa: E402,F401
from engines import polygo as _polygo  # noqa: E402,F401

__all__ = [
    "GAMES", "Game", "IllegalMove", "Move", "Option", "Outcome", "Phrase", "get", "register",
]
