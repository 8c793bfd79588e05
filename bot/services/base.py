"""Plain functions every game service uses: reading a game's or a challenge's row (refusing a
number that does not exist), a player's seat, turning rows into the values the Discord layer
gets (``GameInfo``, ``Challenge``), checking a game's options and a time control, and
``retrying`` a call whose transaction lost a race. The shared state (store, clock…) is
``bot.services.context``."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ParamSpec, TypeVar

import engines
from bot.core.correspondence.timecontrol import TimeControl
from bot.core.errors import ChallengeError, NotAPlayer, NotFound, TryAgain
from bot.core.models import Challenge, GameInfo
from bot.services import clockstate
from bot.services.gamestate import ABORT, ABORTED, apply_forced_outcome, normal_json
from bot.store import (
    ChallengeRow,
    GameRow,
    GameUpdate,
    Reads,
    TransactionConflict,
)
from engines import Game

#: How many times a call runs when the database keeps breaking deadlocks with it.
CONFLICT_ATTEMPTS = 4

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


def retrying(call: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Run a service call again, from its reads, when its transaction lost a deadlock or a
    serialization race (``TransactionConflict``: nothing written), after a short random pause,
    up to ``CONFLICT_ATTEMPTS`` times; then ``TryAgain``, which tells the user. Only for calls
    whose writes all go in one transaction (or whose earlier ones are safe to repeat): the
    run that failed left nothing behind."""

    @functools.wraps(call)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(1, CONFLICT_ATTEMPTS + 1):
            try:
                return await call(*args, **kwargs)
            except TransactionConflict as conflict:
                log.info("%s: %s (attempt %d of %d)", call.__qualname__, conflict, attempt,
                         CONFLICT_ATTEMPTS)
                if attempt < CONFLICT_ATTEMPTS:
                    await asyncio.sleep(random.uniform(0.005, 0.02) * attempt)
        raise TryAgain("errors.try_again")

    return run


async def game_row(reads: Reads, game_id: int) -> GameRow:
    """The game's row (``reads``: the store, or a transaction to read in); ``NotFound`` if
    there is none."""
    row = await reads.get_game(game_id)
    if row is None:
        raise NotFound("errors.not_found", game_id=game_id)
    return row


async def challenge_row(reads: Reads, challenge_id: int) -> ChallengeRow:
    """The challenge's row; ``NotFound`` if there is none."""
    row = await reads.get_challenge(challenge_id)
    if row is None:
        raise NotFound("errors.challenge_not_found", challenge_id=challenge_id)
    return row


def seat_of(row: GameRow, user_id: int) -> int:
    """The user's seat in the game; ``NotAPlayer`` if they do not play in it."""
    try:
        return row.seats.index(user_id)
    except ValueError:
        raise NotAPlayer("errors.not_a_player", game_id=row.id) from None


def game_info(row: GameRow, game: Game, state: Any) -> GameInfo:
    """The public description of a game (``state`` is the full state of ``row``)."""
    forced = row.forced_outcome
    if row.status == ABORTED:
        # An aborted game has nobody to move, whatever its last position said (rows aborted
        # before the abort was kept in ``forced_outcome`` still hold it).
        state = apply_forced_outcome(state, forced or {"kind": ABORT})
    return GameInfo(
        id=row.id,
        game=row.game,
        options=row.options,
        seats=row.seats,
        status=row.status,
        to_move=state.to_move,
        ply=row.ply,
        version=row.version,
        state=game.view(state, None),
        outcome=state.outcome,
        last_move=row.last_move,
        thread_id=row.thread_id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        undo_requested_by=None if row.undo_seat is None else row.seats[row.undo_seat],
        undo_accepted_by=tuple(row.seats[s] for s in row.undo_consents),
        resigned_seat=forced.get("seat") if forced and forced.get("kind") == "resign"
        else None,
        timed_out_seat=forced.get("seat") if forced and forced.get("kind") == "timeout"
        else None,
        locale=row.locale,
        place=row.place,
        aborted_by=forced.get("by") if forced and forced.get("kind") == ABORT else None,
        aborted_as_admin=bool(forced and forced.get("kind") == ABORT and forced.get("admin")),
    )


def row_info(row: GameRow) -> GameInfo:
    """``game_info`` of a row, its state loaded from its snapshot."""
    game = engines.get(row.game)
    return game_info(row, game, game.load(row.snapshot))


def written(row: GameRow, update: GameUpdate) -> GameRow:
    """The row as ``update_game`` left it (saves reading it back)."""
    return dataclasses.replace(
        row,
        snapshot=update.snapshot,
        ply=update.ply,
        to_move=update.to_move,
        status=update.status,
        last_move=update.last_move,
        forced_outcome=update.forced_outcome,
        updated_at=update.updated_at,
        version=row.version + 1,
        undo_seat=None,
        undo_consents=(),
    )


def challenge_of(row: ChallengeRow) -> Challenge:
    """The ``Challenge`` value of a challenge's row."""
    return Challenge(
        id=row.id,
        game=row.game,
        options=row.options,
        host_id=row.host_id,
        opponent_id=row.opponent_id,
        players=row.players,
        joined=row.joined,
        status=row.status,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        created_at=row.created_at,
        game_id=row.game_id,
        locale=row.locale,
        place=row.place,
        rated=row.rated,
    )


def resolve_options(game: Game, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Options checked one by one so each refusal names the option (translatable)."""
    options = dict(options or {})
    known = {option.name: option for option in game.options}
    for name in options:
        if name not in known:
            raise ChallengeError(
                "errors.unknown_option",
                option=name,
                game=game.title,
                known=", ".join(known) or "-",
            )
    resolved = {}
    for name, option in known.items():
        try:
            resolved[name] = option.validate(options.get(name, option.default))
        except ValueError as error:
            raise ChallengeError("errors.bad_option", option=name, reason=str(error)) from None
    return normal_json(resolved)


def time_control_of(text: str | None) -> TimeControl:
    """The time control of its text notation; ``ChallengeError`` if it is not one."""
    try:
        return clockstate.parse_time_control(text)
    except ValueError as error:
        raise ChallengeError("errors.bad_time_control", reason=str(error)) from None
