"""A board offers no button that could only refuse: no Undo in a game with an AI player (the
AI takes nothing back), no Hint where a person is among the opponents of the player to move
(a hint would help them against that person), and no Abort once every player has moved (in a
tournament, never: tests/e2e/test_tournament_ai.py)."""

from __future__ import annotations

import pytest

from emulator import Message
from tests.e2e.buttons import action_labels


async def lppg_table(world, joining: list[str]) -> Message:
    """Alice opens an LPPG table of four in a thread; the others sit down in ``joining``'s
    order ("ai": an easy AI the host adds, else a person who joins), and she starts: the
    first board, where Alice (seat 0) is to move."""
    emu = world.emu
    table = await world.challenge("alice", "lppg", {"players": 4})
    for who in joining:
        if who == "ai":
            await (await emu.click("alice", emu.messages[table.id], label="+ AI (easy)")).reply()
        else:
            await (await emu.click(who, emu.messages[table.id], label="Join")).reply()
    mark = emu.mark()
    await emu.click("alice", emu.messages[table.id], label="Start")
    first = await emu.wait_for_message(lambda m: bool(m.files) and bool(m.buttons()),
                                       since=mark)
    game = await world.services.games.game_for_thread(first.channel_id)
    assert game.user_to_move() == emu.user("alice").id
    return first


@pytest.mark.parametrize(("joining", "labels"), [
    # Bob (seat 1) plays against Alice: a hint would help her against him.
    (["bob", "ai", "ai"], ["My cards", "Move…", "Resign"]),
    # Bob (seat 2) is Alice's partner, both opponents are AI players: a hint may be given.
    (["ai", "bob", "ai"], ["My cards", "Move…", "Resign", "Hint"]),
], ids=["person-opponent", "person-partner"])
async def test_an_lppg_board_of_four_with_ai_players(world, joining, labels):
    first = await lppg_table(world, joining)
    assert action_labels(first) == labels


async def test_a_board_against_the_ai_has_no_undo(world):
    thread = await world.play_ai("alice", "alak")
    board = [m for m in world.emu.messages.values()
             if m.channel_id == thread and m.files and m.buttons()][-1]
    assert action_labels(board) == ["Move…", "Resign", "Hint"]
    refused = await (await world.emu.slash("alice", "undo", {}, channel=thread)).reply()
    assert refused.content == "Moves cannot be taken back in a game against the AI."
