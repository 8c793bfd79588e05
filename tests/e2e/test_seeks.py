"""Seeks through the real client and the emulator, in both languages (the server's public
language and the users' clients together): post a seek, find it in /lobby, join it there (the
game's thread with its board), a rating range refusing a joiner, the limit of open seeks,
expiry, withdrawing (button and /unseek), and a double click that starts one game."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.services.seeks import MAX_OPEN_SEEKS
from bot.store.ratings import rating_writes
from emulator import EPHEMERAL

TEXTS = {
    "en": {"posted": "seeks a game of **Alak**", "lobby": "__Seeks__", "join": "Join",
           "join_n": "Join {kind}{id}", "started": "The game of Alak has started: <#",
           "range": "rated 1700–1900 in Alak; your rating is 1500", "withdraw": "Withdraw",
           "withdrawn": "withdrew their seek", "expired": "expired (a seek stays open 2 days)",
           "too_many": f"already have {MAX_OPEN_SEEKS} open seeks", "own": "your own seek",
           "closed": "no longer open", "challenges": "__Open challenges__",
           "tables": "__Tables waiting for players__", "unseek": "Seek withdrawn: S{id}.",
           "seek": "S", "challenge": "C", "table": "T"},
    "fr": {"posted": "propose une partie de **Alak**", "lobby": "__Propositions__",
           "join": "Rejoindre", "join_n": "Rejoindre {kind}{id}",
           "started": "La partie d'Alak a commencé : <#",
           "range": "classés 1700–1900 en Alak ; votre classement est 1500",
           "withdraw": "Retirer", "withdrawn": "a retiré sa proposition",
           "expired": "a expiré (une proposition reste ouverte 2 jours)",
           "too_many": f"déjà {MAX_OPEN_SEEKS} propositions ouvertes",
           "own": "votre propre proposition", "closed": "n'est plus ouvert",
           "challenges": "__Défis ouverts__", "tables": "__Tables en attente de joueurs__",
           "unseek": "Proposition retirée : P{id}.", "seek": "P", "challenge": "D", "table": "T"},
}
LOCALES = {"en": "en-US", "fr": "fr"}


def plain(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


async def edited(emu, message, fragment: str, since: int = 0):
    """``message`` once an edit put ``fragment`` in it."""
    event = await emu.wait_for(
        lambda e: e.kind == "edit" and e.data.id == message.id
        and fragment in plain(e.data.content), since=since)
    return event.data


@pytest.fixture(params=["en", "fr"])
async def lang(request, world):
    """The server's language, also every client's."""
    if request.param == "fr":
        await world.services.settings.set_guild_settings(world.emu.guild_id, locale="fr")
    return request.param


async def seek(world, lang, user="alice", options=None):
    interaction = await world.emu.slash(user, "seek", {"game": "alak", **(options or {})},
                                        locale=LOCALES[lang])
    return await interaction.reply()


async def lobby(world, lang, user="bob"):
    return await (await world.emu.slash(user, "lobby", {}, locale=LOCALES[lang])).reply()


async def test_seek_listed_in_the_lobby_and_joined_there(world, lang):
    emu, text = world.emu, TEXTS[lang]
    posted = await seek(world, lang, options={"time_control": "3d"})
    assert not posted.flags & EPHEMERAL and text["posted"] in plain(posted.content)
    assert emu.user("alice").mention in posted.content
    assert [b["label"] for b in posted.buttons()] == [text["join"], text["withdraw"]]
    open_challenge = await world.challenge("carol", "palago", {})
    table = await world.challenge("dave", "kolory", {"players": 3})
    seek_id = (await world.services.seeks.open_seeks_of(emu.user("alice").id, emu.guild_id))[0].id

    listed = await lobby(world, lang)
    assert listed.flags & EPHEMERAL
    content = plain(listed.content)
    assert text["lobby"] in content and "(1500)" in content and "**Alak**" in content
    assert text["challenges"] in content and "**Palago**" in content
    assert text["tables"] in content and "**Kolory**" in content
    labels = [b["label"] for b in listed.buttons()]
    assert labels[0] == text["join_n"].format(kind=text["seek"], id=seek_id)
    assert len(labels) == 3 and open_challenge.id != table.id

    mark = emu.mark()
    joined = await emu.click("bob", listed,
                             label=text["join_n"].format(kind=text["seek"], id=seek_id),
                             locale=LOCALES[lang])
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    assert board.files[0].is_png
    game = await world.services.games.game_for_thread(board.channel_id)
    assert game.seats == (emu.user("alice").id, emu.user("bob").id)
    answer = await joined.reply()
    assert answer.flags & EPHEMERAL
    # The seek's own message now points to the game's thread, without buttons.
    pointer = await edited(emu, posted, plain(text["started"]), since=mark)
    assert plain(text["started"]) in plain(pointer.content) and not pointer.buttons()
    assert f"<#{game.thread_id}>" in pointer.content
    after = plain((await lobby(world, lang)).content)
    assert "**Alak**" not in after  # taken: no longer listed


async def test_rating_range_own_seek_and_double_click(world, lang):
    emu, text = world.emu, TEXTS[lang]
    ranged = await seek(world, lang, options={"min_rating": 1700, "max_rating": 1900})
    refused = await (await emu.click("bob", ranged, label=text["join"],
                                     locale=LOCALES[lang])).reply()
    assert refused.flags & EPHEMERAL and text["range"] in plain(refused.content)
    own = await (await emu.click("alice", ranged, label=text["join"],
                                 locale=LOCALES[lang])).reply()
    assert own.flags & EPHEMERAL and text["own"] in plain(own.content)
    assert emu.messages[ranged.id].buttons()  # still open

    # A player inside the range joins; her double click starts one game.
    async with world.services.store.transaction(players=[emu.user("carol").id]) as tx:
        now = datetime.now(UTC)
        await tx.ensure_user(emu.user("carol").id, now)
        await rating_writes(tx).put_glicko(emu.user("carol").id, "alak", 1800.0, 80.0, 0.06,
                                           20, now)
    mark = emu.mark()
    first, second = await asyncio.gather(
        emu.click("carol", ranged, label=text["join"], locale=LOCALES[lang]),
        emu.click("carol", ranged, label=text["join"], locale=LOCALES[lang]))
    answers = [await first.reply(), await second.reply()]
    await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    refusals = [a for a in answers if a.flags & EPHEMERAL]
    assert len(refusals) == 1 and text["closed"] in plain(refusals[0].content)
    challenge = await world.services.challenges.get_challenge(
        int(ranged.buttons()[0]["custom_id"].split(":")[2]))
    game = await world.services.games.get_game(challenge.game_id)
    assert game.seats == (emu.user("alice").id, emu.user("carol").id)
    assert len(emu.threads()) == 1


@pytest.mark.bot_config(seek_expiry_days=2)
async def test_max_seeks_withdraw_and_expiry(world, lang):
    emu, text = world.emu, TEXTS[lang]
    posted = [await seek(world, lang) for _ in range(MAX_OPEN_SEEKS)]
    assert not any(p.flags & EPHEMERAL for p in posted)
    too_many = await seek(world, lang)
    assert too_many.flags & EPHEMERAL and text["too_many"] in plain(too_many.content)

    # Withdrawn with its button (its owner only) and with /unseek.
    stranger = await (await emu.click("bob", posted[0], label=text["withdraw"],
                                      locale=LOCALES[lang])).reply()
    assert stranger.flags & EPHEMERAL
    withdrawn = await (await emu.click("alice", posted[0], label=text["withdraw"],
                                       locale=LOCALES[lang])).reply()
    assert text["withdrawn"] in plain(withdrawn.content) and not withdrawn.buttons()
    second_id = int(posted[1].buttons()[0]["custom_id"].split(":")[2])
    mark = emu.mark()
    unseek = await (await emu.slash("alice", "unseek", {"seek": second_id},
                                    locale=LOCALES[lang])).reply()
    assert unseek.flags & EPHEMERAL
    assert plain(unseek.content) == plain(text["unseek"].format(id=second_id))
    assert not (await edited(emu, posted[1], text["withdrawn"], since=mark)).buttons()

    # The others expire (seek_expiry_days = 2 for this bot): their messages say so.
    late_seek = await seek(world, lang)
    ahead = timedelta(days=3)
    world.bot.clocks.clock = lambda: datetime.now(UTC) + ahead
    world.services.context.clock = lambda: datetime.now(UTC) + ahead
    mark = emu.mark()
    await world.bot.scheduler.run_once()
    # The expiries' edits: by this flush, or by the background delivery the scheduler woke,
    # which may hold the rows first (the flush then leaves them to it): awaited, not assumed.
    await world.bot.delivery.flush(None)
    for message in (posted[2], late_seek):
        now_reads = await edited(emu, message, text["expired"], since=mark)
        assert not now_reads.buttons()
    empty = await lobby(world, lang)
    assert "**Alak**" not in empty.content


async def test_open_challenges_and_tables_joined_from_the_lobby_after_a_restart(world, lang):
    emu, text = world.emu, TEXTS[lang]
    offer = await world.challenge("carol", "palago", {})
    table = await world.challenge("dave", "kolory", {"players": 3})
    listed = await lobby(world, lang, user="bob")
    await world.restart()  # the lobby's buttons carry their ids: they still work

    mark = emu.mark()
    seated = await (await emu.click(
        "bob", listed, label=text["join_n"].format(kind=text["table"], id=_id(table)),
        locale=LOCALES[lang])).reply()
    assert seated.flags & EPHEMERAL  # the refreshed lobby, his alone
    table_now = await edited(emu, table, "(2/3)", since=mark)
    assert emu.user("bob").mention in table_now.content

    mark = emu.mark()
    await emu.click("alice", listed,
                    label=text["join_n"].format(kind=text["challenge"], id=_id(offer)),
                    locale=LOCALES[lang])
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await world.services.games.game_for_thread(board.channel_id)
    assert game.seats == (emu.user("carol").id, emu.user("alice").id)
    pointer = await edited(emu, offer, f"<#{game.thread_id}>", since=mark)
    assert not pointer.buttons()


def _id(message) -> int:
    """The challenge number in a challenge message's first button."""
    return int(message.buttons()[0]["custom_id"].split(":")[2])


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_seek_typed_in_a_thread_is_refused_privately(world, lang):
    """A seek's game gets a thread made from the seek's message, and a thread holds no thread:
    a /seek typed in a game's thread is refused privately and nothing is posted (before this,
    the seek's later edits went to the parent channel and Discord answered 10008)."""
    emu = world.emu
    board = await world.start_game("alice", "alak", "bob")
    mark = emu.mark()
    reply = await (await emu.slash("alice", "seek", {"game": "alak"}, channel=board.channel_id,
                                   locale=LOCALES[lang])).reply()
    assert reply.flags & EPHEMERAL
    assert {"en": "not in a thread", "fr": "pas dans un fil"}[lang] in plain(reply.content)
    assert await world.services.seeks.open_seeks_of(emu.user("alice").id, emu.guild_id) == []
    posted = [e.data for e in emu.events[mark:] if e.kind == "message"]
    assert all(m.flags & EPHEMERAL for m in posted), [m.content for m in posted]
    assert emu.refusals == []
