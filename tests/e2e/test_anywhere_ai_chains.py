"""Where the bot is not, its posts are an interaction's answer and at most five follow-ups
(discord-api-docs, "Followup Messages": an app installed by a user only): the AI players' moves
made after a person's move go out together, one board after the last of them listing them all,
and a game the AI ends shows its final board with the result."""

from __future__ import annotations

import contextlib

import pytest

SKIPPED = ("follow-ups are spent", "no live interaction")


@pytest.mark.timeout(280)
async def test_an_lppg_table_of_four_with_two_ai_players_is_shown_to_its_end(world, caplog):
    emu = world.emu
    dave, alice = emu.user("dave"), emu.user("alice")
    emu.install_app("dave")
    group = emu.open_group_dm("dave", "alice", "bob")
    table = await (await emu.slash("dave", "play lppg", {"players": 4}, channel=group)).reply()
    await (await emu.click("alice", table, label="Join")).reply()
    await (await emu.click("dave", emu.messages[table.id], label="+ AI (easy)")).reply()
    await (await emu.click("dave", emu.messages[table.id], label="+ AI (easy)")).reply()
    mark = emu.mark()
    await emu.click("dave", emu.messages[table.id], label="Start")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=group, since=mark)
    game = await world.services.games.game_for_thread(group)
    humans = {dave.id: dave, alice.id: alice}
    for _ in range(300):
        for _ in range(200):
            info = await world.services.games.get_game(game.id)
            if info.status != "active" or info.user_to_move() in humans:
                break
            with contextlib.suppress(TimeoutError):
                await emu.wait_for(lambda e: e.kind == "message", since=emu.mark(), timeout=2)
        if info.status != "active":
            break
        player = humans[info.user_to_move()]
        moves = await world.services.games.legal_moves(game.id, player.id)
        press = await emu.click(player, board, label="Move…")  # any board's form plays
        await press.acknowledged()
        await (await emu.submit_modal(player, press, {"move": moves[0]})).reply()
    assert info.status == "finished"
    result = await emu.wait_for_message(lambda m: "Game over" in m.content, channel_id=group,
                                        since=mark)
    public = [e.data for e in emu.events if e.kind == "message"
              and e.data.channel_id == group and not e.data.ephemeral]
    last_mover = info.seats[(await world.services.store.moves(game.id))[-1].seat]
    if last_mover in humans:
        # A person's last move is answered with the final board; the result follows it at once.
        before = public[[m.id for m in public].index(result.id) - 1]
        assert before.files and before.interaction_id is not None, before.content
    else:
        assert result.files, "the result of the AI's last move comes with the final board"
    skipped = [r.getMessage() for r in caplog.records
               if r.name.startswith("bot.") and any(s in r.getMessage() for s in SKIPPED)]
    assert skipped == [], skipped[:3]
    # Every AI move was shown: each one is listed in a public message.
    ai_moves = [m for m in await world.services.store.moves(game.id)
                if info.seats[m.seat] not in humans]
    shown = sum(1 for m in public for line in m.content.splitlines()
                if line.startswith("AI ") and not line.endswith("thinking…"))
    assert shown >= len(ai_moves), (shown, len(ai_moves))
