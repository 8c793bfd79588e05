"""Storage of draw offers (migration 0014): who offered a draw in which game, and what became
of the offer. The only module with this feature's SQL (``draw_reads(store_or_tx)``,
``draw_writes(tx)``, like ``bot.store.rematches``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.sharding import Shards
from bot.store.base import Reads, Writes
from bot.store.sql import (
    SqlQueries,
    SqlWrites,
    connection_of,
    shard_filter,
    time_text,
    time_value,
)

PENDING = "pending"
ACCEPTED = "accepted"
DECLINED = "declined"
LAPSED = "lapsed"

_COLUMNS = ("id, game_id, seat, user_id, ply, keep_turn, status, answered_by, channel_id, "
            "message_id, created_at")


@dataclass(frozen=True)
class DrawOfferRow:
    id: int
    game_id: int
    seat: int
    user_id: int
    ply: int  # the game's ply when the offer was made
    keep_turn: bool  # the sender's move of the turn it was made on keeps it open
    status: str
    answered_by: int | None
    channel_id: int | None  # where its Accept/Decline message was posted, once it was
    message_id: int | None
    created_at: datetime


def _offer(row) -> DrawOfferRow:
    return DrawOfferRow(
        int(row["id"]), int(row["game_id"]), int(row["seat"]), int(row["user_id"]),
        int(row["ply"]), bool(row["keep_turn"]), str(row["status"]), row["answered_by"],
        row["channel_id"], row["message_id"], time_value(row["created_at"]),
    )


class DrawReads(SqlQueries):
    async def draw_offer(self, offer_id: int) -> DrawOfferRow | None:
        rows = await self._all(f"SELECT {_COLUMNS} FROM draw_offers WHERE id = ?", (offer_id,))
        return _offer(rows[0]) if rows else None

    async def pending_draw_offers(self, game_id: int) -> list[DrawOfferRow]:
        """The game's pending offers, oldest first."""
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM draw_offers WHERE game_id = ? AND status = ? ORDER BY id",
            (game_id, PENDING),
        )
        return [_offer(row) for row in rows]

    async def pending_offers_to(self, lowest: int, highest: int, limit: int,
                                shards: Shards | None = None) -> list[DrawOfferRow]:
        """Pending offers in running games where a seat holding a user id in
        ``[lowest, highest]`` (AI seats) must answer, oldest first; only the games of the
        servers of ``shards`` if given."""
        servers, params = shard_filter("g.guild_id", shards)
        columns = ", ".join(f"d.{c.strip()}" for c in _COLUMNS.split(","))
        rows = await self._all(
            f"SELECT {columns} FROM draw_offers d JOIN games g ON g.id = d.game_id "
            "WHERE d.status = ? AND g.status = 'active' AND EXISTS ("
            "SELECT 1 FROM game_seats s WHERE s.game_id = d.game_id AND s.seat <> d.seat "
            f"AND s.user_id BETWEEN ? AND ?) {servers}ORDER BY d.id LIMIT ?",
            [PENDING, lowest, highest, *params, limit],
        )
        return [_offer(row) for row in rows]


class DrawWrites(DrawReads, SqlWrites):
    async def insert_draw_offer(self, game_id: int, seat: int, user_id: int, ply: int,
                                keep_turn: bool, now: datetime) -> int:
        return await self._insert(
            "INSERT INTO draw_offers (game_id, seat, user_id, ply, keep_turn, status, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seat, user_id, ply, int(keep_turn), PENDING, time_text(now),
             time_text(now)),
        )

    async def close_draw_offer(self, offer_id: int, status: str, answered_by: int | None,
                               now: datetime) -> bool:
        """Close a pending offer; False when it was no longer pending (a double click)."""
        changed = await self._run(
            "UPDATE draw_offers SET status = ?, answered_by = ?, updated_at = ? "
            "WHERE id = ? AND status = ?",
            (status, answered_by, time_text(now), offer_id, PENDING),
        )
        return changed == 1

    async def keep_draw_offer_turn(self, offer_id: int, keep: bool, now: datetime) -> None:
        await self._run(
            "UPDATE draw_offers SET keep_turn = ?, updated_at = ? WHERE id = ?",
            (int(keep), time_text(now), offer_id),
        )

    async def set_draw_offer_message(self, offer_id: int, channel_id: int,
                                     message_id: int) -> None:
        await self._run(
            "UPDATE draw_offers SET channel_id = ?, message_id = ? WHERE id = ?",
            (channel_id, message_id, offer_id),
        )


def draw_reads(reads: Reads) -> DrawReads:
    return DrawReads(connection_of(reads))


def draw_writes(tx: Writes) -> DrawWrites:
    return DrawWrites(connection_of(tx))


__all__ = [
    "ACCEPTED", "DECLINED", "LAPSED", "PENDING", "DrawOfferRow", "DrawReads", "DrawWrites",
    "draw_reads", "draw_writes",
]
