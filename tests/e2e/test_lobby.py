"""A table for more than two (Kolory): Join / Leave / Start, then the game's thread."""

from __future__ import annotations

import engines
from bot.emulator import EPHEMERAL


async def test_three_player_table(world):
    emu = world.emu
    table = await world.challenge("alice", "kolory", {"players": 3})
    assert [b["label"] for b in table.buttons()] == [
        "Join", "Leave", "Start", "Cancel", "+ AI (easy)", "+ AI (medium)", "+ AI (hard)"]
    assert "(1/3)" in table.content

    early = await emu.click("alice", table, label="Start")
    assert (await early.reply()).flags & EPHEMERAL, "a table that is not full cannot start"
    joined = await (await emu.click("bob", table, label="Join")).reply()
    assert "(2/3)" in joined.content and emu.user("bob").mention in joined.content
    left = await (await emu.click("bob", table, label="Leave")).reply()
    assert "(1/3)" in left.content
    for name in ("bob", "carol"):
        await (await emu.click(name, table, label="Join")).reply()
    full = emu.messages[table.id]
    assert "(3/3)" in full.content
    not_host = await emu.click("carol", full, label="Start")
    assert (await not_host.reply()).flags & EPHEMERAL

    mark = emu.mark()
    await emu.click("alice", full, label="Start")
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    assert first.files[0].is_png
    game = await world.services.game_for_thread(first.channel_id)
    users = {emu.user(n).id for n in ("alice", "bob", "carol")}
    assert set(game.seats) == users and len(game.seats) == 3
    to_move = game.user_to_move()
    assert f"<@{to_move}>, your turn" in first.content

    # The player to move plays the first suggestion; the reply carries the new board.
    mover = next(u for u in emu.users.values() if u.id == to_move)
    choices = await emu.autocomplete(mover, "move", {"text": ""}, "text",
                                     channel=first.channel_id)
    assert 0 < len(choices) <= 25
    legal = {str(m) for m in engines.get("kolory").legal_moves(
        engines.get("kolory").load(engines.get("kolory").dump(game.state)))}
    assert {c["value"] for c in choices} <= legal
    moved = await emu.slash(mover, "move", {"text": choices[0]["value"]},
                            channel=first.channel_id)
    reply = await moved.reply()
    assert reply.files[0].is_png and not reply.ephemeral
    assert (await world.services.get_game(game.id)).ply == 1


async def test_cancelled_open_challenge(world):
    emu = world.emu
    offer = await world.challenge("dave", "palam", {})
    refused = await emu.click("alice", offer, label="Cancel")
    assert (await refused.reply()).flags & EPHEMERAL, "only the host withdraws an offer"
    withdrawn = await (await emu.click("dave", offer, label="Cancel")).reply()
    assert "withdrew" in withdrawn.content and not withdrawn.buttons()


async def test_a_lobby_keeps_its_time_control_line_when_updated(world):
    """The challenge message is rendered the same way for its first post and every edit: a
    Join or a Leave must not drop the time-control line."""
    emu = world.emu
    table = await world.challenge("alice", "kolory", {"players": 3, "time_control": "3d+1d"})
    # The time control in words, on every update of the table.
    control = "Time control: bank of 3 days, +1 day per move"
    assert control in table.content
    joined = await (await emu.click("bob", table, label="Join")).reply()
    assert "(2/3)" in joined.content and control in joined.content
    left = await (await emu.click("bob", table, label="Leave")).reply()
    assert "(1/3)" in left.content and control in left.content
    assert control in emu.messages[table.id].content


async def test_an_untimed_lobby_shows_no_time_control_line(world):
    emu = world.emu
    table = await world.challenge("alice", "kolory", {"players": 3, "time_control": "untimed"})
    joined = await (await emu.click("bob", table, label="Join")).reply()
    assert "Time control" not in table.content and "Time control" not in joined.content
