"""The store's SQL, written once for every backend (docs/architecture.md).

Statements use ``?`` placeholders and portable SQL; a backend runs them through a
``SqlConnection`` (``bot.store.sqlite``, ``bot.store.postgres``), which is where the dialects
differ: placeholders, the number of rows a statement changed, the id of an inserted row.
``CoreReads``/``CoreWrites`` implement the repository interface of ``bot.store.base`` on such a
connection; the feature stores (``bot.store.clocks``, ``bot.store.ratings``,
``bot.store.tournaments``) build on ``SqlQueries``/``SqlWrites`` the same way.

Values are stored the same way everywhere: JSON as text, times as fixed-width ISO-8601 UTC text
(so they sort as text), booleans as 0/1.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson

from bot.core.events import Committed, Event, GameEvent, dump
from bot.core.sharding import SHARD_SHIFT, Shards
from bot.store.base import (
    CONVERSATION,
    ChallengeRow,
    GameRow,
    GameUpdate,
    MoveRow,
    NewGame,
    OutboxRow,
    Reads,
    Writes,
)

T = TypeVar("T")
#: A result row: its columns by name (``sqlite3.Row``, ``asyncpg.Record``).
Row = Mapping[str, Any]


def json_text(value: Any) -> str:
    """Compact JSON (orjson: a move's snapshots are written and read in C)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson refuses and the standard library writes: integers past 64 bits
        return json.dumps(value, separators=(",", ":"))


def json_value(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # NaN or Infinity, which only the standard library reads
        return json.loads(text)


def time_text(value: datetime) -> str:
    """Fixed-width UTC text, so times sort as text (``ORDER BY updated_at``)."""
    if value.tzinfo is None:
        raise ValueError("store times must be timezone-aware")
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def time_value(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def placeholders(values: Sequence[Any]) -> str:
    """``?, ?, ?``: one placeholder per value, for ``IN (...)``."""
    return ", ".join("?" for _ in values)


def shard_filter(guild_column: str, shards: Shards | None) -> tuple[str, list[Any]]:
    """``AND …`` keeping the rows whose server (``guild_column``, NULL for none) is in
    ``shards``, with its parameters; nothing when ``shards`` is every server (or None)."""
    if shards is None or shards.every_server:
        return "", []
    return (
        f"AND ((COALESCE({guild_column}, 0) >> {SHARD_SHIFT}) % ?) IN "
        f"({placeholders(shards.ids)}) ",
        [shards.count, *shards.ids],
    )


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(cls))


def from_row(cls: type[T], row: Row, /, **decode: Callable[[Any], Any]) -> T:
    """A row dataclass from a query row with a column named after each field; ``decode[name]``
    turns that column's stored value into the field's (JSON text, times...)."""
    return cls(**{
        name: decode[name](row[name]) if name in decode else row[name]
        for name in _field_names(cls)
    })


class SqlConnection(abc.ABC):
    """Runs the store's statements (``?`` placeholders) on one database connection, or on any
    connection of a pool for reads outside a transaction."""

    @abc.abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abc.abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; returns how many rows it inserted, changed or deleted."""

    @abc.abstractmethod
    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT into a table whose key is ``id``; returns the new row's id."""

    @abc.abstractmethod
    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class SqlQueries:
    """Queries on one connection: the base of the core store and of the feature stores."""

    def __init__(self, conn: SqlConnection) -> None:
        self._conn = conn

    @property
    def connection(self) -> SqlConnection:
        """The connection behind these reads (inside a transaction: the transaction's), for
        the feature stores."""
        return self._conn

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._conn.fetch(sql, params)


class SqlWrites(SqlQueries):
    """Statements that write; only valid on a transaction's connection."""

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; returns the number of rows it changed."""
        return await self._conn.execute(sql, params)

    async def _insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT; returns the new row's id."""
        return await self._conn.insert(sql, params)


def connection_of(reads: Reads) -> SqlConnection:
    """The connection of a store (committed data) or of a transaction, for the feature
    stores."""
    conn = getattr(reads, "connection", None)
    if not isinstance(conn, SqlConnection):
        raise NotImplementedError(f"no feature storage for {type(reads).__name__}")
    return conn


_GAME_COLUMNS = (
    "id, game, options, seed, seats, status, ply, to_move, version, snapshot, last_move, "
    "forced_outcome, undo_seat, undo_consents, challenge_id, guild_id, channel_id, thread_id, "
    "created_at, updated_at, locale, place"
)
_GAME_COLUMNS_G = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))


def _game_row(row: Row) -> GameRow:
    return from_row(
        GameRow,
        row,
        options=json_value,
        seats=lambda text: tuple(json_value(text)),
        snapshot=json_value,
        forced_outcome=json_value,
        undo_consents=lambda text: tuple(json_value(text) or ()),
        created_at=time_value,
        updated_at=time_value,
    )


def _move_row(row: Row) -> MoveRow:
    return from_row(MoveRow, row, played_at=time_value)


_CHALLENGE_SELECT = (
    "SELECT c.id, c.game, c.options, c.host_id, c.opponent_id, c.players, c.status, c.guild_id, "
    "c.channel_id, c.message_id, c.game_id, c.created_at, c.updated_at, c.locale, c.place, "
    "c.rated, "
    "p.user_id AS joined "
    "FROM challenges c LEFT JOIN challenge_players p ON p.challenge_id = c.id "
)


#: Seeks (``bot.store.seeks``) expire on their own date, not with the other challenges.
_NOT_A_SEEK = "AND NOT EXISTS (SELECT 1 FROM seeks WHERE seeks.challenge_id = challenges.id) "


def _challenge_rows(rows: Sequence[Row]) -> list[ChallengeRow]:
    """Challenge rows from a join with one line per joined player (ordered by id, position)."""
    grouped: dict[int, tuple[Row, list[int]]] = {}
    for row in rows:
        _, joined = grouped.setdefault(row["id"], (row, []))
        if row["joined"] is not None:
            joined.append(row["joined"])
    return [
        from_row(
            ChallengeRow,
            row,
            options=json_value,
            joined=lambda _: tuple(joined),  # noqa: B023 (called at once, in this iteration)
            created_at=time_value,
            updated_at=time_value,
            rated=lambda value: None if value is None else bool(value),
        )
        for row, joined in grouped.values()
    ]


class CoreReads(SqlQueries, Reads):
    """``Reads`` in portable SQL."""

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
        return await self._challenges_by_id(ids)

    async def _challenges_by_id(self, ids: Sequence[Row]) -> list[ChallengeRow]:
        """Full challenge rows (with their players) for rows holding an ``id``, in that
        order."""
        if not ids:
            return []
        rows = await self._all(
            _CHALLENGE_SELECT + f"WHERE c.id IN ({placeholders(ids)}) ORDER BY c.id, p.position",
            [row["id"] for row in ids],
        )
        return _challenge_rows(rows)

    async def open_challenges_of(self, host_id: int, guild_id: int | None) -> list[ChallengeRow]:
        ids = await self._all(
            "SELECT id FROM challenges WHERE status = 'open' AND host_id = ? AND "
            + ("guild_id = ? " if guild_id is not None else "guild_id IS NULL ")
            + "ORDER BY id",
            (host_id, guild_id) if guild_id is not None else (host_id,),
        )
        return await self._challenges_by_id(ids)

    async def open_challenges_created_before(
        self, cutoff: datetime, limit: int
    ) -> list[ChallengeRow]:
        ids = await self._all(
            "SELECT id FROM challenges WHERE status = 'open' AND created_at < ? "
            + _NOT_A_SEEK + "ORDER BY created_at, id LIMIT ?",
            (time_text(cutoff), limit),
        )
        return await self._challenges_by_id(ids)

    async def oldest_open_challenge_time(self) -> datetime | None:
        rows = await self._all(
            "SELECT MIN(created_at) AS oldest FROM challenges WHERE status = 'open' "
            + _NOT_A_SEEK)
        return time_value(rows[0]["oldest"]) if rows else None

    async def guild_games(self, guild_id: int, *, active_only: bool, limit: int) -> list[GameRow]:
        status_filter = "AND status = 'active' " if active_only else ""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? {status_filter}"
            "ORDER BY updated_at DESC, id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [_game_row(row) for row in rows]

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

    async def pending_outbox(
        self, limit: int, game_id: int | None = None, shards: Shards | None = None
    ) -> list[OutboxRow]:
        game_filter = "" if game_id is None else "AND game_id = ? "
        servers, params = shard_filter("guild_id", shards)
        rows = await self._all(
            "SELECT id, game_id, kind, payload, created_at, delivered_at, reply_token, guild_id "
            f"FROM outbox WHERE delivered_at IS NULL {game_filter}{servers}ORDER BY id LIMIT ?",
            [*([] if game_id is None else [game_id]), *params, limit],
        )
        return [
            from_row(OutboxRow, row, payload=json_value, created_at=time_value,
                     delivered_at=time_value)
            for row in rows
        ]

    async def last_outbox_id(self, game_id: int, kind: str) -> int | None:
        rows = await self._all(
            "SELECT MAX(id) AS id FROM outbox WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return rows[0]["id"] if rows else None

    async def guild_settings(self, guild_id: int) -> tuple[str | None, dict[str, Any]] | None:
        rows = await self._all(
            "SELECT locale, settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return (rows[0]["locale"], json_value(rows[0]["settings"])) if rows else None

    async def user_locale(self, user_id: int) -> str | None:
        rows = await self._all("SELECT locale FROM users WHERE user_id = ?", (user_id,))
        return rows[0]["locale"] if rows else None


class CoreWrites(CoreReads, SqlWrites, Writes):
    """``Writes`` in portable SQL, on a transaction's connection. ``written``: the events
    its transaction wrote so far, which the store publishes once it commits."""

    def __init__(self, conn: SqlConnection) -> None:
        super().__init__(conn)
        self.written: list[Committed] = []

    async def ensure_user(self, user_id: int, now: datetime) -> None:
        await self._run(
            "INSERT INTO users (user_id, created_at) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO NOTHING",
            (user_id, time_text(now)),
        )

    async def set_user_locale(self, user_id: int, locale: str | None, now: datetime) -> None:
        await self._run(
            "INSERT INTO users (user_id, locale, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
            (user_id, locale, time_text(now)),
        )

    async def set_guild_settings(
        self, guild_id: int, locale: str | None, settings: dict[str, Any], now: datetime
    ) -> None:
        await self._run(
            "INSERT INTO guild_settings (guild_id, locale, settings, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "locale = excluded.locale, settings = excluded.settings, "
            "updated_at = excluded.updated_at",
            (guild_id, locale, json_text(settings), time_text(now)),
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
        locale: str | None = None,
        place: str | None = None,
        rated: bool | None = None,
    ) -> int:
        challenge_id = await self._insert(
            "INSERT INTO challenges (game, options, host_id, opponent_id, players, status, "
            "guild_id, channel_id, created_at, updated_at, locale, place, rated) "
            "VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?)",
            (game, json_text(options), host_id, opponent_id, players, guild_id, channel_id,
             time_text(now), time_text(now), locale, place,
             None if rated is None else int(rated)),
        )
        await self.add_challenge_player(challenge_id, host_id, now)
        return challenge_id

    async def add_challenge_player(self, challenge_id: int, user_id: int, now: datetime) -> None:
        await self._run(
            "INSERT INTO challenge_players (challenge_id, user_id, position, joined_at) "
            "SELECT ?, ?, COALESCE(MAX(position), -1) + 1, ? FROM challenge_players "
            "WHERE challenge_id = ?",
            (challenge_id, user_id, time_text(now), challenge_id),
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
            (status, game_id, time_text(now), challenge_id),
        )

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> bool:
        changed = await self._run(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )
        return changed == 1

    async def insert_game(self, game: NewGame) -> int:
        game_id = await self._insert(
            "INSERT INTO games (game, options, seed, seats, status, ply, to_move, version, "
            "snapshot, challenge_id, guild_id, channel_id, created_at, updated_at, locale, "
            "place, thread_id) "
            "VALUES (?, ?, ?, ?, ?, 0, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game.game, json_text(game.options), game.seed, json_text(list(game.seats)),
             game.status, game.to_move, json_text(game.snapshot), game.challenge_id,
             game.guild_id, game.channel_id, time_text(game.created_at),
             time_text(game.created_at), game.locale, game.place,
             # A conversation's channel stands for the game's thread.
             game.channel_id if game.place == CONVERSATION else None),
        )
        await self._conn.execute_many(
            "INSERT INTO game_seats (game_id, seat, user_id) VALUES (?, ?, ?)",
            [(game_id, seat, user) for seat, user in enumerate(game.seats)],
        )
        return game_id

    async def update_game(self, game_id: int, expected_version: int, update: GameUpdate) -> bool:
        changed = await self._run(
            "UPDATE games SET snapshot = ?, ply = ?, to_move = ?, status = ?, last_move = ?, "
            "forced_outcome = ?, undo_seat = NULL, undo_consents = NULL, "
            "version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (json_text(update.snapshot), update.ply, update.to_move, update.status,
             update.last_move,
             None if update.forced_outcome is None else json_text(update.forced_outcome),
             time_text(update.updated_at), game_id, expected_version),
        )
        return changed == 1

    async def set_undo_request(
        self,
        game_id: int,
        expected_version: int,
        seat: int | None,
        consents: Sequence[int],
        now: datetime,
    ) -> bool:
        changed = await self._run(
            "UPDATE games SET undo_seat = ?, undo_consents = ?, updated_at = ? "
            "WHERE id = ? AND version = ?",
            (seat, None if seat is None else json_text(sorted(consents)), time_text(now),
             game_id, expected_version),
        )
        return changed == 1

    async def set_thread(self, game_id: int, thread_id: int | None) -> bool:
        changed = await self._run(
            "UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id)
        )
        return changed == 1

    async def insert_move(
        self, game_id: int, ply: int, seat: int, text: str, now: datetime
    ) -> None:
        await self._run(
            "INSERT INTO moves (game_id, ply, seat, text, played_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, ply, seat, text, time_text(now)),
        )

    async def remove_last_move(self, game_id: int, ply: int, now: datetime) -> bool:
        await self._run(
            "INSERT INTO undone_moves (game_id, ply, seat, text, played_at, undone_at) "
            "SELECT game_id, ply, seat, text, played_at, ? FROM moves "
            "WHERE game_id = ? AND ply = ?",
            (time_text(now), game_id, ply),
        )
        removed = await self._run(
            "DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply)
        )
        return removed == 1

    async def insert_outbox(
        self,
        event: Event,
        now: datetime,
        reply_token: str | None = None,
        *,
        guild_id: int | None = None,
    ) -> int:
        game_id = event.game_id if isinstance(event, GameEvent) else None
        row_id = await self._insert(
            "INSERT INTO outbox (game_id, guild_id, kind, payload, created_at, reply_token) "
            "VALUES (?, COALESCE(?, (SELECT guild_id FROM games WHERE id = ?)), ?, ?, ?, ?)",
            (game_id, guild_id, game_id, event.kind, json_text(dump(event)), time_text(now),
             reply_token),
        )
        self.written.append(Committed(row_id, event, now))
        return row_id

    def take_written(self) -> list[Committed]:
        """The events written since the last call (the transaction's, as it commits)."""
        written, self.written = self.written, []
        return written

    async def forget_reply_token(self, reply_token: str) -> None:
        await self._run("UPDATE outbox SET reply_token = NULL WHERE reply_token = ?",
                        (reply_token,))

    async def mark_delivered(
        self, outbox_id: int, now: datetime, answered_token: str | None = None
    ) -> bool:
        # One statement either way: the services run it through ``Store.single_write``.
        if answered_token is None:
            changed = await self._run(
                "UPDATE outbox SET delivered_at = COALESCE(delivered_at, ?), reply_token = NULL "
                "WHERE id = ?",
                (time_text(now), outbox_id),
            )
            return changed == 1
        # One statement marks the row and takes the token off the others (a round trip to
        # the database less per answered move); RETURNING tells whether the row was there,
        # and without it nothing changes.
        rows = await self._conn.fetch(
            "UPDATE outbox SET delivered_at = CASE WHEN id = ? "
            "THEN COALESCE(delivered_at, ?) ELSE delivered_at END, reply_token = NULL "
            "WHERE id = ? OR (reply_token = ? AND EXISTS (SELECT 1 FROM outbox WHERE id = ?)) "
            "RETURNING id",
            (outbox_id, time_text(now), outbox_id, answered_token, outbox_id),
        )
        return any(row["id"] == outbox_id for row in rows)

    async def prune_outbox(
        self, delivered_before: datetime, limit: int, shards: Shards | None = None
    ) -> int:
        # The oldest first, a batch at a time, so one call never holds the write lock long. A
        # pending take-back is answered by the id of its request's row (last_outbox_id): the
        # request rows of games with one pending stay.
        servers, params = shard_filter("guild_id", shards)
        return await self._run(
            "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox "
            "WHERE delivered_at IS NOT NULL AND delivered_at < ? "
            "AND NOT (kind = 'undo_requested' AND game_id IN "
            "(SELECT id FROM games WHERE undo_seat IS NOT NULL)) "
            f"{servers}ORDER BY id LIMIT ?)",
            [time_text(delivered_before), *params, limit],
        )
