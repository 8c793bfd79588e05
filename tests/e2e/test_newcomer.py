"""What a new user found playing (issue 26 §2), seen as they see it: through the emulator."""

from __future__ import annotations

from bot.emulator import EPHEMERAL
from tests.e2e.test_ai import until_human_turn


async def test_undo_against_the_ai_says_why_first(world):
    emu = world.emu
    mark = emu.mark()
    await (await emu.slash("alice", "play alak", {"level": "easy"})).reply()
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    thread = first.channel_id
    game = await world.services.game_for_thread(thread)
    alice = emu.user("alice").id
    # Right after her own move (the AI still to answer or answered): the AI is the reason.
    move = (await world.services.legal_moves(game.id, alice))[0]
    await (await emu.slash("alice", "move", {"text": move}, channel=thread)).reply()
    await until_human_turn(world.services, game.id)
    refused = await (await emu.slash("alice", "undo", {}, channel=thread)).reply()
    assert refused.flags & EPHEMERAL
    assert refused.content == "Moves cannot be taken back in a game against the AI."
