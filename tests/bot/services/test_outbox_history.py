"""The outbox keeps a bounded history: rows delivered longer ago than the history are deleted,
pending rows never (on both backends)."""

from __future__ import annotations

from datetime import timedelta

from tests.bot.services.conftest import start_game
from tests.bot.store.dbutil import query

HISTORY = timedelta(days=30)


async def deliver_all(service) -> list[int]:
    ids = [item.id for item in await service.outbox.pending_outbox(limit=1000)]
    for outbox_id in ids:
        await service.outbox.mark_delivered(outbox_id)
    return ids


async def test_rows_delivered_before_the_history_go_and_the_others_stay(service, clock, db):
    old_game = await start_game(service)
    await service.play.move(old_game.id, 1, "a")
    old = await deliver_all(service)  # delivered on day 0
    clock.now += timedelta(days=20)
    recent_game = await start_game(service, users=(3, 4))
    recent = await deliver_all(service)  # delivered on day 20
    await service.play.move(recent_game.id, 3, "a")
    (waiting,) = [item.id for item in await service.outbox.pending_outbox()]  # never delivered
    moves_before = query(db, "SELECT game_id, ply, text FROM moves ORDER BY game_id, ply")

    clock.now += timedelta(days=9)  # day 29: nothing is older than the history yet
    assert await service.outbox.prune_outbox(HISTORY) == 0
    clock.now += timedelta(days=2)  # day 31: the rows of day 0 are
    assert await service.outbox.prune_outbox(HISTORY) == len(old)

    left = {outbox_id for (outbox_id,) in query(db, "SELECT id FROM outbox")}
    assert left == {*recent, waiting}
    assert [item.id for item in await service.outbox.pending_outbox()] == [waiting]
    # Only messages go: the games and their moves are the record and stay.
    assert query(db, "SELECT game_id, ply, text FROM moves ORDER BY game_id, ply") == moves_before


async def test_a_pending_row_is_kept_however_old(service, clock):
    info = await start_game(service)
    clock.now += timedelta(days=400)
    assert await service.outbox.prune_outbox(HISTORY) == 0
    assert [item.game_id for item in await service.outbox.pending_outbox()] == [info.id]


async def test_a_large_backlog_goes_in_several_short_transactions(service, clock, db):
    for index in range(4):
        info = await start_game(service, users=(2 * index + 1, 2 * index + 2))
        await service.play.move(info.id, 2 * index + 1, "a")
    delivered = await deliver_all(service)
    clock.now += HISTORY + timedelta(days=1)
    assert await service.outbox.prune_outbox(HISTORY, batch=3) == len(delivered) == 8
    assert query(db, "SELECT COUNT(*) FROM outbox") == [(0,)]


async def test_the_request_of_a_pending_take_back_stays_however_old(service, clock, db):
    """An answer names its request by the id of its ``undo_requested`` row: pruning that row
    would make every answer stale."""
    info = await start_game(service)
    await service.play.move(info.id, 1, "a")
    await service.play.request_undo(info.id, 1)
    await deliver_all(service)
    ((request,),) = query(db, "SELECT id FROM outbox WHERE kind = 'undo_requested'")
    clock.now += HISTORY + timedelta(days=1)
    await service.outbox.prune_outbox(HISTORY)
    assert query(db, "SELECT id FROM outbox") == [(request,)]
    # Still answerable: the button's request is known.
    await service.play.answer_undo(info.id, 2, True, request=request)
    await deliver_all(service)
    clock.now += HISTORY + timedelta(days=1)
    await service.outbox.prune_outbox(HISTORY)  # answered: it may go now
    assert query(db, "SELECT COUNT(*) FROM outbox") == [(0,)]
