"""Test helpers: a test's database on either backend, read directly (tests may use SQL; the app
may not). Statements use ``?`` placeholders on both backends."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import open_store
from bot.store.postgres import numbered


@dataclass
class SqliteDatabase:
    path: Path
    backend = "sqlite"
    integrity_error = sqlite3.IntegrityError

    @property
    def url(self) -> str:
        return str(self.path)

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return [tuple(row) for row in conn.execute(sql, params)]
        finally:
            conn.close()

    def execute(self, script: str) -> None:
        """Run statements (no parameters; several may be separated by semicolons)."""
        conn = sqlite3.connect(self.path)
        try:
            conn.executescript(script)
            conn.commit()
        finally:
            conn.close()

    def tables(self) -> list[str]:
        return [name for (name,) in self.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        )]

    def schema_version(self) -> int:
        return self.query("PRAGMA user_version")[0][0]


class _LoopThread:
    """An event loop on a thread of its own, for the synchronous helpers: tests call them from
    inside their own running loop, which cannot wait for a coroutine."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()


class PostgresDatabase:
    """A test's PostgreSQL database, read and written through one connection of its own."""

    backend = "postgresql"
    integrity_error = asyncpg.IntegrityConstraintViolationError

    def __init__(self, url: str) -> None:
        self.url = url
        self._loop: _LoopThread | None = None
        self._conn: asyncpg.Connection | None = None

    def _call(self, work: Any) -> Any:
        """``await work(connection)`` on the helper's own loop and connection."""
        if self._loop is None:
            self._loop = _LoopThread()

        async def call() -> Any:
            if self._conn is None:
                self._conn = await asyncpg.connect(self.url)
            return await work(self._conn)

        return self._loop.run(call())

    def _run(self, sql_and_params: list[tuple[str, tuple]]) -> list[list[tuple]]:
        async def fetch_all(conn: asyncpg.Connection) -> list[list[tuple]]:
            return [[tuple(row) for row in await conn.fetch(numbered(sql), *params)]
                    for sql, params in sql_and_params]

        return self._call(fetch_all)

    def close(self) -> None:
        if self._loop is not None:
            if self._conn is not None:
                self._loop.run(self._conn.close())
            self._loop.stop()
        self._loop = self._conn = None

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        return self._run([(sql, params)])[0]

    def execute(self, script: str) -> None:
        """Run statements (no parameters; several may be separated by semicolons)."""
        self._call(lambda conn: conn.execute(script))

    def tables(self) -> list[str]:
        return [name for (name,) in self.query(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' ORDER BY table_name"
        )]

    def schema_version(self) -> int:
        return self.query("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")[0][0]

    def empty(self) -> None:
        """Delete every row but the schema version's and restart the numbering of ids: the
        database is then as a new one is after its migrations (much faster than making one)."""
        # A test that left a connection open must not keep rows locked for the next one.
        self.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                   "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        tables = [t for t in self.tables() if t != "schema_migrations"]
        sequences = [name for (name,) in self.query(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
        )]
        self.execute(
            # Replica mode skips the foreign-key triggers, so the order of deletes is free.
            "SET session_replication_role = replica; "
            + "".join(f"DELETE FROM {table}; " for table in tables)
            + "".join(f"ALTER SEQUENCE {sequence} RESTART; " for sequence in sequences)
            + "RESET session_replication_role"
        )


Database = SqliteDatabase | PostgresDatabase


def db_dump(db: Database) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order: equal dumps mean nothing changed."""
    tables = db.tables()
    if isinstance(db, PostgresDatabase):
        results = db._run([(f"SELECT * FROM {table}", ()) for table in tables])
    else:
        results = [db.query(f"SELECT * FROM {table}") for table in tables]
    return {table: sorted(rows, key=repr) for table, rows in zip(tables, results, strict=True)}


def query(db: Database, sql: str, params: tuple = ()) -> list[tuple]:
    return db.query(sql, params)


class FakeClock:
    """A clock that moves one second forward at each reading (injected into the service)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        self.readings: list[datetime] = []

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        self.readings.append(self.now)
        return self.now


@contextlib.asynccontextmanager
async def other_process(db):
    """A second store on the database: its own connections, as another process has."""
    store = await open_store(db.url)
    try:
        yield store
    finally:
        await store.close()
