"""What a game is besides its engine state: its status, its sides, how it is rebuilt from the
database's truth, and how it ends without a move (a resignation, a loss on time).

Rulings (not in RULES.md):

* Resigning ends the game at once, in any turn. Winners: every seat that is not on the
  resigning player's side. A side is the seat alone, except in team games: a game may declare
  ``teams(players) -> tuple[tuple[int, ...], ...]``; LPPG with 4 players falls back to the teams
  of RULES.md §5 (seats 0+2 against 1+3). So with 3–5 players in Kolory, all the others share
  the win. ``scores`` are 1 for a winner and 0 otherwise; the reason names the resigning seat.
  The resignation is stored with the game (``forced_outcome``) so replay rebuilds it.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import engines
from bot.core.events import GameEnded, GameEvent
from bot.services import clockstate
from bot.services.drawstate import close_draw_offers
from bot.store import GameRow, GameUpdate, Writes
from engines import Game, Outcome, Phrase
from engines.core import load_outcome

ACTIVE = "active"
FINISHED = "finished"
#: Ended by an admin with no result (``bot.services.admin``).
ABORTED = "aborted"
#: ``forced_outcome["kind"]`` of an aborted game.
ABORT = "abort"

#: Teams for games whose engine does not declare ``teams(players)`` (RULES.md §5: LPPG with 4
#: players is seats 0+2 against 1+3).
FALLBACK_TEAMS: dict[str, dict[int, tuple[tuple[int, ...], ...]]] = {
    "lppg": {4: ((0, 2), (1, 3))},
}



def secret_seed() -> int:
    """A fresh game seed from the OS's secure generator (fits a signed 64-bit column)."""
    return secrets.randbits(63)


def teams_of(game: Game, players: int) -> tuple[tuple[int, ...], ...]:
    """The sides of a game: each seat alone unless the game (or the fallback) has teams."""
    declared = getattr(game, "teams", None)
    if callable(declared):
        teams = declared(players)
        if teams:
            return tuple(tuple(team) for team in teams)
    fallback = FALLBACK_TEAMS.get(game.name, {}).get(players)
    if fallback:
        return fallback
    return tuple((seat,) for seat in range(players))


def resignation_outcome(game: Game, state: Any, seat: int) -> Outcome:
    """The outcome when ``seat`` resigns (see the module docstring for the ruling)."""
    return clockstate.side_loses(
        state, seat, teams_of(game, state.players),
        Phrase("outcome.resigned", seat=game.seat_phrase(state, seat)),
    )


def aborted(by: int, *, admin: bool) -> dict[str, Any]:
    """The ``forced_outcome`` of an aborted game: who aborted it, and whether as a server
    admin. It ends the game with no outcome: nobody is to move."""
    return {"kind": ABORT, "by": by, "admin": admin}


def apply_forced_outcome(state: Any, forced: Mapping[str, Any] | None) -> Any:
    """The state with a stored resignation applied (nothing to do for a played-out game);
    an abort leaves it with nobody to move and no outcome."""
    if not forced:
        return state
    if forced.get("kind") == ABORT:
        return dataclasses.replace(state, to_move=None)
    return dataclasses.replace(state, to_move=None, outcome=load_outcome(forced["outcome"]))


def forced_end(
    game: Game, row: GameRow, state: Any, forced: dict[str, Any], now: datetime
) -> tuple[Any, GameUpdate]:
    """The finished state and the row update of a game ended without a move (a resignation,
    a loss on time): the ply and the last move stay, nobody is to move."""
    after = apply_forced_outcome(state, forced)
    update = GameUpdate(
        snapshot=game.dump(after),
        ply=row.ply,
        to_move=None,
        status=FINISHED,
        last_move=row.last_move,
        forced_outcome=forced,
        updated_at=now,
    )
    return after, update


async def write_forced_end(
    tx: Writes,
    row: GameRow,
    ending: GameEvent,
    now: datetime,
    reply_token: str | None = None,
) -> None:
    """In the transaction that wrote ``forced_end``'s update: the ``ending`` outbox row (its
    ``version`` the game's after the update, ``row.version + 1``), then ``game_over``, and the
    clock stopped, and pending draw offers closed. ``reply_token``: the interaction that
    answers."""
    await close_draw_offers(tx, row, now)
    await tx.insert_outbox(ending, now, reply_token)
    await tx.insert_outbox(GameEnded(game_id=row.id), now, reply_token)
    await clockstate.turn_changed(tx, row.id, row.seats, row.ply, None, now)


def rebuild(
    game_name: str,
    players: int,
    seed: int,
    options: Mapping[str, Any],
    moves: Sequence[str],
    forced_outcome: Mapping[str, Any] | None = None,
) -> Any:
    """The state of a game rebuilt from its truth: (seed, options, moves) plus a resignation."""
    game = engines.get(game_name)
    state = game.replay(players, seed, options, moves)[-1]
    return apply_forced_outcome(state, forced_outcome)




def normal_json(value: Any) -> Any:
    """A value as it comes back from the database (tuples become lists, and so on)."""
    return json.loads(json.dumps(value))
