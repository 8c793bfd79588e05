"""Storage of post-game reviews (migration 0010). The only module with this feature's SQL
(``review_reads(store_or_tx)``, ``review_writes(tx)``, like ``bot.store.rematches``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.base import Reads, Writes
from bot.store.sql import SqlQueries, SqlWrites, connection_of, json_text, json_value, time_text


@dataclass(frozen=True)
class ReviewRow:
    game_id: int
    perspective: int  # -1: from full states (a finished game); else a seat's own view
    version: int  # the game's version the review was made at
    data: dict[str, Any]


class ReviewReads(SqlQueries):
    async def review(self, game_id: int, perspective: int) -> ReviewRow | None:
        rows = await self._all(
            "SELECT game_id, perspective, version, data FROM reviews "
            "WHERE game_id = ? AND perspective = ?",
            (game_id, perspective),
        )
        if not rows:
            return None
        row = rows[0]
        return ReviewRow(int(row["game_id"]), int(row["perspective"]), int(row["version"]),
                         json_value(row["data"]))


class ReviewWrites(ReviewReads, SqlWrites):
    async def put_review(self, game_id: int, perspective: int, version: int,
                         data: dict[str, Any], now: datetime) -> None:
        """Keep this review (replacing an older one of the same game and perspective)."""
        await self._run(
            "INSERT INTO reviews (game_id, perspective, version, data, created_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, perspective) DO UPDATE SET "
            "version = excluded.version, data = excluded.data, "
            "created_at = excluded.created_at",
            (game_id, perspective, version, json_text(data), time_text(now)),
        )


def review_reads(reads: Reads) -> ReviewReads:
    return ReviewReads(connection_of(reads))


def review_writes(tx: Writes) -> ReviewWrites:
    return ReviewWrites(connection_of(tx))


__all__ = ["ReviewReads", "ReviewRow", "ReviewWrites", "review_reads", "review_writes"]
