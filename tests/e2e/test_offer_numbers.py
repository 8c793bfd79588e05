"""Seeks, open challenges and tables are numbered apart from games: a game is "#9" ("n°9" in
French) everywhere, a seek "S7" ("P7"), an open challenge "C8" ("D8"), a table "T10", in the
lobby, on its Join buttons, in /unseek and in the refusals that name them, so that joining
seek S7 and being told "#9 has started" is not a puzzle. The numbers themselves (and every
stored id and button) stay as they were."""

from __future__ import annotations

import pytest

from bot.services.seeks import MAX_OPEN_SEEKS
from tests.e2e.test_seeks import LOCALES, plain

MARKS = {"en": {"seek": "S", "challenge": "C", "table": "T", "game": "#",
                "join": "Join", "none": "There is no seek"},
         "fr": {"seek": "P", "challenge": "D", "table": "T", "game": "n°",
                "join": "Rejoindre", "none": "Il n'y a pas de proposition"}}


@pytest.fixture(params=["en", "fr"])
async def lang(request, world):
    if request.param == "fr":
        await world.services.settings.set_guild_settings(world.emu.guild_id, locale="fr")
    return request.param


async def test_the_lobby_numbers_offers_apart_from_games(world, lang):
    emu, marks, locale = world.emu, MARKS[lang], LOCALES[lang]
    # A game first, so that game numbers and offer numbers overlap.
    challenges = world.services.challenges
    first = await challenges.challenge("alak", emu.user("carol").id,
                                       opponent_id=emu.user("dave").id)
    await challenges.accept(first.id, emu.user("dave").id)
    await (await emu.slash("alice", "seek", {"game": "alak"}, locale=locale)).reply()
    offer = await world.challenge("carol", "palago", {})
    table = await world.challenge("dave", "kolory", {"players": 3})
    seek_id = (await world.services.seeks.open_seeks_of(emu.user("alice").id,
                                                         emu.guild_id))[0].id
    challenge_id = int(offer.buttons()[0]["custom_id"].split(":")[2])
    table_id = int(table.buttons()[0]["custom_id"].split(":")[2])
    listed = await (await emu.slash("bob", "lobby", {}, locale=locale)).reply()
    content = plain(listed.content)
    for kind, number in (("seek", seek_id), ("challenge", challenge_id), ("table", table_id)):
        assert f"`{marks[kind]}{number}`" in content, (kind, content)
    assert "`#" not in content and "`n°" not in content
    labels = [b["label"] for b in listed.buttons()]
    assert labels == [f"{marks['join']} {marks['seek']}{seek_id}",
                      f"{marks['join']} {marks['challenge']}{challenge_id}",
                      f"{marks['join']} {marks['table']}{table_id}"]
    # Joined: the game it started is "#N" / "n°N", the seek was not.
    mark = emu.mark()
    await emu.click("bob", listed, label=labels[0], locale=locale)
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await world.services.games.game_for_thread(board.channel_id)
    assert game.id != seek_id or marks["seek"] != marks["game"]
    missing = await (await emu.slash("alice", "unseek", {"seek": 999},
                                     locale=locale)).reply()
    assert plain(missing.content).startswith(f"{marks['none']} {marks['seek']}999")


async def test_unseek_and_the_limit_name_seeks_by_their_number(world, lang):
    emu, marks, locale = world.emu, MARKS[lang], LOCALES[lang]
    for _ in range(MAX_OPEN_SEEKS):
        await (await emu.slash("alice", "seek", {"game": "alak"}, locale=locale)).reply()
    ids = [s.id for s in await world.services.seeks.open_seeks_of(emu.user("alice").id,
                                                                  emu.guild_id)]
    refused = await (await emu.slash("alice", "seek", {"game": "alak"}, locale=locale)).reply()
    assert ", ".join(f"{marks['seek']}{i}" for i in sorted(ids)) in plain(refused.content)
    choices = await emu.autocomplete("alice", "unseek", {"seek": f"{marks['seek']}{ids[0]}"},
                                     focused="seek", locale=locale)
    assert [c["name"].split()[0] for c in choices] == [f"{marks['seek']}{ids[0]}"]
    withdrawn = await (await emu.slash("alice", "unseek", {"seek": ids[0]},
                                       locale=locale)).reply()
    assert f"{marks['seek']}{ids[0]}." in plain(withdrawn.content)
