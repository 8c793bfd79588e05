"""AI seats meet the everyday features, through the real bot and the emulator: the resign
confirmation and the rematch of a game against the AI (one press starts it, the AI moves first
with its level), an admin's abort while the AI is to move (no AI ping, and the AI never moves
after it), /watch and game-number suggestions of a game with an AI seat, and a table started
early with AI players present beside an open challenge that ``/play level:`` leaves alone."""

from __future__ import annotations

import asyncio

from bot.services.aiseats import ai_level, ai_user_id, is_ai
from emulator import EPHEMERAL, MANAGE_GUILD
from tests.e2e.test_ai import assert_no_ai_reached, delivered, until_human_turn


async def play_the_ai(world, user: str, game: str, level: str):
    """``user`` starts ``game`` against the AI: the first board and the game."""
    emu = world.emu
    mark = emu.mark()
    await (await emu.slash(user, f"play {game}", {"level": level})).reply()
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    return first, await world.services.games.game_for_thread(first.channel_id)


async def test_resign_and_rematch_against_the_ai(world):
    emu = world.emu
    alice = emu.user("alice")
    first, game = await play_the_ai(world, "alice", "alak", "hard")
    thread = first.channel_id
    question = await (await emu.slash("alice", "resign", {}, channel=thread)).reply()
    assert question.flags & EPHEMERAL and "AI (hard)" in question.content
    mark = emu.mark()
    await world.resign("alice", thread)
    over = await emu.wait_for_message(lambda m: m.content.startswith("Game over"),
                                      channel_id=thread, since=mark)
    assert "AI (hard)" in over.content and [b["label"] for b in over.buttons()] == ["Rematch"]

    # One person at the table: their single press starts the rematch, nobody is asked.
    mark = emu.mark()
    started = await (await emu.click("alice", over, label="Rematch")).reply()
    assert started.content == (f"The AI always accepts: the rematch of game #{game.id} is "
                               f"game #{game.id + 1}, in its own thread.")
    assert not started.notified
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    rematch = await world.services.games.game_for_thread(board.channel_id)
    assert board.channel_id != thread
    assert rematch.seats == (ai_user_id("hard"), alice.id), "seats turned, the level kept"
    assert "AI (hard)" in board.content and board.notified == {alice.id}
    rematch = await until_human_turn(world.services, rematch.id)
    assert rematch.ply == 1 and rematch.user_to_move() == alice.id
    reply = await emu.wait_for_message(
        lambda m: bool(m.files) and "AI (hard) play" in m.content,
        channel_id=board.channel_id, since=mark)
    assert reply.notified == {alice.id}
    await delivered(world, rematch.id)
    assert_no_ai_reached(emu)


async def test_an_admin_aborts_a_game_while_the_ai_is_to_move(world):
    emu = world.emu
    alice = emu.user("alice")

    async def never(game_id: int) -> bool:  # the AI thinks until the abort, and longer
        await asyncio.Event().wait()
        return False

    player = world.bot.ai_player
    player.play_turn = never
    first, game = await play_the_ai(world, "alice", "alak", "easy")
    thread = first.channel_id
    moves = await world.services.games.legal_moves(game.id, alice.id)
    await (await emu.slash("alice", "move", {"text": moves[0]}, channel=thread)).reply()
    assert is_ai((await world.services.games.get_game(game.id)).user_to_move())

    # Someone else may watch it; the suggestions offer it, with the AI named nowhere wrong.
    choices = await emu.autocomplete("bob", "watch", {"game": ""}, "game")
    assert [c["value"] for c in choices] == [game.id]
    watched = await (await emu.slash("bob", "watch", {"game": game.id})).reply()
    assert watched.flags & EPHEMERAL and f"#{game.id}" in watched.content
    mine = await emu.autocomplete("alice", "board", {"game": ""}, "game")
    assert [c["name"] for c in mine] == [f"#{game.id} Alak, move 2"]
    hints = await emu.autocomplete("alice", "hint", {"game": ""}, "game")
    assert [c["value"] for c in hints] == [game.id]
    assert await emu.autocomplete("bob", "hint", {"game": ""}, "game") == []

    emu.grant("carol", MANAGE_GUILD)
    offered = await emu.autocomplete("carol", "admin abort", {"game": ""}, "game")
    assert [c["value"] for c in offered] == [game.id]
    mark = emu.mark()
    done = await (await emu.slash("carol", "admin abort", {"game": game.id})).reply()
    assert done.flags & EPHEMERAL
    notice = await emu.wait_for_message(lambda m: "as a server admin" in m.content,
                                        channel_id=thread, since=mark)
    assert notice.notified == {alice.id} and alice.mention in notice.content

    # The AI runner, back to its real self, finds nothing to play in the aborted game.
    del player.play_turn
    assert await player.play_round() == 0
    assert await player.play_turn(game.id) is False
    after = await world.services.games.get_game(game.id)
    assert after.status == "aborted" and after.ply == 1
    assert_no_ai_reached(emu)


async def test_a_table_starts_early_with_ai_players_and_play_level_is_no_challenge(world):
    emu = world.emu
    alice = emu.user("alice")
    offer = await world.challenge("alice", "alak", {"opponent": "bob"})
    # The open challenge neither refuses nor is closed by a game against the AI.
    _, against_ai = await play_the_ai(world, "alice", "alak", "easy")
    assert ai_level(against_ai.seats[1]) == "easy"
    assert [b["label"] for b in emu.messages[offer.id].buttons()] == [
        "Accept", "Decline", "Withdraw"]
    again = await (await emu.slash("alice", "play alak", {"opponent": "bob"})).reply()
    assert again.flags & EPHEMERAL and "already sent this challenge" in again.content

    table = await world.challenge("alice", "kolory", {"players": 5})
    assert "may also start with 2, 3, 4 players" in table.content
    seated = await (await emu.click("alice", table, label="+ AI (medium)")).reply()
    assert "AI (medium)" in seated.content and "(2/5)" in seated.content
    mark = emu.mark()
    await emu.click("alice", emu.messages[table.id], label="Start")
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await world.services.games.game_for_thread(board.channel_id)
    assert game.seats == (alice.id, ai_user_id("medium"))
    assert board.notified == {alice.id}
    assert_no_ai_reached(emu)
