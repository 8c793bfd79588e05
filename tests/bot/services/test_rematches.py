"""Rematches through the services: every player asks, seats turn, one rematch per game."""

from __future__ import annotations

import pytest

from bot.core.errors import ChallengeError, NotAPlayer
from bot.services.rematches import turned
from bot.store.clocks import clock_reads
from tests.bot.services.conftest import start_game
from tests.bot.services.tourney import round_games
from tests.bot.store.dbutil import db_dump


async def finished(service, game="alak", users=(1, 2), options=None, time_control=None):
    if time_control is None:
        info = await start_game(service, game, users, options)
    else:
        challenge = await service.challenges.challenge(game, users[0], opponent_id=users[1],
                                                       options=options, time_control=time_control,
                                                       guild_id=5, channel_id=6)
        info = await service.challenges.accept(challenge.id, users[1])
    await service.play.resign(info.id, users[-1])
    return info


def test_ruling_seats_turn_by_one():
    assert turned((1, 2)) == (2, 1)
    assert turned((1, 2, 3, 4)) == (4, 1, 2, 3)


async def test_ruling_every_player_asks_and_the_last_starts_the_rematch(service, store, db):
    old = await finished(service, options={"length": 13}, time_control="3d+1d")
    assert await service.rematches.rematch_offered(old.id)
    first = await service.rematches.ask_rematch(old.id, 2)
    assert (first.asked, first.waiting, first.new_game) == ((2,), (1,), None)
    before = db_dump(db)
    for user, error_type, key in [(2, ChallengeError, "errors.rematch_already"),
                                  (3, NotAPlayer, "errors.rematch_not_a_player")]:
        with pytest.raises(error_type) as error:
            await service.rematches.ask_rematch(old.id, user)
        assert error.value.key == key
    assert db_dump(db) == before
    done = await service.rematches.ask_rematch(old.id, 1)
    new = done.new_game
    assert done.waiting == () and new is not None
    assert new.seats == (2, 1) and new.game == "alak" and new.options == old.options
    assert (new.guild_id, new.channel_id, new.status) == (5, 6, "active")
    assert (await clock_reads(store).clock(new.id)).time_control == "3d+1d"
    with pytest.raises(ChallengeError) as error:
        await service.rematches.ask_rematch(old.id, 2)
    assert error.value.key == "errors.rematch_started"
    assert error.value.params["new_game_id"] == new.id


async def test_a_table_of_three_turns_its_seats(service, tally):
    old = await finished(service, "tally", users=(1, 2, 3))
    for user in (3, 1):
        assert (await service.rematches.ask_rematch(old.id, user)).new_game is None
    new = (await service.rematches.ask_rematch(old.id, 2)).new_game
    assert new.seats == (3, 1, 2)


async def test_no_rematch_of_a_running_or_aborted_game(service):
    challenge = await service.challenges.challenge("alak", 1, opponent_id=2, guild_id=5)
    running = await service.challenges.accept(challenge.id, 2)
    assert not await service.rematches.rematch_offered(running.id)
    with pytest.raises(ChallengeError) as error:
        await service.rematches.ask_rematch(running.id, 1)
    assert error.value.key == "errors.rematch_not_offered"
    await service.admin.abort(running.id, guild_id=5, by=9)
    assert not await service.rematches.rematch_offered(running.id)
    with pytest.raises(ChallengeError):
        await service.rematches.ask_rematch(running.id, 1)


async def test_ruling_no_rematch_of_a_tournament_game(tsv, verdict):
    t = await tsv.tournaments.signup.create(100, "verdict", "round_robin", guild_id=5, channel_id=6)
    for user in (1, 2):
        await tsv.tournaments.signup.join(t.id, user)
    await tsv.tournaments.signup.start(t.id, 100)
    [game_id] = await round_games(tsv, t.id)
    game = await tsv.services.games.get_game(game_id)
    await tsv.services.play.resign(game_id, game.seats[0])
    assert not await tsv.services.rematches.rematch_offered(game_id)
    with pytest.raises(ChallengeError) as error:
        await tsv.services.rematches.ask_rematch(game_id, game.seats[0])
    assert error.value.key == "errors.rematch_not_offered"
