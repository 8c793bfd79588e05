"""What a server's admins do through the services: aborting a game, the server's settings."""

from __future__ import annotations

import pytest

from bot.core.errors import ChallengeError, GameOver, NotFound
from tests.bot.services.tourney import round_games
from tests.bot.store.dbutil import db_dump

SERVER = 5


async def server_game(service, users=(1, 2), time_control=None):
    challenge = await service.challenges.challenge("alak", users[0], opponent_id=users[1],
                                                   guild_id=SERVER, channel_id=6,
                                                   time_control=time_control)
    return await service.challenges.accept(challenge.id, users[1])


async def test_ruling_an_aborted_game_ends_with_no_result_and_is_not_rated(tsv):
    services, ratings = tsv.services, tsv.ratings
    info = await server_game(services, time_control="1d")
    await services.play.move(info.id, 1, "a")
    aborted = await services.admin.abort(info.id, guild_id=SERVER, by=99)
    assert aborted.status == "aborted" and aborted.outcome is None
    assert aborted.user_to_move() is None and aborted.ply == 1
    rows = [(i.kind, i.payload) for i in await services.outbox.pending_outbox(game_id=info.id)]
    assert rows[-1] == ("aborted", {"game_id": info.id, "by": 99})
    assert "game_over" not in [kind for kind, _ in rows]
    assert await ratings.on_game_over(info.id) is False
    with pytest.raises(GameOver) as error:
        await services.play.move(info.id, 2, "k")
    assert error.value.key == "errors.game_over"
    record = await services.games.record(info.id)
    assert record.seed is None and [m.text for m in record.moves] == ["a"]


async def test_abort_refusals_change_nothing(tsv, db):
    services = tsv.services
    info = await server_game(services)
    before = db_dump(db)
    for game_id, guild_id, key in [
        (info.id, SERVER + 1, "errors.game_not_here"),  # another server's game
        (info.id + 100, SERVER, "errors.game_not_here"),
    ]:
        with pytest.raises(NotFound) as error:
            await services.admin.abort(game_id, guild_id=guild_id, by=99)
        assert error.value.key == key
    assert db_dump(db) == before
    await services.play.resign(info.id, 2)
    with pytest.raises(GameOver) as error:
        await services.admin.abort(info.id, guild_id=SERVER, by=99)
    assert error.value.key == "errors.abort_not_running"


async def test_ruling_a_tournament_game_is_not_aborted_by_an_admin(tsv, verdict, db):
    t = await tsv.tournaments.signup.create(100, "verdict", "round_robin", guild_id=SERVER,
                                            channel_id=6)
    for user in (1, 2):
        await tsv.tournaments.signup.join(t.id, user)
    await tsv.tournaments.signup.start(t.id, 100)
    [game_id] = await round_games(tsv, t.id)
    before = db_dump(db)
    with pytest.raises(GameOver) as error:
        await tsv.services.admin.abort(game_id, guild_id=SERVER, by=99)
    assert error.value.key == "errors.abort_tournament"
    assert error.value.params["tournament_id"] == t.id
    assert db_dump(db) == before


async def test_server_settings_change_what_is_given_and_keep_the_rest(service, db):
    assert await service.admin.update_server_settings(SERVER) == (None, {})
    assert await service.admin.update_server_settings(SERVER, language="fr") == ("fr", {})
    assert await service.admin.update_server_settings(SERVER, time_control="3d+1d") == (
        "fr", {"time_control": "3d+1d"})
    assert await service.settings.server_language(SERVER) == "fr"
    before = db_dump(db)
    for kwargs, key in [({"language": "de"}, "errors.bad_language"),
                        ({"time_control": "3 weeks"}, "errors.bad_time_control")]:
        with pytest.raises(ChallengeError) as error:
            await service.admin.update_server_settings(SERVER, **kwargs)
        assert error.value.key == key
    assert db_dump(db) == before
    # The default applies to /play on that server only.
    challenge = await service.challenges.challenge("alak", 1, opponent_id=2, guild_id=SERVER)
    assert await service.challenges.challenge_time_control(challenge.id) == "3d+1d"
