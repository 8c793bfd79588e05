"""Storage of correspondence play (migration 0003): time controls, clocks, sent reminders,
vacations and user settings. The only module with this feature's SQL.

``clock_reads(store_or_tx)`` gives the queries over committed data (or inside a transaction);
``clock_writes(tx)`` the writes, which run on the transaction's connection so they commit or roll
back together with the core writes (a move and its clock, a reminder and its outbox row).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.sharding import Shards
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
    shard_filter,
    time_text,
    time_value,
)


@dataclass(frozen=True)
class ClockRow:
    game_id: int
    time_control: str  # text notation of bot.correspondence.timecontrol
    banks: tuple[timedelta, ...]  # seat -> time left in the bank
    turn_started: datetime
    to_move: int | None  # seat whose clock runs; None once the game is over
    ply: int  # moves played when the current turn began (identifies the turn)
    deadline: datetime | None  # None when untimed or over
    updated_at: datetime


@dataclass(frozen=True)
class VacationRow:
    id: int
    user_id: int
    starts_at: datetime
    ends_at: datetime


_CLOCK_COLUMNS = "game_id, time_control, banks, turn_started, to_move, ply, deadline, updated_at"


def _clock_row(row: Row) -> ClockRow:
    return from_row(
        ClockRow,
        row,
        banks=lambda text: tuple(timedelta(seconds=s) for s in json_value(text)),
        turn_started=time_value,
        deadline=time_value,
        updated_at=time_value,
    )


def _vacation_row(row: Row) -> VacationRow:
    return from_row(VacationRow, row, starts_at=time_value, ends_at=time_value)


def _game_servers(shards: Shards | None) -> tuple[str, list]:
    """``AND …`` keeping the clocks (``c``) of games on the servers of ``shards``."""
    servers, params = shard_filter("g.guild_id", shards)
    if not servers:
        return "", []
    return f"AND EXISTS (SELECT 1 FROM games g WHERE g.id = c.game_id {servers}) ", params


class ClockReads(SqlQueries):
    """Queries (on committed data, or inside a transaction when made from ``Writes``)."""

    async def challenge_time_control(self, challenge_id: int) -> str | None:
        rows = await self._all(
            "SELECT time_control FROM challenge_time_controls WHERE challenge_id = ?",
            (challenge_id,),
        )
        return rows[0]["time_control"] if rows else None

    async def clock(self, game_id: int) -> ClockRow | None:
        rows = await self._all(
            f"SELECT {_CLOCK_COLUMNS} FROM game_clocks WHERE game_id = ?", (game_id,)
        )
        return _clock_row(rows[0]) if rows else None

    async def clocks(self, game_ids: Sequence[int]) -> dict[int, ClockRow]:
        if not game_ids:
            return {}
        rows = await self._all(
            f"SELECT {_CLOCK_COLUMNS} FROM game_clocks WHERE game_id IN ({placeholders(game_ids)})",
            list(game_ids),
        )
        return {row["game_id"]: _clock_row(row) for row in rows}

    async def clock_and_pauses(
        self, game_id: int
    ) -> tuple[ClockRow | None, list[tuple[datetime, datetime]]]:
        """A game's clock and the vacations of its players that end after its turn began, in
        one round trip (the hot path of every move)."""
        rows = await self._all(
            f"SELECT {', '.join('c.' + c for c in _CLOCK_COLUMNS.split(', '))}, "
            "v.starts_at AS pause_start, v.ends_at AS pause_end "
            "FROM game_clocks c "
            "LEFT JOIN game_seats s ON s.game_id = c.game_id "
            "LEFT JOIN vacations v ON v.user_id = s.user_id AND v.ends_at > c.turn_started "
            "WHERE c.game_id = ?",
            (game_id,),
        )
        if not rows:
            return None, []
        pauses = [(time_value(row["pause_start"]), time_value(row["pause_end"]))
                  for row in rows if row["pause_start"] is not None]
        return _clock_row(rows[0]), pauses

    async def running_clocks(self, shards: Shards | None = None) -> list[ClockRow]:
        """Every clock with a deadline (timed games still being played), earliest first; only
        those of games on the servers of ``shards`` if given."""
        servers, params = _game_servers(shards)
        rows = await self._all(
            f"SELECT {', '.join('c.' + c for c in _CLOCK_COLUMNS.split(', '))} "
            f"FROM game_clocks c WHERE c.deadline IS NOT NULL {servers}"
            "ORDER BY c.deadline, c.game_id",
            params,
        )
        return [_clock_row(row) for row in rows]

    async def sent_for_running(
        self, shards: Shards | None = None
    ) -> dict[tuple[int, int], set[str]]:
        """(game_id, ply) -> thresholds already sent, for the current turn of running clocks
        (of games on the servers of ``shards`` if given)."""
        servers, params = _game_servers(shards)
        rows = await self._all(
            "SELECT r.game_id, r.ply, r.threshold FROM sent_reminders r "
            "JOIN game_clocks c ON c.game_id = r.game_id AND c.ply = r.ply "
            f"WHERE c.deadline IS NOT NULL {servers}",
            params,
        )
        sent: dict[tuple[int, int], set[str]] = {}
        for row in rows:
            sent.setdefault((row["game_id"], row["ply"]), set()).add(row["threshold"])
        return sent


    async def vacations(self, user_ids: Iterable[int], *, ending_after: datetime
                        ) -> list[VacationRow]:
        """Vacations of these users that end after ``ending_after``, by start."""
        users = sorted(set(user_ids))
        if not users:
            return []
        rows = await self._all(
            "SELECT id, user_id, starts_at, ends_at FROM vacations "
            f"WHERE user_id IN ({placeholders(users)}) AND ends_at > ? ORDER BY starts_at, id",
            [*users, time_text(ending_after)],
        )
        return [_vacation_row(row) for row in rows]

    async def vacations_starting_between(
        self, user_id: int, start: datetime, end: datetime
    ) -> list[VacationRow]:
        """The user's vacations that start in ``[start, end)`` (the yearly allowance)."""
        rows = await self._all(
            "SELECT id, user_id, starts_at, ends_at FROM vacations "
            "WHERE user_id = ? AND starts_at >= ? AND starts_at < ? ORDER BY starts_at, id",
            (user_id, time_text(start), time_text(end)),
        )
        return [_vacation_row(row) for row in rows]

    async def dm_reminders(self, user_id: int) -> bool:
        rows = await self._all(
            "SELECT dm_reminders FROM user_settings WHERE user_id = ?", (user_id,)
        )
        return bool(rows and rows[0]["dm_reminders"])


class ClockWrites(ClockReads, SqlWrites):
    """Writes; only valid on a transaction's connection (see ``clock_writes``)."""

    async def set_challenge_time_control(self, challenge_id: int, time_control: str) -> None:
        await self._run(
            "INSERT INTO challenge_time_controls (challenge_id, time_control) VALUES (?, ?)",
            (challenge_id, time_control),
        )

    async def put_clock(self, clock: ClockRow) -> None:
        """Insert or replace the clock of a game."""
        values = (
            clock.time_control,
            json_text([bank.total_seconds() for bank in clock.banks]),
            time_text(clock.turn_started),
            clock.to_move,
            clock.ply,
            None if clock.deadline is None else time_text(clock.deadline),
            time_text(clock.updated_at),
        )
        await self._run(
            f"INSERT INTO game_clocks ({_CLOCK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET time_control = excluded.time_control, "
            "banks = excluded.banks, turn_started = excluded.turn_started, "
            "to_move = excluded.to_move, ply = excluded.ply, deadline = excluded.deadline, "
            "updated_at = excluded.updated_at",
            (clock.game_id, *values),
        )

    async def put_clock_if(self, clock: ClockRow, expected_updated_at: datetime) -> bool:
        """Replace the clock only if its ``updated_at`` is still the expected one."""
        changed = await self._run(
            "UPDATE game_clocks SET banks = ?, turn_started = ?, to_move = ?, ply = ?, "
            "deadline = ?, updated_at = ? WHERE game_id = ? AND updated_at = ?",
            (json_text([bank.total_seconds() for bank in clock.banks]),
             time_text(clock.turn_started), clock.to_move, clock.ply,
             None if clock.deadline is None else time_text(clock.deadline),
             time_text(clock.updated_at), clock.game_id, time_text(expected_updated_at)),
        )
        return changed == 1

    async def mark_reminder_sent(
        self, game_id: int, ply: int, threshold: str, deadline: datetime, now: datetime
    ) -> bool:
        """Record a reminder as sent; False (nothing written) if it already was."""
        changed = await self._run(
            "INSERT INTO sent_reminders (game_id, ply, threshold, deadline, sent_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, ply, threshold) DO NOTHING",
            (game_id, ply, threshold, time_text(deadline), time_text(now)),
        )
        return changed == 1

    async def forget_reminders_from(self, game_id: int, ply: int) -> None:
        """Drop the reminders of turns from ``ply`` on (an undo restarts that turn)."""
        await self._run(
            "DELETE FROM sent_reminders WHERE game_id = ? AND ply >= ?", (game_id, ply)
        )

    async def insert_vacation(
        self, user_id: int, starts_at: datetime, ends_at: datetime, now: datetime
    ) -> int:
        return await self._insert(
            "INSERT INTO vacations (user_id, starts_at, ends_at, created_at) VALUES (?, ?, ?, ?)",
            (user_id, time_text(starts_at), time_text(ends_at), time_text(now)),
        )

    async def set_vacation_end(self, vacation_id: int, ends_at: datetime) -> None:
        await self._run(
            "UPDATE vacations SET ends_at = ? WHERE id = ?", (time_text(ends_at), vacation_id)
        )

    async def set_dm_reminders(self, user_id: int, enabled: bool, now: datetime) -> None:
        await self._run(
            "INSERT INTO user_settings (user_id, dm_reminders, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders, "
            "updated_at = excluded.updated_at",
            (user_id, 1 if enabled else 0, time_text(now)),
        )


def clock_reads(reads: Reads) -> ClockReads:
    """The clock queries of a store (committed data) or of a transaction (its own writes)."""
    return ClockReads(connection_of(reads))


def clock_writes(tx: Writes) -> ClockWrites:
    """The clock writes, in transaction ``tx``."""
    return ClockWrites(connection_of(tx))


__all__ = ["ClockReads", "ClockRow", "ClockWrites", "VacationRow", "clock_reads", "clock_writes"]
