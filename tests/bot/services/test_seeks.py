"""Seeks (bot.services.seeks): posting, the lobby, joining within the rating range, the limit
per player, expiry, withdrawing, a double join; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.services import ChallengeError, RatingService
from bot.services.seeks import MAX_OPEN_SEEKS
from bot.store.ratings import rating_writes
from tests.bot.store.dbutil import db_dump

GUILD, CHANNEL = 5, 6


async def rate(store, user_id: int, game: str, rating: float, clock) -> None:
    async with store.transaction(players=[user_id]) as tx:
        await tx.ensure_user(user_id, clock.now)
        await rating_writes(tx).put_glicko(user_id, game, rating, 80.0, 0.06, 20, clock.now)


async def post(service, host=10, game="alak", **kwargs):
    return await service.seeks.seek(game, host, guild_id=GUILD, channel_id=CHANNEL, **kwargs)


async def test_a_seek_is_listed_and_joining_starts_the_game(service, store, clock):
    await rate(store, 10, "alak", 1612.4, clock)
    seek = await post(service, time_control="3d")
    assert seek.challenge.status == "open" and seek.challenge.opponent_id is None
    assert (seek.host_rating, seek.time_control, seek.rated) == (1612, "3d", True)
    assert seek.expires_at == seek.challenge.created_at + service.challenges.seek_expiry
    lobby = await service.seeks.lobby(GUILD)
    assert [s.id for s in lobby.seeks] == [seek.id]
    assert lobby.challenges == () and lobby.tables == ()
    assert (await service.seeks.lobby(GUILD + 1)).seeks == ()  # another server sees none
    info = await service.challenges.accept(seek.id, 20)
    assert info.seats == (10, 20) and (info.guild_id, info.channel_id) == (GUILD, CHANNEL)
    assert (await service.challenges.get_challenge(seek.id)).status == "accepted"
    assert (await service.seeks.lobby(GUILD)).seeks == ()
    started = [i for i in await service.outbox.pending_outbox() if i.kind == "game_started"]
    assert [i.payload["game_id"] for i in started] == [info.id]


async def test_the_lobby_lists_open_challenges_and_tables_apart_from_seeks(service, tally):
    seek = await post(service)
    open_one = await service.challenges.challenge("palago", 11, guild_id=GUILD, channel_id=CHANNEL)
    await service.challenges.challenge("alak", 12, opponent_id=13, guild_id=GUILD,
                                       channel_id=CHANNEL)
    table = await service.challenges.challenge(tally.name, 14, players=3, guild_id=GUILD,
                                               channel_id=CHANNEL)
    full = await service.challenges.challenge(tally.name, 15, players=3, guild_id=GUILD,
                                              channel_id=CHANNEL)
    for user in (16, 17):
        await service.challenges.join(full.id, user)
    lobby = await service.seeks.lobby(GUILD)
    assert [s.id for s in lobby.seeks] == [seek.id]
    assert [c.id for c in lobby.challenges] == [open_one.id]  # not the named one
    assert [c.id for c in lobby.tables] == [table.id]  # not the full one


async def test_you_cannot_join_your_own_seek(service, db):
    seek = await post(service)
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(seek.id, 10)
    assert error.value.key == "seeks.errors.own"
    assert db_dump(db) == before


@pytest.mark.parametrize(("low", "high", "key"), [
    (1700, 1900, "seeks.errors.out_of_range"),
    (1700, None, "seeks.errors.below_range"),
    (None, 1400, "seeks.errors.above_range"),
])
async def test_a_joiner_outside_the_rating_range_is_refused(service, store, clock, db,
                                                            low, high, key):
    await rate(store, 20, "alak", 1550.0, clock)
    seek = await post(service, min_rating=low, max_rating=high)
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(seek.id, 20)
    assert error.value.key == key
    assert (error.value.params["min"], error.value.params["max"]) == (low, high)
    assert error.value.params["rating"] == 1550
    assert db_dump(db) == before
    # An unrated player counts as 1500: inside 1400–1600, so the next seek admits them.
    inside = await post(service, host=11, min_rating=1400, max_rating=1600)
    assert (await service.challenges.accept(inside.id, 30)).seats == (11, 30)


async def test_a_rating_range_cannot_be_empty(service, db):
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await post(service, min_rating=1800, max_rating=1600)
    assert error.value.key == "seeks.errors.bad_range"
    assert db_dump(db) == before


async def test_a_player_has_at_most_a_few_open_seeks(service, db):
    seeks = [await post(service, game=g) for g in ("alak", "palago", "palam")]
    assert len(seeks) == MAX_OPEN_SEEKS
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await post(service, game="polygo")
    assert error.value.key == "seeks.errors.too_many"
    assert [n.params["id"] for n in error.value.params["ids"]] == [s.id for s in seeks]
    assert db_dump(db) == before
    assert (await post(service, host=11, game="polygo")).challenge.host_id == 11  # per player
    await service.challenges.cancel(seeks[0].id, 10)  # withdrawing one frees a place
    assert (await post(service, game="polygo")).challenge.game == "polygo"


async def test_seeks_expire_on_their_own_setting(service, clock):
    service.challenges.seek_expiry = timedelta(days=3)
    service.challenges.challenge_expiry = timedelta(days=10)
    seek = await post(service)
    challenge = await service.challenges.challenge("palago", 11, guild_id=GUILD, channel_id=CHANNEL)
    assert await service.challenges.next_challenge_expiry() == seek.expires_at
    assert await service.challenges.expire_challenges(seek.expires_at - timedelta(seconds=1)) == []
    expired = await service.challenges.expire_challenges(seek.expires_at)
    assert [(c.id, c.status) for c in expired] == [(seek.id, "expired")]
    rows = [i for i in await service.outbox.pending_outbox() if i.kind == "seek_expired"]
    assert [(r.payload, r.guild_id) for r in rows] == [({"challenge_id": seek.id}, GUILD)]
    challenges = service.challenges
    assert (await challenges.get_challenge(challenge.id)).status == "open"  # its own 10 days
    assert await challenges.next_challenge_expiry() == challenge.created_at + timedelta(days=10)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(seek.id, 20)
    assert error.value.key == "seeks.errors.expired" and error.value.params["days"] == 3


async def test_an_expired_seek_is_refused_before_the_scheduler_closes_it(service, clock):
    service.challenges.seek_expiry = timedelta(days=2)
    seek = await post(service)
    clock.now = seek.expires_at
    assert (await service.seeks.lobby(GUILD)).seeks == ()
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(seek.id, 20)
    assert error.value.key == "seeks.errors.expired"
    assert await service.seeks.open_seeks_of(10, GUILD) == []


async def test_withdrawing_seeks(service, db):
    first, second = await post(service), await post(service, game="palam")
    with pytest.raises(ChallengeError) as error:
        await service.challenges.cancel(first.id, 20)
    assert error.value.key == "errors.not_the_host"
    assert (await service.challenges.cancel(first.id, 10)).status == "cancelled"
    withdrawn = await service.seeks.withdraw_seeks(10, GUILD)
    assert [(c.id, c.status) for c in withdrawn] == [(second.id, "cancelled")]
    assert await service.seeks.withdraw_seeks(10, GUILD) == []
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(second.id, 20)
    assert error.value.key == "errors.challenge_closed"


async def test_a_double_join_starts_one_game(service, db):
    seek = await post(service)
    accept = service.challenges.accept
    results = await asyncio.gather(accept(seek.id, 20), accept(seek.id, 30), accept(seek.id, 20),
                                   return_exceptions=True)
    games = [r for r in results if not isinstance(r, Exception)]
    refusals = [r for r in results if isinstance(r, Exception)]
    assert len(games) == 1 and len(refusals) == 2
    assert all(isinstance(r, ChallengeError) and r.key == "errors.challenge_closed"
               for r in refusals)
    assert (await service.challenges.get_challenge(seek.id)).game_id == games[0].id


async def test_an_unrated_seek_gives_an_unrated_game(service, store, clock):
    ratings = RatingService(store, clock=clock)
    for rated in (False, True):
        seek = await post(service, rated=rated)
        info = await service.challenges.accept(seek.id, 20)
        await service.play.resign(info.id, 20)
        assert await ratings.on_game_over(info.id) is rated
    board = await ratings.leaderboard("alak")
    assert [entry.games for entry in board.glicko] == [1, 1]  # only the rated game counted


async def test_seeks_are_for_servers(service, db):
    with pytest.raises(ChallengeError) as error:
        await service.seeks.seek("alak", 10, guild_id=None, channel_id=None)
    assert error.value.key == "seeks.errors.server_only"
