"""What ending or moving a game does to its pending draw offers, inside the transaction that
writes the change (``bot.services.draws`` has the rulings). Imports the store only, so the
move and game-end paths (``play``, ``gamestate``, ``admin``) can call it."""

from __future__ import annotations

from datetime import datetime

from bot.core.events import DrawLapsed
from bot.store import GameRow, Writes
from bot.store.draws import LAPSED, DrawOfferRow, draw_writes


async def lapse_draw_offers(tx: Writes, row: GameRow, seat: int, finished: bool,
                            now: datetime) -> None:
    """In a move's transaction: the offers this move lapses (``bot.services.draws``), each
    with a ``draw_lapsed`` outbox row after the move's own. An offer made on the sender's turn
    survives the sender's next move only (every move of a drawable game is a whole turn, even
    when the same player moves twice in a row, as Palam's duel loser or Kolory's new round
    may)."""
    writes = draw_writes(tx)
    for offer in await writes.pending_draw_offers(row.id):
        if not finished and offer.seat == seat and offer.keep_turn:
            await writes.keep_draw_offer_turn(offer.id, False, now)
            continue
        await writes.close_draw_offer(offer.id, LAPSED, None, now)
        # When the move ended the game, its result says enough: the buttons just come off.
        await tx.insert_outbox(lapsed(offer, row, silent=finished), now)


async def close_draw_offers(tx: Writes, row: GameRow, now: datetime) -> None:
    """In the transaction that ends a game without a move: its pending offers are over (their
    buttons refuse; the game's end says why)."""
    writes = draw_writes(tx)
    for offer in await writes.pending_draw_offers(row.id):
        await writes.close_draw_offer(offer.id, LAPSED, None, now)
        await tx.insert_outbox(lapsed(offer, row, silent=True), now)


def lapsed(offer: DrawOfferRow, row: GameRow, *, silent: bool) -> DrawLapsed:
    return DrawLapsed(game_id=row.id, offer_id=offer.id, by=offer.user_id, seat=offer.seat,
                      silent=silent)
