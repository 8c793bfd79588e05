"""Two users play whole Alak games through slash commands and buttons (the real discord.py bot
against the emulator), and everything a player can get wrong is answered only to them."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest

from bot.core.events import Reminder
from bot.discord.views.game import move_custom_id
from bot.services import Services
from bot.store import open_store
from emulator import ADMINISTRATOR, EPHEMERAL, ComponentGone, HiddenCommand, Message
from tests.bot.core.events.samples import sample
from tests.e2e.buttons import action_labels, board_buttons, move_buttons
from tests.e2e.moves import move_said
from tests.e2e.test_ai import delivered

MAX_PLIES = 200


def board_messages(world, thread: int) -> list[Message]:
    return [m for m in world.emu.channel_messages(thread) if m.files]


def latest_board(world, thread: int) -> Message:
    return board_messages(world, thread)[-1]


async def start_alak(world, host="alice", guest="bob") -> tuple[int, int]:
    """A named challenge accepted with its button: (game id, thread id)."""
    emu = world.emu
    challenge = await world.challenge(host, "alak", {"opponent": guest})
    assert [b["label"] for b in challenge.buttons()] == ["Accept", "Decline", "Withdraw"]
    assert emu.user(guest).mention in challenge.content
    mark = emu.mark()
    click = await emu.click(guest, challenge, label="Accept")
    first_board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    # The challenge message itself becomes the pointer to the thread (an update).
    assert await click.acknowledged() == 7
    thread = first_board.channel_id
    assert thread == world.thread_id()
    # The challenge now points at the thread and has no buttons left.
    accepted = await click.reply()
    assert f"<#{thread}>" in accepted.content and not accepted.buttons()
    game = await world.services.games.game_for_thread(thread)
    assert game is not None and game.seats == (emu.user(host).id, emu.user(guest).id)
    return game.id, thread


async def test_whole_game_by_slash_and_buttons(world):
    await play_a_whole_game(world)


@pytest.mark.bot_config(board_pool="process")
async def test_whole_game_with_boards_drawn_by_a_worker_process(world):
    await play_a_whole_game(world)
    boards = world.bot.boards
    assert boards.kind == "process" and await boards.run(os.getpid) != os.getpid()


async def test_a_button_taken_off_an_old_board_cannot_be_pressed(world):
    """Discord checks a press against the message's components (50035,
    COMPONENT_VALIDATION_FAILED): once the previous board's buttons are taken off, a press there
    never reaches the bot."""
    emu = world.emu
    game_id, thread = await start_alak(world)
    first = latest_board(world, thread)
    point = move_buttons(first)[0]["custom_id"]
    await (await emu.click("alice", first, point)).reply()
    await emu.wait_for(lambda _: not emu.messages[first.id].buttons())  # taken off
    mark = emu.mark()
    with pytest.raises(ComponentGone):
        await emu.click("bob", first, point)
    assert not [e for e in emu.events[mark:] if e.kind in ("request", "message")]
    assert (await world.services.games.get_game(game_id)).ply == 1


async def play_a_whole_game(world) -> None:
    """Alice moves with /move and autocomplete, Bob with the board's buttons, to the end."""
    emu = world.emu
    game_id, thread = await start_alak(world)
    alice, bob = emu.user("alice"), emu.user("bob")
    first = latest_board(world, thread)
    assert first.files[0].is_png
    assert f"{alice.mention}, your turn" in first.content
    # Alak's eleven points are buttons.
    assert [b["label"] for b in board_buttons(first)] == [*"abcdefghijk", "Abort"]  # nobody moved
    # Below them, the buttons that stand for the commands, as in a conversation.
    assert action_labels(first) == ["Move…", "Undo", "Resign"]

    for ply in range(MAX_PLIES):
        game = await world.services.games.get_game(game_id)
        if game.status != "active":
            break
        mover = alice if game.user_to_move() == alice.id else bob
        if mover is alice:
            # Alice types: autocomplete offers her legal moves, she picks the first.
            choices = await emu.autocomplete(alice, "move", {"text": ""}, "text", channel=thread)
            assert choices, "the player to move always gets suggestions"
            interaction = await emu.slash(alice, "move", {"text": choices[0]["value"]},
                                          channel=thread)
            assert await interaction.acknowledged() == 4, "the answer is the board itself"
        else:
            # Bob presses the first button of the latest board.
            board = latest_board(world, thread)
            interaction = await emu.click(bob, board, move_buttons(board)[0]["custom_id"])
            assert await interaction.acknowledged() == 4, "a new message, not an update"
        reply = await interaction.reply()
        assert not reply.ephemeral
        assert reply.channel_id == thread
        assert reply.files and reply.files[0].is_png, f"ply {ply}: the reply carries the board"
        after = await world.services.games.get_game(game_id)
        assert after.ply == game.ply + 1
        # The move, said once: "played **f**." or, for a capture, the engine's sentence.
        mover = f"<@{game.user_to_move()}>"
        assert move_said(reply.content, mover, after.last_move), reply.content
        if after.status == "active":
            assert f"<@{after.user_to_move()}>, your turn" in reply.content
    else:
        raise AssertionError("the game did not end")

    final = await world.services.games.get_game(game_id)
    assert final.outcome is not None
    result = await emu.wait_for_message(
        lambda m: m.content.startswith("Game over"), channel_id=thread
    )
    assert final.outcome.reason in result.content
    # Every message that shows a board has its PNG; no board message lacks one.
    for message in emu.channel_messages(thread):
        if "your turn" in message.content or "played **" in message.content:
            assert message.files and message.files[0].is_png, message.content
    # No board is left with move buttons to press: only the result's Rematch and Review remain.
    await emu.wait_for(lambda _: [b["label"] for m in emu.channel_messages(thread)
                                  for b in m.buttons()] == ["Rematch", "Review"])


async def test_illegal_move_and_out_of_turn_are_private_and_change_nothing(world):
    emu = world.emu
    game_id, thread = await start_alak(world)
    played = await emu.slash("alice", "move", {"text": "c"}, channel=thread)
    await played.reply()
    before = await world.services.games.get_game(game_id)
    mark = emu.mark()

    # Bob plays on an occupied point: the engine's reason, only to him.
    illegal = await emu.slash("bob", "move", {"text": "c"}, channel=thread)
    answer = await illegal.reply()
    assert answer.flags & EPHEMERAL
    assert "already taken" in answer.content
    # Garbage is refused the same way.
    garbage = await emu.slash("bob", "move", {"text": "zz9"}, channel=thread)
    assert (await garbage.reply()).flags & EPHEMERAL

    board = latest_board(world, thread)
    # Alice presses a point while it is Bob's turn.
    early = await emu.click("alice", board, label="d")
    assert (await early.reply()).flags & EPHEMERAL
    assert "not your turn" in (await early.reply()).content.lower()
    # Carol is not playing at all.
    stranger = await emu.click("carol", board, label="d")
    assert (await stranger.reply()).flags & EPHEMERAL
    # Only the newest board keeps its buttons.
    await emu.wait_for(lambda e: e.kind == "edit" and e.data.files and not e.data.buttons())
    assert [bool(m.buttons()) for m in board_messages(world, thread)] == [False, True]

    after = await world.services.games.get_game(game_id)
    assert (after.version, after.ply, after.last_move) == (before.version, before.ply, "c")
    public = [e for e in emu.events[mark:] if e.kind == "message" and not e.data.ephemeral]
    assert public == [], "a refused move posts nothing"
    # The autocomplete of the player who may not move is empty; the mover's is filtered.
    assert await emu.autocomplete("alice", "move", {"text": ""}, "text", channel=thread) == []
    suggestions = await emu.autocomplete("bob", "move", {"text": "d"}, "text", channel=thread)
    assert [c["value"] for c in suggestions] == ["d"]


async def test_buttons_work_after_a_restart(world):
    emu = world.emu
    game_id, thread = await start_alak(world)
    first = await emu.slash("alice", "move", {"text": "a"}, channel=thread)
    board = await first.reply()
    assert board.buttons()
    pending_challenge = await world.challenge("carol", "alak", {"opponent": "dave"})

    await world.restart()
    assert emu.identified_count == 2

    # A challenge posted before the restart can still be accepted.
    started = await world.accept("dave", pending_challenge)
    assert emu.user("carol").mention in started.content

    click = await emu.click("bob", board, label="k")
    reply = await click.reply()
    assert reply.files[0].is_png and "played **k**" in reply.content
    assert (await world.services.games.get_game(game_id)).ply == 2
    # And the clicked board loses its now-outdated buttons.
    await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == board.id
                       and not e.data.buttons())


async def test_pending_outbox_is_delivered_on_start(world, tmp_path):
    emu = world.emu
    game_id, thread = await start_alak(world)
    await world.stop()
    # While the bot is down, a move is committed (with its outbox row) by another process.
    store = await open_store(world.config.database)
    try:
        await Services(store).play.move(game_id, emu.user("alice").id, "f")
    finally:
        await store.close()
    mark = emu.mark()
    await world.start()
    delivered = await emu.wait_for_message(
        lambda m: "played **f**" in m.content, channel_id=thread, since=mark
    )
    assert delivered.files[0].is_png
    assert emu.user("bob").mention in delivered.content


async def test_declined_and_open_challenges(world):
    emu = world.emu
    challenge = await world.challenge("alice", "alak", {"opponent": "bob", "length": 9})
    assert "(length 9)" in challenge.content
    # Only the named opponent may answer.
    wrong = await emu.click("carol", challenge, label="Decline")
    assert (await wrong.reply()).flags & EPHEMERAL
    declined = await emu.click("bob", challenge, label="Decline")
    answer = await declined.reply()
    assert "declined" in answer.content and not answer.buttons()

    open_challenge = await world.challenge("carol", "alak", {})
    assert [b["label"] for b in open_challenge.buttons()] == ["Accept", "Withdraw"]
    own = await emu.click("carol", open_challenge, label="Accept")
    assert (await own.reply()).flags & EPHEMERAL
    board = await world.accept("dave", open_challenge)
    game = await world.services.games.game_for_thread(board.channel_id)
    assert game.seats == (emu.user("carol").id, emu.user("dave").id)
    assert game.options["length"] == 11


async def test_resign_undo_board_and_games(world):
    emu = world.emu
    game_id, thread = await start_alak(world)
    await (await emu.slash("alice", "move", {"text": "b"}, channel=thread)).reply()

    games = await (await emu.slash("bob", "games")).reply()
    assert games.ephemeral and "your turn" in games.content and f"<#{thread}>" in games.content

    shown = await (await emu.slash("carol", "board", channel=thread)).reply()
    assert shown.files[0].is_png and not shown.ephemeral

    # Alice asks to take back b; Bob agrees with the button; the board returns to ply 0.
    request = await (await emu.slash("alice", "undo", channel=thread)).reply()
    assert [b["label"] for b in request.buttons()] == ["Agree", "Refuse"]
    agreed = await emu.click("bob", request, label="Agree")
    undone = await agreed.reply(lambda m: bool(m.files))
    assert undone.files[0].is_png and "taken back" in undone.content
    assert (await world.services.games.get_game(game_id)).ply == 0

    resigned = await world.resign("bob", thread)
    assert emu.user("bob").mention in resigned.content
    final = await world.services.games.get_game(game_id)
    assert final.status == "finished" and final.outcome.winners == frozenset({0})
    late = await emu.slash("alice", "move", {"text": "a"}, channel=thread)
    assert (await late.reply()).flags & EPHEMERAL


async def test_commands_outside_a_game_thread_explain_themselves(world):
    emu = world.emu
    answer = await (await emu.slash("alice", "move", {"text": "a"})).reply()
    assert answer.ephemeral and "thread" in answer.content
    assert await emu.autocomplete("alice", "move", {"text": ""}, "text") == []
    french = await emu.slash("alice", "games", locale="fr")
    assert "Vous n'avez aucune partie" in (await french.reply()).content


async def test_sync_is_for_the_owner_only(world):
    emu = world.emu
    # Discord offers /sync only to administrators (its default permissions)...
    with pytest.raises(HiddenCommand):
        await emu.slash("bob", "sync", {"scope": "global"})
    # ...and an administrator who is not the bot's owner is refused by the owner check.
    emu.grant("bob", ADMINISTRATOR)
    refused = await (await emu.slash("bob", "sync", {"scope": "global"})).reply()
    assert refused.ephemeral and "owner" in refused.content
    mark = emu.mark()
    done = await (await emu.slash("alice", "sync", {"scope": "global"})).reply()
    assert done.ephemeral and "global" in done.content
    assert any(e.kind == "sync" for e in emu.events[mark:])
    no_guilds = await (await emu.slash("alice", "sync", {"scope": "guilds"})).reply()
    assert no_guilds.ephemeral and "guild_ids" in no_guilds.content


async def test_sync_to_the_configured_guilds(world):
    from dataclasses import replace

    emu = world.emu
    await world.stop()
    world.config = replace(world.config, guild_ids=(emu.guild_id,), sync_on_start="off")
    await world.start()
    done = await (await emu.slash("alice", "sync", {"scope": "guilds"})).reply()
    assert str(emu.guild_id) in done.content
    names = {c["name"] for c in emu.commands[emu.guild_id]}
    assert {"play", "move", "board", "sync"} <= names


async def test_two_quick_clicks_play_one_move(world):
    """Bob double-clicks two points of the same board: one move is played, the other click is
    told privately that the board changed (optimistic locking), never two moves for one ply."""
    emu = world.emu
    game_id, thread = await start_alak(world)
    await (await emu.slash("alice", "move", {"text": "a"}, channel=thread)).reply()
    board = latest_board(world, thread)
    first = await emu.click("bob", board, label="j")
    second = await emu.click("bob", board, label="k")
    answers = [await first.reply(), await second.reply()]
    assert sorted(a.ephemeral for a in answers) == [False, True]
    private = next(a for a in answers if a.ephemeral)
    assert "changed" in private.content
    game = await world.services.games.get_game(game_id)
    assert game.ply == 2 and game.last_move in ("j", "k")


async def test_a_challenge_made_inside_a_game_thread_starts_a_thread_in_the_channel(world):
    emu = world.emu
    _, thread = await start_alak(world)
    rematch = await (await emu.slash("bob", "play alak", {"opponent": "alice"},
                                     channel=thread)).reply()
    assert rematch.channel_id == thread
    board = await world.accept("alice", rematch)
    new_thread = emu.channels[board.channel_id]
    assert board.channel_id != thread and new_thread["parent_id"] == str(emu.channel_id)
    assert new_thread["thread_metadata"]["auto_archive_duration"] == 10080
    edited = (await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == rematch.id
                                 and "<#" in e.data.content)).data
    assert f"<#{board.channel_id}>" in edited.content and not edited.buttons()
    game = await world.services.games.game_for_thread(board.channel_id)
    assert game.seats == (emu.user("bob").id, emu.user("alice").id)


async def test_background_sender_leaves_fresh_rows_to_their_handler(world):
    """The poller must not steal a move's rows from the handler answering the player (who would
    then get no board in their reply); rows left behind are delivered once they are old."""
    emu = world.emu
    game_id, thread = await start_alak(world)
    # The start's rows are marked posted after their messages appear: awaited, or one may
    # still be pending below (seen once in 6 e2e runs).
    await delivered(world, game_id)
    await world.services.play.move(game_id, emu.user("alice").id, "e")  # as a handler would
    await world.bot.delivery.flush_all(older_than=60)
    assert [i.kind for i in await world.services.outbox.pending_outbox(game_id=game_id)] == ["move"]
    mark = emu.mark()
    await world.bot.delivery.flush_all()
    posted = await emu.wait_for_message(channel_id=thread, since=mark)
    assert "played **e**" in posted.content and posted.files[0].is_png
    assert await world.services.outbox.pending_outbox(game_id=game_id) == []


async def test_the_scheduler_s_rows_go_at_once_a_handler_s_wait_for_it(world):
    """A reminder has no handler to wait for: the scheduler's pass posts it at once, but not
    the fresh rows a handler is answering its interaction with."""
    from bot.discord.housekeeping import SCHEDULED_EVENTS

    emu = world.emu
    game_id, _ = await start_alak(world)
    other_id, _ = await start_alak(world, "carol", "dave")
    await delivered(world, game_id)
    # Only the pass below delivers: the background sender, woken by the new row (PostgreSQL's
    # notifications), would otherwise post the reminder itself, before or after the recorder
    # is in place (seen once in 8 e2e runs).
    await world.bot.delivery.background.stop()
    posted = []
    world.bot.delivery.register({Reminder: lambda item: _record(posted, item)}, replace=True)
    await world.services.play.move(game_id, emu.user("alice").id, "e", reply_token="handler")
    async with world.running.store.transaction() as tx:
        await tx.insert_outbox(sample("reminder", game_id=other_id), datetime.now(UTC))
    await world.bot.delivery.flush_all(older_than=60, at_once=SCHEDULED_EVENTS)
    assert [item.game_id for item in posted] == [other_id]
    assert [i.kind for i in await world.services.outbox.pending_outbox(game_id=game_id)] == ["move"]


async def _record(posted, item) -> None:
    posted.append(item)


async def test_a_move_reads_its_game_once(world, monkeypatch):
    """A button move reads the game from the database once, before writing: the delivery of
    its board starts from what the move wrote (the same board a fresh read gives)."""
    emu = world.emu
    game_id, thread = await start_alak(world)
    store = world.running.store
    reads: list[int] = []
    read = store.get_game

    async def counted(game_id, *args, **kwargs):
        reads.append(game_id)
        return await read(game_id, *args, **kwargs)

    monkeypatch.setattr(store, "get_game", counted)
    click = await emu.click("alice", latest_board(world, thread), label="c")
    answer = await click.reply()
    assert reads == [game_id]
    after = await world.services.games.get_game(game_id)
    assert (after.ply, after.last_move) == (1, "c")
    assert answer.files and "played **c**" in answer.content
    assert emu.user("bob").mention in answer.content
    # Its buttons play on the version the move wrote.
    # (Below them, Abort: Bob has not moved yet.)
    *points, abort = board_buttons(answer)
    assert abort["custom_id"] == f"bg:abort:{game_id}"
    moves = [b["label"] for b in points]
    assert moves and [b["custom_id"] for b in points] == [
        move_custom_id(game_id, after.version, m) for m in moves]
