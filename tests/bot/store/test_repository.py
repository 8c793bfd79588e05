"""The repository on both backends: transactions, compare-and-set, constraints, read isolation."""

from __future__ import annotations

import asyncio
import signal
import sys
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.core.events import ChallengeExpired, GameEnded, MovePlayed, UndoRequested
from bot.store import GameUpdate, NewGame, open_store
from tests.bot.store.dbutil import db_dump, query
from tests.bot.store.test_crash import ROOT

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def new_game(tx, seats=(1, 2)) -> int:
    for user in seats:
        await tx.ensure_user(user, NOW)
    return await tx.insert_game(NewGame(
        game="alak", options={"length": 11}, seed=5, seats=seats, status="active", to_move=0,
        snapshot={"x": 1}, challenge_id=None, guild_id=None, channel_id=None, created_at=NOW,
    ))


def note(number: int) -> ChallengeExpired:
    """A row of no game."""
    return ChallengeExpired(challenge_id=number)


def moved(game_id: int) -> MovePlayed:
    return MovePlayed(game_id=game_id, ply=1, version=1, move="a", description=None, seat=0,
                      user_id=1)


def undo(game_id: int) -> UndoRequested:
    return UndoRequested(game_id=game_id, by=1, seat=0, ply=1)


def update(ply: int) -> GameUpdate:
    return GameUpdate(snapshot={"x": ply}, ply=ply, to_move=ply % 2, status="active",
                      last_move="a", forced_outcome=None, updated_at=NOW)


async def test_a_failed_transaction_leaves_nothing(store, db):
    before = db_dump(db)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await new_game(tx)
            raise RuntimeError("boom")
    assert db_dump(db) == before
    async with store.transaction() as tx:  # and the next transaction works
        await new_game(tx)
    assert query(db, "SELECT COUNT(*) FROM games") == [(1,)]


async def test_update_game_is_a_compare_and_set_on_the_version(store):
    async with store.transaction() as tx:
        game_id = await new_game(tx)
    async with store.transaction() as tx:
        assert await tx.update_game(game_id, 0, update(1))
        assert not await tx.update_game(game_id, 0, update(2))  # stale version: no write
    row = await store.get_game(game_id)
    assert (row.version, row.ply, row.snapshot) == (1, 1, {"x": 1})


async def test_one_move_per_ply_and_foreign_keys(store, db):
    async with store.transaction() as tx:
        game_id = await new_game(tx)
    async with store.transaction() as tx:
        await tx.insert_move(game_id, 1, 0, "a", NOW)
    with pytest.raises(db.integrity_error):
        async with store.transaction() as tx:
            await tx.insert_move(game_id, 1, 1, "b", NOW)
    with pytest.raises(db.integrity_error):
        async with store.transaction() as tx:
            await tx.insert_move(game_id + 1, 1, 0, "a", NOW)  # no such game
    assert [m.text for m in await store.moves(game_id)] == ["a"]


async def test_reads_never_see_an_uncommitted_transaction(store):
    async with store.transaction() as tx:
        game_id = await new_game(tx)
    async with store.transaction() as tx:
        await tx.update_game(game_id, 0, update(1))
        assert (await tx.get_game(game_id)).version == 1  # the transaction sees its write
        assert (await store.get_game(game_id)).version == 0  # readers do not, yet
    assert (await store.get_game(game_id)).version == 1


async def test_a_cancelled_transaction_rolls_back_and_frees_the_lock(store, db):
    async with store.transaction() as tx:
        game_id = await new_game(tx)
    entered = asyncio.Event()

    async def slow_writer():
        async with store.transaction() as tx:
            await tx.update_game(game_id, 0, update(1))
            entered.set()
            await asyncio.sleep(3600)

    task = asyncio.create_task(slow_writer())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await store.get_game(game_id)).version == 0
    async with store.transaction() as tx:
        assert await tx.update_game(game_id, 0, update(1))


async def test_transactions_are_serialised(store):
    async with store.transaction() as tx:
        game_id = await new_game(tx)

    async def bump(version):
        async with store.transaction() as tx:
            row = await tx.get_game(game_id)
            await asyncio.sleep(0)  # let the others try to interleave
            return await tx.update_game(game_id, row.version, update(row.ply + 1))

    results = await asyncio.gather(*(bump(v) for v in range(20)))
    assert all(results)  # each read-then-write saw the previous commit
    assert (await store.get_game(game_id)).version == 20


async def test_a_single_write_is_committed_on_its_own(store):
    """``single_write`` runs one statement that commits by itself: readers see it at once."""
    async with store.transaction() as tx:
        row = await tx.insert_outbox(note(1), NOW)
    async with store.single_write() as tx:
        assert await tx.mark_delivered(row, NOW)
    assert await store.pending_outbox(10) == []


async def test_a_single_write_waits_for_an_open_transaction_and_stays_out_of_it(store):
    """A single write never lands inside another coroutine's transaction: when that one rolls
    back, the single write's change stays."""
    async with store.transaction() as tx:
        first = await tx.insert_outbox(note(1), NOW)
        game_id = await new_game(tx)
    opened = asyncio.Event()
    release = asyncio.Event()

    async def failing_transaction():
        async with store.transaction() as tx:
            await tx.update_game(game_id, 0, update(1))
            opened.set()
            await release.wait()
            raise RuntimeError("rolled back")

    failing = asyncio.create_task(failing_transaction())
    await opened.wait()

    async def mark():
        async with store.single_write() as tx:
            return await tx.mark_delivered(first, NOW)

    marking = asyncio.create_task(mark())
    await asyncio.sleep(0.05)
    release.set()
    with pytest.raises(RuntimeError):
        await failing
    assert await marking
    assert await store.pending_outbox(10) == []  # the single write stayed
    assert (await store.get_game(game_id)).version == 0  # the transaction did not


async def test_outbox_pending_and_delivered(store):
    async with store.transaction() as tx:
        first = await tx.insert_outbox(note(1), NOW)
        second = await tx.insert_outbox(note(2), NOW)
    assert [r.id for r in await store.pending_outbox(10)] == [first, second]
    async with store.transaction() as tx:
        assert await tx.mark_delivered(first, NOW)
        assert not await tx.mark_delivered(second + 1, NOW)
    pending = [(r.id, r.kind, r.payload) for r in await store.pending_outbox(10)]
    assert pending == [(second, "challenge_expired", {"challenge_id": 2})]


async def test_outbox_reply_tokens_and_the_newest_row_of_a_kind(store):
    """A row may hold the token of the interaction that answers it, until it is delivered or
    the interaction has answered (then the token leaves every row that holds it)."""
    async with store.transaction() as tx:
        game_id = await new_game(tx)
        move = await tx.insert_outbox(moved(game_id), NOW, "token-a")
        over = await tx.insert_outbox(GameEnded(game_id=game_id), NOW, "token-a")
        other = await tx.insert_outbox(undo(game_id), NOW, "token-b")
        newest = await tx.insert_outbox(undo(game_id), NOW)
        assert await tx.last_outbox_id(game_id, "undo_requested") == newest
        assert await tx.last_outbox_id(game_id, "resigned") is None
    tokens = {r.id: r.reply_token for r in await store.pending_outbox(10)}
    assert tokens == {move: "token-a", over: "token-a", other: "token-b", newest: None}
    async with store.transaction() as tx:
        assert await tx.mark_delivered(move, NOW)
        await tx.forget_reply_token("token-a")
        await tx.mark_delivered(other, NOW)
    tokens = {r.id: r.reply_token for r in await store.pending_outbox(10)}
    assert tokens == {over: None, newest: None}


async def test_marking_an_answered_row_takes_its_token_off_the_others(store):
    """Marked with the token its interaction answered, a row is delivered and the token leaves
    every row that holds it (the others stay pending); an unknown row is refused and changes
    nothing."""
    async with store.transaction() as tx:
        game_id = await new_game(tx)
        move = await tx.insert_outbox(moved(game_id), NOW, "token-a")
        over = await tx.insert_outbox(GameEnded(game_id=game_id), NOW, "token-a")
        other = await tx.insert_outbox(undo(game_id), NOW, "token-b")
    async with store.transaction() as tx:
        assert not await tx.mark_delivered(other + 1, NOW, "token-b")
    tokens = {r.id: r.reply_token for r in await store.pending_outbox(10)}
    assert tokens == {move: "token-a", over: "token-a", other: "token-b"}
    async with store.transaction() as tx:
        assert await tx.mark_delivered(move, NOW, "token-a")
        assert await tx.mark_delivered(move, NOW, "token-a")  # twice is harmless
    tokens = {r.id: r.reply_token for r in await store.pending_outbox(10)}
    assert tokens == {over: None, other: "token-b"}


async def test_remove_last_move_keeps_it_in_undone_moves(store, db):
    async with store.transaction() as tx:
        game_id = await new_game(tx)
        await tx.insert_move(game_id, 1, 0, "a", NOW)
        await tx.insert_move(game_id, 2, 1, "b", NOW)
    async with store.transaction() as tx:
        assert await tx.remove_last_move(game_id, 2, NOW)
    assert (await store.last_move(game_id)).text == "a"
    assert query(db, "SELECT ply, text FROM undone_moves") == [(2, "b")]


async def test_naive_times_are_refused(store):
    with pytest.raises(ValueError):
        async with store.transaction() as tx:
            await tx.ensure_user(1, datetime(2026, 1, 1))


async def test_times_are_stored_as_sortable_utc(store, db):
    paris = timezone(timedelta(hours=2))
    async with store.transaction() as tx:
        await tx.ensure_user(1, datetime(2026, 1, 1, 14, 0, tzinfo=paris))
        await tx.ensure_user(2, datetime(2026, 1, 1, 12, 30, 0, 5, tzinfo=UTC))
    rows = query(db, "SELECT user_id, created_at FROM users ORDER BY created_at")
    assert rows == [
        (1, "2026-01-01T12:00:00.000000+00:00"),
        (2, "2026-01-01T12:30:00.000005+00:00"),
    ]


async def test_transactions_are_serialised_across_processes(store, db):
    """A second store on the same database has its own connections, like another process:
    its read-then-write transactions never interleave with the first one's."""
    async with store.transaction() as tx:
        game_id = await new_game(tx)
    other = await open_store(db.url)
    try:
        async def bump(on):
            async with on.transaction() as tx:
                row = await tx.get_game(game_id)
                await asyncio.sleep(0)  # let the other store try to interleave
                return await tx.update_game(game_id, row.version, update(row.ply + 1))

        results = await asyncio.gather(*(bump(store if i % 2 else other) for i in range(20)))
    finally:
        await other.close()
    assert all(results)
    assert (await store.get_game(game_id)).version == 20


HOLD_A_TRANSACTION = """
import asyncio, sys
from datetime import UTC, datetime
from bot.store import open_store

async def main():
    store = await open_store(sys.argv[1])
    async with store.transaction() as tx:
        await tx.ensure_user(99, datetime.now(UTC))
        print("IN TRANSACTION", flush=True)
        await asyncio.sleep(3600)

asyncio.run(main())
"""


async def test_a_killed_process_leaves_no_lock_and_no_half_transaction(store, db):
    async with store.transaction() as tx:
        await tx.ensure_user(1, NOW)
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLD_A_TRANSACTION, db.url,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert (await holder.stdout.readline()).strip() == b"IN TRANSACTION"
        if db.backend == "postgresql":  # it holds the write lock while its transaction runs
            assert query(db, "SELECT COUNT(*) FROM pg_locks "
                             "WHERE locktype = 'advisory' AND granted") == [(1,)]
        holder.send_signal(signal.SIGKILL)
        await holder.wait()
    finally:
        if holder.returncode is None:
            holder.kill()
            await holder.wait()
    # The dead process's write is gone and the next transaction gets the lock.
    async with store.transaction() as tx:
        await tx.ensure_user(2, NOW)
    assert query(db, "SELECT user_id FROM users ORDER BY user_id") == [(1,), (2,)]
