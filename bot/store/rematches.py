"""Storage of rematches (migration 0008): who asked for a rematch of a finished game, and the
game it became. The only module with this feature's SQL (``rematch_reads(store_or_tx)``,
``rematch_writes(tx)``, like ``bot.store.clocks``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.base import Reads, Writes
from bot.store.sql import (
    SqlQueries,
    SqlWrites,
    connection_of,
    json_text,
    json_value,
    time_text,
)


@dataclass(frozen=True)
class RematchRow:
    game_id: int
    consents: tuple[int, ...]  # the players who asked, in order
    new_game_id: int | None  # the rematch, once every player asked


class RematchReads(SqlQueries):
    async def rematch(self, game_id: int) -> RematchRow | None:
        rows = await self._all(
            "SELECT game_id, consents, new_game_id FROM rematches WHERE game_id = ?",
            (game_id,),
        )
        if not rows:
            return None
        row = rows[0]
        return RematchRow(int(row["game_id"]), tuple(json_value(row["consents"])),
                          row["new_game_id"])


class RematchWrites(RematchReads, SqlWrites):
    async def put_rematch(self, game_id: int, consents: tuple[int, ...],
                          new_game_id: int | None, now: datetime) -> None:
        await self._run(
            "INSERT INTO rematches (game_id, consents, new_game_id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "consents = excluded.consents, new_game_id = excluded.new_game_id, "
            "updated_at = excluded.updated_at",
            (game_id, json_text(list(consents)), new_game_id, time_text(now), time_text(now)),
        )


def rematch_reads(reads: Reads) -> RematchReads:
    return RematchReads(connection_of(reads))


def rematch_writes(tx: Writes) -> RematchWrites:
    return RematchWrites(connection_of(tx))


__all__ = ["RematchReads", "RematchRow", "RematchWrites", "rematch_reads", "rematch_writes"]
