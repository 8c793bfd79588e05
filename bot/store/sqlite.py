"""The SQLite backend of the store, on aiosqlite (DESIGN.md §6).

Two connections to one file in WAL mode:

* a **writer**, used only inside ``transaction()``: transactions are serialised by an
  ``asyncio.Lock`` and open with ``BEGIN IMMEDIATE``, so a transaction holds SQLite's write lock
  from its first statement and never fails half-way with SQLITE_BUSY;
* a read-only **reader** for everything outside a transaction. In WAL mode it sees only committed
  data and never waits for the writer, so the services read a game, run the engine and only then
  take the write lock for a few statements (optimistic locking on ``games.version``). Reading
  through the writer would let a read see another coroutine's uncommitted transaction.

Each aiosqlite connection runs its statements on its own thread, so reads, writes and the event
loop overlap. SQLite-specific statements (PRAGMAs, BEGIN IMMEDIATE, lastrowid) stay in this file.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.base import (
    ChallengeRow,
    GameRow,
    GameUpdate,
    MoveRow,
    NewGame,
    OutboxRow,
    Reads,
    Store,
    Writes,
)

BUSY_TIMEOUT_MS = 5000
T = TypeVar("T")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[\w-]+\.sql$")


class MigrationError(RuntimeError):
    """The migration files or the database's schema version are not what this code expects."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _time(value: datetime) -> str:
    """Fixed-width UTC text, so times sort as text (``ORDER BY updated_at``)."""
    if value.tzinfo is None:
        raise ValueError("store times must be timezone-aware")
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _parse_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def placeholders(values: Sequence[Any]) -> str:
    """``?, ?, ?``: one placeholder per value, for ``IN (...)``."""
    return ", ".join("?" for _ in values)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(cls))


def from_row(cls: type[T], row: sqlite3.Row, /, **decode: Callable[[Any], Any]) -> T:
    """A row dataclass from a query row with a column named after each field; ``decode[name]``
    turns that column's stored value into the field's (JSON text, times...)."""
    return cls(**{
        name: decode[name](row[name]) if name in decode else row[name]
        for name in _field_names(cls)
    })


class SqlQueries:
    """Queries on one connection: the base of this backend and of the feature stores
    (``bot.store.tournaments``, ``bot.store.ratings``, ``bot.store.clocks``)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    @property
    def connection(self) -> aiosqlite.Connection:
        """The connection behind these reads (inside a transaction: the writer), for feature
        stores that keep their own SQL (``bot.store.tournaments``, ``bot.store.ratings``)."""
        return self._conn

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # execute_fetchall is one round trip to the connection's thread.
        return list(await self._conn.execute_fetchall(sql, params))


class SqlWrites(SqlQueries):
    """Statements that write; only valid on a transaction's connection."""

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        return await self._conn.execute(sql, params)


def connection_of(reads: Reads) -> aiosqlite.Connection:
    """The SQLite connection of a store (committed data) or of a transaction, for the feature
    stores; another backend would need its own."""
    conn = getattr(reads, "connection", None)
    if conn is None:
        raise NotImplementedError(f"no feature storage for {type(reads).__name__}")
    return conn


_GAME_COLUMNS = (
    "id, game, options, seed, seats, status, ply, to_move, version, snapshot, last_move, "
    "forced_outcome, undo_seat, undo_consents, challenge_id, guild_id, channel_id, thread_id, "
    "created_at, updated_at"
)
_GAME_COLUMNS_G = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))


def _game_row(row: sqlite3.Row) -> GameRow:
    return from_row(
        GameRow,
        row,
        options=_loads,
        seats=lambda text: tuple(_loads(text)),
        snapshot=_loads,
        forced_outcome=_loads,
        undo_consents=lambda text: tuple(_loads(text) or ()),
        created_at=_parse_time,
        updated_at=_parse_time,
    )


def _move_row(row: sqlite3.Row) -> MoveRow:
    return from_row(MoveRow, row, played_at=_parse_time)


_CHALLENGE_SELECT = (
    "SELECT c.id, c.game, c.options, c.host_id, c.opponent_id, c.players, c.status, c.guild_id, "
    "c.channel_id, c.message_id, c.game_id, c.created_at, c.updated_at, p.user_id AS joined "
    "FROM challenges c LEFT JOIN challenge_players p ON p.challenge_id = c.id "
)


def _challenge_rows(rows: Sequence[sqlite3.Row]) -> list[ChallengeRow]:
    """Challenge rows from a join with one line per joined player (ordered by id, position)."""
    grouped: dict[int, tuple[sqlite3.Row, list[int]]] = {}
    for row in rows:
        _, joined = grouped.setdefault(row["id"], (row, []))
        if row["joined"] is not None:
            joined.append(row["joined"])
    return [
        from_row(
            ChallengeRow,
            row,
            options=_loads,
            joined=lambda _: tuple(joined),  # noqa: B023 (called at once, in this iteration)
            created_at=_parse_time,
            updated_at=_parse_time,
        )
        for row, joined in grouped.values()
    ]


class _SqliteReads(SqlQueries, Reads):

    async def get_game(self, game_id: int) -> GameRow | None:
        rows = await self._all(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game_row(rows[0]) if rows else None

    async def game_for_thread(self, thread_id: int) -> GameRow | None:
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
            (thread_id,),
        )
        return _game_row(rows[0]) if rows else None

    async def games_of(self, user_id: int, *, active_only: bool, limit: int) -> list[GameRow]:
        status_filter = "AND g.status = 'active' " if active_only else ""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS_G} FROM games g "
            "JOIN game_seats s ON s.game_id = g.id "
            f"WHERE s.user_id = ? {status_filter}"
            "ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
            (user_id, limit),
        )
        return [_game_row(row) for row in rows]

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        rows = await self._all(
            _CHALLENGE_SELECT + "WHERE c.id = ? ORDER BY p.position", (challenge_id,)
        )
        found = _challenge_rows(rows)
        return found[0] if found else None

    async def open_challenges(self, guild_id: int | None, limit: int) -> list[ChallengeRow]:
        ids = await self._all(
            "SELECT id FROM challenges WHERE status = 'open' "
            + ("AND guild_id = ? " if guild_id is not None else "")
            + "ORDER BY id LIMIT ?",
            (guild_id, limit) if guild_id is not None else (limit,),
        )
        if not ids:
            return []
        rows = await self._all(
            _CHALLENGE_SELECT + f"WHERE c.id IN ({placeholders(ids)}) ORDER BY c.id, p.position",
            [row["id"] for row in ids],
        )
        return _challenge_rows(rows)

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._all(
            "SELECT game_id, ply, seat, text, played_at FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [_move_row(row) for row in rows]

    async def last_move(self, game_id: int) -> MoveRow | None:
        rows = await self._all(
            "SELECT game_id, ply, seat, text, played_at FROM moves WHERE game_id = ? "
            "ORDER BY ply DESC LIMIT 1",
            (game_id,),
        )
        return _move_row(rows[0]) if rows else None

    async def pending_outbox(self, limit: int, game_id: int | None = None) -> list[OutboxRow]:
        game_filter = "" if game_id is None else "AND game_id = ? "
        rows = await self._all(
            "SELECT id, game_id, kind, payload, created_at, delivered_at, reply_token FROM outbox "
            f"WHERE delivered_at IS NULL {game_filter}ORDER BY id LIMIT ?",
            (limit,) if game_id is None else (game_id, limit),
        )
        return [
            from_row(OutboxRow, row, payload=_loads, created_at=_parse_time,
                     delivered_at=_parse_time)
            for row in rows
        ]

    async def last_outbox_id(self, game_id: int, kind: str) -> int | None:
        rows = await self._all(
            "SELECT MAX(id) FROM outbox WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return rows[0][0] if rows else None

    async def guild_settings(self, guild_id: int) -> tuple[str | None, dict[str, Any]] | None:
        rows = await self._all(
            "SELECT locale, settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return (rows[0]["locale"], _loads(rows[0]["settings"])) if rows else None

    async def user_locale(self, user_id: int) -> str | None:
        rows = await self._all("SELECT locale FROM users WHERE user_id = ?", (user_id,))
        return rows[0]["locale"] if rows else None


class _SqliteWrites(_SqliteReads, SqlWrites, Writes):

    async def ensure_user(self, user_id: int, now: datetime) -> None:
        await self._run(
            "INSERT INTO users (user_id, created_at) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO NOTHING",
            (user_id, _time(now)),
        )

    async def set_user_locale(self, user_id: int, locale: str | None, now: datetime) -> None:
        await self._run(
            "INSERT INTO users (user_id, locale, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
            (user_id, locale, _time(now)),
        )

    async def set_guild_settings(
        self, guild_id: int, locale: str | None, settings: dict[str, Any], now: datetime
    ) -> None:
        await self._run(
            "INSERT INTO guild_settings (guild_id, locale, settings, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "locale = excluded.locale, settings = excluded.settings, "
            "updated_at = excluded.updated_at",
            (guild_id, locale, _dumps(settings), _time(now)),
        )

    async def insert_challenge(
        self,
        *,
        game: str,
        options: dict[str, Any],
        host_id: int,
        opponent_id: int | None,
        players: int,
        guild_id: int | None,
        channel_id: int | None,
        now: datetime,
    ) -> int:
        cursor = await self._run(
            "INSERT INTO challenges (game, options, host_id, opponent_id, players, status, "
            "guild_id, channel_id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?)",
            (game, _dumps(options), host_id, opponent_id, players, guild_id, channel_id,
             _time(now), _time(now)),
        )
        challenge_id = cursor.lastrowid
        await self.add_challenge_player(challenge_id, host_id, now)
        return challenge_id

    async def add_challenge_player(self, challenge_id: int, user_id: int, now: datetime) -> None:
        await self._run(
            "INSERT INTO challenge_players (challenge_id, user_id, position, joined_at) "
            "SELECT ?, ?, COALESCE(MAX(position), -1) + 1, ? FROM challenge_players "
            "WHERE challenge_id = ?",
            (challenge_id, user_id, _time(now), challenge_id),
        )

    async def remove_challenge_player(self, challenge_id: int, user_id: int) -> None:
        await self._run(
            "DELETE FROM challenge_players WHERE challenge_id = ? AND user_id = ?",
            (challenge_id, user_id),
        )

    async def set_challenge_status(
        self, challenge_id: int, status: str, now: datetime, *, game_id: int | None = None
    ) -> None:
        await self._run(
            "UPDATE challenges SET status = ?, game_id = COALESCE(?, game_id), updated_at = ? "
            "WHERE id = ?",
            (status, game_id, _time(now), challenge_id),
        )

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> bool:
        cursor = await self._run(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )
        return cursor.rowcount == 1

    async def insert_game(self, game: NewGame) -> int:
        cursor = await self._run(
            "INSERT INTO games (game, options, seed, seats, status, ply, to_move, version, "
            "snapshot, challenge_id, guild_id, channel_id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, 0, ?, 0, ?, ?, ?, ?, ?, ?)",
            (game.game, _dumps(game.options), game.seed, _dumps(list(game.seats)), game.status,
             game.to_move, _dumps(game.snapshot), game.challenge_id, game.guild_id,
             game.channel_id, _time(game.created_at), _time(game.created_at)),
        )
        game_id = cursor.lastrowid
        await self._conn.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id) VALUES (?, ?, ?)",
            [(game_id, seat, user) for seat, user in enumerate(game.seats)],
        )
        return game_id

    async def update_game(self, game_id: int, expected_version: int, update: GameUpdate) -> bool:
        cursor = await self._run(
            "UPDATE games SET snapshot = ?, ply = ?, to_move = ?, status = ?, last_move = ?, "
            "forced_outcome = ?, undo_seat = NULL, undo_consents = NULL, "
            "version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (_dumps(update.snapshot), update.ply, update.to_move, update.status,
             update.last_move,
             None if update.forced_outcome is None else _dumps(update.forced_outcome),
             _time(update.updated_at), game_id, expected_version),
        )
        return cursor.rowcount == 1

    async def set_undo_request(
        self,
        game_id: int,
        expected_version: int,
        seat: int | None,
        consents: Sequence[int],
        now: datetime,
    ) -> bool:
        cursor = await self._run(
            "UPDATE games SET undo_seat = ?, undo_consents = ?, updated_at = ? "
            "WHERE id = ? AND version = ?",
            (seat, None if seat is None else _dumps(sorted(consents)), _time(now), game_id,
             expected_version),
        )
        return cursor.rowcount == 1

    async def set_thread(self, game_id: int, thread_id: int | None) -> bool:
        cursor = await self._run(
            "UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id)
        )
        return cursor.rowcount == 1

    async def insert_move(
        self, game_id: int, ply: int, seat: int, text: str, now: datetime
    ) -> None:
        await self._run(
            "INSERT INTO moves (game_id, ply, seat, text, played_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, ply, seat, text, _time(now)),
        )

    async def remove_last_move(self, game_id: int, ply: int, now: datetime) -> bool:
        await self._run(
            "INSERT INTO undone_moves (game_id, ply, seat, text, played_at, undone_at) "
            "SELECT game_id, ply, seat, text, played_at, ? FROM moves "
            "WHERE game_id = ? AND ply = ?",
            (_time(now), game_id, ply),
        )
        cursor = await self._run(
            "DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply)
        )
        return cursor.rowcount == 1

    async def insert_outbox(
        self,
        game_id: int | None,
        kind: str,
        payload: dict[str, Any],
        now: datetime,
        reply_token: str | None = None,
    ) -> int:
        cursor = await self._run(
            "INSERT INTO outbox (game_id, kind, payload, created_at, reply_token) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, kind, _dumps(payload), _time(now), reply_token),
        )
        return cursor.lastrowid

    async def forget_reply_token(self, reply_token: str) -> None:
        await self._run("UPDATE outbox SET reply_token = NULL WHERE reply_token = ?",
                        (reply_token,))

    async def mark_delivered(self, outbox_id: int, now: datetime) -> bool:
        cursor = await self._run(
            "UPDATE outbox SET delivered_at = COALESCE(delivered_at, ?), reply_token = NULL "
            "WHERE id = ?",
            (_time(now), outbox_id),
        )
        return cursor.rowcount == 1


class SqliteStore(_SqliteReads, Store):
    """One SQLite file: reads on a read-only connection, serialised write transactions."""

    def __init__(self, path: Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._conn = reader
        self._writes = _SqliteWrites(writer)
        self._write_lock = asyncio.Lock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Writes]:
        async with self._write_lock:
            committed = False
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                yield self._writes
                await asyncio.shield(self._writer.commit())
                committed = True
            finally:
                if not committed:
                    # Statements run in order on the connection's thread, so this rollback
                    # comes after anything still in flight (a BEGIN or COMMIT whose caller was
                    # cancelled) and is a no-op if no transaction is open: the next
                    # transaction always starts clean. Shielded so a second cancellation
                    # cannot skip it.
                    await asyncio.shield(self._writer.rollback())

    async def close(self) -> None:
        await self._conn.close()
        await self._writer.close()


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration file, in order; numbers run 1, 2, 3…"""
    found = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise MigrationError(f"migration files must be numbered 0001, 0002, ...: {numbers}")
    return found


def split_statements(script: str) -> list[str]:
    """The statements of an SQL script (``sqlite3.complete_statement`` understands comments,
    strings and trigger bodies, unlike a split on ';')."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current.strip())
            current = ""
    if current.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in current.splitlines()
    ):
        raise MigrationError(f"unterminated SQL statement: {current.strip()[:80]!r}")
    return statements


async def _migrate(conn: aiosqlite.Connection) -> int:
    """Apply every pending migration in one transaction; returns the schema version."""
    files = migrations()
    await conn.execute("BEGIN IMMEDIATE")  # re-read the version under the write lock
    try:
        (current,) = (await conn.execute_fetchall("PRAGMA user_version"))[0]
        if current > len(files):
            raise MigrationError(
                f"the database has schema version {current}, newer than this code "
                f"({len(files)}): upgrade the bot"
            )
        for number, _, script in files[current:]:
            for statement in split_statements(script):
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
        raise ValueError(f"not an SQLite database: {path_or_url!r}")
    if path_or_url in ("", ":memory:"):
        raise ValueError("the store needs a database file (WAL mode and two connections)")
    return Path(path_or_url)


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
        mode = (await writer.execute_fetchall("PRAGMA journal_mode = WAL"))[0][0]
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
