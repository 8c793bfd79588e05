"""Playing where the bot is not a member (issue 28): the app installed on alice's account, games
in a DM, a group DM and a server without the bot, against the emulator's strict rules there
(every channel route refused with 50001, so every public message must be an interaction's
answer or follow-up; follow-ups die after 15 minutes). The fixture fails a test on any refusal."""

from __future__ import annotations

import contextlib
import re
from datetime import UTC, datetime, timedelta

from emulator import USE_EXTERNAL_APPS, HiddenCommand, Message
from tests.e2e.test_clocks import skew_clock

MOVE_ID = re.compile(r"bg:mv:\d+:\d+:(?P<move>.+)")


def move_buttons(message: Message) -> list[str]:
    return [m["move"] for b in message.buttons() if (m := MOVE_ID.fullmatch(b["custom_id"]))]


async def test_commands_are_registered_for_both_installs_and_server_only_ones_stay_there(world):
    emu = world.emu
    commands = {c["name"]: c for c in emu.commands[None]}
    for name in ("play", "move", "games", "profile", "record", "replay", "rules", "help"):
        assert sorted(commands[name]["integration_types"]) == [0, 1], name
        assert sorted(commands[name]["contexts"]) == [0, 1, 2], name
    for name in ("tournament", "admin", "watch"):
        assert commands[name]["integration_types"] == [0], name
        assert commands[name]["contexts"] == [0], name
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    for path in ("tournament list", "watch"):
        try:
            await emu.slash("alice", path, channel=dm)
        except HiddenCommand:
            continue
        except LookupError:  # a required option: still, the command was found
            pass
        raise AssertionError(f"/{path} is offered in a DM")


async def test_a_whole_alak_game_in_a_dm_the_opponent_plays_by_buttons_and_the_form(world):
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    emu.install_app("alice")  # bob never installs anything
    dm = emu.open_dm("alice", "bob")
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"}, channel=dm)).reply()
    assert bob.id in offer.notified and not offer.ephemeral
    mark = emu.mark()
    accepted = await emu.click("bob", offer, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=dm, since=mark)
    assert board.interaction_id == accepted.id, "the first board follows bob's Accept"
    game = await world.services.games.game_for_thread(dm)
    assert game.in_conversation and game.channel_id == dm and game.guild_id is None
    assert emu.threads() == []
    plies = 0
    while True:
        mover, moves = await world.turn(game.id)
        if mover is None:
            break
        assert mover.id in board.notified, "every board pings the player to move"
        assert [b["label"] for b in board.buttons()][-3:] == ["Move…", "Undo", "Resign"]
        if plies % 3 == 2:  # every third move typed in the form
            press = await emu.click(mover, board, label="Move…")
            assert await press.acknowledged() == 9
            field = press.modal["components"][0]["components"][0]
            assert field["placeholder"].startswith("For example: ")
            answer = await emu.submit_modal(mover, press, {"move": moves[-1]})
        else:
            assert move_buttons(board) == moves
            answer = await emu.click(mover, board, label=moves[0])
        board = await answer.reply()
        assert answer.callback_type == 4 and not board.ephemeral
        plies += 1
    assert plies > 6
    over = await world.services.games.get_game(game.id)
    assert over.status == "finished"
    # The result follows the last move's board, on the same interaction's token.
    result = await answer.reply(lambda m: "Game over" in m.content)
    assert result.notified and result.notified <= {alice.id, bob.id} and not result.ephemeral
    channel_routes = [r for r in emu.requests if r.channel_id == dm]
    assert channel_routes == [], "nothing went through a channel route in the DM"


async def test_a_stale_board_refuses_politely_and_a_wrong_move_in_the_form_too(world):
    emu = world.emu
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"}, channel=dm)).reply()
    mark = emu.mark()
    await emu.click("bob", offer, label="Accept")
    first = await emu.wait_for_message(lambda m: bool(m.files), channel_id=dm, since=mark)
    game = await world.services.games.game_for_thread(dm)
    mover, moves = await world.turn(game.id)
    await (await emu.click(mover, first, label=moves[0])).reply()
    # The old board keeps its buttons (the bot may not edit it there): they refuse.
    stale = await (await emu.click(mover, first, label=moves[1])).reply()
    assert stale.ephemeral
    press = await emu.click(mover, first, label="Move…")
    await press.acknowledged()
    wrong = await (await emu.submit_modal(mover, press, {"move": "zz"})).reply()
    assert wrong.ephemeral
    assert (await world.services.games.get_game(game.id)).ply == 1


async def test_a_game_against_the_ai_in_a_group_dm_the_reply_is_a_follow_up(world):
    emu = world.emu
    emu.install_app("carol")
    group = emu.open_group_dm("carol", "alice", "bob")
    start = await emu.slash("carol", "play alak", {"level": "easy"}, channel=group)
    board = await start.reply(lambda m: bool(m.files))
    game = await world.services.games.game_for_thread(group)
    for _ in range(40):
        mover, moves = await world.turn(game.id)
        if mover is None:
            break
        if mover.name != "carol":
            raise AssertionError("only carol plays against the AI")
        press = await emu.click("carol", board, label=moves[0])
        await press.reply()
        # The AI's answer is a follow-up of carol's move, pinging her again.
        board = await press.reply(lambda m: (bool(m.files) and emu.user("carol").id in m.notified)
                                  or "Game over" in m.content)
    assert (await world.services.games.get_game(game.id)).status == "finished"


async def test_without_use_external_apps_the_player_is_told_to_play_elsewhere(world):
    emu = world.emu
    _, botless = emu.add_guild("No bot here", bot=False)
    emu.install_app("bob")
    emu.revoke("bob", USE_EXTERNAL_APPS)
    told = await (await emu.slash("bob", "play alak", {"opponent": "alice"},
                                  channel=botless)).reply()
    assert told.ephemeral and "Use External Apps" in told.content
    assert await world.services.games.games_of(emu.user("bob").id, active_only=False) == []


async def start_in_dm(world, options: dict | None = None) -> tuple[int, Message]:
    """alice (who installed the app) challenges bob (who did not) in their DM; bob accepts:
    the DM and the first board."""
    emu = world.emu
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob", **(options or {})},
                                   channel=dm)).reply()
    mark = emu.mark()
    await emu.click("bob", offer, label="Accept")
    return dm, await emu.wait_for_message(lambda m: bool(m.files), channel_id=dm, since=mark)


async def test_a_game_left_more_than_fifteen_minutes_between_moves_then_finished(world):
    emu = world.emu
    dm, board = await start_in_dm(world)
    game = await world.services.games.game_for_thread(dm)
    plies = 0
    while True:
        mover, moves = await world.turn(game.id)
        if mover is None:
            break
        emu.advance(16 * 60)  # every earlier token is dead by now
        answer = await emu.click(mover, board, label=moves[0])
        board = await answer.reply()
        assert not board.ephemeral and mover.id not in board.notified
        plies += 1
    assert plies > 6 and (await world.services.games.get_game(game.id)).status == "finished"


async def turn_of(world, game_id: int, user_id: int) -> bool:
    """Wait (on the emulator's log, not the clock) until it is ``user_id``'s turn: False if
    the game ended first."""
    emu = world.emu
    for _ in range(100):
        mark = emu.mark()
        game = await world.services.games.get_game(game_id)
        if game.status != "active":
            return False
        if game.user_to_move() == user_id:
            return True
        with contextlib.suppress(TimeoutError):
            await emu.wait_for(lambda e: e.kind == "message", since=mark, timeout=2)
    raise AssertionError("the AI players never gave the turn back")


async def test_kolory_against_two_ais_in_a_dm(world):
    emu = world.emu
    alice = emu.user("alice")
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    start = await emu.slash("alice", "play kolory", {"level": "easy", "players": 3}, channel=dm)
    await start.reply(lambda m: bool(m.files))
    game = await world.services.games.game_for_thread(dm)
    assert game.in_conversation and len(game.seats) == 3
    turns, mark = 0, 0
    while turns < 5 and await turn_of(world, game.id, alice.id):
        # The AI players' replies are follow-ups; the last one pings alice.
        latest = await emu.wait_for_message(lambda m: bool(m.buttons()) and alice.id in m.notified,
                                            channel_id=dm, since=mark)
        moves = await world.services.games.legal_moves(game.id, alice.id)
        press = await emu.click("alice", latest, label="Move…")
        await press.acknowledged()
        mark = emu.mark()
        await (await emu.submit_modal("alice", press, {"move": moves[0]})).reply()
        turns += 1
    assert turns == 5
    assert await turn_of(world, game.id, alice.id)
    # Alice resigns with the board's button; the result is a follow-up of her confirmation.
    latest = await emu.wait_for_message(lambda m: bool(m.buttons()) and alice.id in m.notified,
                                        channel_id=dm, since=mark)
    question = await (await emu.click("alice", latest, label="Resign")).reply()
    assert question.ephemeral
    confirmed = await emu.click("alice", question, label="Resign")
    await confirmed.reply(lambda m: "Game over" in m.content)
    assert (await world.services.games.get_game(game.id)).status == "finished"


async def test_reminders_go_by_dm_and_a_refusal_stops_them_and_is_told(world):
    emu = world.emu
    alice = emu.user("alice")
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    settings = await emu.slash("alice", "settings", {"dm_reminders": True}, channel=dm)
    assert "on" in (await settings.reply()).content
    offer = await (await emu.slash("alice", "play alak",
                                   {"opponent": "bob", "time_control": "3d"},
                                   channel=dm)).reply()
    mark = emu.mark()
    await emu.click("bob", offer, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=dm, since=mark)
    game = await world.services.games.game_for_thread(dm)
    mover, moves = await world.turn(game.id)
    if mover.name != "alice":  # let alice be the one to move
        board = await (await emu.click(mover, board, label=moves[0])).reply()
    deadline = await world.bot.clocks.deadline(game.id)
    mark = emu.mark()
    skew_clock(world, deadline - datetime.now(UTC) - timedelta(hours=23))
    world.bot.scheduler.poke()
    reminder = await emu.wait_for_message(lambda m: m.content.startswith("Your move in Alak"),
                                          since=mark)
    assert reminder.channel_id != dm and alice.id in emu.members_of(reminder.channel_id)
    assert f"/@me/{dm}" in reminder.content
    assert [m for m in emu.channel_messages(dm) if "is due" in m.content] == []

    # Alice closes her DMs: the next reminder is refused (50007) and the bot stops trying.
    world.refusals_expected = True
    emu.refuse_dms("alice")
    mark = emu.mark()
    skew_clock(world, deadline - datetime.now(UTC) + timedelta(hours=1))
    world.bot.scheduler.poke()
    refused = await emu.wait_for(lambda e: e.kind == "refused", since=mark)
    assert refused.data.code == 50007
    await world.bot.delivery.flush(game.id)  # (waits for the delivery in flight to finish)
    assert await world.bot.notify.dms_refused(alice.id), "no more tries"
    # The next time she uses the app, even where the bot is not, she is told privately.
    games = await emu.slash("alice", "games", channel=dm)
    notice = await games.reply(lambda m: "Discord refused it" in m.content)
    assert notice.ephemeral
    assert [r.code for r in emu.refusals] == [50007]


async def test_a_polygo_game_in_a_group_dm_finished_by_the_form(world):
    emu = world.emu
    emu.install_app("dave")
    group = emu.open_group_dm("dave", "alice", "bob", "carol", "erin" if "erin" in emu.users
                              else emu.add_user("erin").name)
    offer = await (await emu.slash("dave", "play polygo", {"opponent": "carol"},
                                   channel=group)).reply()
    mark = emu.mark()
    await emu.click("carol", offer, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=group, since=mark)
    game = await world.services.games.game_for_thread(group)
    plies = 0
    for _ in range(100):
        mover, moves = await world.turn(game.id)
        if mover is None:
            break
        assert mover.id in board.notified
        press = await emu.click(mover, board, label="Move…")
        await press.acknowledged()
        # Some stones, then both players pass and accept the score (typed in the form).
        move = moves[0] if plies < 6 else next(m for m in ("pass", "accept", *moves)
                                               if m in moves)
        submitted = await emu.submit_modal(mover, press, {"move": move})
        board = await submitted.reply()
        assert submitted.callback_type == 4 and board.files, board.content
        plies += 1
    final = await world.services.games.get_game(game.id)
    assert final.status == "finished" and final.ply == plies > 6
    assert [r for r in emu.requests if r.channel_id == group] == []


async def test_an_lppg_table_of_four_with_two_ai_players_in_a_group_dm(world):
    """dave (who installed the app) opens a table in a group DM, alice joins, two AI players
    sit down; humans play with My cards (their hand and its moves, privately) and Move…;
    no public message ever carries a hand's image or a move button."""
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
    await emu.wait_for_message(lambda m: bool(m.files), channel_id=group, since=mark)
    game = await world.services.games.game_for_thread(group)
    assert game.in_conversation and len(game.seats) == 4
    humans = {dave.id: dave, alice.id: alice}
    since, played = mark, []
    for _ in range(12):  # twelve human decisions, the AI players answering in between
        for _ in range(100):
            info = await world.services.games.get_game(game.id)
            if info.status != "active" or info.user_to_move() in humans:
                break
            with contextlib.suppress(TimeoutError):
                await emu.wait_for(lambda e: e.kind == "message", since=emu.mark(), timeout=2)
        if info.status != "active":
            break
        player = humans[info.user_to_move()]
        board = await emu.wait_for_message(
            lambda m, p=player: bool(m.buttons()) and p.id in m.notified and not m.ephemeral,
            channel_id=group, since=since)
        hand = await (await emu.click(player, board, label="My cards")).reply()
        assert hand.ephemeral and hand.files[0].filename == "hand.png"
        moves = move_buttons(hand) or await world.services.games.legal_moves(game.id, player.id)
        since = emu.mark()
        played.append(moves[0])
        if move_buttons(hand):
            await (await emu.click(player, hand, label=moves[0])).reply()
        else:
            press = await emu.click(player, board, label="Move…")
            await press.acknowledged()
            await (await emu.submit_modal(player, press, {"move": moves[0]})).reply()
    public = [e.data for e in emu.events if e.kind in ("message", "edit")
              and e.data.channel_id == group and not e.data.ephemeral]
    assert public and all(f.filename != "hand.png" for m in public for f in m.files)
    # Public buttons play only what tells no card (the same rule as in threads, where
    # tests/e2e/test_lppg.py checks it against every possible hand): never a placement of a
    # card ("play <card> <cell> <turn>"), whose legal cells depend on the hand.
    assert not [b for m in public for b in move_buttons(m) if b.startswith("play")]
    assert any(m.startswith("play") for m in played), "cards were placed, privately chosen"
    assert (await world.services.games.get_game(game.id)).ply >= 12



async def play_out(world, channel: int, board: Message) -> None:
    """Both players press the first legal move's button until the game ends."""
    game = await world.services.games.game_for_thread(channel)
    while True:
        mover, moves = await world.turn(game.id)
        if mover is None:
            return
        board = await (await world.emu.click(mover, board, label=moves[0])).reply()


async def test_games_where_the_bot_is_not_are_casual_unless_rated_was_asked_and_accepted(world):
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    ratings = world.bot.get_cog("Tournaments").ratings
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                   channel=dm)).reply()
    assert "A casual game (not rated)" in offer.content
    mark = emu.mark()
    await emu.click("bob", offer, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=dm, since=mark)
    await play_out(world, dm, board)
    await world.bot.delivery.flush((await world.services.games.game_for_thread(dm)).id)
    assert [e for e in (await ratings.profile(alice.id)).ratings if e.game == "alak"] == []

    # Asked for, and said on the challenge bob accepts: it counts, for everyone's boards.
    rated_offer = await (await emu.slash("alice", "play alak", {"opponent": "bob",
                                                                "rated": True},
                                         channel=dm)).reply()
    assert "This game counts for ratings" in rated_offer.content
    mark = emu.mark()
    await emu.click("bob", rated_offer, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=dm, since=mark)
    await play_out(world, dm, board)
    await world.bot.delivery.flush(game_id := (await world.services.games.game_for_thread(dm)).id)
    assert (await world.services.games.get_game(game_id)).status == "finished"
    for user in (alice, bob):
        profile = await ratings.profile(user.id)
        assert [e.game for e in profile.ratings] == ["alak"], user.name


async def test_undo_claim_and_hint_by_the_boards_buttons(world):
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    dm, board = await start_in_dm(world, {"time_control": "1d"})
    game = await world.services.games.game_for_thread(dm)
    assert [b["label"] for b in board.buttons()][-4:] == ["Move…", "Undo", "Resign", "Claim"]
    # Claim before the time is up: refused politely, privately.
    mover, moves = await world.turn(game.id)
    other = bob if mover == alice else alice
    early = await (await emu.click(other, board, label="Claim")).reply()
    assert early.ephemeral and "not run out yet" in early.content
    # A move, then its player asks to take it back; the other agrees by the request's button.
    board = await (await emu.click(mover, board, label=moves[0])).reply()
    request = await (await emu.click(mover, board, label="Undo")).reply()
    assert not request.ephemeral and other.id in request.notified
    taken_back = await (await emu.click(other, request, label="Agree")).reply()
    assert taken_back.files and (await world.services.games.get_game(game.id)).ply == 0
    # The time runs out: the opponent of the player to move claims the win with the button.
    skew_clock(world, timedelta(days=1, hours=1))
    result = await (await emu.click(other, taken_back, label="Claim")).reply()
    assert not result.ephemeral and result.content.startswith("Game over")
    assert (await world.services.games.get_game(game.id)).timed_out_seat is not None


async def test_hint_against_the_ai_in_a_dm(world):
    emu = world.emu
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    start = await emu.slash("alice", "play alak", {"level": "easy"}, channel=dm)
    board = await start.reply(lambda m: bool(m.buttons()))
    assert [b["label"] for b in board.buttons()][-3:] == ["Move…", "Resign", "Hint"]
    hint = await (await emu.click("alice", board, label="Hint")).reply()
    assert hint.ephemeral and hint.content


async def test_a_rematch_in_a_dm_starts_there(world):
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    dm, board = await start_in_dm(world)
    first = await world.services.games.game_for_thread(dm)
    mark = emu.mark()
    await play_out(world, dm, board)
    over = await emu.wait_for_message(lambda m: bool(m.buttons()) and "Game over" in m.content,
                                      channel_id=dm, since=mark)
    asked = await (await emu.click("bob", over, label="Rematch")).reply()
    assert alice.id in asked.notified
    mark = emu.mark()
    await emu.click("alice", over, label="Rematch")
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=dm, since=mark)
    second = await world.services.games.game_for_thread(dm)
    assert second.id != first.id and second.in_conversation and second.channel_id == dm
    assert set(board.notified) == {alice.id, bob.id}
