"""Challenges, open challenges and lobbies: who may do what, and refusals change nothing."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.services import ChallengeError, NotFound
from tests.bot.services.conftest import SEED
from tests.bot.store.dbutil import db_dump, query


async def test_direct_challenge_accepted_starts_a_game(service, db):
    challenge = await service.challenges.challenge("alak", 10, opponent_id=20, guild_id=5,
                                                   channel_id=6)
    assert challenge.status == "open"
    assert challenge.joined == (10,)
    assert challenge.options == {"length": 11}  # defaults filled in
    info = await service.challenges.accept(challenge.id, 20)
    assert info.seats == (10, 20)  # the host is seat 0 and moves first
    assert info.status == "active" and info.to_move == 0 and info.ply == 0
    assert info.user_to_move() == 10
    assert (info.guild_id, info.channel_id) == (5, 6)
    after = await service.challenges.get_challenge(challenge.id)
    assert after.status == "accepted" and after.game_id == info.id
    assert after.joined == (10, 20)
    outbox = await service.outbox.pending_outbox()
    assert [(o.kind, o.payload) for o in outbox] == [
        ("game_started", {"game_id": info.id, "ply": 0, "version": 0})]
    assert query(db, "SELECT seed FROM games") == [(SEED,)]


async def test_open_challenge_can_be_accepted_by_anyone_but_not_declined(service, db):
    challenge = await service.challenges.challenge("alak", 10)
    assert challenge.opponent_id is None
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.decline(challenge.id, 30)
    assert error.value.key == "errors.decline_open"
    assert db_dump(db) == before
    info = await service.challenges.accept(challenge.id, 30)
    assert info.seats == (10, 30)


async def test_decline_by_the_opponent(service):
    challenge = await service.challenges.challenge("alak", 10, opponent_id=20)
    declined = await service.challenges.decline(challenge.id, 20)
    assert declined.status == "declined"
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(challenge.id, 20)
    assert error.value.key == "errors.challenge_closed"


async def test_cancel_by_the_host_only(service, db):
    challenge = await service.challenges.challenge("alak", 10, opponent_id=20)
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.cancel(challenge.id, 20)
    assert error.value.key == "errors.not_the_host"
    assert db_dump(db) == before
    assert (await service.challenges.cancel(challenge.id, 10)).status == "cancelled"


async def test_challenge_message_is_saved(service):
    challenge = await service.challenges.challenge("alak", 10)
    await service.challenges.set_challenge_message(challenge.id, 777)
    assert (await service.challenges.get_challenge(challenge.id)).message_id == 777
    with pytest.raises(NotFound):
        await service.challenges.set_challenge_message(999, 1)


def _refusals():
    """(name, action, expected key): each must leave the database as it was."""

    async def own(service, cid):
        await service.challenges.accept(cid, 10)

    async def not_for_you(service, cid):
        await service.challenges.accept(cid, 30)

    async def decline_not_for_you(service, cid):
        await service.challenges.decline(cid, 30)

    async def unknown(service, cid):
        await service.challenges.accept(cid + 100, 20)

    async def accept_again(service, cid):
        await service.challenges.accept(cid, 20)

    async def join_direct_by_other(service, cid):
        await service.challenges.join(cid, 30)

    async def leave_not_joined(service, cid):
        await service.challenges.leave(cid, 30)

    async def host_leaves(service, cid):
        await service.challenges.leave(cid, 10)

    async def start_not_full(service, cid):
        await service.challenges.start(cid, 10)

    return [
        ("accept_own", own, "errors.challenge_own"),
        ("accept_not_for_you", not_for_you, "errors.challenge_not_for_you"),
        ("decline_not_for_you", decline_not_for_you, "errors.challenge_not_for_you"),
        ("unknown_id", unknown, "errors.challenge_not_found"),
        ("accept_twice", accept_again, "errors.challenge_closed"),
        ("join_direct_by_other", join_direct_by_other, "errors.challenge_not_for_you"),
        ("leave_not_joined", leave_not_joined, "errors.not_joined"),
        ("host_leaves", host_leaves, "errors.host_cannot_leave"),
        ("start_alone", start_not_full, "errors.lobby_too_few"),
    ]


@pytest.mark.parametrize("name,action,key", _refusals(), ids=[r[0] for r in _refusals()])
async def test_refused_challenge_actions_change_nothing(service, db, name, action, key):
    challenge = await service.challenges.challenge("alak", 10, opponent_id=20)
    if name == "accept_twice":
        await service.challenges.accept(challenge.id, 20)
    before = db_dump(db)
    with pytest.raises((ChallengeError, NotFound)) as error:
        await action(service, challenge.id)
    assert error.value.key == key
    assert error.value.message  # an English text for the logs
    assert db_dump(db) == before


@pytest.mark.parametrize(
    "kwargs,key",
    [
        ({"game": "chess"}, "errors.unknown_game"),
        ({"players": 3}, "errors.bad_player_count"),
        ({"options": {"colour": "red"}}, "errors.unknown_option"),
        ({"options": {"length": 99}}, "errors.bad_option"),
        ({"opponent_id": 10}, "errors.challenge_self"),
    ],
)
async def test_invalid_challenges_create_nothing(service, db, kwargs, key):
    before = db_dump(db)
    arguments = {"game": "alak", "host_id": 10, **kwargs}
    with pytest.raises(ChallengeError) as error:
        await service.challenges.challenge(**arguments)
    assert error.value.key == key
    assert db_dump(db) == before


async def test_options_given_as_text_are_validated_and_stored(service):
    challenge = await service.challenges.challenge("alak", 10, options={"length": "15"})
    assert challenge.options == {"length": 15}
    info = await service.challenges.accept(challenge.id, 20)
    assert info.state.length == 15


# ----- lobbies (the test-only game "tally" takes 2 to 5 players) --------------------------


async def test_lobby_fills_and_the_host_starts(service, tally):
    lobby = await service.challenges.challenge("tally", 1, players=4, options={"target": 15})
    assert lobby.is_lobby and not lobby.is_full
    await service.challenges.join(lobby.id, 3)
    await service.challenges.join(lobby.id, 2)
    lobby = await service.challenges.join(lobby.id, 4)
    assert lobby.joined == (1, 3, 2, 4) and lobby.is_full
    info = await service.challenges.start(lobby.id, 1)
    assert info.seats == (1, 3, 2, 4)  # joining order
    assert info.options == {"target": 15}
    assert (await service.challenges.get_challenge(lobby.id)).status == "started"


async def test_lobby_leave_frees_the_place(service, tally):
    lobby = await service.challenges.challenge("tally", 1, players=3)
    await service.challenges.join(lobby.id, 2)
    await service.challenges.join(lobby.id, 3)
    left = await service.challenges.leave(lobby.id, 2)
    assert left.joined == (1, 3)
    lobby = await service.challenges.join(lobby.id, 4)
    assert lobby.joined == (1, 3, 4)
    info = await service.challenges.start(lobby.id, 1)
    assert info.seats == (1, 3, 4)


@pytest.mark.parametrize(
    "action,key",
    [
        ("join_full", "errors.lobby_full"),
        ("join_twice", "errors.already_joined"),
        ("accept_lobby", "errors.challenge_is_lobby"),
        ("start_not_host", "errors.not_the_host"),
        ("start_alone", "errors.lobby_too_few"),
        ("join_cancelled", "errors.challenge_closed"),
    ],
)
async def test_lobby_refusals_change_nothing(service, db, tally, action, key):
    lobby = await service.challenges.challenge("tally", 1, players=3)
    if action != "start_alone":
        await service.challenges.join(lobby.id, 2)
    if action == "join_full":
        await service.challenges.join(lobby.id, 3)
    if action == "join_cancelled":
        await service.challenges.cancel(lobby.id, 1)
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        if action in ("join_full", "join_cancelled"):
            await service.challenges.join(lobby.id, 4)
        elif action == "join_twice":
            await service.challenges.join(lobby.id, 2)
        elif action == "accept_lobby":
            await service.challenges.accept(lobby.id, 3)
        elif action == "start_not_host":
            await service.challenges.start(lobby.id, 2)
        else:
            await service.challenges.start(lobby.id, 1)
    assert error.value.key == key
    assert db_dump(db) == before


async def test_a_lobby_cannot_name_one_opponent(service, tally, db):
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.challenge("tally", 1, players=3, opponent_id=2)
    assert error.value.key == "errors.invite_needs_two"
    assert db_dump(db) == before


async def test_open_challenges_lists_only_open_ones(service, tally):
    first = await service.challenges.challenge("alak", 1, guild_id=7)
    second = await service.challenges.challenge("tally", 2, players=3, guild_id=7)
    other_guild = await service.challenges.challenge("alak", 3, guild_id=8)
    await service.challenges.join(second.id, 5)
    await service.challenges.accept(first.id, 4)
    listed = await service.challenges.open_challenges(7)
    assert [c.id for c in listed] == [second.id]
    assert listed[0].joined == (2, 5)
    assert {c.id for c in await service.challenges.open_challenges()} == {second.id, other_guild.id}


async def test_two_accepts_racing_start_one_game(service, db):
    challenge = await service.challenges.challenge("alak", 1)
    results = await asyncio.gather(
        service.challenges.accept(challenge.id, 2), service.challenges.accept(challenge.id, 3),
        return_exceptions=True,
    )
    started = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, ChallengeError)]
    assert len(started) == 1 and len(refused) == 1
    assert query(db, "SELECT COUNT(*) FROM games") == [(1,)]



# ----- starting with the players present, withdrawing, duplicates, expiry -----------------


async def test_ruling_a_lobby_starts_with_the_players_present_when_the_game_allows(service):
    lobby = await service.challenges.challenge("kolory", 1, players=5)
    await service.challenges.join(lobby.id, 2)
    await service.challenges.join(lobby.id, 3)
    info = await service.challenges.start(lobby.id, 1)
    assert info.seats == (1, 2, 3) and info.state.players == 3


async def test_ruling_lppg_starts_with_two_or_four_never_three(service, db):
    lobby = await service.challenges.challenge("lppg", 1, players=4)
    await service.challenges.join(lobby.id, 2)
    await service.challenges.join(lobby.id, 3)
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.start(lobby.id, 1)
    assert error.value.key == "errors.lobby_too_few"
    assert error.value.params["allowed"] == "2, 4" and error.value.params["joined"] == 3
    assert db_dump(db) == before
    await service.challenges.leave(lobby.id, 3)
    assert (await service.challenges.start(lobby.id, 1)).seats == (1, 2)


async def test_the_sender_withdraws_a_named_challenge(service):
    challenge = await service.challenges.challenge("alak", 10, opponent_id=20)
    withdrawn = await service.challenges.cancel(challenge.id, 10)
    assert withdrawn.status == "cancelled"
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(challenge.id, 20)
    assert error.value.key == "errors.challenge_closed"


@pytest.mark.parametrize("opponent", [20, None], ids=["named", "open"])
async def test_ruling_the_same_challenge_twice_is_refused_while_open(service, db, opponent):
    first = await service.challenges.challenge("alak", 10, opponent_id=opponent, guild_id=5)
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.challenge("alak", 10, opponent_id=opponent, guild_id=5,
                                           options={"length": 13})
    assert error.value.key == "errors.challenge_twice"
    assert error.value.params["challenge_id"] == first.id
    assert db_dump(db) == before
    # Another game, another opponent or another server is another challenge.
    await service.challenges.challenge("palam", 10, opponent_id=opponent, guild_id=5)
    await service.challenges.challenge("alak", 10, opponent_id=30, guild_id=5)
    await service.challenges.challenge("alak", 10, opponent_id=opponent, guild_id=6)
    # Once the first is withdrawn, it may be sent again.
    await service.challenges.cancel(first.id, 10)
    await service.challenges.challenge("alak", 10, opponent_id=opponent, guild_id=5)


async def test_ruling_challenges_expire_after_the_configured_days(service, db, clock):
    service.challenges.challenge_expiry = timedelta(days=3)
    old = await service.challenges.challenge("alak", 10, opponent_id=20, guild_id=5)
    clock.now += timedelta(days=1)
    young = await service.challenges.challenge("kolory", 10, players=3, guild_id=5)
    assert await service.challenges.next_challenge_expiry() == old.created_at + timedelta(days=3)
    assert await service.challenges.expire_challenges(clock.now + timedelta(days=1)) == []
    expired = await service.challenges.expire_challenges(old.created_at + timedelta(days=3))
    assert [(c.id, c.status) for c in expired] == [(old.id, "expired")]
    rows = [i for i in await service.outbox.pending_outbox() if i.kind == "challenge_expired"]
    assert [(r.game_id, r.payload) for r in rows] == [(None, {"challenge_id": old.id})]
    # Its message is changed by the process holding the challenge's server (bot.sharding).
    assert [r.guild_id for r in rows] == [5]
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(old.id, 20)
    assert error.value.key == "errors.challenge_expired" and error.value.params["days"] == 3
    assert await service.challenges.next_challenge_expiry() == young.created_at + timedelta(days=3)
    # Expired, it no longer stands in the way of the same challenge.
    await service.challenges.challenge("alak", 10, opponent_id=20, guild_id=5)


async def test_a_challenge_past_its_expiry_is_refused_before_the_scheduler_runs(
    service, db, clock
):
    challenge = await service.challenges.challenge("alak", 10, opponent_id=20)
    clock.now += service.challenges.challenge_expiry
    before = db_dump(db)
    with pytest.raises(ChallengeError) as error:
        await service.challenges.accept(challenge.id, 20)
    assert error.value.key == "errors.challenge_expired"
    assert db_dump(db) == before


async def test_a_server_default_time_control_applies_when_play_gives_none(service):
    await service.settings.set_guild_settings(5, locale="fr", settings={"time_control": "3d"})
    defaulted = await service.challenges.challenge("alak", 10, opponent_id=20, guild_id=5)
    assert await service.challenges.challenge_time_control(defaulted.id) == "3d"
    chosen = await service.challenges.challenge("palam", 10, opponent_id=20, guild_id=5,
                                                time_control="untimed")
    assert await service.challenges.challenge_time_control(chosen.id) == "untimed"
    elsewhere = await service.challenges.challenge("alak", 10, opponent_id=20, guild_id=6)
    assert await service.challenges.challenge_time_control(elsewhere.id) is None
