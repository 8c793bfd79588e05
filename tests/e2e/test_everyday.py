"""The everyday rough edges of playing, through the real bot and the emulator: one move number,
/watch's refusals, the confirmation of /resign, withdrawing, repeating and expiring
challenges."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from emulator import EPHEMERAL, MANAGE_GUILD, HiddenCommand
from render.header import move_number


async def play(world, user: str, text: str, thread: int):
    reply = await (await world.emu.slash(user, "move", {"text": text}, channel=thread)).reply()
    assert not reply.ephemeral, reply.content
    return reply


async def test_board_says_the_move_to_play_next_as_the_image_does(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    shown = await (await emu.slash("carol", "board", {}, channel=thread)).reply()
    assert "move 1:" in shown.content and "move 0" not in shown.content
    await play(world, "alice", "a", thread)
    await play(world, "bob", "k", thread)
    shown = await (await emu.slash("carol", "board", {}, channel=thread)).reply()
    game = await world.services.games.game_for_thread(thread)
    assert game.ply == 2 and move_number(game.ply) == 3
    assert "move 3:" in shown.content


async def test_watch_refuses_your_own_game_and_a_finished_one(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    game = await world.services.games.game_for_thread(first.channel_id)
    own = await (await emu.slash("bob", "watch", {"game": game.id})).reply()
    assert own.flags & EPHEMERAL and f"You play in game #{game.id}" in own.content
    await world.resign("bob", first.channel_id)
    over = await (await emu.slash("carol", "watch", {"game": game.id})).reply()
    assert over.flags & EPHEMERAL and f"Game #{game.id} is over" in over.content


async def test_resign_asks_first_and_a_stale_confirmation_refuses(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    question = await (await emu.slash("alice", "resign", {}, channel=thread)).reply()
    assert question.flags & EPHEMERAL and "Resign Alak" in question.content
    assert emu.user("bob").mention in question.content
    assert (await world.services.games.get_game(game.id)).status == "active", "only asked"

    other = await (await emu.click("bob", question, label="Resign")).reply()
    assert other.flags & EPHEMERAL and "belongs to another player" in other.content

    await play(world, "alice", "a", thread)  # the game moves on: the question is stale
    stale = await (await emu.click("alice", question, label="Resign")).reply()
    assert stale.flags & EPHEMERAL and "moved on" in stale.content
    assert (await world.services.games.get_game(game.id)).status == "active"

    # A fresh confirmation survives a restart (the button is persistent), then resigns.
    question = await (await emu.slash("bob", "resign", {}, channel=thread)).reply()
    hers = await (await emu.slash("alice", "resign", {}, channel=thread)).reply()
    await world.restart()
    mark = emu.mark()
    done = await (await emu.click("bob", question, label="Resign")).reply()
    assert "You resigned" in done.content
    notice = await emu.wait_for_message(lambda m: "resigned." in m.content,
                                        channel_id=thread, since=mark)
    assert emu.user("bob").mention in notice.content
    over = await emu.wait_for_ping("alice", lambda m: m.content.startswith("Game over"),
                                   since=mark)
    assert over.channel_id == thread
    final = await world.services.games.get_game(game.id)
    assert final.status == "finished" and final.outcome.winners == frozenset({0})
    late = await (await emu.click("alice", hers, label="Resign")).reply()
    assert late.flags & EPHEMERAL and "already over" in late.content


async def test_challenges_are_withdrawn_not_repeated_and_expire(world):
    emu = world.emu
    offer = await world.challenge("alice", "alak", {"opponent": "bob"})
    assert [b["label"] for b in offer.buttons()] == ["Accept", "Decline", "Withdraw"]
    again = await (await emu.slash("alice", "play alak", {"opponent": "bob"})).reply()
    assert again.flags & EPHEMERAL and "already sent this challenge" in again.content
    assert len([m for m in emu.channel_messages(offer.channel_id)
                if "challenges" in m.content and not m.ephemeral]) == 1
    stranger = await (await emu.click("carol", offer, label="Withdraw")).reply()
    assert stranger.flags & EPHEMERAL
    withdrawn = await (await emu.click("alice", offer, label="Withdraw")).reply()
    assert "withdrew" in withdrawn.content and not withdrawn.buttons()

    # Sent again once withdrawn; eight days later the scheduler closes it and says so.
    offer = await world.challenge("alice", "alak", {"opponent": "bob"})
    ahead = timedelta(days=8)
    world.bot.clocks.clock = lambda: datetime.now(UTC) + ahead
    world.services.context.clock = lambda: datetime.now(UTC) + ahead
    late = await (await emu.click("bob", offer, label="Accept")).reply()
    assert late.flags & EPHEMERAL and "expired" in late.content
    await world.bot.scheduler.run_once()
    await world.bot.delivery.flush(None)  # after any pass the scheduler's timer started
    edited = emu.messages[offer.id]
    assert "expired: nobody took it up" in edited.content and not edited.buttons()


#: A server other than the emulator's (its games are made through the services).
OTHER_SERVER = 4_100_000_000_000_000_001


async def test_game_numbers_are_suggested_yours_first_never_another_servers(world):
    emu = world.emu
    alice, bob = emu.user("alice").id, emu.user("bob").id
    mine = await world.services.games.game_for_thread(
        (await world.start_game("alice", "alak", "bob")).channel_id)
    theirs = await world.services.games.game_for_thread(
        (await world.start_game("carol", "palam", "dave")).channel_id)
    over = await world.services.games.game_for_thread(
        (await world.start_game("bob", "alak", "alice")).channel_id)
    await world.resign("alice", over.thread_id)
    foreign = await world.services.challenges.create_game("alak", (alice, bob),
                                                          guild_id=OTHER_SERVER,
                                                          channel_id=OTHER_SERVER + 1)

    async def suggested(user, command, typed=""):
        choices = await emu.autocomplete(user, command, {"game": typed}, "game")
        return [c["value"] for c in choices], [c["name"] for c in choices]

    values, names = await suggested("alice", "board")
    assert values[:2] == [over.id, mine.id] and values[2:] == [theirs.id]
    assert foreign.id not in values
    assert f"#{mine.id} Alak, move 1: your turn" in names
    assert f"#{over.id} Alak, over" in names
    assert (await suggested("alice", "record", str(theirs.id)))[0] == [theirs.id]
    assert (await suggested("alice", "replay", "pal"))[0] == [theirs.id]
    # /claim: your running games only; /watch: running games you do not play in.
    assert (await suggested("alice", "claim"))[0] == [mine.id]
    assert (await suggested("alice", "watch"))[0] == [theirs.id]
    assert (await suggested("carol", "watch"))[0] == [mine.id]
    assert foreign.id not in (await suggested("bob", "board"))[0]


async def test_the_host_starts_a_table_with_the_players_present_when_the_game_allows(world):
    emu = world.emu
    table = await world.challenge("alice", "lppg", {"players": 4})
    assert "may also start with 2 players" in table.content
    for name in ("bob", "carol"):
        await (await emu.click(name, table, label="Join")).reply()
    three = await (await emu.click("alice", table, label="Start")).reply()
    assert three.flags & EPHEMERAL and "played by 2, 4 players: 3 at the table" in three.content
    await (await emu.click("carol", table, label="Leave")).reply()
    mark = emu.mark()
    await emu.click("alice", table, label="Start")
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    game = await world.services.games.game_for_thread(first.channel_id)
    assert game.seats == (emu.user("alice").id, emu.user("bob").id)


async def test_an_admin_aborts_a_stuck_game_and_its_thread_is_told(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    with pytest.raises(HiddenCommand):  # Discord offers /admin to Manage Server only
        await emu.slash("carol", "admin abort", {"game": game.id})
    emu.grant("carol", MANAGE_GUILD)
    choices = await emu.autocomplete("carol", "admin abort", {"game": ""}, "game")
    assert [c["value"] for c in choices] == [game.id]
    mark = emu.mark()
    done = await (await emu.slash("carol", "admin abort", {"game": game.id})).reply()
    assert done.flags & EPHEMERAL and f"Game #{game.id} is ended with no result" in done.content
    notice = await emu.wait_for_message(lambda m: "as a server admin" in m.content,
                                        channel_id=thread, since=mark)
    assert emu.user("carol").mention in notice.content
    for name in ("alice", "bob"):
        assert notice in emu.pings(name, since=mark)
    after = await world.services.games.get_game(game.id)
    assert after.status == "aborted" and after.outcome is None
    late = await (await emu.slash("alice", "move", {"text": "a"}, channel=thread)).reply()
    assert late.flags & EPHEMERAL and "already over" in late.content
    shown = await (await emu.slash("bob", "board", {}, channel=thread)).reply()
    assert "ended by a server admin" in shown.content
    again = await (await emu.slash("carol", "admin abort", {"game": game.id})).reply()
    assert again.flags & EPHEMERAL and "not running" in again.content


async def test_server_settings_choose_the_language_and_the_default_time_control(world):
    emu = world.emu
    emu.grant("dave", MANAGE_GUILD)
    shown = await (await emu.slash("dave", "admin settings", {})).reply()
    assert shown.flags & EPHEMERAL and "the bot's default language" in shown.content
    saved = await (await emu.slash("dave", "admin settings",
                                   {"language": "fr", "time_control": "3d"})).reply()
    # The admin's own answer is private, in their language; time controls are said in words.
    assert "public posts in French" in saved.content
    assert ": 3 days per move." in saved.content
    assert await world.services.settings.server_language(first_guild(world)) == "fr"
    # The server's language is what every game's public posts speak from now on: the
    # challenge (from an English client) and the game's thread are in French.
    offer = await world.challenge("alice", "alak", {"opponent": "bob"})
    assert "Cadence\u00a0: 3 jours par coup." in offer.content
    chosen = await world.challenge("bob", "palam", {"opponent": "alice",
                                                    "time_control": "untimed"})
    assert "défie" in chosen.content and "Cadence" not in chosen.content
    mark = emu.mark()
    await emu.click("bob", offer, label="Accepter")
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    assert (await world.services.games.game_for_thread(first.channel_id)).locale == "fr"
    assert "à vous de jouer" in first.content


def first_guild(world) -> int:
    return world.emu.guild_id


async def test_rematch_after_a_game_and_the_thread_archives_itself_when_quiet(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    assert emu.channels[thread]["thread_metadata"]["auto_archive_duration"] == 10080
    mark = emu.mark()
    await world.resign("bob", thread)
    over = await emu.wait_for_message(lambda m: m.content.startswith("Game over"),
                                      channel_id=thread, since=mark)
    assert [b["label"] for b in over.buttons()] == ["Rematch"]
    # Discord lets the bot, which created the thread, shorten its auto-archive delay with
    # the invite's permissions (the fixture checks nothing was refused).
    assert emu.channels[thread]["thread_metadata"]["auto_archive_duration"] == 1440

    stranger = await (await emu.click("carol", over, label="Rematch")).reply()
    assert stranger.flags & EPHEMERAL and "Only the players" in stranger.content
    asked = await (await emu.click("bob", over, label="Rematch")).reply()
    assert not asked.ephemeral and "asks for a rematch" in asked.content
    assert asked in emu.pings("alice", since=mark) and asked not in emu.pings("carol")
    twice = await (await emu.click("bob", over, label="Rematch")).reply()
    assert twice.flags & EPHEMERAL and "already asked" in twice.content

    await world.restart()  # the button outlives a restart
    mark = emu.mark()
    started = await (await emu.click("alice", over, label="Rematch")).reply()
    assert f"is game #{game.id + 1}" in started.content
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    rematch = await world.services.games.game_for_thread(board.channel_id)
    assert board.channel_id != thread and rematch.id == game.id + 1
    assert rematch.seats == (emu.user("bob").id, emu.user("alice").id)
    assert f"{emu.user('bob').mention}, your turn" in board.content
    await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == over.id
                       and not e.data.buttons(), since=mark)


async def test_a_vacation_with_nothing_to_pause_spends_nothing_and_a_short_one_costs_an_hour(
    world,
):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")  # no time control
    thread = first.channel_id
    mark = emu.mark()
    on = await (await emu.slash("bob", "vacation", {"days": 3})).reply()
    assert on.flags & EPHEMERAL
    assert on.content == ("None of your games in progress has a clock, so there is nothing to "
                          "pause: your vacation does not start and no day is spent. 30 vacation "
                          "days left of 30 this year.")
    nobody = await (await emu.slash("carol", "vacation", {"days": 3}, locale="fr")).reply()
    assert nobody.content.replace("\u00a0", " ").startswith(
        "Vous n'avez pas de partie en cours, il n'y a donc rien à arrêter : vos vacances ne "
        "commencent pas et aucun jour n'est décompté.")
    off = await (await emu.slash("bob", "vacation", {"days": 0})).reply()
    assert off.content == "You are not on vacation."
    await world.bot.delivery.flush(None)
    assert [m for m in emu.channel_messages(thread) if "vacation" in m.content.lower()] == []
    assert emu.pings("alice", since=mark) == []
    # With a clock to pause, a vacation starts; ended after seconds it costs one started
    # hour, said as such (not "29.9 days").
    timed = await world.challenge("alice", "alak", {"opponent": "bob", "time_control": "3d"})
    await world.accept("bob", timed)
    on = await (await emu.slash("bob", "vacation", {"days": 3})).reply()
    assert "the clocks of your 1 game are paused" in on.content, on.content
    off = await (await emu.slash("bob", "vacation", {"days": 0})).reply()
    assert "29 days and 23 hours of vacation left of 30 days" in off.content, off.content
