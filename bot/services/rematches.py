"""Rematches: the same players play the same game again, seats turned.

``RematchService`` (``Services.rematches``) owns them; it calls ``ChallengeService`` to create
the new game (``create_game_in``, in the transaction that records the last player's asking).

Rulings (not in RULES.md):

* Every player of the finished game must ask: the first press of Rematch proposes it, each
  other player's press accepts, and the last one starts the new game. Nobody is bound before
  that; a player who does not want it simply does not press.
* Seats turn by one: who sat last moves first, everyone else moves one seat down (in a duel,
  the two players swap colours). Same game, options, time control, server and channel, and
  the same language as the first game's thread (unless the server has chosen one since: the
  server's setting always wins, as for any new game).
* Only a game that ended with a result has a rematch: not a running or aborted one, and not a
  tournament game (the tournament decides who meets whom). One rematch per game.
* AI seats (``bot.services.aiseats``) need no asking: an AI accepts every rematch, so only the
  people at the table press, and in a game with one person their single press starts it. The
  AI keeps its seat's id, so its level; seats turn as for people (the AI that answered moves
  first in a duel's rematch). Nobody waits on an AI, so nobody pings one.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.errors import ChallengeError, NotAPlayer, NotFound
from bot.core.models import GameInfo
from bot.core.seats import is_ai
from bot.services.base import retrying, row_info
from bot.services.challenges import ChallengeService
from bot.services.context import ServiceContext
from bot.services.gamestate import FINISHED
from bot.store.clocks import clock_reads
from bot.store.rematches import rematch_reads, rematch_writes
from bot.store.tournaments import tournament_reads


@dataclass(frozen=True)
class Rematch:
    """Where a rematch stands: who asked so far, who is still to (people only: AI seats
    accept without asking), and the new game once all did."""

    game: GameInfo
    asked: tuple[int, ...]
    waiting: tuple[int, ...]
    new_game: GameInfo | None


def turned(seats: tuple[int, ...]) -> tuple[int, ...]:
    """The seats of a rematch: the last player first, the others one seat down."""
    return (seats[-1], *seats[:-1])


class RematchService:
    """Rematches (see the module docstring)."""

    def __init__(self, context: ServiceContext, challenges: ChallengeService) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now
        self._challenges = challenges

    async def rematch_offered(self, game_id: int) -> bool:
        """Whether the game may have a rematch (the button is shown): over with a result,
        not a tournament game."""
        row = await self._store.get_game(game_id)
        if row is None or row.status != FINISHED:
            return False
        return await tournament_reads(self._store).tournament_game(game_id) is None

    async def rematch_state(self, game_id: int) -> tuple[tuple[int, ...], int | None]:
        """Who has asked for a rematch of the game so far, and the new game once started."""
        found = await rematch_reads(self._store).rematch(game_id)
        return (found.consents, found.new_game_id) if found is not None else ((), None)

    @retrying
    async def ask_rematch(self, game_id: int, user_id: int) -> Rematch:
        """``user_id`` asks for a rematch of ``game_id``; the last player to ask starts it."""
        now = self._clock()
        async with self._store.transaction(games=[game_id]) as tx:
            row = await tx.get_game(game_id)
            if row is None:
                raise NotFound("errors.not_found", game_id=game_id)
            if user_id not in row.seats:
                raise NotAPlayer("errors.rematch_not_a_player", game_id=game_id)
            if row.status != FINISHED or await tournament_reads(tx).tournament_game(game_id):
                raise ChallengeError("errors.rematch_not_offered", game_id=game_id)
            found = await rematch_reads(tx).rematch(game_id)
            asked = found.consents if found else ()
            if found is not None and found.new_game_id is not None:
                raise ChallengeError("errors.rematch_started", game_id=game_id,
                                     new_game_id=found.new_game_id)
            if user_id in asked:
                raise ChallengeError("errors.rematch_already", game_id=game_id)
            asked = (*asked, user_id)
            waiting = tuple(uid for uid in row.seats if uid not in asked and not is_ai(uid))
            new_game = None
            if not waiting:
                clock = await clock_reads(tx).clock(game_id)
                new_game = await self._challenges.create_game_in(
                    tx, row.game, turned(row.seats), row.options,
                    time_control=clock.time_control if clock else None,
                    guild_id=row.guild_id, channel_id=row.channel_id, locale=row.locale,
                    place=row.place,
                )
            await rematch_writes(tx).put_rematch(
                game_id, asked, None if new_game is None else new_game.id, now)
        if new_game is not None:
            self._ctx.notify_change()
        return Rematch(row_info(row), asked, waiting, new_game)
