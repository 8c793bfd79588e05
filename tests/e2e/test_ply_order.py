"""Each move's message shows that move: its own board, the player to move after it, buttons for
its own version, posted in ply order, even when the next move commits while the previous reply
is still on its way to Discord, and after a restart with rows left pending."""

from __future__ import annotations

import re

import pytest

from bot.services import Services
from bot.store import open_store
from tests.e2e.moves import move_said

PLIES = 8


def boards(world, thread: int):
    return [m for m in world.emu.channel_messages(thread) if m.files]


def check_boards(world, thread: int, game, moves: list[str]) -> None:
    """Board messages 0..len(moves), in order, each as posted drawn at its own ply: its image,
    its move, the player to move after it (the one pinged), buttons for its version."""
    posted = [e.data for e in world.emu.events
              if e.kind == "message" and e.data.channel_id == thread and e.data.files]
    assert [m.files[0].filename for m in posted] == [
        f"alak-{game.id}-{ply}.png" for ply in range(len(moves) + 1)]
    for ply, message in enumerate(posted):
        to_move = game.seats[ply % 2]
        assert f"<@{to_move}>, your turn" in message.content, (ply, message.content)
        assert message.notified == ({to_move} if ply else set(game.seats))
        if ply:
            assert move_said(message.content, f"<@{game.seats[(ply - 1) % 2]}>", moves[ply - 1])
        versions = {re.match(r"bg:mv:\d+:(\d+):", b["custom_id"]).group(1)
                    for b in message.buttons() if b["custom_id"].startswith("bg:mv:")}
        assert versions == {str(ply)}, (ply, versions)  # Alak: one version per move


@pytest.mark.emulator(rest_delay=0.12)
async def test_a_move_committed_while_the_previous_reply_is_in_flight(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    moves, interactions = [], []
    for _ in range(PLIES):
        mover, legal = await world.turn(game.id)
        move = legal[0]
        mark = emu.mark()
        interaction = await emu.slash(mover, "move", {"text": move}, channel=thread)
        # Its reply leaves the bot (the move is committed) but is still on its way: the next
        # player moves now.
        await emu.wait_for(lambda e, i=interaction: e.kind == "request"
                           and e.interaction_id == i.id, since=mark)
        moves.append(move)
        interactions.append(interaction)
    for interaction in interactions:
        await interaction.acknowledged()
    await emu.wait_for(lambda _: len(boards(world, thread)) == PLIES + 1)
    check_boards(world, thread, game, moves)


async def test_rows_left_pending_are_drawn_at_their_own_ply_after_a_restart(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    await world.stop()
    # While the bot is down, three moves are committed (another process, say).
    store = await open_store(world.config.database)
    moves = ["a", "k", "e"]
    try:
        service = Services(store)
        for ply, move in enumerate(moves):
            await service.play.move(game.id, game.seats[ply % 2], move)
    finally:
        await store.close()
    await world.start()
    await emu.wait_for(lambda _: len(boards(world, thread)) == len(moves) + 1)
    check_boards(world, thread, game, moves)


@pytest.mark.emulator(rest_delay=0.2)
async def test_a_move_whose_answer_comes_too_late_is_still_posted_once(world):
    """Discord gave up on the interaction (3 s; here less): the move is committed, so its
    board goes to the thread as a new message, pinging the next player, and only once."""
    world.refusals_expected = True
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    emu.ack_deadline = 0.05  # a network slower than Discord's patience
    mark = emu.mark()
    await emu.slash("alice", "move", {"text": "c"}, channel=thread)
    board = await emu.wait_for_message(lambda m: "played **c**" in m.content, channel_id=thread,
                                       since=mark)
    assert board.files and board.notified == {emu.user("bob").id}
    assert [r.code for r in emu.refusals] == [10062]
    assert len([m for m in emu.channel_messages(thread) if "played **c**" in m.content]) == 1
