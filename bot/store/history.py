"""A player's finished games (``/history``, the games per month of ``/profile``): queries on
the games tables; the rating of each game is in ``rating_history`` (``bot.store.ratings``)."""

from __future__ import annotations

from datetime import datetime

from bot.store.base import GameRow, Reads
from bot.store.sql import (
    _GAME_COLUMNS_G,
    SqlQueries,
    _game_row,
    connection_of,
    time_text,
    time_value,
)


class HistoryReads(SqlQueries):
    async def finished_games(self, user_id: int, *, game: str | None, guild_id: int | None,
                             seen_by: int | None, limit: int, offset: int) -> list[GameRow]:
        """The user's finished games, the last ended first (``updated_at``: a finished game
        changes no more): only ``game``'s if given, only those of the server ``guild_id`` if
        given, only those ``seen_by`` also played in if given."""
        sql = (f"SELECT {_GAME_COLUMNS_G} FROM games g WHERE g.status = 'finished' "
               "AND EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id "
               "AND s.user_id = ?)")
        params: list = [user_id]
        if game is not None:
            sql += " AND g.game = ?"
            params.append(game)
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        if seen_by is not None:
            sql += (" AND EXISTS (SELECT 1 FROM game_seats v WHERE v.game_id = g.id "
                    "AND v.user_id = ?)")
            params.append(seen_by)
        rows = await self._all(sql + " ORDER BY g.updated_at DESC, g.id DESC LIMIT ? OFFSET ?",
                               [*params, limit, offset])
        return [_game_row(row) for row in rows]

    async def finished_since(self, user_id: int, since: datetime) -> list[tuple[str, datetime]]:
        """(game, when it ended) of each game the user finished since ``since``."""
        rows = await self._all(
            "SELECT g.game AS game, g.updated_at AS ended FROM games g "
            "WHERE g.status = 'finished' AND g.updated_at >= ? AND EXISTS ("
            "SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.user_id = ?)",
            (time_text(since), user_id),
        )
        return [(row["game"], time_value(row["ended"])) for row in rows]


def history_reads(reads: Reads) -> HistoryReads:
    return HistoryReads(connection_of(reads))


__all__ = ["HistoryReads", "history_reads"]
