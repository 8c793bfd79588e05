"""Servers are kept apart: a tournament or a game of another server, named by its number, is
refused like a number that does not exist, and nothing of it changes or shows.

The emulator hosts one server; "server A" here is another server the bot also serves: its
tournament and game are made through the services exactly as the commands typed there would
make them (the bot need not see that server to keep its objects apart). Everything typed in the
emulator's server then plays the member of another server trying to reach them.
"""

from __future__ import annotations

import pytest

from emulator import EPHEMERAL, MANAGE_GUILD

#: A server other than the emulator's, and a channel of it.
SERVER_A = 4_100_000_000_000_000_001
CHANNEL_A = 4_100_000_000_000_000_002


def tournaments(world):
    return world.bot.get_cog("Tournaments").tournaments


def expect_posts_to_server_a_refused(world) -> None:
    """Server A's channel is not hosted by the emulator, so the outbox's posts there (the
    board, the move) are refused as an unknown channel, whenever the worker gets to them.
    Those refusals, and only those, are expected; the test checks none other happened."""
    world.refusals_expected = True


def refusals_elsewhere(world) -> list:
    return [r for r in world.emu.refusals if str(CHANNEL_A) not in r.path]


async def test_another_servers_tournament_cannot_be_managed_or_read(world):
    emu = world.emu
    expect_posts_to_server_a_refused(world)
    ids = {name: emu.user(name).id for name in ("alice", "bob", "carol", "dave")}
    service = tournaments(world)
    cup = await service.signup.create(ids["alice"], "alak", "swiss", name="Server A Cup",
                                      guild_id=SERVER_A, channel_id=CHANNEL_A)
    for name in ("alice", "bob", "carol"):
        await service.signup.join(cup.id, ids[name], guild_id=SERVER_A)
    # In her own server carol may manage (and is in the tournament); alice is its organiser.
    emu.grant("carol", MANAGE_GUILD)
    attempts = [
        ("carol", "tournament kick", {"player": "bob"}),
        ("carol", "tournament cancel", {}),
        ("carol", "tournament start", {}),
        ("alice", "tournament cancel", {}),
        ("carol", "tournament leave", {}),
        ("dave", "tournament join", {}),
        ("dave", "tournament standings", {}),
        ("dave", "tournament pairings", {}),
    ]
    for user, path, options in attempts:
        reply = await (await emu.slash(user, path, {**options, "tournament": cup.id})).reply()
        assert reply.flags & EPHEMERAL, path
        assert reply.content == f"There is no tournament #{cup.id} on this server.", path
        assert not reply.files, path
    after = await service.reading.get(cup.id)
    assert after.status == "signup"
    assert after.players == (ids["alice"], ids["bob"], ids["carol"])
    # Without a number, the commands only ever find this server's tournaments.
    none = await (await emu.slash("carol", "tournament cancel", {})).reply()
    assert none.flags & EPHEMERAL and "no tournament in sign-up or running" in none.content
    assert refusals_elsewhere(world) == []


@pytest.mark.parametrize("command", ["board", "record", "replay", "watch", "claim"])
async def test_another_servers_game_is_refused_like_an_unknown_number(world, command):
    emu = world.emu
    expect_posts_to_server_a_refused(world)
    alice, bob = emu.user("alice").id, emu.user("bob").id
    game = await world.services.challenges.create_game("alak", (alice, bob), guild_id=SERVER_A,
                                                       channel_id=CHANNEL_A)
    await world.services.play.move(game.id, alice, "f")
    before = await world.services.games.get_game(game.id)
    for number in (game.id, game.id + 1000):  # a foreign number and one that does not exist
        # Even a player of that game is refused from another server.
        reply = await (await emu.slash("bob", command, {"game": number})).reply()
        assert reply.flags & EPHEMERAL
        assert reply.content == f"There is no game #{number} on this server."
        assert not reply.files
    after = await world.services.games.get_game(game.id)
    assert (after.version, after.status) == (before.version, before.status)
    assert emu.threads() == []  # /watch added nobody anywhere
    assert refusals_elsewhere(world) == []


async def test_this_servers_game_still_answers_by_number(world):
    """The check keeps a server's own games reachable by number from any of its channels."""
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    game = await world.services.games.game_for_thread(first.channel_id)
    reply = await (await emu.slash("carol", "board", {"game": game.id})).reply()
    assert not reply.flags & EPHEMERAL and reply.files and reply.files[0].is_png
