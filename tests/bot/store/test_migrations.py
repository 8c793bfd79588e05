"""Schema migrations: numbered SQL files, applied once, all or nothing."""

from __future__ import annotations

import sqlite3

import pytest

from bot.store import MigrationError, open_store
from bot.store import sqlite as sqlite_backend
from tests.bot.store.dbutil import query

TABLES = {
    "guild_settings", "users", "challenges", "challenge_players", "games", "game_seats",
    "moves", "undone_moves", "outbox",
}


async def test_a_new_database_gets_every_table_and_the_latest_version(db_path):
    store = await open_store(str(db_path))
    await store.close()
    names = {n for (n,) in query(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert names >= TABLES
    assert query(db_path, "PRAGMA user_version") == [(len(sqlite_backend.migrations()),)]
    assert query(db_path, "PRAGMA journal_mode") == [("wal",)]


async def test_reopening_keeps_the_data_and_applies_nothing_twice(db_path):
    store = await open_store(str(db_path))
    async with store.transaction() as tx:
        await tx.set_guild_settings(1, "fr", {"a": 1}, _now())
    await store.close()
    store = await open_store(f"sqlite:///{db_path}")  # the URL form names the same file
    try:
        assert await store.guild_settings(1) == ("fr", {"a": 1})
    finally:
        await store.close()


async def test_a_newer_database_is_refused(db_path):
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(MigrationError):
        await open_store(str(db_path))


async def test_a_failing_migration_leaves_nothing_behind(db_path, monkeypatch):
    good = sqlite_backend.migrations()
    broken = (len(good) + 1, "9999_broken.sql",
              "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    monkeypatch.setattr(sqlite_backend, "migrations", lambda: [*good, broken])
    with pytest.raises(sqlite3.OperationalError):
        await open_store(str(db_path))
    # All pending migrations run in one transaction: not even the first ones stayed.
    assert query(db_path, "PRAGMA user_version") == [(0,)]
    names = {n for (n,) in query(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert not names & (TABLES | {"half_done"})


def test_statements_are_split_like_sqlite_reads_them():
    script = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT ';');\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n"
        "  UPDATE t SET x = 'a;b';\n"
        "END;\n"
    )
    statements = sqlite_backend.split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(MigrationError):
        sqlite_backend.split_statements("CREATE TABLE t (x INTEGER)")


def test_migration_files_are_numbered_from_one():
    numbers = [number for number, _, _ in sqlite_backend.migrations()]
    assert numbers == list(range(1, len(numbers) + 1))
    assert sqlite_backend.migrations()[0][1] == "0001_initial.sql"


@pytest.mark.parametrize("target", ["", ":memory:", "postgresql://host/db", "mysql://x"])
async def test_unsupported_targets_are_refused(target):
    with pytest.raises((ValueError, NotImplementedError)):
        await open_store(target)


def _now():
    from datetime import UTC, datetime

    return datetime(2026, 1, 1, tzinfo=UTC)


async def test_games_stored_before_a_rule_change_keep_their_edition(db_path, monkeypatch):
    """0004 and 0005 mark the Palam games (before the camp choice) and LPPG games (before the
    two-step draw) stored under schema 3 as rules edition 1, so they replay; other games keep
    their options."""
    three = [m for m in sqlite_backend.migrations() if m[0] <= 3]
    monkeypatch.setattr(sqlite_backend, "migrations", lambda: three)
    store = await open_store(str(db_path))
    await store.close()
    conn = sqlite3.connect(db_path)
    conn.execute("INSERT INTO users (user_id, created_at) VALUES (1, 'now')")
    for game_id, game, options in [
        (1, "palam", '{"setup":"random"}'), (2, "palam", '{"setup":"draft"}'),
        (3, "alak", '{"length":11}'), (4, "lppg", '{}'),
    ]:
        conn.execute(
            "INSERT INTO games (id, game, options, seed, seats, status, snapshot, created_at,"
            " updated_at) VALUES (?, ?, ?, 1, '[1,1]', 'active', '{}', 'now', 'now')",
            (game_id, game, options),
        )
    conn.commit()
    conn.close()
    monkeypatch.undo()
    store = await open_store(str(db_path))
    await store.close()
    options = dict(query(db_path, "SELECT id, options FROM games"))
    assert options == {
        1: '{"edition":1,"setup":"random"}', 2: '{"edition":1,"setup":"draft"}',
        3: '{"length":11}', 4: '{"edition":1}',
    }
