"""Storage of the notifications a player controls (migration 0012): the daily digest by direct
message, the quiet mode of a game (``muted_games``) and the one place that remembers that
Discord refused a direct message to a user (error 50007). The only module with this feature's
SQL; its settings share ``user_settings`` with ``bot.store.clocks`` (reminders by DM).

``notify_reads(store_or_tx)`` gives the queries, ``notify_writes(tx)`` the writes (on the
transaction's connection, so a claimed digest and its outbox row commit together).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.base import Reads, Writes
from bot.store.sql import (
    SqlQueries,
    SqlWrites,
    connection_of,
    time_text,
    time_value,
)


@dataclass(frozen=True)
class NotifySettings:
    """A user's notification settings (the defaults for a user who never saved any)."""

    user_id: int
    dm_reminders: bool = False
    digest_hour: int | None = None  # local hour of the daily digest; None: no digest
    time_zone: str | None = None  # IANA name
    digest_next_at: datetime | None = None  # UTC time of the next digest
    #: When Discord refused a direct message (50007); None while DMs go through.
    dm_refused_at: datetime | None = None
    dm_refused_told: bool = False

    @property
    def digest(self) -> bool:
        return self.digest_hour is not None


_SETTINGS_COLUMNS = ("user_id, dm_reminders, digest_hour, time_zone, digest_next_at, "
                     "dm_refused_at, dm_refused_told")


class NotifyReads(SqlQueries):
    async def settings(self, user_id: int) -> NotifySettings:
        rows = await self._all(
            f"SELECT {_SETTINGS_COLUMNS} FROM user_settings WHERE user_id = ?", (user_id,)
        )
        if not rows:
            return NotifySettings(user_id)
        row = rows[0]
        return NotifySettings(
            user_id=row["user_id"],
            dm_reminders=bool(row["dm_reminders"]),
            digest_hour=row["digest_hour"],
            time_zone=row["time_zone"],
            digest_next_at=time_value(row["digest_next_at"]),
            dm_refused_at=time_value(row["dm_refused_at"]),
            dm_refused_told=bool(row["dm_refused_told"]),
        )

    async def dms_refused(self, user_id: int) -> bool:
        """Did Discord refuse a DM to the user since they last changed a DM setting?"""
        rows = await self._all(
            "SELECT 1 FROM user_settings WHERE user_id = ? AND dm_refused_at IS NOT NULL",
            (user_id,),
        )
        return bool(rows)

    async def next_digest_at(self) -> datetime | None:
        """The earliest pending digest (of users whose DMs were not refused)."""
        rows = await self._all(
            "SELECT MIN(digest_next_at) AS due FROM user_settings "
            "WHERE digest_hour IS NOT NULL AND dm_refused_at IS NULL",
        )
        return time_value(rows[0]["due"]) if rows else None

    async def due_digests(self, now: datetime, limit: int = 100) -> list[tuple[int, datetime]]:
        """(user, the digest's planned time) of the digests due at ``now``, oldest first."""
        rows = await self._all(
            "SELECT user_id, digest_next_at FROM user_settings "
            "WHERE digest_hour IS NOT NULL AND dm_refused_at IS NULL AND digest_next_at <= ? "
            f"ORDER BY digest_next_at, user_id LIMIT {int(limit)}",
            (time_text(now),),
        )
        return [(row["user_id"], time_value(row["digest_next_at"])) for row in rows]

    async def muted(self, user_id: int, game_id: int) -> bool:
        rows = await self._all(
            "SELECT 1 FROM muted_games WHERE user_id = ? AND game_id = ?", (user_id, game_id)
        )
        return bool(rows)


class NotifyWrites(NotifyReads, SqlWrites):
    async def _ensure_settings(self, user_id: int, now: datetime) -> None:
        await self._run(
            "INSERT INTO user_settings (user_id, dm_reminders, updated_at) VALUES (?, 0, ?) "
            "ON CONFLICT (user_id) DO NOTHING",
            (user_id, time_text(now)),
        )

    async def set_digest(self, user_id: int, hour: int | None, time_zone: str | None,
                         next_at: datetime | None, now: datetime) -> None:
        """Turn the digest on at ``hour`` in ``time_zone`` (next one at ``next_at``), or off
        (``hour`` None)."""
        await self._ensure_settings(user_id, now)
        await self._run(
            "UPDATE user_settings SET digest_hour = ?, time_zone = ?, digest_next_at = ?, "
            "updated_at = ? WHERE user_id = ?",
            (hour, time_zone, None if next_at is None else time_text(next_at), time_text(now),
             user_id),
        )

    async def claim_digest(self, user_id: int, planned: datetime, following: datetime) -> bool:
        """Take the digest planned at ``planned`` by moving the user's next one to
        ``following``: True for the one transaction (of any process) that moved it."""
        changed = await self._run(
            "UPDATE user_settings SET digest_next_at = ? WHERE user_id = ? "
            "AND digest_next_at = ? AND digest_hour IS NOT NULL AND dm_refused_at IS NULL",
            (time_text(following), user_id, time_text(planned)),
        )
        return changed == 1

    async def mark_dm_refused(self, user_id: int, now: datetime) -> bool:
        """Remember that Discord refused a DM to the user (kept from the first refusal);
        True if this is news."""
        await self._ensure_settings(user_id, now)
        changed = await self._run(
            "UPDATE user_settings SET dm_refused_at = ?, dm_refused_told = 0 "
            "WHERE user_id = ? AND dm_refused_at IS NULL",
            (time_text(now), user_id),
        )
        return changed == 1

    async def clear_dm_refused(self, user_id: int) -> None:
        await self._run(
            "UPDATE user_settings SET dm_refused_at = NULL, dm_refused_told = 0 "
            "WHERE user_id = ?",
            (user_id,),
        )

    async def take_dm_refused_notice(self, user_id: int) -> datetime | None:
        """When a refused DM was not told to the user yet: mark it told and return when it
        happened (so one command tells it, once); else None."""
        rows = await self._all(
            "SELECT dm_refused_at FROM user_settings WHERE user_id = ? "
            "AND dm_refused_at IS NOT NULL AND dm_refused_told = 0",
            (user_id,),
        )
        if not rows:
            return None
        changed = await self._run(
            "UPDATE user_settings SET dm_refused_told = 1 WHERE user_id = ? "
            "AND dm_refused_at IS NOT NULL AND dm_refused_told = 0",
            (user_id,),
        )
        return time_value(rows[0]["dm_refused_at"]) if changed == 1 else None

    async def mute(self, user_id: int, game_id: int, now: datetime) -> bool:
        """True if the game was not muted yet."""
        changed = await self._run(
            "INSERT INTO muted_games (user_id, game_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id, game_id) DO NOTHING",
            (user_id, game_id, time_text(now)),
        )
        return changed == 1

    async def unmute(self, user_id: int, game_id: int) -> bool:
        """True if the game was muted."""
        changed = await self._run(
            "DELETE FROM muted_games WHERE user_id = ? AND game_id = ?", (user_id, game_id)
        )
        return changed == 1


def notify_reads(reads: Reads) -> NotifyReads:
    return NotifyReads(connection_of(reads))


def notify_writes(tx: Writes) -> NotifyWrites:
    return NotifyWrites(connection_of(tx))


__all__ = ["NotifyReads", "NotifySettings", "NotifyWrites", "notify_reads", "notify_writes"]
