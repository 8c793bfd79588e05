"""Tournament storage (migration 0002): the SQL of ``bot.services.tournaments``.

``tournament_reads(store)`` reads committed data; ``tournament_writes(tx)`` reads and writes
inside a ``store.transaction()`` (so a tournament change and the games it creates commit
together). Both work on the connection the store or the transaction exposes (``.connection``),
on either backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.base import Reads, Writes
from bot.store.sql import (
    Row,
    SqlQueries,
    SqlWrites,
    connection_of,
    from_row,
    json_text,
    json_value,
    placeholders,
    time_text,
    time_value,
)

SIGNUP = "signup"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"
FORMATS = ("round_robin", "swiss", "elimination", "lppg_match")


@dataclass(frozen=True)
class TournamentRow:
    id: int
    name: str
    guild_id: int | None
    channel_id: int | None
    organiser_id: int
    game: str
    options: dict[str, Any]
    format: str
    swiss_rounds: int | None
    time_control: str
    forfeit_grace_hours: int
    status: str
    current_round: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    updated_at: datetime


@dataclass(frozen=True)
class EntrantRow:
    tournament_id: int
    user_id: int
    position: int  # joining order, from 0
    seed: int | None  # 1 = best, set at start
    withdrawn: bool
    withdrawn_round: int | None
    joined_at: datetime


@dataclass(frozen=True)
class PairingRow:
    """A board with its latest game and its result, if decided."""

    id: int
    tournament_id: int
    round: int
    board: int
    first_id: int
    second_id: int | None
    game_id: int | None  # the latest game played for it (None: bye or forfeit)
    attempts: int  # games created for it (more than one after drawn elimination games)
    first_score: float | None
    method: str | None  # game | bye | forfeit, once decided

    @property
    def decided(self) -> bool:
        return self.first_score is not None


@dataclass(frozen=True)
class TournamentGameRow:
    game_id: int
    tournament_id: int
    round: int
    pairing_id: int | None
    attempt: int


_TOURNAMENT_COLUMNS = (
    "id, name, guild_id, channel_id, organiser_id, game, options, format, swiss_rounds, "
    "time_control, forfeit_grace_hours, status, current_round, created_at, started_at, "
    "finished_at, updated_at"
)


def _tournament(row: Row) -> TournamentRow:
    return from_row(
        TournamentRow,
        row,
        options=json_value,
        created_at=time_value,
        started_at=time_value,
        finished_at=time_value,
        updated_at=time_value,
    )


_PAIRING_SELECT = (
    "SELECT p.id, p.tournament_id, p.round, p.board, p.first_id, p.second_id, "
    "(SELECT g.game_id FROM tournament_games g WHERE g.pairing_id = p.id "
    " ORDER BY g.attempt DESC LIMIT 1) AS game_id, "
    "(SELECT COUNT(*) FROM tournament_games g WHERE g.pairing_id = p.id) AS attempts, "
    "r.first_score, r.method "
    "FROM tournament_pairings p LEFT JOIN tournament_results r ON r.pairing_id = p.id "
)


def _entrant(row: Row) -> EntrantRow:
    return from_row(EntrantRow, row, withdrawn=bool, joined_at=time_value)


_TOURNAMENT_GAME_SELECT = (
    "SELECT game_id, tournament_id, round, pairing_id, attempt FROM tournament_games "
)


class TournamentReads(SqlQueries):
    """Queries on committed data (or, from ``TournamentWrites``, inside its transaction)."""

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._all(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return _tournament(rows[0]) if rows else None

    async def tournaments(
        self, guild_id: int | None, statuses: Sequence[str], limit: int
    ) -> list[TournamentRow]:
        """Tournaments with one of ``statuses`` (of one guild unless None), newest first."""
        guild_filter = "" if guild_id is None else "AND guild_id = ? "
        params: list[Any] = [*statuses]
        if guild_id is not None:
            params.append(guild_id)
        rows = await self._all(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments "
            f"WHERE status IN ({placeholders(statuses)}) {guild_filter}ORDER BY id DESC LIMIT ?",
            [*params, limit],
        )
        return [_tournament(row) for row in rows]

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """Entrants in joining order."""
        rows = await self._all(
            "SELECT tournament_id, user_id, position, seed, withdrawn, withdrawn_round, "
            "joined_at FROM tournament_entrants WHERE tournament_id = ? ORDER BY position",
            (tournament_id,),
        )
        return [_entrant(row) for row in rows]

    async def pairings(self, tournament_id: int, round_number: int | None = None
                       ) -> list[PairingRow]:
        """Pairings by round then board (one round only if ``round_number`` is given)."""
        round_filter = "" if round_number is None else "AND p.round = ? "
        params = (tournament_id,) if round_number is None else (tournament_id, round_number)
        rows = await self._all(
            _PAIRING_SELECT + f"WHERE p.tournament_id = ? {round_filter}"
            "ORDER BY p.round, p.board",
            params,
        )
        return [from_row(PairingRow, row) for row in rows]

    async def pairing(self, pairing_id: int) -> PairingRow | None:
        rows = await self._all(_PAIRING_SELECT + "WHERE p.id = ?", (pairing_id,))
        return from_row(PairingRow, rows[0]) if rows else None

    async def tournament_game(self, game_id: int) -> TournamentGameRow | None:
        rows = await self._all(_TOURNAMENT_GAME_SELECT + "WHERE game_id = ?", (game_id,))
        return from_row(TournamentGameRow, rows[0]) if rows else None

    async def tournament_games(self, tournament_id: int) -> list[TournamentGameRow]:
        rows = await self._all(
            _TOURNAMENT_GAME_SELECT + "WHERE tournament_id = ? ORDER BY round, game_id",
            (tournament_id,),
        )
        return [from_row(TournamentGameRow, row) for row in rows]

    async def unprocessed_tournament_games(self, limit: int) -> list[int]:
        """Finished games of running tournaments whose result was not recorded yet."""
        rows = await self._all(
            "SELECT tg.game_id FROM tournament_games tg "
            "JOIN games g ON g.id = tg.game_id "
            "JOIN tournaments t ON t.id = tg.tournament_id "
            "LEFT JOIN processed_games p ON p.game_id = tg.game_id AND p.purpose = 'tournament' "
            "WHERE g.status = 'finished' AND t.status = 'running' AND p.game_id IS NULL "
            "ORDER BY g.updated_at, g.id LIMIT ?",
            (limit,),
        )
        return [row["game_id"] for row in rows]

    async def is_processed(self, game_id: int, purpose: str) -> bool:
        rows = await self._all(
            "SELECT 1 FROM processed_games WHERE game_id = ? AND purpose = ?", (game_id, purpose)
        )
        return bool(rows)


class TournamentWrites(TournamentReads, SqlWrites):
    """Writes, inside the caller's transaction."""

    async def insert_tournament(
        self,
        *,
        name: str,
        guild_id: int | None,
        channel_id: int | None,
        organiser_id: int,
        game: str,
        options: dict[str, Any],
        format: str,
        swiss_rounds: int | None,
        time_control: str,
        forfeit_grace_hours: int,
        now: datetime,
    ) -> int:
        return await self._insert(
            "INSERT INTO tournaments (name, guild_id, channel_id, organiser_id, game, options, "
            "format, swiss_rounds, time_control, forfeit_grace_hours, status, current_round, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', 0, ?, ?)",
            (name, guild_id, channel_id, organiser_id, game, json_text(options), format,
             swiss_rounds, time_control, forfeit_grace_hours, time_text(now), time_text(now)),
        )

    async def set_status(self, tournament_id: int, status: str, now: datetime) -> None:
        started = ", started_at = COALESCE(started_at, ?)" if status == RUNNING else ""
        finished = (
            ", finished_at = COALESCE(finished_at, ?)" if status in (FINISHED, CANCELLED) else ""
        )
        params: list[Any] = [status, time_text(now)]
        if started or finished:
            params.append(time_text(now))
        await self._run(
            f"UPDATE tournaments SET status = ?, updated_at = ?{started}{finished} WHERE id = ?",
            [*params, tournament_id],
        )

    async def set_swiss_rounds(self, tournament_id: int, rounds: int) -> None:
        await self._run(
            "UPDATE tournaments SET swiss_rounds = ? WHERE id = ?", (rounds, tournament_id)
        )

    async def add_entrant(self, tournament_id: int, user_id: int, now: datetime) -> None:
        await self._run(
            "INSERT INTO tournament_entrants (tournament_id, user_id, position, joined_at) "
            "SELECT ?, ?, COALESCE(MAX(position), -1) + 1, ? FROM tournament_entrants "
            "WHERE tournament_id = ?",
            (tournament_id, user_id, time_text(now), tournament_id),
        )

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        await self._run(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )

    async def withdraw_entrant(self, tournament_id: int, user_id: int, round_number: int) -> None:
        await self._run(
            "UPDATE tournament_entrants SET withdrawn = 1, withdrawn_round = ? "
            "WHERE tournament_id = ? AND user_id = ?",
            (round_number, tournament_id, user_id),
        )

    async def set_seed(self, tournament_id: int, user_id: int, seed: int) -> None:
        await self._run(
            "UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ? AND user_id = ?",
            (seed, tournament_id, user_id),
        )

    async def insert_round(self, tournament_id: int, number: int, now: datetime) -> None:
        """A new round (becomes the tournament's current round)."""
        await self._run(
            "INSERT INTO tournament_rounds (tournament_id, number, status, started_at) "
            "VALUES (?, ?, 'running', ?)",
            (tournament_id, number, time_text(now)),
        )
        await self._run(
            "UPDATE tournaments SET current_round = ?, updated_at = ? WHERE id = ?",
            (number, time_text(now), tournament_id),
        )

    async def finish_round(self, tournament_id: int, number: int, now: datetime) -> None:
        await self._run(
            "UPDATE tournament_rounds SET status = 'finished', finished_at = ? "
            "WHERE tournament_id = ? AND number = ?",
            (time_text(now), tournament_id, number),
        )

    async def insert_pairing(
        self, tournament_id: int, round_number: int, board: int, first_id: int,
        second_id: int | None,
    ) -> int:
        return await self._insert(
            "INSERT INTO tournament_pairings (tournament_id, round, board, first_id, second_id) "
            "VALUES (?, ?, ?, ?, ?)",
            (tournament_id, round_number, board, first_id, second_id),
        )

    async def link_game(
        self, game_id: int, tournament_id: int, round_number: int, pairing_id: int | None,
        attempt: int,
    ) -> None:
        await self._run(
            "INSERT INTO tournament_games (game_id, tournament_id, round, pairing_id, attempt) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, tournament_id, round_number, pairing_id, attempt),
        )

    async def insert_result(
        self, pairing_id: int, first_score: float, method: str, game_id: int | None,
        now: datetime,
    ) -> bool:
        """Decide a pairing; False (nothing written) if it already has a result."""
        changed = await self._run(
            "INSERT INTO tournament_results (pairing_id, first_score, method, game_id, "
            "recorded_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (pairing_id) DO NOTHING",
            (pairing_id, first_score, method, game_id, time_text(now)),
        )
        return changed == 1

    async def mark_processed(self, game_id: int, purpose: str, now: datetime) -> bool:
        """Claim a finished game for ``purpose``; False if it was already processed."""
        changed = await self._run(
            "INSERT INTO processed_games (game_id, purpose, processed_at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, purpose) DO NOTHING",
            (game_id, purpose, time_text(now)),
        )
        return changed == 1


def tournament_reads(store: Reads) -> TournamentReads:
    return TournamentReads(connection_of(store))


def tournament_writes(tx: Writes) -> TournamentWrites:
    return TournamentWrites(connection_of(tx))
