"""Schema migrations: numbered SQL files, applied once, all or nothing, on both backends."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime

import asyncpg
import pytest

from bot.store import MigrationError, StoreUnavailable, migrate, open_store
from bot.store.postgres import numbered, postgres_ddl
from bot.store.ratings import rating_reads, rating_writes

TABLES = {
    "guild_settings", "users", "challenges", "challenge_players", "games", "game_seats",
    "moves", "undone_moves", "outbox",
}
NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def test_a_new_database_gets_every_table_and_the_latest_version(empty_db):
    store = await open_store(empty_db.url)
    await store.close()
    assert set(empty_db.tables()) >= TABLES
    assert empty_db.schema_version() == len(migrate.migrations())
    if empty_db.backend == "sqlite":
        assert empty_db.query("PRAGMA journal_mode") == [("wal",)]


async def test_reopening_keeps_the_data_and_applies_nothing_twice(empty_db):
    store = await open_store(empty_db.url)
    async with store.transaction() as tx:
        await tx.set_guild_settings(1, "fr", {"a": 1}, NOW)
    await store.close()
    # SQLite also takes the URL form of the same file.
    again = f"sqlite:///{empty_db.url}" if empty_db.backend == "sqlite" else empty_db.url
    store = await open_store(again)
    try:
        assert await store.guild_settings(1) == ("fr", {"a": 1})
    finally:
        await store.close()
    assert empty_db.schema_version() == len(migrate.migrations())


async def test_a_newer_database_is_refused(empty_db):
    store = await open_store(empty_db.url)
    await store.close()
    if empty_db.backend == "sqlite":
        empty_db.execute("PRAGMA user_version = 99")
    else:
        empty_db.execute("INSERT INTO schema_migrations VALUES (99, '0099_future.sql', 'later')")
    with pytest.raises(MigrationError, match="newer than this code"):
        await open_store(empty_db.url)


async def test_a_failing_migration_leaves_nothing_behind(empty_db, monkeypatch):
    good = migrate.migrations()
    broken = (len(good) + 1, "9999_broken.sql",
              "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    monkeypatch.setattr(migrate, "migrations", lambda: [*good, broken])
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError)):
        await open_store(empty_db.url)
    # All pending migrations run in one transaction: not even the first ones stayed.
    assert not set(empty_db.tables()) & (TABLES | {"half_done"})
    if empty_db.backend == "sqlite":
        assert empty_db.schema_version() == 0


async def test_processes_starting_together_apply_the_migrations_once(empty_db):
    """Each store has its own connections, as separate processes would: the migration lock
    (PostgreSQL) or the write lock (SQLite) lets one migrate while the others wait, then they
    find the schema up to date."""
    stores = await asyncio.gather(*(open_store(empty_db.url) for _ in range(4)))
    for store in stores:
        await store.close()
    assert empty_db.schema_version() == len(migrate.migrations())
    if empty_db.backend == "postgresql":
        numbers = empty_db.query("SELECT number FROM schema_migrations ORDER BY number")
        assert numbers == [(n,) for n in range(1, len(migrate.migrations()) + 1)]


async def test_many_processes_opening_one_new_sqlite_file_together_all_start(tmp_path):
    """Switching a new file to WAL answers "database is locked" at once to the others doing the
    same (SQLite calls no busy handler there); each opener waits its turn instead of failing.
    Twelve at once, ten times over: without the retry a few of them failed."""
    for round_ in range(10):
        path = tmp_path / f"round{round_}.db"
        opened = await asyncio.gather(*(open_store(str(path)) for _ in range(12)),
                                      return_exceptions=True)
        failures = [o for o in opened if isinstance(o, BaseException)]
        for store in opened:
            if not isinstance(store, BaseException):
                await store.close()
        assert failures == []


async def test_discord_ids_and_ratings_keep_their_precision(store):
    """Snowflakes need 64 bits (PostgreSQL's INTEGER has 32: the schema maps it to BIGINT),
    ratings need double precision (PostgreSQL's REAL is single)."""
    snowflake = 1_234_567_890_123_456_789
    async with store.transaction() as tx:
        await tx.set_guild_settings(snowflake, None, {}, NOW)
        await tx.ensure_user(snowflake, NOW)
    assert await store.guild_settings(snowflake) == (None, {})

    async with store.transaction() as tx:
        await rating_writes(tx).put_glicko(snowflake, "alak", 1500.123456789012, 350.0, 0.06, 1,
                                           NOW)
    (row,) = (await rating_reads(store).glicko("alak", [snowflake])).values()
    assert row.rating == 1500.123456789012


async def test_postgres_columns_are_64_bit_and_keys_number_themselves(empty_db):
    if empty_db.backend != "postgresql":
        pytest.skip("PostgreSQL's column types only")
    store = await open_store(empty_db.url)
    await store.close()
    types = dict(((table, column), kind) for table, column, kind in empty_db.query(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'public'"
    ))
    assert types[("games", "guild_id")] == "bigint"
    assert types[("users", "user_id")] == "bigint"
    assert types[("ratings_glicko", "rating")] == "double precision"
    assert "integer" not in types.values() and "real" not in types.values()
    identities = set(empty_db.query(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = 'public' AND is_identity = 'YES'"
    ))
    assert ("games", "id") in identities and ("outbox", "id") in identities
    assert ("users", "user_id") not in identities  # Discord's ids, never numbered by us


def test_postgres_ddl_maps_the_portable_types():
    assert postgres_ddl("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL)") == (
        "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT, "
        "r DOUBLE PRECISION)"
    )
    assert postgres_ddl("CREATE TABLE u (user_id INTEGER PRIMARY KEY)") == (
        "CREATE TABLE u (user_id BIGINT PRIMARY KEY)"
    )


def test_placeholders_are_numbered_outside_strings():
    assert numbered("SELECT ? FROM t WHERE a = '?' AND b = ? AND c = 'it''s ?'") == (
        "SELECT $1 FROM t WHERE a = '?' AND b = $2 AND c = 'it''s ?'"
    )


def test_statements_are_split_like_sqlite_reads_them():
    script = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT ';');\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n"
        "  UPDATE t SET x = 'a;b';\n"
        "END;\n"
    )
    statements = migrate.split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(MigrationError):
        migrate.split_statements("CREATE TABLE t (x INTEGER)")


def test_migration_files_are_numbered_from_one():
    numbers = [number for number, _, _ in migrate.migrations()]
    assert numbers == list(range(1, len(numbers) + 1))
    assert migrate.migrations()[0][1] == "0001_initial.sql"


@pytest.mark.parametrize("target", ["", ":memory:", "mysql://x"])
async def test_unsupported_targets_are_refused(target):
    with pytest.raises(ValueError):
        await open_store(target)


async def test_an_unreachable_server_is_named_without_its_password():
    secret = "s3cret-Pa55word"
    with pytest.raises(StoreUnavailable) as caught:
        # Port 1 on loopback: nothing listens there, the connection is refused at once.
        await open_store(f"postgresql://bot:{secret}@127.0.0.1:1/boardgames")
    assert "127.0.0.1:1/boardgames" in str(caught.value)
    assert secret not in str(caught.value)


async def test_games_stored_before_a_rule_change_keep_their_edition(empty_db, monkeypatch):
    """0004 and 0005 mark the Palam games (before the camp choice) and LPPG games (before the
    two-step draw) stored under schema 3 as rules edition 1, so they replay; other games keep
    their options."""
    three = [m for m in migrate.migrations() if m[0] <= 3]
    monkeypatch.setattr(migrate, "migrations", lambda: three)
    store = await open_store(empty_db.url)
    await store.close()
    empty_db.execute(
        "INSERT INTO users (user_id, created_at) VALUES (1, 'now'); "
        "INSERT INTO games (id, game, options, seed, seats, status, snapshot, created_at, "
        "updated_at) VALUES "
        "(1, 'palam', '{\"setup\":\"random\"}', 1, '[1,1]', 'active', '{}', 'now', 'now'), "
        "(2, 'palam', '{\"setup\":\"draft\"}', 1, '[1,1]', 'active', '{}', 'now', 'now'), "
        "(3, 'alak', '{\"length\":11}', 1, '[1,1]', 'active', '{}', 'now', 'now'), "
        "(4, 'lppg', '{}', 1, '[1,1]', 'active', '{}', 'now', 'now')"
    )
    monkeypatch.undo()
    store = await open_store(empty_db.url)
    await store.close()
    options = dict(empty_db.query("SELECT id, options FROM games"))
    assert options == {
        1: '{"edition":1,"setup":"random"}', 2: '{"edition":1,"setup":"draft"}',
        3: '{"length":11}', 4: '{"edition":1}',
    }
