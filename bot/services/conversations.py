"""The way into a conversation game's channel (a DM, a group DM, a server without the bot):
its latest interaction's token, when it was created and how many follow-ups it sent, kept in
the store so that what the bot posts between interactions (an AI's reply) still reaches the
conversation after a restart, while the token lives. Plain data: no discord.py here.
``ConversationService`` (``Services.conversations``) owns it and calls no other service."""

from __future__ import annotations

from datetime import datetime

from bot.services.context import ServiceContext
from bot.store.conversations import (
    ConversationReplyRow,
    conversation_reads,
    conversation_writes,
)


class ConversationService:
    """Each conversation game's latest interaction token (see the module docstring)."""

    def __init__(self, context: ServiceContext) -> None:
        self._store = context.store

    async def keep_conversation_reply(self, game_id: int, token: str,
                                      created_at: datetime) -> None:
        """``token`` (created at ``created_at``) is now the game's way in, no follow-up sent."""
        async with self._store.single_write() as tx:  # one statement
            await conversation_writes(tx).put_conversation_reply(game_id, token, created_at, 0)

    async def conversation_reply(self, game_id: int) -> ConversationReplyRow | None:
        """The game's latest interaction token, or None."""
        return await conversation_reads(self._store).conversation_reply(game_id)

    async def count_conversation_follow_up(self, game_id: int, token: str) -> None:
        """One more follow-up sent on the game's ``token``."""
        async with self._store.single_write() as tx:  # one statement
            await conversation_writes(tx).count_conversation_follow_up(game_id, token)

    async def conversation_missed(self, game_id: int) -> None:
        """A row of the game could not be posted in its conversation (no live token)."""
        async with self._store.single_write() as tx:  # one statement
            await conversation_writes(tx).set_conversation_missed(game_id, True)

    async def take_conversation_missed(self, game_id: int) -> bool:
        """Whether a row of the game could not be posted since its board was last shown
        (cleared: only one press shows the game as it stands)."""
        async with self._store.single_write() as tx:  # one statement
            return await conversation_writes(tx).set_conversation_missed(game_id, False)
