"""Take-backs: the buttons of a request answer that request only; a refusal is posted; a request
the opponent ignores by playing on is closed, in words, and its buttons come off."""

from __future__ import annotations

import logging

from emulator import EPHEMERAL


async def start(world):
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    await (await world.emu.slash("alice", "move", {"text": "c"}, channel=thread)).reply()
    return thread, await world.services.games.game_for_thread(thread)


async def test_an_old_agree_button_does_not_answer_a_newer_request(world):
    """A request whose buttons stayed up (the bot restarted, so it no longer knew the message
    to clear when Bob played on) is over: its Agree must not take back a later move."""
    emu = world.emu
    thread, game = await start(world)
    first_request = await (await emu.slash("alice", "undo", channel=thread)).reply()
    await world.restart()
    await (await emu.slash("bob", "move", {"text": "f"}, channel=thread)).reply()
    await (await emu.slash("alice", "move", {"text": "i"}, channel=thread)).reply()
    second_request = await (await emu.slash("alice", "undo", channel=thread)).reply()
    assert first_request.buttons() and emu.messages[first_request.id].buttons()
    assert second_request.button("Agree")["custom_id"] != first_request.button(
        "Agree")["custom_id"]

    stale = await (await emu.click("bob", first_request, label="Agree")).reply()
    assert stale.flags & EPHEMERAL and "earlier" in stale.content
    after = await world.services.games.get_game(game.id)
    assert (after.ply, after.undo_requested_by) == (3, emu.user("alice").id), "nothing changed"
    # The current request's own button works.
    agreed = await emu.click("bob", second_request, label="Agree")
    assert (await agreed.reply(lambda m: bool(m.files))).files
    assert (await world.services.games.get_game(game.id)).ply == 2


async def test_a_refusal_is_posted(world, caplog):
    emu = world.emu
    thread, _ = await start(world)
    request = await (await emu.slash("alice", "undo", channel=thread)).reply()
    mark = emu.mark()
    refused = await (await emu.click("bob", request, label="Refuse")).reply()
    assert not refused.ephemeral and refused.channel_id == thread
    assert "refused" in refused.content and emu.user("alice").mention in refused.content
    await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == request.id
                       and not e.data.buttons(), since=mark)
    assert not [r for r in caplog.records if "nobody posts" in r.getMessage()]


async def test_playing_on_closes_a_pending_request(world):
    emu = world.emu
    thread, game = await start(world)
    request = await (await emu.slash("alice", "undo", channel=thread)).reply()
    mark = emu.mark()
    played = await (await emu.slash("bob", "move", {"text": "f"}, channel=thread)).reply()
    assert "takeback request" in played.content and emu.user("alice").mention in played.content
    assert played.notified == {emu.user("alice").id}  # Alice is to move (and was named)
    await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == request.id
                       and not e.data.buttons(), since=mark)
    after = await world.services.games.get_game(game.id)
    assert after.ply == 2 and after.undo_requested_by is None


async def test_only_the_newest_request_can_be_answered_after_a_restart(world, caplog):
    """The request a button belongs to is stored with it (its custom_id), not in memory."""
    caplog.set_level(logging.INFO)
    emu = world.emu
    thread, _ = await start(world)
    request = await (await emu.slash("alice", "undo", channel=thread)).reply()
    await world.restart()
    agreed = await emu.click("bob", request, label="Agree")
    assert "taken back" in (await agreed.reply(lambda m: bool(m.files))).content
