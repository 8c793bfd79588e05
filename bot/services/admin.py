"""What a server's admins do: ending a stuck game with no result, and changing the server's
own settings (the language of its public posts, the default time control of ``/play``).

``AdminService`` (``Services.admin``) owns both and calls no other service (the settings are
read by ``SettingsService``; an abort closes draw offers and stops the clock through
``drawstate`` and ``clockstate``, in its own transaction).

Rulings (not in RULES.md):

* An aborted game ends with no result: nobody wins or loses, it is not rated (ratings only
  count finished games), its clock stops, its record keeps the moves (and the seed stays
  secret, as in a game that never ended). Its status is ``aborted``.
* A tournament game is not aborted here: its result decides pairings and standings, so the
  refusal names the tournament and its organiser's tools (removing a player, who loses the
  game, or cancelling the tournament).
* Only a running game on the admin's own server can be aborted (``game_seen_from``'s rules).
"""

from __future__ import annotations

from typing import Any

from bot.core.errors import BoardChanged, ChallengeError, GameOver, NotFound
from bot.core.events import AdminAborted
from bot.core.models import GameInfo
from bot.services import clockstate
from bot.services.base import retrying, row_info, time_control_of, written
from bot.services.context import ServiceContext
from bot.services.drawstate import close_draw_offers
from bot.services.gamestate import ABORTED, ACTIVE, aborted, normal_json
from bot.store import GameUpdate
from bot.store.tournaments import tournament_reads

_ABORT_ATTEMPTS = 5
#: The languages a server may choose for its public posts.
SERVER_LANGUAGES = ("en", "fr")


class AdminService:
    """Aborting games and a server's settings (see the module docstring)."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now

    @retrying
    async def abort(self, game_id: int, *, guild_id: int, by: int) -> GameInfo:
        """End a running game of this server with no result (ruling in the module doc). An
        ``AdminAborted`` event tells its thread, in the same transaction."""
        for _ in range(_ABORT_ATTEMPTS):
            row = await self._store.get_game(game_id)
            if row is None or row.guild_id != guild_id:
                raise NotFound("errors.game_not_here", game_id=game_id)
            if row.status != ACTIVE:
                raise GameOver("errors.abort_not_running", game_id=game_id)
            held = await tournament_reads(self._store).tournament_game(game_id)
            if held is not None:
                raise GameOver("errors.abort_tournament", game_id=game_id,
                               tournament_id=held.tournament_id)
            now = self._clock()
            update = GameUpdate(snapshot=row.snapshot, ply=row.ply, to_move=None,
                                status=ABORTED, last_move=row.last_move,
                                forced_outcome=aborted(by, admin=True),
                                updated_at=now)
            async with self._store.transaction(games=[game_id]) as tx:
                # A move landing meanwhile: the admin's request still holds, on the new board.
                if not await tx.update_game(game_id, row.version, update):
                    continue
                await close_draw_offers(tx, row, now)
                await tx.insert_outbox(AdminAborted(game_id=game_id, by=by), now)
                await clockstate.turn_changed(tx, game_id, row.seats, row.ply, None, now)
            self._ctx.notify_change()
            return row_info(written(row, update))
        raise BoardChanged("errors.board_changed", game_id=game_id)

    @retrying
    async def update_server_settings(
        self, guild_id: int, *, language: str | None = None, time_control: str | None = None
    ) -> tuple[str | None, dict[str, Any]]:
        """Change what is given (the language of public posts, ``en`` or ``fr``; the default
        time control of ``/play``, ``untimed`` for none) and keep the rest; returns the
        server's (language, settings)."""
        if language is not None and language not in SERVER_LANGUAGES:
            raise ChallengeError("errors.bad_language", language=language,
                                 allowed=", ".join(SERVER_LANGUAGES))
        if time_control is not None:
            time_control = str(time_control_of(time_control))
        async with self._store.transaction() as tx:
            found = await tx.guild_settings(guild_id)
            locale, settings = found if found is not None else (None, {})
            locale = language or locale
            settings = dict(settings)
            if time_control is not None:
                settings["time_control"] = time_control
            await tx.set_guild_settings(guild_id, locale, normal_json(settings), self._clock())
        return locale, settings
