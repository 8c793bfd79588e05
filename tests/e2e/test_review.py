"""Post-game reviews through the real bot and the real AI: a game ends, its result carries a
Review button, a spectator presses it and gets the picture (the progress shown first), a second
request is read back, ``/record`` gains the expected scores; refused in a game between people
that is still running, given to the player of a game against the AI."""

from __future__ import annotations

import pytest

from bot.services.aiseats import is_ai
from bot.services.records import parse_record
from emulator import EPHEMERAL
from tests.e2e.test_ai import until_human_turn

#: A review of a short game takes a few seconds with the real AI.
PATIENCE = 120.0


async def finished_game(world, moves: int = 4):
    """Alice and Bob play ``moves`` moves of Alak and Bob resigns: the result message."""
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    for _ in range(moves):
        user, legal = await world.turn(game.id)
        await world.services.play.move(game.id, user.id, legal[len(legal) // 2])
    mark = emu.mark()
    await world.resign("bob", thread)
    over = await emu.wait_for_message(lambda m: m.content.startswith("Game over"),
                                      channel_id=thread, since=mark)
    return game, over


@pytest.mark.bot_config(heavy_pool="thread", ai_pool="thread")
async def test_a_finished_game_is_reviewed_from_its_button_then_read_back(world):
    emu = world.emu
    game, over = await finished_game(world)
    assert [b["label"] for b in over.buttons()] == ["Rematch", "Review"]

    pressed = await emu.click("carol", over, label="Review")  # a spectator on the server
    progress = await pressed.reply(timeout=PATIENCE)
    assert progress.flags & EPHEMERAL
    assert progress.content.startswith(f"Reviewing game #{game.id}: ")
    assert "/5 positions evaluated" in progress.content
    done = await pressed.reply(lambda m: bool(m.files), timeout=PATIENCE)
    assert done.files[0].data[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Review of game #{game.id} (Alak):" in done.content
    assert "lost per move on average" in done.content
    assert world.bot.reviews.made == 1

    # Read back from the database: no second computation, straight to the picture.
    again = await emu.click("dave", over, label="Review")
    second = await again.reply(timeout=PATIENCE)
    assert second.files and second.files[0].data == done.files[0].data
    assert world.bot.reviews.made == 1

    # The record now carries the expected score after each move.
    record = await (await emu.slash("carol", "record", {"game": game.id})).reply()
    text = record.files[0].data.decode("utf-8")
    assert text.count("; expected score: ") == 4
    assert len(parse_record(text).moves) == 4


@pytest.mark.bot_config(heavy_pool="thread", ai_pool="thread")
async def test_review_refused_while_people_play_given_against_the_ai(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    game = await world.services.games.game_for_thread(first.channel_id)
    user, legal = await world.turn(game.id)
    await world.services.play.move(game.id, user.id, legal[0])
    for who in ("alice", "carol"):
        refused = await (await emu.slash(who, "review", {"game": game.id})).reply()
        assert refused.flags & EPHEMERAL
        assert "still being played" in refused.content
    # French for a French reader.
    french = await (await emu.slash("bob", "review", {"game": game.id}, locale="fr")).reply()
    assert "encore en cours" in french.content

    await (await emu.slash("alice", "play alak", {"level": "easy"})).reply()
    alice = emu.user("alice").id
    against_ai = next(g for g in await world.services.games.games_of(alice) if is_ai(g.seats[1]))
    await until_human_turn(world.services, against_ai.id)
    user, legal = await world.turn(against_ai.id)
    assert user is not None and user.name == "alice"
    await world.services.play.move(against_ai.id, user.id, legal[0])
    asked = await emu.slash("alice", "review", {"game": against_ai.id})
    review = await asked.reply(lambda m: bool(m.files), timeout=PATIENCE)
    assert review.flags & EPHEMERAL and review.files[0].data[:4] == b"\x89PNG"
    # Another member may not look at it while it runs.
    refused = await (await emu.slash("carol", "review", {"game": against_ai.id})).reply()
    assert "still being played" in refused.content


@pytest.mark.bot_config(heavy_pool="thread", ai_pool="thread")
async def test_one_review_at_a_time_per_user(world, monkeypatch):
    import threading

    import bot.workers.review
    from bot.services.review import evaluate_positions

    emu = world.emu
    first_game, first_over = await finished_game(world)
    second_game, _ = await finished_game(world, moves=2)
    release = threading.Event()

    def held(source, start, stop):  # the real evaluation, once the test lets it go
        release.wait(30)
        return evaluate_positions(source, start, stop)

    monkeypatch.setattr(bot.workers.review, "evaluate_positions", held)
    pressed = await emu.click("carol", first_over, label="Review")
    assert "0/5 positions evaluated" in (await pressed.reply()).content
    refused = await (await emu.slash("carol", "review", {"game": second_game.id})).reply()
    assert refused.flags & EPHEMERAL
    assert refused.content.startswith("Your previous review is still being made")
    other = await emu.slash("dave", "review", {"game": second_game.id})  # not held up
    assert "positions evaluated" in (await other.reply()).content
    release.set()
    assert (await pressed.reply(lambda m: bool(m.files), timeout=PATIENCE)).files
    assert (await other.reply(lambda m: bool(m.files), timeout=PATIENCE)).files
    assert first_game.id != second_game.id and world.bot.reviews.made == 2


@pytest.mark.bot_config(heavy_pool="thread", ai_pool="thread")
async def test_the_review_button_stays_once_the_rematch_started(world):
    emu = world.emu
    game, over = await finished_game(world)
    await (await emu.click("bob", over, label="Rematch")).reply()
    mark = emu.mark()
    started = await (await emu.click("alice", over, label="Rematch")).reply()
    assert f"is game #{game.id + 1}" in started.content
    edited = await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == over.id,
                                since=mark)
    assert [b["label"] for b in edited.data.buttons()] == ["Review"]
    pressed = await emu.click("carol", emu.messages[over.id], label="Review")
    assert (await pressed.reply(lambda m: bool(m.files), timeout=PATIENCE)).flags & EPHEMERAL
