"""Storage queries of AI seats: which games wait for an AI to move, and a player's finished
games against AI seats. No table of its own: an AI seat is a seat whose user id lies in the
range reserved for AI players (``bot.services.aiseats``), so the game row's own ``to_move``
and ``game_seats`` say everything, in every process, after any restart.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.sharding import Shards
from bot.store.base import GameRow, Reads
from bot.store.sql import _GAME_COLUMNS_G, SqlQueries, _game_row, connection_of, shard_filter


@dataclass(frozen=True)
class AiTurn:
    """An active game whose seat to move is an AI seat, at the version it was read."""

    game_id: int
    version: int
    seat: int
    user_id: int
    #: The game's person in its first seat not held by an AI (None: AI seats only): whose
    #: turn in the AI's queue this move takes.
    owner: int | None = None


class AiSeatReads(SqlQueries):
    async def ai_turns(self, lowest: int, highest: int, limit: int,
                       shards: Shards | None = None) -> list[AiTurn]:
        """Active games whose seat to move holds a user id in ``[lowest, highest]``, oldest
        change first (the one waiting longest moves first); only the games of the servers of
        ``shards`` if given (as the outbox: ``bot.core.sharding``)."""
        servers, params = shard_filter("g.guild_id", shards)
        rows = await self._all(
            "SELECT g.id AS game_id, g.version AS version, s.seat AS seat, s.user_id AS user_id, "
            "(SELECT h.user_id FROM game_seats h WHERE h.game_id = g.id "
            "AND h.user_id NOT BETWEEN ? AND ? ORDER BY h.seat LIMIT 1) AS owner "
            "FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move "
            f"WHERE g.status = 'active' AND s.user_id BETWEEN ? AND ? {servers}"
            "ORDER BY g.updated_at, g.id LIMIT ?",
            [lowest, highest, lowest, highest, *params, limit],
        )
        return [AiTurn(int(r["game_id"]), int(r["version"]), int(r["seat"]), int(r["user_id"]),
                       None if r["owner"] is None else int(r["owner"]))
                for r in rows]

    async def active_games_against(self, user_id: int, lowest: int, highest: int) -> int:
        """How many active games ``user_id`` plays with at least one seat in
        ``[lowest, highest]``."""
        rows = await self._all(
            "SELECT COUNT(DISTINCT g.id) AS games FROM games g "
            "JOIN game_seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.status = 'active' AND EXISTS ("
            "SELECT 1 FROM game_seats a WHERE a.game_id = g.id AND a.user_id BETWEEN ? AND ?)",
            (user_id, lowest, highest),
        )
        return int(rows[0]["games"]) if rows else 0

    async def finished_against(self, user_id: int, lowest: int, highest: int,
                               limit: int) -> list[GameRow]:
        """The user's finished games with at least one seat in ``[lowest, highest]``, newest
        first."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS_G} FROM games g "
            "JOIN game_seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.status = 'finished' AND EXISTS ("
            "SELECT 1 FROM game_seats a WHERE a.game_id = g.id AND a.user_id BETWEEN ? AND ?) "
            "ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
            (user_id, lowest, highest, limit),
        )
        return [_game_row(row) for row in rows]


def ai_seat_reads(reads: Reads) -> AiSeatReads:
    """The AI-seat queries of a store (committed data) or of a transaction."""
    return AiSeatReads(connection_of(reads))


__all__ = ["AiSeatReads", "AiTurn", "ai_seat_reads"]
