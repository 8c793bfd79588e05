"""What every part of the game service shares: the store, the clock and the seed source, and
the helpers that read rows and turn them into the values the Discord layer gets."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

import engines
from bot.correspondence.timecontrol import TimeControl
from bot.i18n import language_of
from bot.services import clockstate
from bot.services.errors import ChallengeError, NotAPlayer, NotFound, TryAgain
from bot.services.gamestate import normal_json, secret_seed
from bot.services.models import Challenge, GameInfo, utcnow
from bot.store import (
    ChallengeRow,
    GameRow,
    GameUpdate,
    Reads,
    Store,
    TransactionConflict,
    Writes,
)
from engines import Game

#: Games whose last state is kept for ``position`` (the newest reads and moves).
HELD_STATES = 512
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


class ServiceBase:
    """The shared state and helpers of ``GameService`` and its parts."""

    #: Called after each committed change that may move a deadline (a game created, a
    #: move, a resignation, an undo): the bot points it at the correspondence scheduler's poke.
    on_change: Callable[[], None] | None = None

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], datetime] = utcnow,
        seeds: Callable[[], int] = secret_seed,
    ) -> None:
        self._store = store
        self._clock = clock
        self._seeds = seeds
        #: game id -> (version, ply, last move, full state) of its last ``get_game`` read or
        #: of the move this process has just written.
        self._held_states: dict[int, tuple[int, int, str | None, Any]] = {}

    @property
    def store(self) -> Store:
        """The store, for services built on the same database (tournaments)."""
        return self._store

    # ----- helpers --------------------------------------------------------------------------

    @staticmethod
    def _engine(name: str) -> Game:
        return engines.get(name)

    async def _game_row(self, game_id: int, reads: Reads | None = None) -> GameRow:
        row = await (reads or self._store).get_game(game_id)
        if row is None:
            raise NotFound("errors.not_found", game_id=game_id)
        return row

    async def _challenge_row(self, tx: Writes, challenge_id: int) -> ChallengeRow:
        row = await tx.get_challenge(challenge_id)
        if row is None:
            raise NotFound("errors.challenge_not_found", challenge_id=challenge_id)
        return row

    @staticmethod
    def _seat_of(row: GameRow, user_id: int) -> int:
        try:
            return row.seats.index(user_id)
        except ValueError:
            raise NotAPlayer("errors.not_a_player", game_id=row.id) from None

    @staticmethod
    def _info(row: GameRow, game: Game, state: Any) -> GameInfo:
        """The public description of a game (``state`` is the full state of ``row``)."""
        forced = row.forced_outcome
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
        )

    def _hold(self, row: GameRow, state: Any) -> None:
        """Keep ``state`` (the full state of ``row``) for ``position``: the outbox's delivery
        posts the position of the row it delivers, which is this state while the game is at
        ``row.version``."""
        held = self._held_states
        held.pop(row.id, None)
        held[row.id] = (row.version, row.ply, row.last_move, state)
        if len(held) > HELD_STATES:
            del held[next(iter(held))]

    @staticmethod
    def _written(row: GameRow, update: GameUpdate) -> GameRow:
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

    def _row_info(self, row: GameRow) -> GameInfo:
        game = self._engine(row.game)
        return self._info(row, game, game.load(row.snapshot))

    @staticmethod
    def _challenge(row: ChallengeRow) -> Challenge:
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

    @staticmethod
    def _resolve_options(game: Game, options: Mapping[str, Any] | None) -> dict[str, Any]:
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

    @staticmethod
    def _time_control(text: str | None) -> TimeControl:
        try:
            return clockstate.parse_time_control(text)
        except ValueError as error:
            raise ChallengeError("errors.bad_time_control", reason=str(error)) from None

    async def public_language(self, guild_id: int | None, language: str | None,
                              reads: Reads | None = None) -> str | None:
        """The language of a server's public posts: the server's setting if it has one, else
        ``language`` (the challenger's)."""
        if guild_id is not None:
            found = await (reads or self._store).guild_settings(guild_id)
            if found is not None and found[0]:
                return language_of(found[0])
        return language

    def notify_change(self) -> None:
        """Tell ``on_change`` that deadlines may have moved (done by every method
        here; callers of ``create_game_in`` call it after their own commit)."""
        if self.on_change is not None:
            self.on_change()

