"""Storage of seeks (migration 0011): the part of a seek its open challenge does not hold
(rated, the joiner's rating range, its expiry). The only module with this feature's SQL
(``seek_reads(store_or_tx)``, ``seek_writes(tx)``, like ``bot.store.rematches``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.base import Reads, Writes
from bot.store.sql import SqlQueries, SqlWrites, connection_of, time_text, time_value

_COLUMNS = "s.challenge_id, s.rated, s.min_rating, s.max_rating, s.expires_at"


@dataclass(frozen=True)
class SeekRow:
    challenge_id: int
    rated: bool
    min_rating: int | None
    max_rating: int | None
    expires_at: datetime


def _seek(row) -> SeekRow:
    return SeekRow(int(row["challenge_id"]), bool(row["rated"]), row["min_rating"],
                   row["max_rating"], time_value(row["expires_at"]))


class SeekReads(SqlQueries):
    async def seek(self, challenge_id: int) -> SeekRow | None:
        rows = await self._all(f"SELECT {_COLUMNS} FROM seeks s WHERE s.challenge_id = ?",
                               (challenge_id,))
        return _seek(rows[0]) if rows else None

    async def open_seeks(self, guild_id: int, limit: int) -> list[SeekRow]:
        """The server's seeks still open (expired or not: the caller compares), oldest
        first."""
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM seeks s JOIN challenges c ON c.id = s.challenge_id "
            "WHERE c.status = 'open' AND c.guild_id = ? ORDER BY s.challenge_id LIMIT ?",
            (guild_id, limit),
        )
        return [_seek(row) for row in rows]

    async def open_seeks_of(self, host_id: int, guild_id: int | None) -> list[SeekRow]:
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM seeks s JOIN challenges c ON c.id = s.challenge_id "
            "WHERE c.status = 'open' AND c.host_id = ? AND c.guild_id = ? "
            "ORDER BY s.challenge_id",
            (host_id, guild_id),
        )
        return [_seek(row) for row in rows]

    async def open_seeks_expiring_by(self, cutoff: datetime, limit: int) -> list[SeekRow]:
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM seeks s JOIN challenges c ON c.id = s.challenge_id "
            "WHERE c.status = 'open' AND s.expires_at <= ? "
            "ORDER BY s.expires_at, s.challenge_id LIMIT ?",
            (time_text(cutoff), limit),
        )
        return [_seek(row) for row in rows]

    async def next_seek_expiry(self) -> datetime | None:
        rows = await self._all(
            "SELECT MIN(s.expires_at) AS soonest FROM seeks s "
            "JOIN challenges c ON c.id = s.challenge_id WHERE c.status = 'open'"
        )
        return time_value(rows[0]["soonest"]) if rows else None

    async def unrated_game(self, game_id: int) -> bool:
        """Whether the game was started from a seek its player wanted unrated."""
        rows = await self._all(
            "SELECT 1 AS unrated FROM games g JOIN seeks s ON s.challenge_id = g.challenge_id "
            "WHERE g.id = ? AND s.rated = 0",
            (game_id,),
        )
        return bool(rows)


class SeekWrites(SeekReads, SqlWrites):
    async def put_seek(self, challenge_id: int, *, rated: bool, min_rating: int | None,
                       max_rating: int | None, expires_at: datetime) -> None:
        await self._run(
            "INSERT INTO seeks (challenge_id, rated, min_rating, max_rating, expires_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (challenge_id, int(rated), min_rating, max_rating, time_text(expires_at)),
        )


def seek_reads(reads: Reads) -> SeekReads:
    return SeekReads(connection_of(reads))


def seek_writes(tx: Writes) -> SeekWrites:
    return SeekWrites(connection_of(tx))


__all__ = ["SeekReads", "SeekRow", "SeekWrites", "seek_reads", "seek_writes"]
