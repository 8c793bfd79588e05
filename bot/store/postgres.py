"""The PostgreSQL backend of the store, on asyncpg (docs/architecture.md), for deployments
where several
bot processes share one database server.

The SQL is the one of every backend (``bot.store.sql``); what differs is here:

* placeholders: ``?`` becomes ``$1, $2…`` (``numbered``), once per statement text;
* column types: the migrations' INTEGER, REAL and ``id INTEGER PRIMARY KEY`` become BIGINT
  (Discord ids do not fit 32 bits), DOUBLE PRECISION and an identity column (``postgres_ddl``);
* the schema version lives in ``schema_migrations``; migrations run under a transaction-scoped
  advisory lock, so processes starting together apply them once, all or nothing (PostgreSQL
  runs DDL inside transactions);
* transactions lock what they are about (``Scope``, see ``bot.store.base``), not the database:
  a transaction about games, tournaments, challenges or players takes one transaction-scoped
  advisory lock per entity (``entity_key``) and the database-wide ``WRITE_LOCK`` *shared*;
  one without a scope takes ``WRITE_LOCK`` exclusively, so it runs alone as every
  transaction did before. Two moves in two games, from any processes, never wait for each
  other; two writes about one game queue on its key. The server releases the locks when the
  transaction ends, or the moment a process dies.

  **Lock order**, the one rule that keeps these locks free of deadlocks: every lock of a
  transaction is taken in its first round trip (with BEGIN), in one order: ``WRITE_LOCK``,
  then the games, the tournaments, the challenges and the players, each by ascending id (the
  keys sort that way). So a game that ends a tournament round and changes ratings is three
  transactions, each taking its own locks in that order: the game's (the move), the
  tournament's (``on_game_over`` of the tournaments: the result, the next round's pairing)
  and the game's with its players' (``on_game_over`` of the ratings: players in id order).
  The row locks of the statements inside come after, on rows of the scope. Should the server
  still find a deadlock or a serialization failure (40P01, 40001), the transaction raises
  ``TransactionConflict``, having written nothing, and the services run it again.

  No lock in the process: each transaction holds a connection of the pool for its length, so
  the pool size (``pool_size``, the ``[database] pool_size`` setting) bounds how many run at
  once per process, less one: that connection stays for reads (``_writers``). A transaction
  waiting for a game's lock holds its connection, and the one holding that lock may read
  committed data through the pool; were every connection taken by waiters, it would wait
  for ever.

Reads outside a transaction use any connection of a small pool and see committed data (READ
COMMITTED), like SQLite's reader. Times and JSON are text, as on SQLite, so rows read back the
same on both.

Several processes (``claim_shards``, ``PostgresClaim``): each holds its shards as session
advisory locks on a connection of its own, which also LISTENs for wake-ups: a transaction that
writes outbox rows NOTIFYs ``WAKE_CHANNEL`` with ``server:game:origin`` when it commits, and
the process running that server's shard, if another, delivers them at once (polling stays as
the fallback).
The server drops the locks the moment that connection ends, so a killed process's shards are
free at once for its restart or a standby. A process also holds a shared lock on its shard
count: processes that split the servers differently (two shards here, three there) would both
answer for some servers, so one of them waits instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import re
import secrets
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import asyncpg

from bot.core.database_url import password_of, redacted
from bot.core.events import EventStream
from bot.core.sharding import Shards
from bot.store import migrate
from bot.store.base import Scope, ShardClaim, Store, TransactionConflict, Writes
from bot.store.sql import CoreReads, CoreWrites, Row, SqlConnection, time_text

#: Advisory lock keys (one bigint space per database): held by every write transaction (shared
#: by those with a scope, exclusive by the others), and while migrations run. Give the bot a
#: database of its own so no other program uses them.
WRITE_LOCK = 0x626F_6172_6467_0001
MIGRATION_LOCK = 0x626F_6172_6467_0002
#: Taken for a moment by a process claiming its shards, so two claims never cross.
CLAIM_LOCK = 0x626F_6172_6467_0003
#: Two-key advisory locks (first key, shard number) and (first key, shard count); a separate
#: key space from the one-key locks above.
SHARD_LOCKS = 0x6267_0001
SHARD_COUNT_LOCKS = 0x6267_0002
#: The channel of wake-ups between processes.
WAKE_CHANNEL = "boardgames_wake"
#: How often a process makes sure the connection holding its shards is alive.
CLAIM_CHECK_SECONDS = 5.0
#: Connections per process, by default (the ``[database] pool_size`` setting): each running
#: transaction holds one, and each read for its length. Every process on the database opens its
#: own pool (mind the server's ``max_connections``: processes × pool size, plus one per process
#: for its shards).
POOL_SIZE = 10
#: Per-entity advisory keys: the kind in the top byte (games, tournaments, challenges, then
#: players: the lock order), the id in the rest. A Discord id longer than 56 bits shares its
#: key with another: harmless, the two only wait for each other.
GAME_KEYS, TOURNAMENT_KEYS, CHALLENGE_KEYS, PLAYER_KEYS = 1, 2, 3, 4
_KIND_SHIFT = 56
_ID_MASK = (1 << _KIND_SHIFT) - 1
#: The SQLSTATEs a transaction may be run again after: deadlock_detected,
#: serialization_failure.
CONFLICT_STATES = frozenset({"40P01", "40001"})
APPLICATION_NAME = "boardgames-bot"

_STRING_LITERAL = re.compile(r"('(?:[^']|'')*')")


class StoreUnavailable(RuntimeError):
    """The database server cannot be reached or refused us (the message has no password)."""


@functools.lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """The statement with ``?`` placeholders as PostgreSQL's ``$1, $2…`` (a ``?`` inside a
    quoted string is left alone)."""
    counter = itertools.count(1)
    parts = _STRING_LITERAL.split(sql)
    return "".join(
        part if index % 2 else re.sub(r"\?", lambda _: f"${next(counter)}", part)
        for index, part in enumerate(parts)
    )


_ROW_KEY = re.compile(r"\b(id\s+)INTEGER\s+PRIMARY\s+KEY\b", re.IGNORECASE)
_INTEGER = re.compile(r"\bINTEGER\b", re.IGNORECASE)
_REAL = re.compile(r"\bREAL\b", re.IGNORECASE)


def postgres_ddl(statement: str) -> str:
    """A migration statement as PostgreSQL should read it: 64-bit integers, double precision,
    and a column ``id INTEGER PRIMARY KEY`` (SQLite numbers those rows itself) as an identity
    column that does the same."""
    statement = _ROW_KEY.sub(r"\1BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", statement)
    statement = _INTEGER.sub("BIGINT", statement)
    return _REAL.sub("DOUBLE PRECISION", statement)


def entity_key(kind: int, entity_id: int) -> int:
    """The advisory key of one game, tournament or player (``GAME_KEYS``…)."""
    return (kind << _KIND_SHIFT) | (entity_id & _ID_MASK)


def lock_statements(scope: Scope) -> str:
    """The statements (after BEGIN) taking a transaction's locks, in the lock order."""
    if scope.everything:
        return f"SELECT pg_advisory_xact_lock({WRITE_LOCK}); "
    keys = sorted({
        *(entity_key(GAME_KEYS, game) for game in scope.games),
        *(entity_key(TOURNAMENT_KEYS, tournament) for tournament in scope.tournaments),
        *(entity_key(CHALLENGE_KEYS, challenge) for challenge in scope.challenges),
        *(entity_key(PLAYER_KEYS, player) for player in scope.players),
    })
    # One statement per lock: statements of a query run in order, the calls of one SELECT
    # list need not.
    return f"SELECT pg_advisory_xact_lock_shared({WRITE_LOCK}); " + "".join(
        f"SELECT pg_advisory_xact_lock({key}); " for key in keys
    )


def _is_conflict(error: BaseException) -> bool:
    return getattr(error, "sqlstate", None) in CONFLICT_STATES


def _changed_rows(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 1`` or ``INSERT 0 1``."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


class PostgresConnection(SqlConnection):
    """The store's statements on an asyncpg connection, or on a pool (one connection per
    statement: reads outside a transaction)."""

    def __init__(self, conn: asyncpg.Connection | asyncpg.Pool) -> None:
        self.raw = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.raw.fetch(numbered(sql), *params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed_rows(await self.raw.execute(numbered(sql), *params))

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.raw.fetchval(numbered(sql + " RETURNING id"), *params)

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.raw.executemany(numbered(sql), rows)


class PostgresStore(CoreReads, Store):
    """A PostgreSQL database shared by any number of bot processes."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        super().__init__(PostgresConnection(pool))
        self.url = url
        self._pool = pool
        #: Writes running at once: all connections but one (see the module docstring).
        self._writers = asyncio.Semaphore(max(1, pool.get_max_size() - 1))
        #: Names this process in its wake-ups, so that it ignores its own: it delivers what it
        #: writes itself (a handler its interaction's rows, the scheduler its reminders).
        self.origin = secrets.token_hex(6)
        self.events = EventStream()

    def __repr__(self) -> str:
        return f"PostgresStore({redacted(self.url)!r})"

    @asynccontextmanager
    async def transaction(
        self,
        *,
        games: Iterable[int] = (),
        tournaments: Iterable[int] = (),
        challenges: Iterable[int] = (),
        players: Iterable[int] = (),
    ) -> AsyncIterator[Writes]:
        locks = lock_statements(Scope.of(games, tournaments, challenges, players))
        async with self._writers, self._pool.acquire() as conn:
            committed = False
            try:
                # One round trip: open the transaction and take its locks, in the lock order.
                await conn.execute("BEGIN; " + locks)
                writes = PostgresWrites(PostgresConnection(conn), self.origin)
                yield writes
                # The wake-ups go in the COMMIT's round trip; the server sends them only if
                # it commits.
                await _shielded(conn.execute(writes.wake_ups() + "COMMIT"))
                committed = True
                self.events.publish(writes.take_written())
            except asyncpg.PostgresError as error:
                if _is_conflict(error):
                    raise TransactionConflict(str(error)) from error
                raise
            finally:
                if not committed:
                    await _shielded(_roll_back(conn))

    @asynccontextmanager
    async def single_write(self) -> AsyncIterator[Writes]:
        # One statement commits on its own (no BEGIN), under no lock: one round trip.
        async with self._writers, self._pool.acquire() as conn:
            writes = PostgresWrites(PostgresConnection(conn), self.origin)
            yield writes
            if wake_ups := writes.wake_ups():
                await conn.execute(wake_ups)
            self.events.publish(writes.take_written())

    def claim_shards(self, shards: Shards) -> PostgresClaim:
        return PostgresClaim(shards, self)

    async def close(self) -> None:
        await self._pool.close()


class PostgresWrites(CoreWrites):
    """``CoreWrites`` that remembers the outbox rows it wrote, to wake their servers' process
    when the transaction commits (``wake_ups``)."""

    def __init__(self, conn: PostgresConnection, origin: str) -> None:
        super().__init__(conn)
        self._origin = origin

    def wake_ups(self) -> str:
        """Statements (to run before COMMIT) that NOTIFY ``WAKE_CHANNEL`` with
        ``server:game:origin`` (0 for no server, nothing for no game) of every outbox row
        written; the server folds repeated payloads of one transaction into one."""
        if not self.written:
            return ""
        ids = ", ".join(str(int(row.outbox_id)) for row in self.written)
        return (
            f"SELECT pg_notify('{WAKE_CHANNEL}', COALESCE(guild_id, 0)::text || ':' || "
            f"COALESCE(game_id::text, '') || ':{self._origin}') FROM outbox "
            f"WHERE id IN ({ids}) ORDER BY id; "
        )


class PostgresClaim(ShardClaim):
    """Shards held as advisory locks of a connection of this process's own (see the module
    docstring), which also listens for wake-ups and is checked every
    ``CLAIM_CHECK_SECONDS``."""

    def __init__(self, shards: Shards, store: PostgresStore) -> None:
        super().__init__(shards)
        self._store = store
        self._conn: asyncpg.Connection | None = None
        self._held = False
        self._watch: asyncio.Task | None = None

    async def _connect(self) -> asyncpg.Connection:
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(
                self._store.url,
                server_settings={"application_name": f"{APPLICATION_NAME} ({self.shards})"},
            )
            await self._conn.add_listener(WAKE_CHANNEL, self._notified)
            self._conn.add_termination_listener(self._terminated)
        return self._conn

    async def try_acquire(self) -> str | None:
        if self._held:
            return None
        conn = await self._connect()
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", CLAIM_LOCK)
            counts = {row["objid"] for row in await conn.fetch(
                "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 "
                "AND classid = $1 AND granted AND pid <> pg_backend_pid() AND database = "
                "(SELECT oid FROM pg_database WHERE datname = current_database())",
                SHARD_COUNT_LOCKS,
            )}
            if counts - {self.shards.count}:
                return (f"processes with {', '.join(map(str, sorted(counts)))} shards in all "
                        f"run on this database; all must have the same shard count")
            taken: list[int] = []
            for shard in self.shards.ids:
                if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)",
                                           SHARD_LOCKS, shard):
                    for done in taken:
                        await conn.execute("SELECT pg_advisory_unlock($1, $2)",
                                           SHARD_LOCKS, done)
                    return f"shard {shard} is held by {await self._holder(conn, shard)}"
                taken.append(shard)
            await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", SHARD_COUNT_LOCKS,
                               self.shards.count)
        self._held = True
        self._watch = asyncio.create_task(self._check_forever(), name="shard-claim-check")
        return None

    @staticmethod
    async def _holder(conn: asyncpg.Connection, shard: int) -> str:
        """Who holds ``shard`` (for the log): its application name and address."""
        row = await conn.fetchrow(
            "SELECT a.application_name, host(a.client_addr) AS address FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
            "AND l.objsubid = 2 AND l.classid = $1 AND l.objid = $2 AND l.granted",
            SHARD_LOCKS, shard,
        )
        if row is None:
            return "another process"
        return f"another process ({row['application_name']} at {row['address'] or 'local'})"

    @property
    def held(self) -> bool:
        return self._held

    async def _check_forever(self) -> None:
        """Notice a connection that died without saying so (a network gone quiet)."""
        while self._held:
            await asyncio.sleep(CLAIM_CHECK_SECONDS)
            conn = self._conn
            try:
                assert conn is not None
                await asyncio.wait_for(conn.fetchval("SELECT 1"), CLAIM_CHECK_SECONDS)
            except (OSError, TimeoutError, AssertionError, asyncpg.PostgresError,
                    asyncpg.InterfaceError):
                if self._held:
                    self._held = False
                    if conn is not None:
                        conn.terminate()
                    self._lost()
                return

    def _terminated(self, conn: asyncpg.Connection) -> None:
        if self._held and conn is self._conn:
            self._held = False
            self._lost()

    def _notified(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        guild, game, origin = [*payload.split(":"), "", ""][:3]
        if guild.isdigit() and origin != self._store.origin:
            self._woken(int(guild) or None, int(game) if game.isdigit() else None)

    async def release(self) -> None:
        held, self._held = self._held, False
        if self._watch is not None and self._watch is not asyncio.current_task():
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        self._watch = None
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            try:
                # Closing the connection frees its locks; unlocking first says so sooner.
                if held:
                    await asyncio.wait_for(conn.execute("SELECT pg_advisory_unlock_all()"), 5)
                await asyncio.wait_for(conn.close(), 5)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                conn.terminate()


async def _shielded(operation: Any) -> Any:
    """Run ``operation`` to its end even if the caller is cancelled meanwhile (then re-raise
    the cancellation), so a connection never goes back to the pool in the middle of a COMMIT
    or ROLLBACK."""
    task = asyncio.ensure_future(operation)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        while not task.done():
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                continue
        raise


async def _roll_back(conn: asyncpg.Connection) -> None:
    """Roll back (a no-op outside a transaction). If the connection is unusable (a statement
    was cut short), close it: the server then ends the transaction and frees its locks."""
    try:
        await conn.execute("ROLLBACK")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
        conn.terminate()


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """The pool's reset between two users of a connection. asyncpg still rolls back an open
    transaction; its default also sends a query clearing session state (LISTEN, settings,
    session locks), which our pooled connections never take: skipping it saves a round trip
    on every read."""


async def _migrate(conn: asyncpg.Connection) -> int:
    """Apply every pending migration in one transaction, under the migration lock; returns the
    schema version."""
    files = migrate.migrations()
    async with conn.transaction():
        await conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (number BIGINT PRIMARY KEY, "
            "name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        current = await conn.fetchval("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")
        for number, name, script in migrate.pending(current, files):
            for statement in migrate.split_statements(script):
                await conn.execute(postgres_ddl(statement))
            await conn.execute(
                "INSERT INTO schema_migrations (number, name, applied_at) VALUES ($1, $2, $3)",
                number, name, time_text(datetime.now(UTC)),
            )
    return max(current, len(files))


async def open_postgres(url: str, *, pool_size: int = POOL_SIZE) -> PostgresStore:
    """Connect to ``postgresql://user:password@host:port/database`` (or ``postgres://``) and
    migrate it. The database must exist and the user must be allowed to create tables in it."""
    try:
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=pool_size, reset=_nothing_to_reset,
            server_settings={"application_name": APPLICATION_NAME},
        )
    except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        reason = str(error)
        password = password_of(url)
        if password:
            reason = reason.replace(password, "***")
        raise StoreUnavailable(
            f"cannot open the PostgreSQL database {redacted(url)}: "
            f"{type(error).__name__}: {reason}"
        ) from None
    try:
        async with pool.acquire() as conn:
            await _migrate(conn)
    except BaseException:
        await pool.close()
        raise
    return PostgresStore(pool, url)
