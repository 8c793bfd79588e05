"""Draws by agreement and aborting a game that has barely begun.

``DrawService`` (``Services.draws``) owns draw offers, their answers (the AI's too) and a
player's abort; it calls no other service (what a move or a game's end does to pending offers
is ``bot.services.drawstate``, in that change's transaction).

Rulings (issue 31 §1; not in RULES.md):

* **Which games.** A draw by agreement is possible where the game itself can end drawn between
  two sides: Alak (equal stones), Palago (no creature), Palam (equal points), Polygo (equal
  scores) and Kolory with two players (equal scores share the win). Never in LPPG (its
  rulings break every tie) nor in Kolory for three or more (a draw among several is no
  agreement two can make). ``draw_possible`` says so; ``/rules`` says it per game.
* **Offering.** A player offers at any moment of a running game, on their turn or not; every
  other player must agree (so one opponent, the only case above). A player has at most one
  pending offer per game (the database refuses a second one too). Offering while the opponent's
  own offer is pending accepts that offer.
* **Lapsing.** An offer made on the sender's turn stays open through the sender's move of
  that turn (offer, then move); any other move lapses it: a move of the opponent (who played on
  instead of answering) or a later move of the sender (Palam's duel loser and Kolory's rounds
  can give one player two turns in a row). An offer made on the opponent's turn
  lapses at the next move. The end of the game (a move, a resignation, a claim, an abort)
  lapses every pending offer.
* **Agreed.** The game ends with no winner, scores ½ each and the reason "draw agreed"
  (``forced_outcome`` ``{"kind": "draw"}``, so replay rebuilds it); it is rated as a draw and
  counts as one in a tournament.
* **Against the AI.** The AI answers an offer made to it at once, by its own estimate
  (``ai.draws.accepts_draw``), in the bot's AI workers (``bot.workers.ai_player``): the pending
offer is
  in the database, so an offer made just before a restart is answered after it.
* **Locking.** Every write here is about one game and locks that game only, as a move does
  (``store.transaction(games=[game_id])``): the game's row, its draw offers, its clock and
  outbox rows; a draw or an abort never waits for another game's writes.
* **Aborting.** Until every player has moved once, any player may abort the game: it ends with
  no result (status ``aborted``, not rated, nobody wins), as an admin's ``/admin abort`` does.
  After that only a resignation, a draw, a claim or an admin ends it early. A tournament
  game cannot be aborted by its players (its result decides the pairings).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.errors import BoardChanged, GameOver, NotFound, ServiceError
from bot.core.events import AbortedByPlayer, DrawAgreed, DrawDeclined, DrawOffered
from bot.core.models import GameInfo
from bot.core.sharding import Shards
from bot.services import clockstate
from bot.services.base import game_info, game_row, retrying, row_info, seat_of, written
from bot.services.context import ServiceContext
from bot.services.drawstate import close_draw_offers
from bot.services.gamestate import (
    ABORTED,
    ACTIVE,
    aborted,
    forced_end,
    write_forced_end,
)
from bot.store import GameRow, GameUpdate
from bot.store.draws import (
    ACCEPTED,
    DECLINED,
    DrawOfferRow,
    draw_reads,
    draw_writes,
)
from bot.store.tournaments import tournament_reads
from engines import Outcome, Phrase
from engines.core import dump_outcome

#: Games that can end drawn between two sides (see the module docstring).
DRAWABLE_GAMES = frozenset({"alak", "palago", "palam", "polygo", "kolory"})
#: How often accepting is retried when a move of the sender lands between read and write.
_ATTEMPTS = 5


class DrawError(ServiceError):
    """A draw offer, answer or abort that is not allowed now."""

    key = "errors.draw_not_open"


def draw_possible(game_name: str, players: int) -> bool:
    """Whether a game of ``game_name`` with ``players`` players may end in a draw by
    agreement."""
    return game_name in DRAWABLE_GAMES and players == 2


def agreed_draw_outcome(players: int) -> Outcome:
    """No winner, half a point each, reason "draw agreed"."""
    return Outcome.said(frozenset(), (0.5,) * players, Phrase("outcome.draw_agreed"))


@dataclass(frozen=True)
class DrawResult:
    """What an offer or an answer did: the game after it, the offer concerned, and whether
    the game ended in a draw (``agreed``)."""

    game: GameInfo
    offer_id: int
    agreed: bool


@dataclass(frozen=True)
class DrawJob:
    """What an AI seat must judge to answer a draw offer (plain data for a worker)."""

    game_id: int
    offer_id: int
    user_id: int  # the AI seat's reserved id
    game: str
    view: dict[str, Any]  # ``game.dump`` of the AI seat's view
    seat: int
    seed: str


class _Retry(Exception):
    """Rolls back a transaction that lost the race for the game's version."""


def all_have_moved(seats: tuple[int, ...], moved_seats: set[int]) -> bool:
    return set(range(len(seats))) <= moved_seats


class DrawService:
    """Draw offers and players' aborts (see the module docstring)."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now

    # ----- offering and answering -----------------------------------------------------------

    @retrying
    async def offer_draw(self, game_id: int, user_id: int, *,
                         reply_token: str | None = None) -> DrawResult:
        """``user_id`` offers a draw; their opponent's pending offer, if any, is accepted
        instead. A ``DrawOffered`` event asks the others."""
        row = await game_row(self._store, game_id)
        seat = seat_of(row, user_id)
        self._check_drawable(row)
        theirs = [o for o in await draw_reads(self._store).pending_draw_offers(game_id)
                  if o.seat != seat]
        if theirs:
            return await self.answer_draw(game_id, user_id, theirs[0].id, True,
                                          reply_token=reply_token)
        now = self._clock()
        try:
            async with self._store.transaction(games=[game_id]) as tx:
                row = await game_row(tx, game_id)
                self._check_drawable(row)
                writes = draw_writes(tx)
                pending = await writes.pending_draw_offers(game_id)
                if any(o.seat == seat for o in pending):
                    raise DrawError("errors.draw_already_offered", game_id=game_id)
                if pending:  # the opponent offered meanwhile: accepted below
                    raise _Retry
                offer_id = await writes.insert_draw_offer(
                    game_id, seat, user_id, row.ply, row.to_move == seat, now)
                await tx.insert_outbox(
                    DrawOffered(game_id=game_id, offer_id=offer_id, by=user_id, seat=seat),
                    now, reply_token,
                )
        except _Retry:
            return await self.offer_draw(game_id, user_id, reply_token=reply_token)
        self._ctx.notify_change()  # the AI player answers offers made to an AI seat
        return DrawResult(row_info(row), offer_id, False)

    @retrying
    async def answer_draw(self, game_id: int, user_id: int, offer_id: int, accept: bool, *,
                          reply_token: str | None = None) -> DrawResult:
        """Accept (the game ends drawn) or decline (said publicly, a ``draw_declined`` row)
        the pending offer ``offer_id``. An offer already answered, lapsed or withdrawn by the
        game's end raises ``DrawError`` ``errors.draw_not_open`` and changes nothing (so a
        double click answers once)."""
        for _ in range(_ATTEMPTS):
            row = await game_row(self._store, game_id)
            seat = seat_of(row, user_id)
            offer = await draw_reads(self._store).draw_offer(offer_id)
            if offer is None or offer.game_id != game_id:
                raise NotFound("errors.draw_not_found", game_id=game_id)
            if offer.seat == seat:
                raise DrawError("errors.draw_own_offer", game_id=game_id)
            now = self._clock()
            if row.status != ACTIVE:
                raise DrawError("errors.draw_not_open", game_id=game_id)
            if not accept:
                async with self._store.transaction(games=[game_id]) as tx:
                    if not await draw_writes(tx).close_draw_offer(offer_id, DECLINED, user_id,
                                                                  now):
                        raise DrawError("errors.draw_not_open", game_id=game_id)
                    await tx.insert_outbox(
                        DrawDeclined(game_id=game_id, offer_id=offer_id, by=offer.user_id,
                                     seat=offer.seat, answered_by=user_id),
                        now, reply_token,
                    )
                return DrawResult(row_info(row), offer_id, False)
            game = self._ctx.engine(row.game)
            state = game.load(row.snapshot)
            forced = {"kind": "draw", "seat": offer.seat,
                      "outcome": dump_outcome(agreed_draw_outcome(len(row.seats)))}
            after, update = forced_end(game, row, state, forced, now)
            try:
                async with self._store.transaction(games=[game_id]) as tx:
                    writes = draw_writes(tx)
                    if not await writes.close_draw_offer(offer_id, ACCEPTED, user_id, now):
                        raise DrawError("errors.draw_not_open", game_id=game_id)
                    if not await tx.update_game(game_id, row.version, update):
                        raise _Retry  # a move of the sender landed: the offer may stand
                    await write_forced_end(
                        tx, row,
                        DrawAgreed(game_id=game_id, offer_id=offer_id, by=offer.user_id,
                                   seat=offer.seat, answered_by=user_id,
                                   version=row.version + 1),
                        now, reply_token,
                    )
            except _Retry:
                continue
            self._ctx.notify_change()
            return DrawResult(game_info(written(row, update), game, after), offer_id,
                              True)
        raise BoardChanged("errors.board_changed", game_id=game_id)

    def _check_drawable(self, row: GameRow) -> None:
        if row.status != ACTIVE:
            raise GameOver("errors.game_over", game_id=row.id)
        if not draw_possible(row.game, len(row.seats)):
            raise DrawError("errors.draw_impossible", game=self._ctx.engine(row.game).title,
                            players=len(row.seats))


    async def pending_draw_offers(self, game_id: int) -> list[DrawOfferRow]:
        return await draw_reads(self._store).pending_draw_offers(game_id)

    async def draw_offer(self, offer_id: int) -> DrawOfferRow | None:
        return await draw_reads(self._store).draw_offer(offer_id)

    @retrying
    async def set_draw_offer_message(self, offer_id: int, channel_id: int,
                                     message_id: int) -> None:
        """Where the offer's Accept/Decline message was posted (its buttons come off when the
        offer is over, even after a restart)."""
        async with self._store.single_write() as tx:
            await draw_writes(tx).set_draw_offer_message(offer_id, channel_id, message_id)

    # ----- the AI's answers -----------------------------------------------------------------

    async def ai_draw_offers(self, lowest: int, highest: int, limit: int = 16, *,
                             shards: Shards | None = None) -> list[DrawOfferRow]:
        """Pending offers an AI seat must answer (the ids of AI seats lie in
        ``[lowest, highest]``)."""
        return await draw_reads(self._store).pending_offers_to(lowest, highest, limit, shards)

    async def draw_job(self, offer: DrawOfferRow, ai_user_id: int) -> DrawJob | None:
        """What the AI seat ``ai_user_id`` judges to answer ``offer``; None once the game is
        over."""
        row = await game_row(self._store, offer.game_id)
        if row.status != ACTIVE or ai_user_id not in row.seats:
            return None
        seat = row.seats.index(ai_user_id)
        game = self._ctx.engine(row.game)
        view = game.view(game.load(row.snapshot), seat)
        return DrawJob(offer.game_id, offer.id, ai_user_id, row.game, game.dump(view), seat,
                       f"{offer.game_id}:{offer.id}:{row.ply}")

    # ----- aborting -------------------------------------------------------------------------

    async def abort_open(self, game_id: int, ply: int | None = None, *,
                         game: GameInfo | None = None) -> bool:
        """Whether the game's players may still abort it (a running game where someone has
        not moved yet); with ``ply``, as the game stood after that many moves. ``game``: the
        game as the caller has it (a board being posted), saving a read of it."""
        if game is None:
            row = await self._store.get_game(game_id)
            if row is None:
                return False
            status, seats = row.status, row.seats
        else:
            status, seats = game.status, game.seats
        if status != ACTIVE:
            return False
        if await tournament_reads(self._store).tournament_game(game_id) is not None:
            return False  # never: a tournament game's result decides the pairings
        if ply == 0:
            return True  # nobody has moved
        moves = await self._store.moves(game_id)
        if ply is not None:
            moves = [m for m in moves if m.ply <= ply]
        return not all_have_moved(seats, {m.seat for m in moves})

    @retrying
    async def abort_by_player(self, game_id: int, user_id: int, *,
                              reply_token: str | None = None) -> GameInfo:
        """A player aborts the game before everyone has moved once: no result, not rated.
        An ``aborted_by_player`` row {game_id, by} tells its thread."""
        now = self._clock()
        async with self._store.transaction(games=[game_id]) as tx:
            row = await game_row(tx, game_id)
            seat_of(row, user_id)
            if row.status != ACTIVE:
                raise GameOver("errors.game_over", game_id=game_id)
            if await tournament_reads(tx).tournament_game(game_id) is not None:
                raise DrawError("errors.abort_tournament_game", game_id=game_id)
            moved = {m.seat for m in await tx.moves(game_id)}
            if all_have_moved(row.seats, moved):
                raise DrawError("errors.abort_too_late", game_id=game_id)
            update = GameUpdate(snapshot=row.snapshot, ply=row.ply, to_move=None,
                                status=ABORTED, last_move=row.last_move,
                                forced_outcome=aborted(user_id, admin=False),
                                updated_at=now)
            if not await tx.update_game(game_id, row.version, update):
                raise BoardChanged("errors.board_changed", game_id=game_id)
            await close_draw_offers(tx, row, now)
            await tx.insert_outbox(AbortedByPlayer(game_id=game_id, by=user_id), now,
                                   reply_token)
            await clockstate.turn_changed(tx, game_id, row.seats, row.ply, None, now)
        self._ctx.notify_change()
        return row_info(written(row, update))
