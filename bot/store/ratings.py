"""Rating storage (migration 0002): the SQL of ``bot.services.ratings``.

Glicko-2 ratings (two-player games) and openskill skills (games of more players) per
(user, game), and the finished games already rated (``processed_games``, purpose 'rating').

A rating is one per player and game, wherever it was earned; a server's leaderboard keeps the
players who finished a rated game of that game on that server (``guild_id``): a game with
``guild_id`` set, rated, where the player met someone else (games against oneself are not
rated). Both tables are ordered the same way: the shown value (Glicko rating, openskill mu)
best first, then the smaller deviation, then the user id; a rank is one more than the number of
players before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from bot.store.base import Reads, Writes
from bot.store.sql import (
    Row,
    SqlQueries,
    SqlWrites,
    connection_of,
    from_row,
    placeholders,
    time_text,
    time_value,
)
from bot.store.tournaments import TournamentWrites

RATING = "rating"


@dataclass(frozen=True)
class GlickoRow:
    user_id: int
    game: str
    rating: float
    rd: float
    volatility: float
    games: int
    updated_at: datetime


@dataclass(frozen=True)
class HistoryRow:
    """One rated game of a player (migration 0013): the rating before and after it, in the
    system's own units (Glicko rating and RD, or openskill mu and sigma)."""

    id: int
    user_id: int
    game: str
    system: str  # "glicko" | "skill"
    game_id: int
    value_before: float
    deviation_before: float
    value: float
    deviation: float
    rated_at: datetime


@dataclass(frozen=True)
class SkillRow:
    user_id: int
    game: str
    mu: float
    sigma: float
    games: int
    updated_at: datetime


_GLICKO_SELECT = (
    "SELECT user_id, game, rating, rd, volatility, games, updated_at FROM ratings_glicko "
)
_HISTORY_SELECT = (
    "SELECT id, user_id, game, system, game_id, value_before, deviation_before, value, "
    "deviation, rated_at FROM rating_history "
)
_SKILL_SELECT = "SELECT user_id, game, mu, sigma, games, updated_at FROM ratings_skill "
T = TypeVar("T")


def _played_here(table: str) -> str:
    """The condition that a rating row's player finished a rated game of its game on the
    server given as the next parameter, in one of its threads (a game played there without the
    bot counts for everyone's leaderboards only)."""
    return (
        " AND EXISTS (SELECT 1 FROM game_seats s JOIN games g ON g.id = s.game_id "
        "JOIN processed_games p ON p.game_id = g.id AND p.purpose = 'rating' "
        f"WHERE s.user_id = {table}.user_id AND g.game = {table}.game AND g.guild_id = ? "
        "AND g.place IS NULL "
        "AND EXISTS (SELECT 1 FROM game_seats o WHERE o.game_id = g.id "
        "AND o.user_id <> s.user_id))"
    )


def _scoped(table: str, sql: str, params: list, guild_id: int | None) -> tuple[str, list]:
    if guild_id is None:
        return sql, params
    return sql + _played_here(table), [*params, guild_id]


def _glicko(row: Row) -> GlickoRow:
    return from_row(GlickoRow, row, updated_at=time_value)


def _skill(row: Row) -> SkillRow:
    return from_row(SkillRow, row, updated_at=time_value)


def _history(row: Row) -> HistoryRow:
    return from_row(HistoryRow, row, rated_at=time_value)


class RatingReads(SqlQueries):
    async def _by_user(self, select: str, decode: Callable[[Row], T], game: str,
                       user_ids: Sequence[int]) -> dict[int, T]:
        """The rows of these users for one game, by user id (Glicko-2 or skill)."""
        if not user_ids:
            return {}
        rows = await self._all(
            select + f"WHERE game = ? AND user_id IN ({placeholders(user_ids)})",
            [game, *user_ids],
        )
        return {row["user_id"]: decode(row) for row in rows}

    async def glicko(self, game: str, user_ids: Sequence[int]) -> dict[int, GlickoRow]:
        return await self._by_user(_GLICKO_SELECT, _glicko, game, user_ids)

    async def skills(self, game: str, user_ids: Sequence[int]) -> dict[int, SkillRow]:
        return await self._by_user(_SKILL_SELECT, _skill, game, user_ids)

    async def _leaderboard(self, select: str, table: str, order: str, game: str, limit: int,
                           guild_id: int | None) -> list[Row]:
        sql, params = _scoped(table, select + "WHERE game = ?", [game], guild_id)
        return await self._all(f"{sql} ORDER BY {order} LIMIT ?", [*params, limit])

    async def glicko_leaderboard(self, game: str, limit: int, guild_id: int | None = None
                                 ) -> list[GlickoRow]:
        """The best Glicko-2 ratings of a game (of one server's players if ``guild_id``)."""
        rows = await self._leaderboard(_GLICKO_SELECT, "ratings_glicko",
                                       "rating DESC, rd, user_id", game, limit, guild_id)
        return [_glicko(row) for row in rows]

    async def skill_leaderboard(self, game: str, limit: int, guild_id: int | None = None
                                ) -> list[SkillRow]:
        """The best openskill skills of a game (of one server's players if ``guild_id``)."""
        rows = await self._leaderboard(_SKILL_SELECT, "ratings_skill",
                                       "mu DESC, sigma, user_id", game, limit, guild_id)
        return [_skill(row) for row in rows]

    async def _rank(self, table: str, value: str, spread: str, row: GlickoRow | SkillRow,
                    guild_id: int | None) -> int | None:
        """The row's place in its leaderboard (1 = best); with ``guild_id``, on that server's
        leaderboard, None when the player is not on it."""
        mine = (row.rating, row.rd) if isinstance(row, GlickoRow) else (row.mu, row.sigma)
        if guild_id is not None:
            sql, params = _scoped(table, f"SELECT 1 FROM {table} WHERE game = ? AND user_id = ?",
                                  [row.game, row.user_id], guild_id)
            if not await self._all(sql, params):
                return None
        sql, params = _scoped(
            table,
            f"SELECT COUNT(*) AS better FROM {table} WHERE game = ? AND ({value} > ? OR "
            f"({value} = ? AND ({spread} < ? OR ({spread} = ? AND user_id < ?))))",
            [row.game, mine[0], mine[0], mine[1], mine[1], row.user_id], guild_id,
        )
        return (await self._all(sql, params))[0]["better"] + 1

    async def glicko_rank(self, row: GlickoRow, guild_id: int | None = None) -> int | None:
        return await self._rank("ratings_glicko", "rating", "rd", row, guild_id)

    async def skill_rank(self, row: SkillRow, guild_id: int | None = None) -> int | None:
        return await self._rank("ratings_skill", "mu", "sigma", row, guild_id)

    async def ratings_of(self, user_id: int) -> tuple[list[GlickoRow], list[SkillRow]]:
        glicko = await self._all(_GLICKO_SELECT + "WHERE user_id = ? ORDER BY game", (user_id,))
        skill = await self._all(_SKILL_SELECT + "WHERE user_id = ? ORDER BY game", (user_id,))
        return [_glicko(row) for row in glicko], [_skill(row) for row in skill]

    async def history_of(self, user_id: int, since: datetime) -> list[HistoryRow]:
        """The user's rated games since ``since``, oldest first."""
        rows = await self._all(
            _HISTORY_SELECT + "WHERE user_id = ? AND rated_at >= ? ORDER BY rated_at, id",
            (user_id, time_text(since)),
        )
        return [_history(row) for row in rows]

    async def history_of_games(self, user_id: int, game_ids: Sequence[int]
                               ) -> dict[int, HistoryRow]:
        """The user's history rows of these games, by game id (games rated before the
        history began, or not rated, have none)."""
        if not game_ids:
            return {}
        rows = await self._all(
            _HISTORY_SELECT + f"WHERE user_id = ? AND game_id IN ({placeholders(game_ids)})",
            [user_id, *game_ids],
        )
        return {row["game_id"]: _history(row) for row in rows}

    async def rating_version(self, user_id: int) -> int:
        """The user's latest rating version: the id of their newest history row (0: none).
        It changes with each rated game of theirs and only then."""
        rows = await self._all(
            "SELECT COALESCE(MAX(id), 0) AS version FROM rating_history WHERE user_id = ?",
            (user_id,),
        )
        return int(rows[0]["version"])

    async def unrated_finished_games(self, limit: int) -> list[int]:
        """Finished games not rated yet, in the order they ended."""
        rows = await self._all(
            "SELECT g.id FROM games g LEFT JOIN processed_games p "
            "ON p.game_id = g.id AND p.purpose = 'rating' "
            "WHERE g.status = 'finished' AND p.game_id IS NULL "
            "ORDER BY g.updated_at, g.id LIMIT ?",
            (limit,),
        )
        return [row["id"] for row in rows]


class RatingWrites(RatingReads, SqlWrites):

    async def put_glicko(self, user_id: int, game: str, rating: float, rd: float,
                         volatility: float, games: int, now: datetime) -> None:
        await self._run(
            "INSERT INTO ratings_glicko (user_id, game, rating, rd, volatility, games, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game) DO UPDATE SET "
            "rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, "
            "games = excluded.games, updated_at = excluded.updated_at",
            (user_id, game, rating, rd, volatility, games, time_text(now)),
        )

    async def put_skill(self, user_id: int, game: str, mu: float, sigma: float, games: int,
                        now: datetime) -> None:
        await self._run(
            "INSERT INTO ratings_skill (user_id, game, mu, sigma, games, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
            "updated_at = excluded.updated_at",
            (user_id, game, mu, sigma, games, time_text(now)),
        )

    async def add_history(self, user_id: int, game: str, system: str, game_id: int,
                          before: tuple[float, float], after: tuple[float, float],
                          now: datetime) -> None:
        """Record one rated game of a player: (value, deviation) before and after, in the
        system's own units. Written in the rating's transaction."""
        await self._run(
            "INSERT INTO rating_history (user_id, game, system, game_id, value_before, "
            "deviation_before, value, deviation, rated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (user_id, game, system, game_id, before[0], before[1], after[0], after[1],
             time_text(now)),
        )

    async def mark_rated(self, game_id: int, now: datetime) -> bool:
        """Claim a game for rating; False if it was rated already."""
        return await TournamentWrites(self._conn).mark_processed(game_id, RATING, now)


def rating_reads(store: Reads) -> RatingReads:
    return RatingReads(connection_of(store))


def rating_writes(tx: Writes) -> RatingWrites:
    return RatingWrites(connection_of(tx))
