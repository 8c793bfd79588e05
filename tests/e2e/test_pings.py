"""The player who must act is notified, whichever way the game got there: a move by ``/move`` or
by a button, a take-back agreed, a resignation, a time-out, a tournament pairing. A mention only
notifies in a newly created message that lets it through (the strict emulator records who each
message notified); an edit, or the first follow-up of a deferred answer, notifies nobody."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from emulator import EPHEMERAL


def turn_of(emu, name: str) -> str:
    return f"{emu.user(name).mention}, your turn"


async def test_every_move_pings_the_player_to_move_and_nobody_else(world):
    emu = world.emu
    mark = emu.mark()
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    assert turn_of(emu, "alice") in first.content
    assert first.notified == {emu.user("alice").id, emu.user("bob").id}, (
        "the first board tells both players the game is on")

    # By /move: the response itself is the board (one request), and it pings Bob only.
    slash = await emu.slash("alice", "move", {"text": "c"}, channel=thread)
    board = await slash.reply()
    assert await slash.acknowledged() == 4 and board.files
    assert turn_of(emu, "bob") in board.content
    assert board.notified == {emu.user("bob").id}
    requests = [r for r in emu.requests if r.interaction_id == slash.id]
    assert len(requests) == 1, "one REST request: the response with the board"

    # By a button: a new message in the thread (not an update of the pressed board).
    click = await emu.click("bob", board, label="f")
    after_click = await click.reply()
    assert await click.acknowledged() == 4 and after_click.id != board.id
    assert after_click.notified == {emu.user("alice").id}
    assert [r.path.split("/")[1] for r in emu.requests if r.interaction_id == click.id] == [
        "interactions"]
    # The pressed board loses its buttons by an edit, which pings nobody.
    stripped = await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == board.id
                                  and not e.data.buttons(), since=mark)
    assert stripped.notified == frozenset()
    # Bob was pinged by the challenge, the first board and Alice's move: never by an edit.
    assert len(emu.pings("bob", since=mark)) == 3


async def test_undo_request_agreement_and_refusal_ping_who_must_act(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    await (await emu.slash("alice", "move", {"text": "c"}, channel=thread)).reply()

    request = await (await emu.slash("alice", "undo", channel=thread)).reply()
    assert request.notified == {emu.user("bob").id}, "Bob must answer"
    agreed = await emu.click("bob", request, label="Agree")
    undone = await agreed.reply(lambda m: bool(m.files))
    assert await agreed.acknowledged() == 4
    assert turn_of(emu, "alice") in undone.content and undone.notified == {emu.user("alice").id}
    # The request's buttons come off (an edit).
    await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == request.id
                       and not e.data.buttons())

    await (await emu.slash("alice", "move", {"text": "d"}, channel=thread)).reply()
    again = await (await emu.slash("alice", "undo", channel=thread)).reply()
    refused = await (await emu.click("bob", again, label="Refuse")).reply()
    assert "refused" in refused.content and not refused.ephemeral
    assert emu.user("alice").id in refused.notified, "the requester learns the answer"


async def test_resignation_and_game_over_ping_the_players(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    mark = emu.mark()
    resigned = await world.resign("bob", thread)
    assert not resigned.ephemeral
    over = await emu.wait_for_ping("alice", lambda m: m.content.startswith("Game over"),
                                   since=mark)
    assert over.channel_id == thread and emu.user("alice").mention in over.content


async def test_time_out_reminders_and_claims_ping_who_must_act(world):
    emu = world.emu
    offer = await world.challenge("alice", "alak", {"opponent": "bob", "time_control": "1d"})
    first = await world.accept("bob", offer)
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    deadline = await world.bot.clocks.deadline(game.id)
    mark = emu.mark()
    ahead = deadline + timedelta(hours=1) - datetime.now(UTC)
    world.bot.clocks.clock = lambda: datetime.now(UTC) + ahead
    world.bot.scheduler.poke()
    overdue = await emu.wait_for_ping("alice", lambda m: "has run out" in m.content, since=mark)
    assert overdue.channel_id == thread and emu.user("alice").id in overdue.notified
    claim = await emu.slash("bob", "claim", {}, channel=thread)
    result = await claim.reply()
    assert not result.flags & EPHEMERAL and result.content.startswith("Game over")
    assert emu.user("bob").id in result.notified


async def test_a_tournament_pairing_pings_each_player_and_each_first_mover(world):
    emu = world.emu
    await (await emu.slash("alice", "tournament create",
                           {"game": "alak", "format": "round_robin"})).reply()
    for name in ("alice", "bob"):
        await (await emu.slash(name, "tournament join", {})).reply()
    mark = emu.mark()
    await (await emu.slash("alice", "tournament start", {})).reply()
    pairing = await emu.wait_for_message(lambda m: "Round 1" in m.content or "round 1" in
                                         m.content, channel_id=emu.channel_id, since=mark)
    assert {emu.user("alice").id, emu.user("bob").id} <= pairing.notified
    board = await emu.wait_for_message(lambda m: bool(m.files) and "your turn" in m.content,
                                       since=mark)
    mover = next(u for u in emu.users.values() if f"{u.mention}, your turn" in board.content)
    assert mover.id in board.notified
