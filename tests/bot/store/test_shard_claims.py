"""Shard claims: while a process holds its shards no other process gets them; they are free
the moment the holder goes (released, or its connection cut as when the process is killed);
wake-ups reach the holder of a server's shard when a transaction that wrote outbox rows for
it commits (PostgreSQL's LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime

import pytest

from bot.core.events import GameEnded, TournamentRound
from bot.core.sharding import SHARD_SHIFT, Shards, shard_of
from bot.store import NewGame
from tests.bot.store.dbutil import other_process, query

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ROUND = TournamentRound(tournament_id=1, round=1)  # a row of no game
#: Servers on shard 0 and on shard 1 of two.
GUILD_0 = 4 << SHARD_SHIFT
GUILD_1 = 5 << SHARD_SHIFT


@contextlib.asynccontextmanager
async def holding(store, shards):
    claim = store.claim_shards(shards)
    assert await claim.try_acquire() is None
    try:
        yield claim
    finally:
        await claim.release()


async def new_game(tx, guild_id) -> int:
    for user in (1, 2):
        await tx.ensure_user(user, NOW)
    return await tx.insert_game(NewGame(
        game="alak", options={"length": 11}, seed=5, seats=(1, 2), status="active", to_move=0,
        snapshot={"x": 1}, challenge_id=None, guild_id=guild_id, channel_id=None,
        created_at=NOW,
    ))


def test_a_server_s_shard_is_discord_s():
    assert shard_of(GUILD_0, 2) == 0 and shard_of(GUILD_1, 2) == 1
    assert shard_of(None, 2) == 0  # direct messages: shard 0
    assert Shards(2, (1,)).owns(GUILD_1) and not Shards(2, (1,)).owns(GUILD_0)
    with pytest.raises(ValueError, match="from 0 to 1"):
        Shards(2, (2,))


async def test_held_shards_are_refused_until_their_holder_lets_go(store, db):
    async with other_process(db) as other:
        first = store.claim_shards(Shards(2, (0,)))
        assert await first.try_acquire() is None and first.held
        second = other.claim_shards(Shards(2, (0,)))
        refusal = await second.try_acquire()
        assert refusal is not None and not second.held
        waiting = asyncio.create_task(second.acquire(retry_seconds=0.05))
        await asyncio.sleep(0.2)
        assert not waiting.done()  # a standby waits while the holder lives
        await first.release()
        await asyncio.wait_for(waiting, 10)
        assert second.held
        await second.release()


async def test_a_cut_connection_frees_the_shards_at_once(store, db):
    if db.backend != "postgresql":
        pytest.skip("PostgreSQL only: an SQLite file's lock is tested by the process tests")
    lost = []
    async with other_process(db) as other:
        first = store.claim_shards(Shards(2, (0, 1)))
        first.on_lost = lambda: lost.append(True)
        assert await first.try_acquire() is None
        first._conn.terminate()  # what the server sees when the process is killed
        second = other.claim_shards(Shards(2, (1,)))
        await asyncio.wait_for(second.acquire(retry_seconds=0.05), 10)
        assert second.held
        assert lost == [True] and not first.held  # the first process learns it must stop
        await second.release()
        await first.release()


async def test_processes_must_agree_on_the_shard_count(store, db):
    if db.backend != "postgresql":
        pytest.skip("PostgreSQL only: an SQLite file serves one process whatever its shards")
    async with other_process(db) as other, holding(store, Shards(2, (0,))):
        refusal = await other.claim_shards(Shards(3, (1,))).try_acquire()
        assert refusal is not None and "same shard count" in refusal
        async with holding(other, Shards(2, (1,))) as second:
            assert second.held


async def test_an_sqlite_database_serves_one_process_whatever_its_shards(store, db):
    if db.backend != "sqlite":
        pytest.skip("SQLite only: PostgreSQL shares the servers between processes")
    async with other_process(db) as other, holding(store, Shards(2, (0,))):
        refusal = await other.claim_shards(Shards(2, (1,))).try_acquire()
        assert refusal is not None and "one process per SQLite file" in refusal


async def test_a_commit_wakes_the_holder_of_the_server_s_shard(store, db):
    if db.backend != "postgresql":
        pytest.skip("PostgreSQL only: one SQLite process delivers what it writes itself")
    woken: dict[int, asyncio.Queue] = {0: asyncio.Queue(), 1: asyncio.Queue()}
    async with other_process(db) as other, \
            holding(store, Shards(2, (0,))) as zero, holding(other, Shards(2, (1,))) as one:
        zero.on_wake = woken[0].put_nowait
        one.on_wake = woken[1].put_nowait
        async with store.transaction() as tx:  # written by the process of shard 0
            game_id = await new_game(tx, GUILD_1)
            await tx.insert_outbox(GameEnded(game_id=game_id), NOW)
            await tx.insert_outbox(GameEnded(game_id=game_id), NOW)
            assert woken[1].empty()  # nothing before the commit
        assert await asyncio.wait_for(woken[1].get(), 10) == game_id
        async with other.transaction() as tx:  # a tournament post: its own server's
            await tx.insert_outbox(ROUND, NOW, guild_id=GUILD_0)
        assert await asyncio.wait_for(woken[0].get(), 10) is None
        async with store.transaction() as tx:  # the writer delivers its own rows
            await tx.insert_outbox(ROUND, NOW, guild_id=GUILD_0)
        async with store.transaction() as tx:  # rolled back: no wake-up
            await tx.insert_outbox(GameEnded(game_id=game_id), NOW)
            await tx.insert_outbox(GameEnded(game_id=game_id), NOW)
            with contextlib.suppress(RuntimeError):
                raise RuntimeError
        await asyncio.sleep(0.3)
        # One wake-up per commit and server (the repeated payload is folded), none elsewhere.
        assert woken[1].qsize() == 1 and woken[0].empty()


async def test_each_process_reads_and_prunes_its_own_servers_rows(store, db):
    async with store.transaction() as tx:
        on_0 = await new_game(tx, GUILD_0)
        on_1 = await new_game(tx, GUILD_1)
        nowhere = await new_game(tx, None)
        for game_id in (on_0, on_1, nowhere):
            await tx.insert_outbox(GameEnded(game_id=game_id), NOW)
        await tx.insert_outbox(ROUND, NOW, guild_id=GUILD_1)
    games = {shard: [(r.game_id, r.guild_id) for r in
                     await store.pending_outbox(100, shards=Shards(2, (shard,)))]
             for shard in (0, 1)}
    assert games == {0: [(on_0, GUILD_0), (nowhere, None)],
                     1: [(on_1, GUILD_1), (None, GUILD_1)]}
    assert len(await store.pending_outbox(100, shards=Shards(2, (0, 1)))) == 4
    async with store.transaction() as tx:
        for row in await tx.pending_outbox(100):
            await tx.mark_delivered(row.id, NOW)
    async with store.transaction() as tx:
        assert await tx.prune_outbox(datetime(2027, 1, 1, tzinfo=UTC), 100,
                                     Shards(2, (1,))) == 2
    # Shard 1's rows went; shard 0's (and those of no server) stay in the history.
    assert query(db, "SELECT game_id FROM outbox ORDER BY id") == [(on_0,), (nowhere,)]
