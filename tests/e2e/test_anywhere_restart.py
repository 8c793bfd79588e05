"""A restart of the bot during an AI's turn in a DM (issue 28): the bot is not in the DM, so the
AI's reply can only be a follow-up of the human's move interaction; its token is kept in the
database, so the reply still goes out after the restart while the token is younger than 15
minutes. Past that, nothing can reach the DM: the next press shows the game as it stands."""

from __future__ import annotations

import asyncio

from bot.services.aiseats import is_ai
from tests.e2e.buttons import move_buttons
from tests.e2e.test_ai import until_human_turn


async def start_against_the_ai_in_a_dm(world):
    emu = world.emu
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    start = await emu.slash("alice", "play alak", {"level": "easy"}, channel=dm)
    board = await start.reply(lambda m: bool(m.files))
    game = await world.services.games.game_for_thread(dm)
    assert game.in_conversation and game.seats[0] == emu.user("alice").id
    return dm, game, board


async def alice_played(world, game_id: int, ply: int, move: str) -> bool:
    """Whether the game's move number ``ply`` is alice's ``move``. Read from the record, not
    from the game's ply: the AI may already have answered it by the time the test looks."""
    record = await world.services.games.record(game_id)
    return [(m.seat, m.text) for m in record.moves if m.ply == ply] == [(0, move)]


async def move_then_restart_while_the_ai_thinks(world, game, board):
    """Alice presses a move; the bot stops while the AI is to move (its thinking never ends
    before the stop) and starts again. The press (its answer: alice's move's board)."""
    emu = world.emu

    async def never(*_args: object) -> bool:
        await asyncio.Event().wait()
        return False

    world.bot.ai_player.play_turn = never
    moves = await world.services.games.legal_moves(game.id, emu.user("alice").id)
    press = await emu.click("alice", board, label=moves[0])
    answer = await press.reply()
    assert answer.files and not answer.ephemeral
    waiting = await world.services.games.get_game(game.id)
    assert is_ai(waiting.user_to_move())
    return press, answer, waiting


async def test_the_ais_reply_is_posted_after_a_restart_on_the_kept_token(world):
    emu = world.emu
    alice = emu.user("alice")
    dm, game, board = await start_against_the_ai_in_a_dm(world)
    press, _answer, waiting = await move_then_restart_while_the_ai_thinks(world, game, board)
    await world.restart()
    after = await until_human_turn(world.services, game.id)
    assert after.ply == waiting.ply + 1, "after the start the AI moves, once"
    # Its board is a follow-up of alice's move interaction, pinging her.
    reply = await press.reply(lambda m: bool(m.files) and "AI (easy) play" in m.content)
    assert alice.id in reply.notified and not reply.ephemeral and reply.channel_id == dm
    channel_routes = [r for r in emu.requests if r.channel_id == dm]
    assert channel_routes == [], "nothing went through a channel route in the DM"
    # And alice plays on from that board.
    moves = await world.services.games.legal_moves(game.id, alice.id)
    again = await (await emu.click("alice", reply, label=moves[0])).reply()
    assert again.files and await alice_played(world, game.id, after.ply + 1, moves[0])


async def test_past_fifteen_minutes_the_next_press_shows_the_game_as_it_stands(world):
    emu = world.emu
    alice = emu.user("alice")
    world.refusals_expected = True  # the dead token's follow-up is refused (50027)
    dm, game, board = await start_against_the_ai_in_a_dm(world)
    _press, _answer, waiting = await move_then_restart_while_the_ai_thinks(world, game, board)
    await world.stop()
    emu.advance(16 * 60)  # alice's move's token is dead by now
    await world.start()
    after = await until_human_turn(world.services, game.id)
    assert after.ply == waiting.ply + 1
    await world.bot.delivery.flush(game.id)
    assert not [m for m in emu.channel_messages(dm) if "AI (easy) play" in m.content], (
        "nothing could be posted in the DM")
    assert {r.code for r in emu.refusals} == {50027}
    # Alice's next press, on a board the game has moved past, shows the game as it stands,
    # publicly, pinging her, with the buttons of the current version.
    stale_move = move_buttons(board)[0]["label"]
    shown = await (await emu.click("alice", board, label=stale_move)).reply()
    assert not shown.ephemeral and shown.files and shown.channel_id == dm
    assert shown.content.startswith("The game as it stands")
    assert alice.id in shown.notified
    assert {b["custom_id"].split(":")[3] for b in move_buttons(shown)} == {str(after.version)}
    assert (await world.services.games.get_game(game.id)).ply == after.ply, "nothing was played"
    # Once shown, the old board's buttons refuse privately again, as stale boards do.
    again = await (await emu.click("alice", board, label=stale_move)).reply()
    assert again.ephemeral and "board changed" in again.content
    # And alice plays on from the board shown.
    moves = await world.services.games.legal_moves(game.id, alice.id)
    played = await (await emu.click("alice", shown, label=moves[0])).reply()
    assert played.files and await alice_played(world, game.id, after.ply + 1, moves[0])
