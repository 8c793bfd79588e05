"""A whole elimination tournament of Alak for four users, by slash commands in the emulator:
sign-up, pairings and bracket posts, one thread per game, results, a restart, final standings,
then the leaderboard and profiles."""

from __future__ import annotations

import asyncio

import pytest

from emulator import ADMINISTRATOR, EPHEMERAL, MANAGE_GUILD
from emulator.events import PATIENCE

USERS = ("alice", "bob", "carol", "dave")


def tournaments(world):
    return world.bot.get_cog("Tournaments").tournaments


async def thread_of(world, game_id: int) -> int:
    """The game's thread, once the outbox delivery has opened it (read from the game: the
    delivery notes it there once Discord answered)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while (game := await world.services.games.get_game(game_id)).thread_id is None:
        assert loop.time() < deadline, f"game {game_id} got no thread"
        await asyncio.sleep(0.05)
    return game.thread_id


async def round_post(world, number: int, since: int):
    return await world.emu.wait_for_message(
        lambda m: f"round {number} of 2" in m.content and bool(m.files),
        channel_id=world.emu.channel_id, since=since,
    )


async def resign_losers(world, tournament_id: int, loser_of) -> None:
    """In each game of the current round, the chosen loser resigns with /resign in its thread."""
    emu = world.emu
    for board in await tournaments(world).reading.pairings(tournament_id):
        thread = await thread_of(world, board.game_id)
        await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread)
        loser = loser_of(board.first_id, board.second_id)
        user = next(u for u in emu.users.values() if u.id == loser)
        reply = await world.resign(user, thread)
        assert not reply.flags & EPHEMERAL


async def test_an_elimination_tournament_of_four(world):
    emu = world.emu
    ids = {name: emu.user(name).id for name in USERS}
    created = await (await emu.slash("alice", "tournament create", {
        "game": "alak", "format": "elimination", "name": "Alak Cup"})).reply()
    assert "Alak Cup" in created.content and not created.flags & EPHEMERAL
    (tournament,) = await tournaments(world).reading.tournaments(emu.guild_id)
    for count, name in enumerate(USERS, start=1):
        joined = await (await emu.slash(name, "tournament join", {})).reply()
        assert f"{count} player" in joined.content
    twice = await (await emu.slash("bob", "tournament join", {})).reply()
    assert twice.flags & EPHEMERAL and "already" in twice.content

    mark = emu.mark()
    started = await (await emu.slash("alice", "tournament start", {})).reply()
    assert "4 players" in started.content
    first = await round_post(world, 1, mark)
    assert first.files[0].is_png
    boards = await tournaments(world).reading.pairings(tournament.id)
    # Nobody is rated: seeds follow sign-up order, 1 v 4 and 2 v 3.
    assert [(b.first_id, b.second_id) for b in boards] == [
        (ids["alice"], ids["dave"]), (ids["bob"], ids["carol"])]
    for board in boards:
        assert f"<@{board.first_id}> – <@{board.second_id}>" in first.content

    # The bot restarts between the pairings and the games: nothing is lost.
    await world.restart()
    mark = emu.mark()
    # The higher id loses: alice and bob go through.
    await resign_losers(world, tournament.id, max)
    second = await round_post(world, 2, mark)
    assert f"<@{ids['alice']}> – <@{ids['bob']}>" in second.content
    assert second.files[0].is_png

    mark = emu.mark()
    await resign_losers(world, tournament.id, lambda a, b: ids["alice"])
    final = await emu.wait_for_message(lambda m: "final standings" in m.content,
                                       channel_id=emu.channel_id, since=mark)
    assert final.files and final.files[0].is_png
    lines = final.content.splitlines()
    assert lines[1].startswith(f"1. <@{ids['bob']}>")
    assert lines[2].startswith(f"2. <@{ids['alice']}>")

    table = await (await emu.slash("carol", "tournament standings",
                                   {"tournament": tournament.id})).reply()
    assert "finished" in table.content and table.files

    board = await (await emu.slash("dave", "leaderboard", {"game": "alak"})).reply()
    assert f"1. <@{ids['bob']}>" in board.content and "?" in board.content
    profile = await (await emu.slash("dave", "profile", {"user": "bob"})).reply()
    assert "Alak" in profile.content and "2 games" in profile.content


async def test_tournament_commands_answer_privately_when_refused(world):
    emu = world.emu
    nothing = await (await emu.slash("bob", "tournament start", {})).reply()
    assert nothing.flags & EPHEMERAL and "no tournament" in nothing.content.lower()
    await (await emu.slash("alice", "tournament create",
                           {"game": "alak", "format": "swiss"})).reply()
    alone = await (await emu.slash("alice", "tournament start", {})).reply()
    assert alone.flags & EPHEMERAL and "at least 2" in alone.content
    wrong = await (await emu.slash("alice", "tournament create",
                                   {"game": "alak", "format": "lppg_match"})).reply()
    assert wrong.flags & EPHEMERAL and "LPPG" in wrong.content


async def open_tournament(world, organiser: str, players: tuple[str, ...]):
    """``organiser`` (not the server's owner) opens a round robin that ``players`` join."""
    emu = world.emu
    assert emu.user(organiser) is not emu.owner, "the owner may manage anything"
    await (await emu.slash(organiser, "tournament create",
                           {"game": "alak", "format": "round_robin"})).reply()
    (tournament,) = await tournaments(world).reading.tournaments(emu.guild_id, active_only=True)
    for name in players:
        await (await emu.slash(name, "tournament join", {})).reply()
    return tournament


async def test_a_plain_member_may_not_manage_someone_elses_tournament(world):
    emu = world.emu
    tournament = await open_tournament(world, "bob", ("bob", "carol", "dave"))
    before = await tournaments(world).reading.get(tournament.id)
    for path, options in (("tournament start", {}), ("tournament cancel", {}),
                          ("tournament kick", {"player": "dave"})):
        refused = await (await emu.slash("carol", path, options)).reply()
        assert refused.flags & EPHEMERAL, path
        assert "Only the organiser" in refused.content, path
    after = await tournaments(world).reading.get(tournament.id)
    assert after.status == before.status == "signup"
    assert after.players == before.players
    assert emu.user("dave").id in after.players


@pytest.mark.parametrize("right", [MANAGE_GUILD, ADMINISTRATOR],
                         ids=["manage_server", "administrator"])
async def test_a_server_manager_may_manage_someone_elses_tournament(world, right):
    emu = world.emu
    tournament = await open_tournament(world, "bob", ("bob", "carol", "dave"))
    emu.grant("carol", right)  # a player, not the organiser
    kicked = await (await emu.slash("carol", "tournament kick", {"player": "dave"})).reply()
    assert not kicked.flags & EPHEMERAL
    assert emu.user("dave").id not in (await tournaments(world).reading.get(tournament.id)).players
    started = await (await emu.slash("carol", "tournament start", {})).reply()
    assert not started.flags & EPHEMERAL and "2 players" in started.content
    assert (await tournaments(world).reading.get(tournament.id)).status == "running"
    cancelled = await (await emu.slash("carol", "tournament cancel",
                                       {"tournament": tournament.id})).reply()
    assert not cancelled.flags & EPHEMERAL
    assert (await tournaments(world).reading.get(tournament.id)).status == "cancelled"


async def test_a_failing_game_over_listener_keeps_the_row_for_a_retry(world):
    emu = world.emu
    calls = []

    async def flaky(game_id):
        calls.append(game_id)
        if len(calls) == 1:
            raise RuntimeError("database briefly unavailable")

    world.bot.delivery.on_game_over(flaky)
    challenge = await world.services.challenges.challenge("alak", emu.user("alice").id,
                                                          opponent_id=emu.user("bob").id,
                                                          channel_id=emu.channel_id)
    game = await world.services.challenges.accept(challenge.id, emu.user("bob").id)
    await world.bot.delivery.flush(game.id)  # the thread and the first board
    await world.services.play.resign(game.id, emu.user("bob").id)
    with pytest.raises(RuntimeError):
        await world.bot.delivery.flush(game.id)
    pending = [i.kind for i in await world.services.outbox.pending_outbox(game_id=game.id)]
    assert pending and pending[-1] == "game_over"
    await world.bot.delivery.flush(game.id)
    assert await world.services.outbox.pending_outbox(game_id=game.id) == []
    assert calls == [game.id, game.id]
    # The real listener rated the game once although it heard of it twice.
    ratings = await world.bot.get_cog("Tournaments").ratings.glicko_of(
        "alak", [emu.user("alice").id])
    assert ratings[emu.user("alice").id].games == 1


async def test_the_tournament_commands_are_localised_in_french(world):
    commands = {c["name"]: c for c in world.emu.commands[None]}
    tournament = commands["tournament"]
    assert (tournament.get("name_localizations") or {}).get("fr") == "tournoi"
    subs = {o["name"]: o for o in tournament["options"]}
    assert set(subs) == {"create", "join", "leave", "kick", "start", "cancel", "standings",
                         "pairings", "list", "add-ai"}
    assert subs["add-ai"]["name_localizations"]["fr"] == "ajouter-ia"
    create = {o["name"]: o for o in subs["create"]["options"]}
    assert create["grace_hours"]["name_localizations"]["fr"] == "délai_de_grâce"
    formats = {c["value"]: c for c in create["format"]["choices"]}
    assert formats["swiss"]["name_localizations"]["fr"] == "système suisse"
    assert commands["leaderboard"]["name_localizations"]["fr"] == "palmarès"
