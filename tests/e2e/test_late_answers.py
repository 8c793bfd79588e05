"""A move whose answer runs late (a busy machine drawing its board slowly): Discord allows 3 s to
answer an interaction, so the bot acknowledges it privately in time and posts the board in the
game's thread, its ping with it, instead of missing the deadline ("did not respond")."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord.delivery import posting
from bot.discord.delivery.policy import LATE_SECONDS
from emulator import EPHEMERAL

DEFERRED = 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE


@pytest.fixture
def slow_boards(monkeypatch):
    """Every board takes longer to draw than Discord waits for an answer."""
    real = posting.message_kwargs

    async def slow(*args, **kwargs):
        await asyncio.sleep(LATE_SECONDS + 1.5)
        return await real(*args, **kwargs)

    monkeypatch.setattr(posting, "message_kwargs", slow)


async def test_a_late_board_is_acknowledged_in_time_and_posted_with_its_ping(world,
                                                                             slow_boards):
    emu = world.emu
    board = await world.start_game("alice", "alak", "bob", {"length": 7})
    thread = board.channel_id
    mark = emu.mark()
    interaction = await emu.slash("alice", "move", {"text": "d"}, channel=thread)
    assert await interaction.acknowledged(timeout=10) == DEFERRED
    posted = await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread, since=mark,
                                        timeout=30)
    assert posted.interaction_id is None  # a message of the thread, not the answer
    assert posted.notified == frozenset({emu.user("bob").id})
    done = await interaction.reply(timeout=30)
    assert done.flags & EPHEMERAL and done.content == "Done."
    assert (await world.services.games.game_for_thread(thread)).ply == 1
    assert emu.refusals == []  # answered within Discord's 3 s, nothing refused
