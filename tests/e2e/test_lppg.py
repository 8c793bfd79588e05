"""LPPG: hidden hands. /hand shows your own cards only to you; moves go through /move with
suggestions computed from the seat's own view."""

from __future__ import annotations

import pytest

from bot.emulator import EPHEMERAL


async def test_hand_is_private_and_moves_are_suggested(world):
    emu = world.emu
    first = await world.start_game("alice", "lppg", "bob")
    thread = first.channel_id
    game = await world.services.game_for_thread(thread)

    shown = await (await emu.slash("alice", "hand", channel=thread)).reply()
    assert shown.flags & EPHEMERAL and shown.files[0].is_png
    refused = await (await emu.slash("carol", "hand", channel=thread)).reply()
    assert refused.flags & EPHEMERAL and not refused.files
    assert shown.files[0].data != first.files[0].data, "the hand is its own image"

    users = {u.id: u for u in emu.users.values()}
    for _ in range(6):
        game = await world.services.get_game(game.id)
        mover = users[game.user_to_move()]
        suggestions = await emu.autocomplete(mover, "move", {"text": ""}, "text", channel=thread)
        assert suggestions, "the player to move gets suggestions from their own view"
        reply = await (await emu.slash(mover, "move", {"text": suggestions[0]["value"]},
                                       channel=thread)).reply()
        assert not reply.ephemeral and reply.files[0].is_png
    assert (await world.services.get_game(game.id)).ply == 6


@pytest.mark.parametrize("game", ["alak", "palam"])
async def test_hand_in_a_game_without_hidden_cards(world, game):
    """Alak has no hidden part; Palam's hidden part (the pile) is no hand either."""
    emu = world.emu
    first = await world.start_game("alice", game, "bob")
    answer = await (await emu.slash("alice", "hand", channel=first.channel_id)).reply()
    assert answer.flags & EPHEMERAL and "no hand to show" in answer.content
    labels = [b["label"] for b in first.buttons()]
    if game == "palam":
        # Palam opens with the seat the toss picked choosing its camp: both choices are buttons.
        assert labels == ["camp isis", "camp anubis"]
        game_info = await world.services.game_for_thread(first.channel_id)
        chooser = next(u for u in emu.users.values() if u.id == game_info.user_to_move())
        first = await (await emu.click(chooser, first, label="camp isis")).reply()
        labels = [b["label"] for b in first.buttons()]
    # One-word moves are buttons (Palam's two-square swaps are typed with /move).
    assert labels and all(" " not in label for label in labels)
    game_info = await world.services.game_for_thread(first.channel_id)
    mover = next(u for u in emu.users.values() if u.id == game_info.user_to_move())
    reply = await (await emu.click(mover, first, label=labels[0])).reply()
    assert f"played **{labels[0]}**" in reply.content and reply.files[0].is_png
