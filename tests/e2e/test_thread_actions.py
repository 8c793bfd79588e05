"""The buttons under a board in a server thread are the ones of a conversation's boards: a move
by the **Move…** form (a wrong one refused privately), **Undo**, **Resign** (confirmed first),
**Claim** (refused politely until the time is up), **Hint** against the AI, **My cards** in
LPPG; the move buttons and Abort stay above them."""

from __future__ import annotations

from datetime import timedelta

from tests.e2e.buttons import action_labels, board_buttons, move_buttons
from tests.e2e.moves import move_said
from tests.e2e.test_clocks import skew_clock, start_timed


async def test_move_form_undo_and_claim_by_the_buttons_of_a_thread_board(world):
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    game, board = await start_timed(world, "1d")
    thread = board.channel_id
    assert action_labels(board) == ["Move…", "Undo", "Resign", "Claim"]
    assert board_buttons(board)[-1]["label"] == "Abort" and move_buttons(board)
    assert len(board.data["components"]) <= 5
    mover, moves = await world.turn(game.id)
    other = bob if mover == alice else alice
    # Claim before the time is up: refused politely, privately; nothing changes.
    early = await (await emu.click(other, board, label="Claim")).reply()
    assert early.ephemeral and "not run out yet" in early.content
    # A wrong move typed in the form: refused privately, as /move refuses it.
    press = await emu.click(mover, board, label="Move…")
    assert await press.acknowledged() == 9
    field = press.modal["components"][0]["components"][0]
    assert field["placeholder"].startswith("For example: ")
    wrong = await (await emu.submit_modal(mover, press, {"move": "zz"})).reply()
    assert wrong.ephemeral
    assert (await world.services.games.get_game(game.id)).ply == 0
    # A move typed in the form: its answer is the new board in the thread, pinging the other.
    press = await emu.click(mover, board, label="Move…")
    await press.acknowledged()
    submitted = await emu.submit_modal(mover, press, {"move": moves[-1]})
    played = await submitted.reply()
    assert submitted.callback_type == 4 and not played.ephemeral and played.channel_id == thread
    assert played.files and move_said(played.content, mover.mention, moves[-1])
    assert other.id in played.notified
    assert (await world.services.games.get_game(game.id)).last_move == moves[-1]
    # Its player asks to take it back by the new board's Undo; the other agrees.
    request = await (await emu.click(mover, played, label="Undo")).reply()
    assert not request.ephemeral and request.channel_id == thread and other.id in request.notified
    taken_back = await (await emu.click(other, request, label="Agree")).reply()
    assert taken_back.files and (await world.services.games.get_game(game.id)).ply == 0
    assert action_labels(taken_back) == ["Move…", "Undo", "Resign", "Claim"]
    # The time runs out: the opponent of the player to move claims the win with the button.
    skew_clock(world, timedelta(days=1, hours=1))
    result = await (await emu.click(other, taken_back, label="Claim")).reply()
    assert not result.ephemeral and result.channel_id == thread
    assert result.content.startswith("Game over")
    over = await world.services.games.get_game(game.id)
    assert over.status == "finished" and over.timed_out_seat is not None


async def test_resign_by_the_button_of_a_thread_board_is_confirmed_first(world):
    emu = world.emu
    board = await world.start_game("alice", "alak", "bob")
    thread = board.channel_id
    game = await world.services.games.game_for_thread(thread)
    # Somebody else's press is refused privately.
    stranger = await (await emu.click("carol", board, label="Resign")).reply()
    assert stranger.ephemeral
    question = await (await emu.click("bob", board, label="Resign")).reply()
    assert question.ephemeral and (await world.services.games.get_game(game.id)).status == "active"
    mark = emu.mark()
    confirmed = await emu.click("bob", question, label="Resign")
    assert "You resigned" in (await confirmed.reply()).content
    notice = await emu.wait_for_message(lambda m: "resigned." in m.content, channel_id=thread,
                                        since=mark)
    assert not notice.ephemeral
    over = await world.services.games.get_game(game.id)
    assert over.status == "finished" and over.outcome.winners == {0}


async def test_hint_against_the_ai_and_my_cards_in_lppg_on_thread_boards(world):
    emu = world.emu
    start = await emu.slash("alice", "play alak", {"level": "easy"})
    await start.reply()
    board = await emu.wait_for_message(lambda m: bool(m.files) and bool(m.buttons()))
    assert action_labels(board)[-1] == "Hint"
    hint = await (await emu.click("alice", board, label="Hint")).reply()
    assert hint.ephemeral and hint.content

    first = await world.start_game("carol", "lppg", "dave")
    assert action_labels(first) == ["My cards", "Move…", "Undo", "Resign"]
    assert not move_buttons(first), "the public board offers no placement: it would tell cards"
    cards = await (await emu.click("dave", first, label="My cards")).reply()
    assert cards.ephemeral and cards.files[0].filename == "hand.png"
