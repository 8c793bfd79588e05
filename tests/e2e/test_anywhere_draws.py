"""Ending a game early where the bot is not a member (a DM): an abort, a draw offer and its
answers are said publicly in the conversation, as the answers of the presses that caused them
(the bot cannot post there on its own), pinging whom they concern."""

from __future__ import annotations

import logging

from tests.e2e.test_anywhere import start_in_dm


async def test_an_abort_in_a_dm_is_said_to_everyone_there(world, caplog):
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    dm, board = await start_in_dm(world)
    game = await world.services.games.game_for_thread(dm)
    assert "Abort" in [b["label"] for b in board.buttons()]
    press = await emu.click("alice", board, label="Abort")
    said = await press.reply()
    assert not said.ephemeral, "everyone in the DM sees the abort"
    assert "aborted" in said.content and f"#{game.id}" in said.content
    assert bob.id in said.notified and alice.id not in said.notified
    assert (await world.services.games.get_game(game.id)).status == "aborted"
    assert not [r for r in caplog.records if "undeliverable" in r.getMessage()
                and r.levelno >= logging.WARNING]
