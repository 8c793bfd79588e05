"""The **Move…** form under a board: each person's form is their own (someone else opening or
submitting one changes nothing for the mover's), and a form open across a restart still plays
its move when submitted."""

from __future__ import annotations

import pytest

from tests.e2e.test_anywhere import start_in_dm


async def test_someone_elses_form_does_not_cancel_the_movers(world):
    emu = world.emu
    emu.install_app("alice")
    group = emu.open_group_dm("alice", "bob", "carol")
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                   channel=group)).reply()
    mark = emu.mark()
    await emu.click("bob", offer, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=group, since=mark)
    game = await world.services.games.game_for_thread(group)
    mover, moves = await world.turn(game.id)
    other = "bob" if mover.name == "alice" else "alice"
    mine = await emu.click(mover, board, label="Move…")
    assert await mine.acknowledged() == 9
    # The opponent and an onlooker open the form too; the onlooker submits a move first.
    theirs = await emu.click(other, board, label="Move…")
    assert await theirs.acknowledged() == 9
    onlooker = await emu.click("carol", board, label="Move…")
    assert await onlooker.acknowledged() == 9
    refused = await (await emu.submit_modal("carol", onlooker, {"move": moves[0]})).reply()
    assert refused.ephemeral
    # The mover's own form still plays.
    answer = await emu.submit_modal(mover, mine, {"move": moves[0]})
    played = await answer.reply(timeout=20)
    assert played.files and not played.ephemeral
    assert (await world.services.games.get_game(game.id)).ply == 1
    ids = {mine.modal["custom_id"], theirs.modal["custom_id"], onlooker.modal["custom_id"]}
    assert len(ids) == 3, "each person's form is their own"


@pytest.mark.timeout(120)
async def test_a_form_open_across_a_restart_still_plays(world):
    emu = world.emu
    dm, board = await start_in_dm(world)
    game = await world.services.games.game_for_thread(dm)
    mover, moves = await world.turn(game.id)
    press = await emu.click(mover, board, label="Move…")
    assert await press.acknowledged() == 9
    await world.restart()
    played = await (await emu.submit_modal(mover, press, {"move": moves[0]})).reply(timeout=20)
    assert played.files and not played.ephemeral
    assert (await world.services.games.get_game(game.id)).ply == 1
