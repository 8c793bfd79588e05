"""Ending a game early where the bot is not a member (a DM): an abort, a draw offer and its
answers are said publicly in the conversation, as the answers of the presses that caused them
(the bot cannot post there on its own), pinging whom they concern."""

from __future__ import annotations

import logging

from tests.e2e.test_ai import AI_PATIENCE
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


async def test_my_cards_points_a_player_without_commands_to_the_move_form(world):
    """bob never installed the app, so he has no /move there: with too many moves for buttons,
    My cards tells him to press Move… instead."""
    emu = world.emu
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    offer = await (await emu.slash("alice", "play lppg", {"opponent": "bob"},
                                   channel=dm)).reply()
    mark = emu.mark()
    await emu.click("bob", offer, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=dm, since=mark)
    game = await world.services.games.game_for_thread(dm)
    told: dict[str, str] = {}
    for _ in range(20):
        mover, moves = await world.turn(game.id)
        if len(moves) > 25 and mover.name not in told:
            hand = await (await emu.click(mover, board, label="My cards")).reply()
            assert hand.ephemeral and not hand.buttons()
            told[mover.name] = hand.content
            if len(told) == 2:
                break
        press = await emu.click(mover, board, label="Move…")
        await press.acknowledged()
        board = await (await emu.submit_modal(mover, press, {"move": moves[0]})).reply()
    assert set(told) == {"alice", "bob"}, "both had more moves than buttons"
    assert "/move" not in told["bob"] and "Move…" in told["bob"], told["bob"]
    # alice installed the app: she has /move, and is told so.
    assert "/move" in told["alice"], told["alice"]


async def test_draws_offered_and_answered_by_buttons_in_a_dm(world):
    """Offer a draw beside the board's Resign; the offer is said in the DM with Accept and
    Decline, pinging the opponent; a refusal pings the sender; an acceptance ends the game
    drawn, its result shown there."""
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    dm, board = await start_in_dm(world)
    game = await world.services.games.game_for_thread(dm)
    question = await (await emu.click("bob", board, label="Resign")).reply()
    assert question.ephemeral
    assert "Offer a draw" in [b["label"] for b in question.buttons()]
    press = await emu.click("bob", question, label="Offer a draw")
    offer = await press.reply(lambda m: not m.ephemeral)
    assert "offers a draw" in offer.content and alice.id in offer.notified
    declined = await (await emu.click("alice", offer, label="Decline")).reply()
    assert not declined.ephemeral and "declined" in declined.content
    assert bob.id in declined.notified
    # Again, by /draw typed by alice (who installed the app); bob accepts.
    typed = await emu.slash("alice", "draw", channel=dm)
    offer = await typed.reply()
    assert not offer.ephemeral and bob.id in offer.notified
    accepted = await emu.click("bob", offer, label="Accept the draw")
    await accepted.reply()
    result = await accepted.reply(lambda m: "Game over" in m.content)
    assert not result.ephemeral and "draw agreed" in result.content
    over = await world.services.games.get_game(game.id)
    assert over.status == "finished" and not over.outcome.winners


async def test_the_ai_answers_a_draw_offer_in_a_dm(world):
    """Offered to the AI by the board's Resign: the offer follows the press, and the AI's
    answer, given in the background, follows it too."""
    emu = world.emu
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    board = await (await emu.slash("alice", "play alak", {"level": "easy"},
                                   channel=dm)).reply(lambda m: bool(m.buttons()))
    game = await world.services.games.game_for_thread(dm)
    question = await (await emu.click("alice", board, label="Resign")).reply()
    press = await emu.click("alice", question, label="Offer a draw")
    offered = await press.reply(lambda m: not m.ephemeral)
    assert "offers AI (easy) a draw" in offered.content and not offered.buttons()
    said = await press.reply(lambda m: "draw offer" in m.content and not m.ephemeral,
                             timeout=AI_PATIENCE)
    assert "AI (easy)" in said.content
    assert await world.services.draws.pending_draw_offers(game.id) == []
