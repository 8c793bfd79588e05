"""Games against the AI through the emulator: started at once by ``/play … level:``, the AI's
moves stored and delivered like a person's (the board, the next human's ping), a restart while
the AI is to move (it moves after the start, once), a lobby filled with AI players played to
the end, ``/hint`` allowed and refused, no rating, and no AI seat ever pinged or sent a DM."""

from __future__ import annotations

import asyncio

import pytest

import ai
from bot.core.i18n import say, t
from bot.services.aiseats import ai_level, is_ai
from emulator import EPHEMERAL

#: How long a test waits for the AI (a worker process starts with the first move).
AI_PATIENCE = 60.0


async def until_human_turn(services, game_id: int) -> object:
    """The game once a person is to move (or it is over) and can see it: the AI's moves
    played meanwhile and every board of the game posted (``services``: a ``Services`` on
    the bot's database). A person answers the board they see; one who moved before the AI's
    board was out would find that board's delivery answering for them too (a private "Done.",
    their move posted all the same), as a slow database makes likely."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + AI_PATIENCE
    while True:
        game = await services.games.get_game(game_id)
        if ((game.status != "active" or not is_ai(game.user_to_move()))
                and not await services.outbox.pending_outbox(game_id=game_id)):
            return game
        assert loop.time() < deadline, f"the AI never moved, or its board never came: {game_id}"
        await asyncio.sleep(0.05)


async def delivered(world, game_id: int) -> None:
    """Wait until every outbox row of the game is posted."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + AI_PATIENCE
    while await world.services.outbox.pending_outbox(game_id=game_id):
        assert loop.time() < deadline, "the outbox was never delivered"
        await asyncio.sleep(0.05)


def assert_no_ai_reached(emu) -> None:
    """No message notified an AI seat or mentions one, and no DM channel was opened for one."""
    for message in emu.messages.values():
        assert not any(is_ai(uid) for uid in message.notified), message.content
        assert "<@-" not in message.content, "an AI seat is named, never mentioned"
    for channel in emu.channels.values():
        for recipient in channel.get("recipients", []):
            assert not is_ai(int(recipient["id"]))


async def test_a_game_against_the_ai_starts_at_once_and_survives_a_restart(world):
    emu = world.emu
    alice = emu.user("alice")
    mark = emu.mark()
    answer = await (await emu.slash("alice", "play alak", {"level": "easy"})).reply()
    assert not answer.buttons(), "no Accept step against the AI"
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    assert game.seats[0] == alice.id and ai_level(game.seats[1]) == "easy"
    assert "AI (easy)" in first.content and f"{alice.mention}, your turn" in first.content
    assert first.notified == {alice.id}

    restarted_at = None
    while game.status == "active":
        moves = await world.services.games.legal_moves(game.id, alice.id)
        if restarted_at is None and game.ply >= 2:
            # The bot stops while the AI is to move: its thinking never ends before the stop.
            async def never(game_id: int) -> bool:
                await asyncio.Event().wait()
                return False

            world.bot.ai_player.play_turn = never
            await (await emu.slash("alice", "move", {"text": moves[0]}, channel=thread)).reply()
            waiting = await world.services.games.get_game(game.id)
            assert is_ai(waiting.user_to_move())
            restarted_at = waiting.ply
            mark = emu.mark()
            await world.restart()
            game = await until_human_turn(world.services, game.id)
            assert game.ply == restarted_at + 1 or game.status != "active", (
                "after the start the AI moves, once")
            board = await emu.wait_for_message(
                lambda m: bool(m.files) and "AI (easy) play" in m.content,
                channel_id=thread, since=mark)
            if game.status == "active":
                assert board.notified == {alice.id}, "the AI's move pings the human to move"
            continue
        reply = await (await emu.slash("alice", "move", {"text": moves[0]},
                                       channel=thread)).reply()
        assert reply.files and not reply.flags & EPHEMERAL
        game = await until_human_turn(world.services, game.id)

    assert restarted_at is not None
    await delivered(world, game.id)
    record = await world.services.games.record(game.id)
    texts = [m.text for m in record.moves]
    assert len(texts) == game.ply and {m.seat for m in record.moves} == {0, 1}
    # Each AI ply was delivered exactly once, its message naming the AI.
    ai_plies = [m.ply for m in record.moves if m.seat == 1]
    # ("AI (easy) played **c**." or, for a capture, "AI (easy) plays c and captures…")
    posted = [m for m in emu.channel_messages(thread) if "AI (easy) play" in m.content]
    assert len(posted) == len(ai_plies)
    assert await world.services.games.replay_matches(game.id)
    ratings = world.bot.get_cog("Tournaments").ratings
    profile = await ratings.profile(alice.id)
    assert all(entry.game != "alak" for entry in profile.ratings), "AI games are not rated"
    shown = await (await emu.slash("alice", "profile", {"private": True})).reply()
    won = alice.id in {game.seats[s] for s in game.outcome.winners}
    drawn = not game.outcome.winners
    line = f"easy: {int(won)} won, {int(drawn)} drawn, {int(not won and not drawn)} lost"
    assert "Against the AI:" in shown.content and line in shown.content
    assert_no_ai_reached(emu)


async def test_a_lobby_filled_with_ai_players_is_played_to_the_end(world):
    emu = world.emu
    alice = emu.user("alice")
    table = await world.challenge("alice", "kolory", {"players": 4})
    refused = await (await emu.click("bob", table, label="+ AI (hard)")).reply()
    assert refused.flags & EPHEMERAL, "only the host seats AI players"
    await (await emu.click("bob", table, label="Join")).reply()
    await (await emu.click("alice", emu.messages[table.id], label="+ AI (easy)")).reply()
    full = await (await emu.click("alice", emu.messages[table.id],
                                  label="+ AI (medium)")).reply()
    assert "(4/4)" in full.content and "AI (easy)" in full.content
    assert "AI (medium)" in full.content
    mark = emu.mark()
    await emu.click("alice", emu.messages[table.id], label="Start")
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    thread = first.channel_id
    assert thread == table.id, "the thread hangs on the table's message, AI to move or not"
    game = await world.services.games.game_for_thread(thread)
    assert [ai_level(uid) for uid in game.seats] == [None, None, "easy", "medium"]
    assert first.notified == {alice.id, emu.user("bob").id}, "people learn the game is on"

    game = await until_human_turn(world.services, game.id)
    while game.status == "active":
        user, moves = await world.turn(game.id)
        await (await emu.slash(user, "move", {"text": moves[-1]}, channel=thread)).reply()
        game = await until_human_turn(world.services, game.id)
    await delivered(world, game.id)
    assert game.outcome is not None
    assert await world.services.games.replay_matches(game.id)
    over = [m for m in emu.channel_messages(thread) if m.content.startswith("Game over")]
    assert len(over) == 1
    assert_no_ai_reached(emu)


@pytest.mark.slow(9)
async def test_a_hint_in_a_game_against_the_ai_and_none_between_people(world):
    emu = world.emu
    alice = emu.user("alice")
    mark = emu.mark()
    await (await emu.slash("alice", "play palam", {"level": "hard"})).reply()
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await until_human_turn(world.services, (await world.services.games.game_for_thread(
        first.channel_id)).id)
    hint = await (await emu.slash("alice", "hint", channel=first.channel_id)).reply()
    assert hint.flags & EPHEMERAL and hint.content.startswith("Hint: **")
    suggested = hint.content.split("**")[1]
    assert suggested in await world.services.games.legal_moves(game.id, alice.id)
    # The same hint in French, its reason translated (the search is deterministic: the test
    # asks it the same question the bot's worker did).
    french = await (await emu.slash("alice", "hint", channel=first.channel_id,
                                    locale="fr")).reply()
    job = await world.services.aiseats.hint_job(game.id, alice.id)
    tip = ai.hint(job.game, job.view, job.seat, job.seed)
    assert tip.move == suggested
    if tip.reason is None:
        assert french.content == t("ai.hint.move", "fr", move=tip.move)
    else:
        assert french.content == t("ai.hint.because", "fr", move=tip.move,
                                   reason=say(tip.reason, "fr"))
    assert french.content.startswith("Conseil\u00a0: **") and french.flags & EPHEMERAL
    # Someone else's game: refused, privately.
    other = await (await emu.slash("bob", "hint", channel=first.channel_id)).reply()
    assert other.flags & EPHEMERAL and "against the AI" in other.content

    people = await world.start_game("carol", "alak", "dave")
    refused = await (await emu.slash("carol", "hint", channel=people.channel_id)).reply()
    assert refused.flags & EPHEMERAL
    assert refused.content == "Hints are only for games against the AI, to one of its players."


async def test_the_bot_as_opponent_plays_the_ai_and_a_level_needs_no_opponent(world):
    emu = world.emu
    mark = emu.mark()
    await (await emu.slash("bob", "play alak", {"opponent": emu.bot_user})).reply()
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await world.services.games.game_for_thread(first.channel_id)
    assert game.seats[0] == emu.user("bob").id and ai_level(game.seats[1]) == "medium"

    before = len(emu.threads())
    both = await (await emu.slash("bob", "play alak",
                                  {"opponent": "carol", "level": "hard"})).reply()
    assert both.flags & EPHEMERAL
    assert both.content == "Choose an opponent or an AI level, not both."
    assert len(emu.threads()) == before, "nothing started"


async def test_no_hint_in_a_table_where_a_person_is_an_opponent(world):
    """A table of two people and an AI: a hint would help one person against the other, so
    ``/hint`` is refused privately, saying why, in the asker's language."""
    emu = world.emu
    table = await world.challenge("alice", "kolory", {"players": 3})
    await (await emu.click("bob", table, label="Join")).reply()
    await (await emu.click("alice", emu.messages[table.id], label="+ AI (easy)")).reply()
    mark = emu.mark()
    await emu.click("alice", emu.messages[table.id], label="Start")
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await until_human_turn(world.services, (await world.services.games.game_for_thread(
        first.channel_id)).id)
    before = (game.version, game.ply)
    for user, locale in (("alice", "en-US"), ("bob", "fr")):
        refused = await (await emu.slash(user, "hint", channel=first.channel_id,
                                         locale=locale)).reply()
        assert refused.flags & EPHEMERAL
        assert refused.content == t("errors.hint.person_opponent", locale, count=1)
    assert refused.content.startswith("Pas de conseil ici\u00a0:")
    after = await world.services.games.get_game(game.id)
    assert (after.version, after.ply) == before, "a refused hint changes nothing"
