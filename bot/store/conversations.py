"""Storage of each conversation game's latest interaction (migration 0016): the token its
follow-ups use, when it was created, and how many follow-ups it has sent. The only module with
this feature's SQL (``conversation_reads(store_or_tx)``, ``conversation_writes(tx)``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.base import Reads, Writes
from bot.store.sql import SqlQueries, SqlWrites, connection_of, time_text, time_value


@dataclass(frozen=True)
class ConversationReplyRow:
    game_id: int
    token: str
    created_at: datetime
    follow_ups: int
    missed: bool  # a row could not be posted since the game's board was last shown


class ConversationReads(SqlQueries):
    async def conversation_reply(self, game_id: int) -> ConversationReplyRow | None:
        rows = await self._all(
            "SELECT game_id, token, created_at, follow_ups, missed FROM conversation_replies "
            "WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        row = rows[0]
        return ConversationReplyRow(int(row["game_id"]), str(row["token"]),
                                    time_value(row["created_at"]), int(row["follow_ups"]),
                                    bool(row["missed"]))


class ConversationWrites(ConversationReads, SqlWrites):
    async def put_conversation_reply(self, game_id: int, token: str, created_at: datetime,
                                     follow_ups: int) -> None:
        """Keep ``token`` as the game's way in (replacing an older one)."""
        await self._run(
            "INSERT INTO conversation_replies (game_id, token, created_at, follow_ups) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET token = excluded.token, "
            "created_at = excluded.created_at, follow_ups = excluded.follow_ups",
            (game_id, token, time_text(created_at), follow_ups),
        )

    async def count_conversation_follow_up(self, game_id: int, token: str) -> None:
        """One more follow-up sent on ``token`` (if it is still the game's way in)."""
        await self._run(
            "UPDATE conversation_replies SET follow_ups = follow_ups + 1 "
            "WHERE game_id = ? AND token = ?", (game_id, token))


    async def set_conversation_missed(self, game_id: int, missed: bool) -> bool:
        """Whether a row of the game could not be posted; True if ``missed`` changed."""
        changed = await self._run(
            "UPDATE conversation_replies SET missed = ? WHERE game_id = ? AND missed = ?",
            (int(missed), game_id, int(not missed)))
        return changed == 1


def conversation_reads(reads: Reads) -> ConversationReads:
    return ConversationReads(connection_of(reads))


def conversation_writes(tx: Writes) -> ConversationWrites:
    return ConversationWrites(connection_of(tx))


__all__ = ["ConversationReads", "ConversationReplyRow", "ConversationWrites",
           "conversation_reads", "conversation_writes"]
