"""A table for more than two (Kolory): Join / Leave / Start, AI players seated and taken off
by the host, then the game's thread."""

from __future__ import annotations

import asyncio

import engines
from bot.services.aiseats import ai_user_id
from emulator import EPHEMERAL


def button_rows(message) -> list[list[str]]:
    return [[button["label"] for button in row["components"]]
            for row in message.data.get("components") or []]


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
    game = await world.services.games.game_for_thread(first.channel_id)
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
    assert (await world.services.games.get_game(game.id)).ply == 1


async def double_click(emu, user: str, message, label: str):
    """Two presses of one button, both sent before the first answer changed the message: the
    public answer (the message updated) and the private refusal, each exactly once."""
    presses = await asyncio.gather(*(emu.click(user, message, label=label) for _ in range(2)))
    answers = [await press.reply() for press in presses]
    (updated,) = [answer for answer in answers if not answer.flags & EPHEMERAL]
    (refused,) = [answer for answer in answers if answer.flags & EPHEMERAL]
    return updated, refused


async def test_the_host_takes_an_ai_player_off_the_table_once(world):
    """Only the host removes an AI seat; the table's message shows it at once, with a "+ AI"
    row again since a place is free; a double click (both presses sent before the first
    answer changed the message) removes one AI, the other press is refused privately."""
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    posted = await world.challenge("alice", "kolory", {"players": 4})
    table = emu.messages[posted.id]  # the emulator's message, edited in place
    for level in ("easy", "hard", "easy"):
        await (await emu.click("alice", table, label=f"+ AI ({level})")).reply()
    # Two AI players of one level are told apart by a number; the "− AI" button names the
    # one it takes off (the last of its level to sit down).
    assert "(4/4)" in table.content
    assert "AI 1 (easy), AI (hard), AI 2 (easy)" in table.content, table.content
    assert button_rows(table) == [["Join", "Leave", "Start", "Cancel"],
                                  ["− AI 2 (easy)", "− AI (hard)"]]
    full = table.content

    refused = await (await emu.click("bob", table, label="− AI 2 (easy)")).reply()
    assert refused.flags & EPHEMERAL and "Only the player who created" in refused.content
    assert table.content == full

    removed, again = await double_click(emu, "alice", table, "− AI 2 (easy)")
    assert "no longer at the table" in again.content
    assert "(3/4)" in removed.content and removed.content.count("AI (easy)") == 1
    assert "AI 1" not in removed.content and "AI 2" not in removed.content
    assert table.content == removed.content, "two presses, one AI gone"
    assert button_rows(table) == [["Join", "Leave", "Start", "Cancel"],
                                  ["+ AI (easy)", "+ AI (medium)", "+ AI (hard)"],
                                  ["− AI (easy)", "− AI (hard)"]]

    await (await emu.click("bob", table, label="Join")).reply()
    mark = emu.mark()
    await emu.click("alice", table, label="Start")
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await world.services.games.game_for_thread(board.channel_id)
    assert game.seats == (alice.id, ai_user_id("easy"), ai_user_id("hard"), bob.id)


async def test_a_french_table_takes_an_ai_player_off_in_french(world):
    emu = world.emu
    posted = await (await emu.slash("alice", "play kolory", {"players": 3},
                                    locale="fr")).reply()
    table = emu.messages[posted.id]
    seated = await (await emu.click("alice", table, label="+ IA (moyen)",
                                    locale="fr")).reply()
    assert "IA (moyen)" in seated.content and "(2/3)" in seated.content
    refused = await (await emu.click("bob", table, label="− IA (moyen)",
                                     locale="fr")).reply()
    assert refused.flags & EPHEMERAL and "Seul le joueur qui a créé ce défi" in refused.content
    removed = await (await emu.click("alice", table, label="− IA (moyen)",
                                     locale="fr")).reply()
    assert "(1/3)" in removed.content and "IA" not in removed.content
    assert [b["label"] for b in table.buttons()][-1] == "+ IA (difficile)"


async def test_cancelled_open_challenge(world):
    emu = world.emu
    offer = await world.challenge("dave", "palam", {})
    refused = await emu.click("alice", offer, label="Withdraw")
    assert (await refused.reply()).flags & EPHEMERAL, "only the host withdraws an offer"
    withdrawn = await (await emu.click("dave", offer, label="Withdraw")).reply()
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


async def test_a_double_click_on_plus_ai_seats_one_ai_player(world):
    """Both presses of "+ AI" sent before the first answer changed the message: one AI sits
    down, the other press is refused privately; pressed again on the new message, it seats
    another."""
    emu = world.emu
    posted = await world.challenge("alice", "kolory", {"players": 4})
    table = emu.messages[posted.id]  # the emulator's message, edited in place
    seated, again = await double_click(emu, "alice", table, "+ AI (medium)")
    assert "The table changed meanwhile" in again.content
    assert "(2/4)" in seated.content and seated.content.count("AI (medium)") == 1
    assert table.content == seated.content, "two presses, one AI"
    challenge_id = int(table.buttons()[0]["custom_id"].split(":")[2])  # bg:ch:<id>:join
    lobby = await world.services.challenges.get_challenge(challenge_id)
    assert lobby.joined == (emu.user("alice").id, ai_user_id("medium"))

    await (await emu.click("alice", table, label="+ AI (medium)")).reply()
    assert "(3/4)" in table.content and "AI 1 (medium), AI 2 (medium)" in table.content
