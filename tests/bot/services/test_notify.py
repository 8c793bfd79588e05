"""Notifications a player controls, through the services (on SQLite and PostgreSQL): the daily
digest (its content, its hour in the player's time zone, once a day even with a restart or two
processes), quiet mode per game, and refused direct messages. A fake clock: nothing sleeps."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.errors import NotAPlayer
from bot.core.sharding import Shards
from bot.services.clocks import ClockService
from bot.services.notify import NotifyError, NotifyService
from bot.store import open_store
from tests.bot.services.test_clocks import at, pending, play_first_legal, timed_game
from tests.bot.store.dbutil import other_process

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


@pytest.fixture
def notify(store, clock):
    return NotifyService(store, clock=clock)


@pytest.fixture
def clocks(store, service, clock):
    return ClockService(store, service, clock=clock)


async def digest_rows(service):
    return await pending(service, "digest")


# ----- settings --------------------------------------------------------------------------------


async def test_everything_is_off_by_default(service, notify, clock):
    info = await timed_game(service, "3d")
    user = info.user_to_move()
    settings = await notify.settings(user)
    assert (settings.dm_reminders, settings.digest, settings.dm_refused_at) == (False, False, None)
    assert await notify.turn_pings(user, info.id) is True
    assert await notify.next_digest_due() is None
    assert await notify.run_due_digests(clock.now + 30 * DAY) == 0
    assert await digest_rows(service) == []


async def test_turning_the_digest_on_plans_it_at_the_hour_of_the_chosen_zone(notify, clock):
    at(clock, datetime(2026, 7, 10, 5, tzinfo=UTC))  # 07:00 in Paris (summer time)
    saved = await notify.set_digest(7, enabled=True, hour=9, time_zone="Europe/Paris")
    assert (saved.digest_hour, saved.time_zone) == (9, "Europe/Paris")
    assert saved.digest_next_at == datetime(2026, 7, 10, 7, tzinfo=UTC)
    assert await notify.next_digest_due() == saved.digest_next_at
    # Defaults when only switched on: 8 o'clock, UTC; the hour alone moves it.
    assert (await notify.set_digest(8, enabled=True)).digest_next_at == datetime(
        2026, 7, 10, 8, tzinfo=UTC)
    moved = await notify.set_digest(8, hour=5)  # 05:00 UTC just passed: tomorrow's
    assert moved.digest and moved.digest_next_at == datetime(2026, 7, 11, 5, tzinfo=UTC)
    off = await notify.set_digest(7, enabled=False)
    assert not off.digest and off.digest_next_at is None and off.time_zone == "Europe/Paris"
    assert await notify.next_digest_due() == moved.digest_next_at


@pytest.mark.parametrize("zone", ["Mars/Olympus", "Europe/Pariss", "../etc/passwd"])
async def test_an_unknown_time_zone_is_refused_and_changes_nothing(notify, zone):
    before = await notify.set_digest(7, enabled=True, hour=9, time_zone="Europe/Paris")
    with pytest.raises(NotifyError) as refused:
        await notify.set_digest(7, enabled=False, time_zone=zone)
    assert refused.value.key == "notify.errors.bad_zone"
    assert zone[:60] in refused.value.message
    with pytest.raises(NotifyError):
        await notify.set_digest(7, hour=24)
    assert await notify.settings(7) == before


# ----- the digest ------------------------------------------------------------------------------


async def test_the_digest_lists_the_games_where_it_is_your_turn_with_their_links(
    service, notify, clock
):
    timed = await timed_game(service, "3d", users=(1, 2))  # user 1 to move
    untimed = await timed_game(service, None, users=(3, 1))  # user 3 to move
    await play_first_legal(service, untimed)  # now user 1's turn
    waiting = await timed_game(service, "1d", users=(2, 1))  # user 2 to move: not listed
    await service.games.set_thread(timed.id, 555)
    entries = await notify.digest_entries(1)
    assert [e.game_id for e in entries] == [timed.id, untimed.id]  # timed first
    first = entries[0]
    assert first.title == "Alak" and first.deadline is not None
    assert first.link == "https://discord.com/channels/@me/555"
    assert entries[1].deadline is None
    assert waiting.id not in [e.game_id for e in await notify.digest_entries(1)]
    assert [e.game_id for e in await notify.digest_entries(2)] == [waiting.id]


async def test_one_digest_a_day_at_the_hour_even_when_rounds_race(service, notify, clock):
    await timed_game(service, "3d", users=(1, 2))
    at(clock, datetime(2026, 1, 10, 5, tzinfo=UTC))
    planned = (await notify.set_digest(1, enabled=True, hour=8,
                                       time_zone="Europe/Paris")).digest_next_at
    assert planned == datetime(2026, 1, 10, 7, tzinfo=UTC)
    assert await notify.run_due_digests(planned - timedelta(seconds=1)) == 0
    counts = await asyncio.gather(*(notify.run_due_digests(planned) for _ in range(4)))
    assert sum(counts) == 1
    rows = await digest_rows(service)
    assert [r.payload for r in rows] == [{"user_id": 1, "planned": planned.isoformat()}]
    assert rows[0].game_id is None and rows[0].guild_id is None  # a DM: shard 0's
    assert await notify.run_due_digests(planned + 23 * HOUR) == 0
    assert await notify.next_digest_due() == planned + DAY
    assert await notify.run_due_digests(planned + DAY) == 1
    assert len(await digest_rows(service)) == 2


async def test_two_processes_and_a_restart_never_send_two(db, service, notify, clock):
    await timed_game(service, "3d", users=(1, 2))
    at(clock, datetime(2026, 1, 10, 5, tzinfo=UTC))
    planned = (await notify.set_digest(1, enabled=True, hour=8, time_zone="UTC")).digest_next_at
    async with other_process(db) as second_store:
        second = NotifyService(second_store, clock=clock)
        counts = await asyncio.gather(notify.run_due_digests(planned + HOUR),
                                      second.run_due_digests(planned + HOUR))
    assert sorted(counts) == [0, 1]
    restarted_store = await open_store(db.url)
    try:
        assert await NotifyService(restarted_store, clock=clock).run_due_digests(
            planned + 2 * HOUR) == 0
    finally:
        await restarted_store.close()
    assert len(await digest_rows(service)) == 1


async def test_a_digest_missed_by_more_than_twelve_hours_is_skipped_not_doubled(
    service, notify, clock
):
    await timed_game(service, "3d", users=(1, 2))
    at(clock, datetime(2026, 1, 10, 5, tzinfo=UTC))
    planned = (await notify.set_digest(1, enabled=True, hour=8, time_zone="UTC")).digest_next_at
    # The bot was down from before 08:00 until 21:00: that day's digest is not sent at 21:00
    # (the next one would follow 11 hours later).
    assert await notify.run_due_digests(planned + 13 * HOUR) == 0
    assert await digest_rows(service) == []
    assert await notify.next_digest_due() == planned + DAY
    assert await notify.run_due_digests(planned + DAY + HOUR) == 1


async def test_no_digest_when_no_game_waits_for_you(service, notify, clock):
    await timed_game(service, "3d", users=(2, 1))  # user 2 to move
    at(clock, datetime(2026, 1, 10, 5, tzinfo=UTC))
    planned = (await notify.set_digest(1, enabled=True, hour=8, time_zone="UTC")).digest_next_at
    assert await notify.run_due_digests(planned) == 0
    assert await digest_rows(service) == []
    assert await notify.next_digest_due() == planned + DAY  # claimed all the same


# ----- quiet mode ------------------------------------------------------------------------------


async def test_a_muted_game_pings_only_for_the_last_reminder_before_a_time_out(
    service, notify, clocks
):
    info = await timed_game(service, "3d")
    mover, other = info.seats
    assert await notify.mute(mover, info.id) is True
    assert await notify.mute(mover, info.id) is False  # already
    assert await notify.turn_pings(mover, info.id) is False
    assert await notify.turn_pings(other, info.id) is True  # muted for one player only
    assert await notify.reminder_pings(mover, info.id, "due_soon") is False
    assert await notify.reminder_pings(mover, info.id, "overdue") is True
    # The reminders are still written (the thread shows them, unpinged).
    await clocks.run_due(await clocks.deadline(info.id))
    assert [r.payload["threshold"] for r in await pending(service, "reminder")] == ["overdue"]
    assert await notify.mute(mover, info.id, muted=False) is True
    assert await notify.mute(mover, info.id, muted=False) is False
    assert await notify.reminder_pings(mover, info.id, "due_soon") is True


async def test_only_a_player_may_mute_a_game(service, notify):
    info = await timed_game(service, None)
    with pytest.raises(NotAPlayer):
        await notify.mute(99, info.id)
    assert await notify.muted(99, info.id) is False


# ----- refused direct messages -----------------------------------------------------------------


async def test_a_refused_dm_stops_digests_is_told_once_and_a_setting_change_resumes(
    service, notify, clock
):
    await timed_game(service, "3d", users=(1, 2))
    at(clock, datetime(2026, 1, 10, 5, tzinfo=UTC))
    planned = (await notify.set_digest(1, enabled=True, hour=8, time_zone="UTC")).digest_next_at
    await notify.set_dm_reminders(1, True)
    assert await notify.take_dm_refused_notice(1) is None
    assert await notify.dm_refused(1) is True
    assert await notify.dm_refused(1) is False  # kept from the first refusal
    assert await notify.dms_refused(1) is True
    assert await notify.next_digest_due() is None
    assert await notify.run_due_digests(planned + HOUR) == 0
    told = await notify.take_dm_refused_notice(1)
    assert told is not None and told <= clock.now
    assert await notify.take_dm_refused_notice(1) is None  # once
    assert (await notify.settings(1)).dm_refused_at is not None
    # Changing a DM setting again tries DMs again.
    await notify.set_dm_reminders(1, True)
    assert await notify.dms_refused(1) is False
    assert await notify.dm_refused(1) is True
    await notify.set_digest(1, hour=9)
    assert await notify.dms_refused(1) is False
    assert await notify.next_digest_due() is not None


async def test_only_the_process_running_shard_0_writes_digests(store, service, notify, clock):
    """Direct messages are shard 0's (as on Discord): a process running other shards leaves
    the digests to it."""
    await timed_game(service, "3d", users=(1, 2))
    at(clock, datetime(2026, 1, 10, 5, tzinfo=UTC))
    planned = (await notify.set_digest(1, enabled=True, hour=8, time_zone="UTC")).digest_next_at
    elsewhere = NotifyService(store, clock=clock, shards=Shards(2, (1,)))
    assert await elsewhere.next_digest_due() is None
    assert await elsewhere.run_due_digests(planned) == 0
    zero = NotifyService(store, clock=clock, shards=Shards(2, (0,)))
    assert await zero.next_digest_due() == planned
    assert await zero.run_due_digests(planned) == 1
