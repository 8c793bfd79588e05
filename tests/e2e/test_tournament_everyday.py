"""Tournament and rating commands as players and organisers meet them, through the real
discord.py client and the emulator: options out of range, rounds that do not exist, names with
mentions, removed players, tournament numbers (autocomplete, no guessing, the list), and
leaderboards per server answered privately on request."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import EPHEMERAL
from tests.e2e.test_tournament import open_tournament, thread_of, tournaments


def allowed_mentions(world, message) -> dict[str, Any]:
    """What the bot sent as ``allowed_mentions`` with this message."""
    for request in reversed(world.emu.requests):
        payload = request.payload
        if not isinstance(payload, dict):
            continue
        body = payload.get("data") if isinstance(payload.get("data"), dict) else payload
        if body.get("content") == message.content:
            return body.get("allowed_mentions") or {}
    raise AssertionError(f"no request sent {message.content!r}")


def pings_nobody(mentions: dict[str, Any]) -> bool:
    return mentions.get("parse") == [] and not mentions.get("users")


async def reply(world, user: str, path: str, options: dict | None = None, **kwargs):
    return await (await world.emu.slash(user, path, options or {}, **kwargs)).reply()


# ----- options and rounds ---------------------------------------------------------------------


async def test_options_out_of_range_are_refused_clearly_and_change_nothing(world):
    # Numbers outside an option's declared range never reach the bot: Discord's client (the
    # emulator here) refuses to send them.
    for options in ({"game": "alak", "format": "swiss", "rounds": -1},
                    {"game": "alak", "format": "swiss", "grace_hours": 999}):
        with pytest.raises(LookupError, match="takes a number from"):
            await reply(world, "alice", "tournament create", options)
    cases = [
        ({"game": "alak", "format": "swiss", "name": "x" * 61}, "at most 60 characters"),
        ({"game": "alak", "format": "round_robin", "rounds": 3}, "Swiss tournament only"),
    ]
    for options, said in cases:
        refused = await reply(world, "alice", "tournament create", options)
        assert refused.flags & EPHEMERAL and said in refused.content, options
    assert await tournaments(world).reading.tournaments(world.emu.guild_id, active_only=False) == []


async def test_a_round_that_does_not_exist_is_refused(world):
    tournament = await open_tournament(world, "bob", ("bob", "carol", "dave"))
    early = await reply(world, "bob", "tournament pairings", {"round": 1})
    assert early.flags & EPHEMERAL and "has not started" in early.content
    await reply(world, "bob", "tournament start")
    total = (await tournaments(world).reading.get(tournament.id)).total_rounds
    for number, said in ((99, f"has no round 99: its rounds are numbered 1 to {total}"),
                         (2, "Round 2 of Alak is not paired yet: round 1 is being played")):
        refused = await reply(world, "carol", "tournament pairings", {"round": number})
        assert refused.flags & EPHEMERAL and said in refused.content, number
    # Out of the options' declared ranges: refused by Discord's client (the emulator) unsent.
    with pytest.raises(LookupError, match="takes a number from"):
        await reply(world, "carol", "tournament pairings", {"round": 0})
    with pytest.raises(LookupError, match="takes a number from"):
        await reply(world, "carol", "tournament standings", {"tournament": 10**17})
    shown = await reply(world, "carol", "tournament pairings", {"round": 1})
    assert not shown.flags & EPHEMERAL and "round 1 of 3" in shown.content
    standings = await reply(world, "carol", "tournament standings")
    assert "no round completed yet" in standings.content and "after round 1" not in (
        standings.content)


# ----- names ----------------------------------------------------------------------------------


async def test_a_name_with_mentions_is_cleaned_and_never_pings(world):
    emu = world.emu
    alice = emu.user("alice").id
    created = await reply(world, "bob", "tournament create", {
        "game": "alak", "format": "elimination", "name": f"@everyone 🎉 <@{alice}> **Cup**"})
    assert not created.flags & EPHEMERAL
    (tournament,) = await tournaments(world).reading.tournaments(emu.guild_id)
    assert tournament.name == "everyone 🎉 **Cup**"
    assert "@everyone" not in created.content and f"<@{alice}>" not in created.content
    assert r"everyone 🎉 \*\*Cup\*\*" in created.content
    assert pings_nobody(allowed_mentions(world, created))
    empty = await reply(world, "bob", "tournament create",
                        {"game": "alak", "format": "swiss", "name": f"<@{alice}>"})
    assert empty.flags & EPHEMERAL and "nothing left to show" in empty.content


# ----- removed players ------------------------------------------------------------------------


async def test_a_kicked_player_is_announced_as_removed_and_listed_apart(world):
    emu = world.emu
    ids = {name: emu.user(name).id for name in ("bob", "carol", "dave", "alice")}
    tournament = await open_tournament(world, "bob", ("bob", "carol", "dave", "alice"))
    await reply(world, "bob", "tournament start")
    board = next(b for b in await tournaments(world).reading.pairings(tournament.id)
                 if ids["dave"] in (b.first_id, b.second_id))
    thread = await thread_of(world, board.game_id)
    mark = emu.mark()
    kicked = await reply(world, "bob", "tournament kick", {"player": "dave"})
    assert not kicked.flags & EPHEMERAL
    assert kicked.content == (
        f"<@{ids['bob']}> removed <@{ids['dave']}> from **Alak** (#{tournament.id}): they will "
        f"not be paired again. Their game in progress (#{board.game_id}) is lost by forfeit.")
    assert pings_nobody(allowed_mentions(world, kicked))
    said = await emu.wait_for_message(lambda m: "lost by forfeit" in m.content,
                                      channel_id=thread, since=mark)
    assert "removed" in said.content and "resigned" not in said.content
    over = await emu.wait_for_message(lambda m: "removed from the tournament" in m.content,
                                      channel_id=thread, since=mark)
    assert "resigned" not in over.content
    table = await reply(world, "carol", "tournament standings")
    last = table.content.splitlines()[-1]
    assert last.startswith(f"– <@{ids['dave']}>") and "(removed by the organiser)" in last
    assert "Players (3)" in table.content and f"Left: <@{ids['dave']}>" in table.content


# ----- which tournament -----------------------------------------------------------------------


async def test_numbers_autocomplete_and_several_open_tournaments_are_never_guessed(world):
    emu = world.emu
    await reply(world, "bob", "tournament create",
                {"game": "alak", "format": "swiss", "name": "Bob's Swiss"})
    await reply(world, "carol", "tournament create",
                {"game": "alak", "format": "round_robin", "name": "Carol's Round"})
    bobs, carols = sorted(await tournaments(world).reading.tournaments(emu.guild_id),
                          key=lambda x: x.id)
    asked = await reply(world, "dave", "tournament join")
    assert asked.flags & EPHEMERAL and "Several tournaments" in asked.content
    assert "Bob's Swiss" in asked.content and "Carol's Round" in asked.content
    assert all(not x.players for x in await tournaments(world).reading.tournaments(emu.guild_id))
    # Carol's own tournament comes first for her, then the newest.
    choices = await emu.autocomplete("carol", "tournament start", {"tournament": ""},
                                     "tournament")
    assert [c["value"] for c in choices] == [carols.id, bobs.id]
    assert choices[0]["name"].startswith(f"#{carols.id} Carol's Round — Alak")
    typed = await emu.autocomplete("dave", "tournament join", {"tournament": "swi"},
                                   "tournament")
    assert [c["value"] for c in typed] == [bobs.id]
    french = await emu.autocomplete("dave", "tournament join", {"tournament": ""},
                                    "tournament", locale="fr")
    assert french[0]["name"].startswith("n°") and "inscriptions ouvertes" in french[0]["name"]
    by_number = await emu.autocomplete("dave", "tournament join",
                                       {"tournament": f"n°{carols.id}"}, "tournament",
                                       locale="fr")
    assert [c["value"] for c in by_number] == [carols.id]
    joined = await reply(world, "dave", "tournament join", {"tournament": bobs.id})
    assert "1 player so far" in joined.content
    # Dave is in one tournament only: /tournament leave needs no number.
    left = await reply(world, "dave", "tournament leave")
    assert "left the sign-up of **Bob's Swiss**" in left.content
    listed = await reply(world, "alice", "tournament list")
    lines = listed.content.splitlines()
    assert lines[1].startswith(f"#{carols.id} **Carol's Round**") and "0 players" in lines[1]
    assert lines[2].startswith(f"#{bobs.id} **Bob's Swiss**")


# ----- ratings --------------------------------------------------------------------------------


async def test_leaderboards_are_this_servers_by_default_and_answer_privately(world):
    emu = world.emu
    services = world.services
    ids = {name: emu.user(name).id for name in ("alice", "bob", "carol", "dave")}
    ratings = world.bot.get_cog("Tournaments").ratings
    # Alice beats Bob here; Carol beats Dave in a game of no server (a direct message).
    for first, second, guild in (("alice", "bob", emu.guild_id), ("carol", "dave", None)):
        challenge = await services.challenges.challenge("alak", ids[first], opponent_id=ids[second],
                                                        guild_id=guild)
        game = await services.challenges.accept(challenge.id, ids[second])
        await services.play.resign(game.id, ids[second])
        await ratings.on_game_over(game.id)
    here = await reply(world, "dave", "leaderboard", {"game": "alak"})
    assert not here.flags & EPHEMERAL and "players of this server" in here.content
    assert f"<@{ids['alice']}>" in here.content and f"<@{ids['carol']}>" not in here.content
    assert pings_nobody(allowed_mentions(world, here))
    everyone = await reply(world, "dave", "leaderboard",
                           {"game": "alak", "scope": "global", "private": True})
    assert everyone.flags & EPHEMERAL and "everyone" in everyone.content.splitlines()[0]
    assert f"<@{ids['carol']}>" in everyone.content
    profile = await reply(world, "bob", "profile", {"user": "carol", "private": True})
    assert profile.flags & EPHEMERAL
    assert "(no rated game of it on this server)" in profile.content
    mine = await reply(world, "alice", "profile")
    assert not mine.flags & EPHEMERAL
    assert "#1 on this server, #1 among everyone" in mine.content
