"""The SQLite backend of the store, on aiosqlite (docs/architecture.md).

Two connections to one file in WAL mode:

* a **writer**, used only inside ``transaction()``: transactions are serialised by an
  ``asyncio.Lock`` and open with ``BEGIN IMMEDIATE``, so a transaction holds SQLite's write lock
  from its first statement and never fails half-way with SQLITE_BUSY;
* a read-only **reader** for everything outside a transaction. In WAL mode it sees only committed
  data and never waits for the writer, so the services read a game, run the engine and only then
  take the write lock for a few statements (optimistic locking on ``games.version``). Reading
  through the writer would let a read see another coroutine's uncommitted transaction.

Each aiosqlite connection runs its statements on its own thread, so reads, writes and the event
loop overlap. The SQL itself is shared (``bot.store.sql``); SQLite-specific statements (PRAGMAs,
BEGIN IMMEDIATE, lastrowid) stay in this file.

An SQLite database serves one bot process: its shard claim (``claim_shards``) is an exclusive
lock on the file ``<database>.lock``, whatever the shards, so a second bot process started on
the same file waits until the first ends (the operating system releases the lock when a process
dies, however it dies). That process delivers what it writes itself: no wake-ups.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.core.events import EventStream
from bot.core.sharding import Shards
from bot.store import migrate
from bot.store.base import ShardClaim, Store, Writes
from bot.store.sql import CoreReads, CoreWrites, Row, SqlConnection

BUSY_TIMEOUT_MS = 5000


class SqliteConnection(SqlConnection):
    """The store's statements on an aiosqlite connection (``?`` placeholders are SQLite's)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # execute_fetchall is one round trip to the connection's thread.
        return list(await self.raw.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await self.raw.execute(sql, params)).rowcount

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await self.raw.execute(sql, params)).lastrowid

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.raw.executemany(sql, rows)


class SqliteStore(CoreReads, Store):
    """One SQLite file: reads on a read-only connection, serialised write transactions."""

    def __init__(self, path: Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        super().__init__(SqliteConnection(reader))
        self.path = path
        self._writer = writer
        self._reader = reader
        self._writes = CoreWrites(SqliteConnection(writer))
        self.events = EventStream()
        self._write_lock = asyncio.Lock()

    @asynccontextmanager
    async def transaction(
        self,
        *,
        games: Iterable[int] = (),
        tournaments: Iterable[int] = (),
        challenges: Iterable[int] = (),
        players: Iterable[int] = (),
    ) -> AsyncIterator[Writes]:
        # One writer for the whole file: every scope is covered.
        async with self._write_lock:
            committed = False
            self._writes.take_written()  # what a transaction rolled back had written
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                yield self._writes
                await asyncio.shield(self._writer.commit())
                committed = True
                self.events.publish(self._writes.take_written())
            finally:
                if not committed:
                    # Statements run in order on the connection's thread, so this rollback
                    # comes after anything still in flight (a BEGIN or COMMIT whose caller was
                    # cancelled) and is a no-op if no transaction is open: the next
                    # transaction always starts clean. Shielded so a second cancellation
                    # cannot skip it.
                    await asyncio.shield(self._writer.rollback())

    @asynccontextmanager
    async def single_write(self) -> AsyncIterator[Writes]:
        # The writer is in autocommit mode (isolation_level=None): a statement outside BEGIN
        # commits on its own. The lock keeps it out of another coroutine's transaction.
        async with self._write_lock:
            self._writes.take_written()
            yield self._writes
            self.events.publish(self._writes.take_written())

    def claim_shards(self, shards: Shards) -> FileClaim:
        return FileClaim(shards, self.path.with_name(self.path.name + ".lock"))

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()


class FileClaim(ShardClaim):
    """The one bot process of an SQLite database: an exclusive lock on ``lock_path`` (which
    holds the holder's process id, for the message of a process that waits)."""

    def __init__(self, shards: Shards, lock_path: Path) -> None:
        super().__init__(shards)
        self.lock_path = lock_path
        self._file: Any = None

    async def try_acquire(self) -> str | None:
        if self._file is not None:
            return None
        handle = self.lock_path.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "?"
            handle.close()
            return (f"another bot process (pid {holder}) uses the SQLite database "
                    f"{self.lock_path.with_suffix('')}; one process per SQLite file")
        except BaseException:
            handle.close()
            raise
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle
        return None

    @property
    def held(self) -> bool:
        return self._file is not None

    async def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.seek(0)
                self._file.truncate()
            self._file.close()  # closing the file releases the lock
            self._file = None


async def _migrate(conn: aiosqlite.Connection) -> int:
    """Apply every pending migration in one transaction; returns the schema version."""
    files = migrate.migrations()
    await conn.execute("BEGIN IMMEDIATE")  # re-read the version under the write lock
    try:
        (current,) = (await conn.execute_fetchall("PRAGMA user_version"))[0]
        for number, _, script in migrate.pending(current, files):
            for statement in migrate.split_statements(script):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {number}")
        await conn.commit()
    except BaseException:
        await conn.rollback()
        raise
    return max(current, len(files))


def sqlite_path(path_or_url: str) -> Path:
    """The file of ``path``, ``sqlite:///relative/path`` or ``sqlite:////absolute/path``."""
    if path_or_url.startswith("sqlite:///"):
        return Path(path_or_url[len("sqlite:///"):])
    if "://" in path_or_url:
        raise ValueError("not an SQLite database (a file path or sqlite:///path)")
    if path_or_url in ("", ":memory:"):
        raise ValueError("the store needs a database file (WAL mode and two connections)")
    return Path(path_or_url)


async def _enter_wal(writer: aiosqlite.Connection) -> str:
    """``PRAGMA journal_mode = WAL``, retried while another connection is switching the same
    new file: SQLite answers "database is locked" at once there rather than calling the busy
    handler (waiting could deadlock), so several processes opening one new database together
    would otherwise fail."""
    deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            return str((await writer.execute_fetchall("PRAGMA journal_mode = WAL"))[0][0])
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.01)


async def open_sqlite(path_or_url: str, *, synchronous: str = "NORMAL") -> SqliteStore:
    """Open (creating it if needed) and migrate an SQLite store.

    ``synchronous=NORMAL`` in WAL mode survives a crash of the process (a committed transaction
    is in the WAL file) but may lose the last commits on a power cut; ``FULL`` syncs every
    commit to disk at some cost in speed.
    """
    if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
    path = sqlite_path(path_or_url)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = await aiosqlite.connect(path, isolation_level=None)
    try:
        writer.row_factory = sqlite3.Row
        await writer.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = await _enter_wal(writer)
        if str(mode).lower() != "wal":
            raise RuntimeError(f"could not put {path} in WAL mode (got {mode})")
        await writer.execute(f"PRAGMA synchronous = {synchronous.upper()}")
        await writer.execute("PRAGMA foreign_keys = ON")
        await _migrate(writer)
    except BaseException:
        await writer.close()
        raise
    reader = await aiosqlite.connect(
        f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
    )
    reader.row_factory = sqlite3.Row
    await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    await reader.execute("PRAGMA foreign_keys = ON")
    return SqliteStore(path, writer, reader)
