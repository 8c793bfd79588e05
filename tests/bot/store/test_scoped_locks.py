"""Transactions lock what they are about (``Store.transaction(games=…, tournaments=…,
players=…)``): on PostgreSQL two transactions about different games run at once, two about
one game (or one without a scope and any other) one after the other; a deadlock the server
breaks comes out as ``TransactionConflict`` with nothing written. SQLite runs them all one at
a time, which keeps every one of these rules."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Scope, TransactionConflict
from bot.store.postgres import PLAYER_KEYS, WRITE_LOCK, entity_key, lock_statements
from tests.bot.store.test_repository import new_game, update


async def two_games(store) -> tuple[int, int]:
    async with store.transaction() as tx:
        return await new_game(tx), await new_game(tx, seats=(3, 4))


async def bump(store, game_id, **scope) -> bool:
    async with store.transaction(**scope) as tx:
        row = await tx.get_game(game_id)
        await asyncio.sleep(0)  # let the others try to interleave
        return await tx.update_game(game_id, row.version, update(row.ply + 1))


async def test_writes_about_one_game_see_each_others_commits(store):
    first, _ = await two_games(store)
    results = await asyncio.gather(*(bump(store, first, games=[first]) for _ in range(20)))
    assert all(results)  # each read-then-write saw the previous commit
    assert (await store.get_game(first)).version == 20


async def test_a_transaction_about_another_game_does_not_wait(store, backend):
    if backend == "sqlite":
        pytest.skip("PostgreSQL only: SQLite has one writer for the whole file")
    first, second = await two_games(store)
    opened, release = asyncio.Event(), asyncio.Event()

    async def holding_first():
        async with store.transaction(games=[first]) as tx:
            await tx.update_game(first, 0, update(1))
            opened.set()
            await release.wait()

    holder = asyncio.create_task(holding_first())
    await opened.wait()
    # The other game's write commits while the first game's transaction is still open.
    assert await asyncio.wait_for(bump(store, second, games=[second]), 5)
    assert (await store.get_game(second)).version == 1
    # The same game's waits for it.
    same = asyncio.create_task(bump(store, first, games=[first]))
    await asyncio.sleep(0.2)
    assert not same.done()
    release.set()
    await holder
    assert await same
    assert (await store.get_game(first)).version == 2


@pytest.mark.parametrize("scoped_first", [True, False])
async def test_a_transaction_without_a_scope_runs_alone(store, backend, scoped_first):
    first, second = await two_games(store)
    opened, release = asyncio.Event(), asyncio.Event()

    async def holding(**scope):
        async with store.transaction(**scope) as tx:
            await tx.update_game(first, 0, update(1))
            opened.set()
            await release.wait()

    holder = asyncio.create_task(holding(**({"games": [first]} if scoped_first else {})))
    await opened.wait()
    waiting = asyncio.create_task(
        bump(store, second, **({} if scoped_first else {"games": [second]})))
    await asyncio.sleep(0.2)
    assert not waiting.done()  # an unscoped transaction and any other: one at a time
    release.set()
    await holder
    assert await waiting


def test_locks_are_taken_in_one_order():
    """Games, then tournaments, then players, each by ascending id, after the shared
    database-wide lock; without a scope, the database-wide lock alone, exclusive."""
    statements = lock_statements(Scope.of(games=[9, 2], tournaments=[1], players=[7, 3, 7]))
    keys = [int(part.split("(")[1].rstrip(")")) for part in statements.split("; ") if part]
    assert keys[0] == WRITE_LOCK and "lock_shared" in statements.split("; ")[0]
    assert keys[1:] == sorted(keys[1:])
    assert len(keys) == 1 + 2 + 1 + 2  # repeats taken once
    assert keys[-1] == entity_key(PLAYER_KEYS, 7)
    assert lock_statements(Scope()) == f"SELECT pg_advisory_xact_lock({WRITE_LOCK}); "
    # A Discord id (64 bits) stays a player's key, after every game and tournament.
    assert entity_key(PLAYER_KEYS, 1_300_000_000_000_000_000) > entity_key(2, 2**40)


async def test_a_deadlock_is_a_conflict_that_wrote_nothing(store, backend):
    if backend == "sqlite":
        pytest.skip("PostgreSQL only: SQLite's single writer cannot deadlock")
    first, second = await two_games(store)
    both_started = asyncio.Barrier(2)

    async def cross(mine, theirs):
        # Rows locked in opposite orders by two transactions of different scopes: the
        # statements break the lock order on purpose, and the server must end one of them.
        async with store.transaction(games=[mine]) as tx:
            await tx.connection.execute("SET LOCAL deadlock_timeout = '50ms'")
            assert await tx.update_game(mine, 0, update(1))
            await both_started.wait()
            await tx.update_game(theirs, 0, update(1))

    results = await asyncio.gather(cross(first, second), cross(second, first),
                                   return_exceptions=True)
    conflicts = [r for r in results if isinstance(r, TransactionConflict)]
    assert len(conflicts) == 1, results
    assert results.count(None) == 1
    # The winner wrote both rows once; the loser nothing.
    versions = [(await store.get_game(g)).version for g in (first, second)]
    assert versions == [1, 1]


async def test_the_pool_size_bounds_the_connections_of_a_process(db, backend):
    if backend == "sqlite":
        pytest.skip("PostgreSQL only: an SQLite store has its two connections")
    from bot.store import open_store

    store = await open_store(db.url, pool_size=3)
    try:
        assert store._pool.get_max_size() == 3
    finally:
        await store.close()


async def test_writes_queued_on_one_game_never_take_the_last_connection(db, backend):
    """Transactions waiting for one game's lock each hold a connection; the one holding the
    lock reads committed data through the pool (as an undo answer does): a connection is
    always left for that read, however many writes queue."""
    if backend == "sqlite":
        pytest.skip("PostgreSQL only: SQLite reads on a connection of their own")
    from bot.store import open_store

    store = await open_store(db.url, pool_size=3)
    try:
        game_id, _ = await two_games(store)

        async def read_inside(index):
            async with store.transaction(games=[game_id]) as tx:
                row = await tx.get_game(game_id)
                await store.moves(game_id)  # committed data, through the pool
                await asyncio.sleep(0.01)
                return await tx.update_game(game_id, row.version, update(row.ply + 1))

        results = await asyncio.wait_for(asyncio.gather(*map(read_inside, range(8))), 20)
        assert all(results)
        assert (await store.get_game(game_id)).version == 8
    finally:
        await store.close()
