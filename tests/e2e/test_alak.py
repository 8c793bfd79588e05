"""Two users play Alak through slash commands and buttons."""

from __future__ import annotations

from bot.emulator import EPHEMERAL


async def test_smoke(world):
    emu = world.emu
    challenge = await world.challenge("alice", "alak", {"opponent": "bob"})
    assert "<@" in challenge.content
    mark = emu.mark()
    click = await emu.click("bob", challenge, label="Accept")
    assert await click.acknowledged() == 6
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    print(board.content, [b["label"] for b in board.buttons()])
    thread = world.thread_id()
    move = await emu.slash("alice", "move", {"text": "a"}, channel=thread)
    reply = await move.reply()
    print(reply.content, reply.files)
    bad = await emu.slash("alice", "move", {"text": "b"}, channel=thread)
    err = await bad.reply()
    assert err.flags & EPHEMERAL
    print(err.content)
