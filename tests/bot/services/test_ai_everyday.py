"""Where AI seats meet the everyday features, through the services: rematches (AI seats accept
without asking, keep their level, seats turn), an admin's abort (the AI never moves in an
aborted game), ``/play level:`` beside challenges (no challenge, so no withdrawing, expiry or
"sent twice"; the server's default time control), a lobby started early with AI players
present, and game-number suggestions of games with AI seats (``/hint`` suggests only them)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.errors import BoardChanged, ChallengeError, GameOver
from bot.services.aiseats import ai_level, ai_user_id, is_ai
from bot.store.clocks import clock_reads
from bot.workers.ai_player import think
from tests.bot.store.dbutil import db_dump

SERVER = 5


async def test_ruling_a_rematch_against_the_ai_starts_with_the_one_persons_press(service):
    old = await service.aiseats.play_ai("alak", 7, "hard", guild_id=SERVER, channel_id=6)
    await service.play.resign(old.id, 7)
    assert await service.rematches.rematch_offered(old.id)
    done = await service.rematches.ask_rematch(old.id, 7)
    assert done.asked == (7,) and done.waiting == (), "nobody waits for the AI"
    new = done.new_game
    assert new is not None and new.status == "active"
    # Seats turned as for people: the AI, same level, now moves first.
    assert new.seats == (ai_user_id("hard"), 7) and ai_level(new.seats[0]) == "hard"
    (turn,) = await service.aiseats.ai_turns()
    assert (turn.game_id, turn.seat, turn.user_id) == (new.id, 0, ai_user_id("hard"))
    with pytest.raises(ChallengeError) as error:
        await service.rematches.ask_rematch(old.id, 7)
    assert error.value.key == "errors.rematch_started"


async def test_ruling_only_the_people_of_a_table_with_ai_players_ask(service, tally):
    lobby = await service.challenges.challenge("tally", 1, players=4, guild_id=SERVER)
    await service.challenges.join(lobby.id, 2)
    await service.aiseats.add_ai(lobby.id, 1, "easy")
    await service.aiseats.add_ai(lobby.id, 1, "medium")
    old = await service.challenges.start(lobby.id, 1)
    await service.play.resign(old.id, 2)
    first = await service.rematches.ask_rematch(old.id, 2)
    assert (first.waiting, first.new_game) == ((1,), None), "the other person, not the AI"
    new = (await service.rematches.ask_rematch(old.id, 1)).new_game
    assert new.seats == (ai_user_id("medium"), 1, 2, ai_user_id("easy"))
    assert [ai_level(uid) for uid in new.seats] == ["medium", None, None, "easy"]


async def test_ruling_an_aborted_game_gives_the_ai_no_turn(service, db):
    info = await service.aiseats.play_ai("alak", 7, "easy", guild_id=SERVER, channel_id=6)
    await service.play.move(info.id, 7, (await service.games.legal_moves(info.id, 7))[0])
    job = await service.aiseats.ai_job(info.id)
    assert job is not None and [t.game_id for t in await service.aiseats.ai_turns()] == [info.id]
    aborted = await service.admin.abort(info.id, guild_id=SERVER, by=99)
    assert aborted.status == "aborted" and aborted.user_to_move() is None
    assert await service.aiseats.ai_turns() == [], "only active games are listed"
    assert await service.aiseats.ai_job(info.id) is None
    # The AI thought before the abort: its move loses, and nothing is written.
    before = db_dump(db)
    with pytest.raises((BoardChanged, GameOver)):
        await service.play.move(info.id, job.user_id, think(job).move,
                                expected_version=job.version)
    assert db_dump(db) == before
    rows = [i.kind for i in await service.outbox.pending_outbox(game_id=info.id)]
    assert rows[-1] == "aborted" and "game_over" not in rows
    assert not await service.rematches.rematch_offered(info.id)


async def test_ruling_play_level_is_no_challenge(service, clock):
    """An open challenge does not stop a game against the AI of the same game, the game does
    not close the challenge, and expiring challenges leaves the game alone."""
    offer = await service.challenges.challenge("alak", 7, guild_id=SERVER, channel_id=6)
    against_ai = await service.aiseats.play_ai("alak", 7, "easy", guild_id=SERVER, channel_id=6)
    again = await service.aiseats.play_ai("alak", 7, "easy", guild_id=SERVER, channel_id=6)
    assert against_ai.status == again.status == "active" and again.id != against_ai.id
    assert (await service.challenges.get_challenge(offer.id)).status == "open"
    with pytest.raises(ChallengeError) as error:  # the challenge's own rule still holds
        await service.challenges.challenge("alak", 7, guild_id=SERVER, channel_id=6)
    assert error.value.key == "errors.challenge_twice"
    expired = await service.challenges.expire_challenges(clock.now + timedelta(days=8))
    assert [c.id for c in expired] == [offer.id]
    assert (await service.games.get_game(against_ai.id)).status == "active"
    assert await service.challenges.open_challenges(SERVER) == []


async def test_play_level_takes_the_servers_default_time_control(service, store):
    await service.admin.update_server_settings(SERVER, time_control="3d")
    by_default = await service.aiseats.play_ai("alak", 7, "easy", guild_id=SERVER, channel_id=6)
    assert (await clock_reads(store).clock(by_default.id)).time_control == "3d"
    chosen = await service.aiseats.play_ai("alak", 7, "easy", guild_id=SERVER, channel_id=6,
                                           time_control="untimed")
    found = await clock_reads(store).clock(chosen.id)
    assert found is None or found.time_control == "untimed"
    elsewhere = await service.aiseats.play_ai("alak", 7, "easy", guild_id=SERVER + 1)
    found = await clock_reads(store).clock(elsewhere.id)
    assert found is None or found.time_control == "untimed"


@pytest.mark.parametrize(("game", "players", "ai_seats", "starts"), [
    ("kolory", 5, 1, True),   # Kolory is played by 2 to 5
    ("lppg", 4, 1, True),     # LPPG by 2 or 4
    ("lppg", 4, 2, False),    # ... not by 3
])
async def test_ai_players_count_as_present_when_a_table_starts_early(
    service, game, players, ai_seats, starts
):
    lobby = await service.challenges.challenge(game, 1, players=players, guild_id=SERVER)
    for _ in range(ai_seats):
        await service.aiseats.add_ai(lobby.id, 1, "hard")
    if not starts:
        with pytest.raises(ChallengeError) as error:
            await service.challenges.start(lobby.id, 1)
        assert error.value.key == "errors.lobby_too_few"
        return
    info = await service.challenges.start(lobby.id, 1)
    assert info.seats[0] == 1 and len(info.seats) == 1 + ai_seats
    assert all(is_ai(uid) for uid in info.seats[1:])


async def test_games_with_ai_seats_are_suggested_like_any_and_alone_for_hints(service):
    offer = await service.challenges.challenge("alak", 7, opponent_id=8, guild_id=SERVER,
                                               channel_id=6)
    people = await service.challenges.accept(offer.id, 8)
    mine = await service.aiseats.play_ai("alak", 7, "easy", guild_id=SERVER, channel_id=6)
    both = [mine.id, people.id]
    for user, purpose, expected in [(7, "any", both), (7, "play", both),
                                    (7, "hint", [mine.id]), (8, "hint", []),
                                    (7, "watch", []), (8, "watch", [mine.id]),
                                    (9, "abort", both)]:
        found = await service.games.games_to_suggest(guild_id=SERVER, user_id=user, purpose=purpose)
        assert [g.id for g in found] == expected, (user, purpose)
    watched = await service.games.game_to_watch(mine.id, guild_id=SERVER, user_id=8)
    assert watched.id == mine.id
