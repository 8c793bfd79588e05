"""A conversation game's latest interaction token in the store (migration 0016): replaced by
the next one, its follow-ups counted only while it is the game's, and the "missed" mark set and
taken once."""

from __future__ import annotations

from datetime import timedelta

from bot.store.conversations import conversation_reads, conversation_writes
from tests.bot.store.test_repository import NOW, new_game


async def test_the_latest_token_replaces_the_older_and_counts_its_follow_ups(store):
    async with store.transaction() as tx:
        game_id = await new_game(tx)
    assert await conversation_reads(store).conversation_reply(game_id) is None
    async with store.transaction() as tx:
        writes = conversation_writes(tx)
        await writes.put_conversation_reply(game_id, "old-token", NOW, 0)
        await writes.count_conversation_follow_up(game_id, "old-token")
        later = NOW + timedelta(minutes=3)
        await writes.put_conversation_reply(game_id, "new-token", later, 0)
        await writes.count_conversation_follow_up(game_id, "old-token")  # not the game's now
        await writes.count_conversation_follow_up(game_id, "new-token")
        await writes.count_conversation_follow_up(game_id, "new-token")
    kept = await conversation_reads(store).conversation_reply(game_id)
    assert (kept.token, kept.created_at, kept.follow_ups, kept.missed) == (
        "new-token", later, 2, False)


async def test_missed_is_set_then_taken_once(store):
    async with store.transaction() as tx:
        game_id = await new_game(tx)
        writes = conversation_writes(tx)
        await writes.put_conversation_reply(game_id, "token", NOW, 0)
        assert await writes.set_conversation_missed(game_id, False) is False  # nothing missed
        assert await writes.set_conversation_missed(game_id, True) is True
        assert await writes.set_conversation_missed(game_id, True) is False  # already
    assert (await conversation_reads(store).conversation_reply(game_id)).missed
    async with store.transaction() as tx:
        assert await conversation_writes(tx).set_conversation_missed(game_id, False) is True
        assert await conversation_writes(tx).set_conversation_missed(game_id, False) is False
