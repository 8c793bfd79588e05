"""Fair use of the AI through the emulator: a fourth game against the AI of someone allowed
three is refused privately, in their language; a hint asked while their previous one is still
being thought is answered at once, privately ("try again in a moment"), never left silent."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.core.i18n import t
from emulator import EPHEMERAL
from tests.e2e.test_ai import until_human_turn

#: Guards against a hang only.
PATIENCE = 60.0


@pytest.mark.bot_config(ai_games_per_user=3)
async def test_games_against_the_ai_beyond_the_limit_are_refused_privately(world):
    emu = world.emu
    for game in ("alak", "polygo", "palago"):
        started = await (await emu.slash("alice", f"play {game}", {"level": "easy"})).reply()
        assert not started.flags & EPHEMERAL, started.content
    games = await world.services.games.games_of(emu.user("alice").id)
    refused = await (await emu.slash("alice", "play alak", {"level": "hard"})).reply()
    assert refused.flags & EPHEMERAL
    assert refused.content == t("errors.ai_games_limit", "en", count=3)
    french = await (await emu.slash("alice", "play alak", {"level": "hard"},
                                    locale="fr")).reply()
    assert french.flags & EPHEMERAL and french.content.startswith("Vous avez déjà 3 parties")
    assert len(await world.services.games.games_of(emu.user("alice").id)) == len(games) == 3
    # Someone else is not held back by Alice's games.
    bobs = await (await emu.slash("bob", "play alak", {"level": "hard"})).reply()
    assert not bobs.flags & EPHEMERAL


async def test_a_hint_while_the_previous_one_is_thought_is_answered_at_once(world):
    emu = world.emu
    alice = emu.user("alice")
    thread = await world.play_ai("alice", "palago")
    await until_human_turn(world.services, (await world.services.games.game_for_thread(thread)).id)
    player = world.bot.ai_player
    # Every AI worker busy for a moment (with jobs of other users, one each: no user holds
    # them all): Alice's first hint waits its turn.
    busy = [asyncio.ensure_future(player.queue.run(-1 - n, time.sleep, 2))
            for n in range(player.pool.workers)]
    asking = await emu.slash("alice", "hint", channel=thread)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while player.may_hint(alice.id):
        assert loop.time() < deadline, "the first hint never went in"
        await asyncio.sleep(0.01)
    again = await (await emu.slash("alice", "hint", channel=thread, locale="fr")).reply()
    assert again.flags & EPHEMERAL and again.content == t("ai.hint_busy", "fr")
    hint = await asking.reply(timeout=PATIENCE)
    assert hint.flags & EPHEMERAL and hint.content.startswith("Hint: **"), hint.content
    await asyncio.gather(*busy)
    # Once it is answered, she may ask again.
    third = await (await emu.slash("alice", "hint", channel=thread)).reply(timeout=PATIENCE)
    assert third.content.startswith("Hint: **")
