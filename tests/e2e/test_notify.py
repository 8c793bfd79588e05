"""Notifications a player controls, through the real bot and the emulator, in English and in
French: the daily digest arrives by DM at the chosen hour with links to the games' threads,
/mute silences a game's turn pings (the emulator records whom each message notified) but not
the last reminder before a time-out, and a DM Discord refuses (50007) is told privately at
the user's next command, after which no DM is tried. Time moves by replacing the clock
service's clock (the notification service reads the same one)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from emulator import EPHEMERAL

LANGUAGES = ["en-US", "fr"]
#: What each language's texts say (checked on French no-break spaces made plain).
SAYS = {
    "en-US": {"digest": "Your daily digest: it is your turn in 2 games.",
              "digest_setting": "every day at 9:00 (Europe/Paris)",
              "bad_zone": "is not a time zone I know", "muted": "is muted",
              "unmuted": "pings you again", "refused": "I could not send you a direct message",
              "on_hold": "Discord refused my last direct message"},
    "fr": {"digest": "Votre résumé quotidien : c'est à vous de jouer dans 2 parties.",
           "digest_setting": "chaque jour à 9 h (Europe/Paris)",
           "bad_zone": "n'est pas un fuseau horaire que je connais",
           "muted": "est en mode silencieux", "unmuted": "vous mentionne de nouveau",
           "refused": "Je n'ai pas pu vous envoyer de message privé",
           "on_hold": "Discord a refusé mon dernier message privé"},
}


def plain(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def skew_to(world, moment: datetime) -> None:
    """The bot's clocks (and so its notification service) read ``moment`` from now on."""
    ahead = moment - datetime.now(UTC)
    world.bot.clocks.clock = lambda: datetime.now(UTC) + ahead


async def start(world, host: str, guest: str, locale: str, time_control: str | None = None):
    options = {"opponent": guest, **({"time_control": time_control} if time_control else {})}
    offer = await (await world.emu.slash(host, "play alak", options, locale=locale)).reply()
    mark = world.emu.mark()
    await world.emu.click(guest, offer, label="Accept" if locale == "en-US" else "Accepter")
    board = await world.emu.wait_for_message(lambda m: bool(m.files), since=mark)
    return await world.services.games.game_for_thread(board.channel_id), board


async def move(world, user: str, text: str, thread: int, locale: str):
    return await (await world.emu.slash(user, "move", {"text": text}, channel=thread,
                                        locale=locale)).reply()


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_the_daily_digest_arrives_by_dm_with_links_to_the_games(world, locale):
    emu, says = world.emu, SAYS[locale]
    wrong = await emu.slash("alice", "settings", {"digest": True, "time_zone": "Mars/Base"},
                            locale=locale)
    refusal = await wrong.reply()
    assert refusal.flags & EPHEMERAL and says["bad_zone"] in plain(refusal.content)
    assert not (await world.bot.notify.settings(emu.user("alice").id)).digest  # unchanged

    choices = await emu.autocomplete("alice", "settings", {"time_zone": "paris"}, "time_zone",
                                     locale=locale)
    assert [c["value"] for c in choices] == ["Europe/Paris"]
    saved = await (await emu.slash("alice", "settings", {
        "digest": True, "digest_hour": 9, "time_zone": "Europe/Paris"}, locale=locale)).reply()
    assert says["digest_setting"] in plain(saved.content)

    _, first_board = await start(world, "alice", "bob", locale, "3d")  # Alice to move
    _, second_board = await start(world, "carol", "alice", locale)
    await move(world, "carol", "d", second_board.channel_id, locale)  # now Alice's turn too
    third, _ = await start(world, "bob", "alice", locale)  # Bob's turn: not in the digest

    planned = (await world.bot.notify.settings(emu.user("alice").id)).digest_next_at
    assert planned.astimezone(ZoneInfo("Europe/Paris")).hour == 9
    mark = emu.mark()
    skew_to(world, planned + timedelta(minutes=1))
    world.bot.scheduler.poke()  # what its timer would do at 9 o'clock
    digest = await emu.wait_for_message(lambda m: says["digest"] in plain(m.content),
                                        since=mark)
    assert digest.channel_id == emu.dm_channel_of("alice")
    guild = emu.guild_id
    for board in (first_board, second_board):
        assert f"https://discord.com/channels/{guild}/{board.channel_id}" in digest.content
    assert f"#{third.id}" not in digest.content and f"n°{third.id}" not in digest.content
    assert digest.notified == frozenset()

    # Once a day: the next round, or a restart, sends nothing more that day.
    await world.restart()
    skew_to(world, planned + timedelta(hours=2))
    await world.bot.scheduler.run_once()
    dms = emu.channel_messages(emu.dm_channel_of("alice"))
    assert [m.id for m in dms if says["digest"] in plain(m.content)] == [digest.id]


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_mute_silences_turn_pings_but_not_the_last_reminder(world, locale):
    emu, says = world.emu, SAYS[locale]
    alice, bob = emu.user("alice"), emu.user("bob")
    game, board = await start(world, "alice", "bob", locale)
    thread = board.channel_id
    played = await move(world, "alice", "d", thread, locale)
    assert played.notified == frozenset({bob.id})  # the usual turn ping
    muted = await (await emu.slash("bob", "mute", {}, channel=thread, locale=locale)).reply()
    assert muted.flags & EPHEMERAL and says["muted"] in plain(muted.content)
    assert f"{game.id}" in muted.content
    await move(world, "bob", "e", thread, locale)
    quiet = await move(world, "alice", "f", thread, locale)
    assert bob.mention in quiet.content  # named, so the thread still says whose turn it is
    assert quiet.notified == frozenset()
    # Muted for Bob only: Alice still gets her ping.
    answer = await move(world, "bob", "g", thread, locale)
    assert answer.notified == frozenset({alice.id})
    unmuted = await (await emu.slash("bob", "unmute", {"game": game.id},
                                     locale=locale)).reply()
    assert says["unmuted"] in plain(unmuted.content)
    again = await move(world, "alice", "c", thread, locale)
    assert again.notified == frozenset({bob.id})


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_a_muted_timed_game_pings_only_the_overdue_reminder(world, locale):
    emu = world.emu
    alice = emu.user("alice")
    game, board = await start(world, "alice", "bob", locale, "3d")  # Alice to move
    thread = board.channel_id
    await (await emu.slash("alice", "mute", {"game": game.id}, locale=locale)).reply()
    deadline = await world.bot.clocks.deadline(game.id)
    mark = emu.mark()
    skew_to(world, deadline - timedelta(hours=23))
    world.bot.scheduler.poke()
    soon = await emu.wait_for_message(lambda m: alice.mention in m.content,
                                      channel_id=thread, since=mark)
    assert soon.notified == frozenset()
    mark = emu.mark()
    skew_to(world, deadline + timedelta(minutes=1))
    world.bot.scheduler.poke()
    overdue = await emu.wait_for_message(lambda m: alice.mention in m.content,
                                         channel_id=thread, since=mark)
    assert alice.id in overdue.notified  # (the opponent, who may now claim, too)


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_a_refused_dm_is_told_at_the_next_command_and_not_tried_again(world, locale):
    world.refusals_expected = True
    emu, says = world.emu, SAYS[locale]
    alice = emu.user("alice")
    emu.refuse_dms("alice")
    await (await emu.slash("alice", "settings", {"dm_reminders": True}, locale=locale)).reply()
    game, board = await start(world, "alice", "bob", locale, "3d")  # Alice to move
    thread = board.channel_id
    deadline = await world.bot.clocks.deadline(game.id)
    mark = emu.mark()
    skew_to(world, deadline - timedelta(hours=23))
    world.bot.scheduler.poke()
    await emu.wait_for_message(lambda m: alice.mention in m.content, channel_id=thread,
                               since=mark)
    await world.bot.delivery.flush(game.id)
    assert [(r.status, r.code) for r in emu.refusals] == [(403, 50007)]
    assert await world.bot.notify.dms_refused(alice.id)

    # Her next command, whatever it is, ends with the private notice; only once.
    games = await emu.slash("alice", "games", {}, locale=locale)
    notice = await games.reply(lambda m: says["refused"] in plain(m.content))
    assert notice.flags & EPHEMERAL and notice.notified == frozenset()
    assert "<t:" in notice.content
    assert await world.bot.notify.take_dm_refused_notice(alice.id) is None

    # No DM is tried for the overdue reminder (the thread still gets it).
    mark = emu.mark()
    skew_to(world, deadline + timedelta(minutes=1))
    world.bot.scheduler.poke()
    await emu.wait_for_message(lambda m: alice.mention in m.content, channel_id=thread,
                               since=mark)
    await world.bot.delivery.flush(game.id)
    assert len(emu.refusals) == 1
    shown = await (await emu.slash("alice", "settings", {}, locale=locale)).reply()
    assert says["on_hold"] in plain(shown.content)

    # Changing the setting again tries DMs again.
    emu.refuse_dms("alice", refused=False)
    await (await emu.slash("alice", "settings", {"dm_reminders": True}, locale=locale)).reply()
    assert not await world.bot.notify.dms_refused(alice.id)
