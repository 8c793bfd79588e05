"""What every game service is given: ``ServiceContext``, one per ``Services``.

The services are side by side, not stacked: each holds the context and the few other services
it calls (by their public methods). The context holds only what they all share:

* ``store``: the repository (``bot.store``); the outbox rows a change causes are written in
  the change's own transaction (``tx.insert_outbox``), never through anything else, so that a
  change and its messages commit together;
* ``clock`` and ``seeds``: the time and the game seeds (tests replace them, even after the
  services are built: ``now`` and ``seed`` read them at each call);
* ``engine``: the engine of a game by name (``engines.get``);
* ``held``: the last state of the newest games read or moved (``HeldStates``), so that the
  delivery of a move's rows draws its position without reading the game again;
* ``on_change``: the hook told after each committed change that may move a deadline or wake
  an AI seat (the bot points it at its scheduler and AI player); ``notify_change`` calls it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import engines
from bot.core.models import utcnow
from bot.services.gamestate import secret_seed
from bot.store import GameRow, Store
from engines import Game

#: Games whose last state is kept for ``position`` (the newest reads and moves).
HELD_STATES = 512


class HeldStates:
    """game id -> (version, ply, last move, full state) of its last ``get_game`` read or of
    the move this process has just written; the oldest go past ``HELD_STATES``."""

    def __init__(self, limit: int = HELD_STATES) -> None:
        self._limit = limit
        self._states: dict[int, tuple[int, int, str | None, Any]] = {}

    def hold(self, row: GameRow, state: Any) -> None:
        """Keep ``state`` (the full state of ``row``): the outbox's delivery posts the position
        of the row it delivers, which is this state while the game is at ``row.version``."""
        held = self._states
        held.pop(row.id, None)
        held[row.id] = (row.version, row.ply, row.last_move, state)
        if len(held) > self._limit:
            del held[next(iter(held))]

    def get(self, game_id: int) -> tuple[int, int, str | None, Any] | None:
        """(version, ply, last move, state) held for the game, if any."""
        return self._states.get(game_id)


@dataclass(eq=False)
class ServiceContext:
    """The store, clock, seeds, engines, held states and change hook the services share."""

    store: Store
    clock: Callable[[], datetime] = utcnow
    seeds: Callable[[], int] = secret_seed
    #: Called after each committed change that may move a deadline (a game created, a move,
    #: a resignation, an undo…): the bot points it at the scheduler's and AI player's pokes.
    on_change: Callable[[], None] | None = None
    held: HeldStates = field(default_factory=HeldStates)

    def now(self) -> datetime:
        """The time by ``clock`` as it is now (a clock replaced later is the one used)."""
        return self.clock()

    def seed(self) -> int:
        """A new game's seed from ``seeds``."""
        return self.seeds()

    @staticmethod
    def engine(name: str) -> Game:
        """The engine of the game called ``name`` (``KeyError`` if there is none)."""
        return engines.get(name)

    def notify_change(self) -> None:
        """Tell ``on_change`` that deadlines may have moved (each service does after its
        commits; callers of ``ChallengeService.create_game_in`` after their own)."""
        if self.on_change is not None:
            self.on_change()
