"""Correspondence play through the services: deadlines per time control, reminders at their
thresholds (once, even across a restart), claims, tournament forfeits, vacations, settings.
Every test drives a fake clock: nothing sleeps."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.services import ChallengeError, GameOver, NotAPlayer, Services, clockstate
from bot.services.clocks import ClockError, ClockService
from bot.store import open_store
from tests.bot.services.conftest import SEED
from tests.bot.store.dbutil import db_dump, query

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


@pytest.fixture
def graces():
    """game id -> grace period: the games a fake tournament service knows."""
    return {}


@pytest.fixture
def clocks(store, service, clock, graces):
    async def grace_for(game_id):
        return graces.get(game_id)

    return ClockService(store, service, clock=clock, grace_for=grace_for,
                        vacation_days_per_year=30)


async def timed_game(service, time_control, game="alak", users=(1, 2)):
    host, *others = users
    if len(users) == 2:
        challenge = await service.challenges.challenge(game, host, opponent_id=others[0],
                                                       time_control=time_control)
        return await service.challenges.accept(challenge.id, others[0])
    challenge = await service.challenges.challenge(game, host, players=len(users),
                                                   time_control=time_control)
    for user in others:
        await service.challenges.join(challenge.id, user)
    return await service.challenges.start(challenge.id, host)


async def play_first_legal(service, info, user=None):
    user = user or (await service.games.get_game(info.id)).user_to_move()
    move = (await service.games.legal_moves(info.id, user))[0]
    return await service.play.move(info.id, user, move)


async def pending(service, kind):
    return [item for item in await service.outbox.pending_outbox(1000) if item.kind == kind]


def at(clock, moment):
    """Set the fake clock so that its next reading is ``moment``."""
    clock.now = moment - timedelta(seconds=1)


# ----- deadlines --------------------------------------------------------------------------------


@pytest.mark.parametrize("days", [1, 2, 3, 5, 7, 14])
async def test_per_move_deadline_is_n_days_after_the_turn_began(service, clocks, clock, days):
    info = await timed_game(service, f"{days}d")
    assert await clocks.deadline(info.id) == info.created_at + days * DAY
    clock.now += 10 * HOUR
    result = await play_first_legal(service, info)
    moved_at = result.game.updated_at
    clock_info = await clocks.clock_info(info.id)
    assert clock_info.deadline == moved_at + days * DAY  # a full turn again, for the opponent
    assert clock_info.to_move_user == result.game.user_to_move()
    assert clock_info.time_control == f"{days}d"


async def test_fischer_bank_loses_time_spent_and_gains_the_increment_capped(
    service, clocks, clock
):
    info = await timed_game(service, "3d+1d")
    first, second = info.seats
    clock.now += 2 * DAY  # seat 0 spends 2 days: 3 - 2 + 1 = 2 days left
    await play_first_legal(service, info, first)
    clock.now += 2 * HOUR  # seat 1 spends 2 hours: 3 - 2 h + 1 d, capped at 3 days
    result = await play_first_legal(service, info, second)
    clock_info = await clocks.clock_info(info.id)
    assert clock_info.banks[0] == DAY * 2 - timedelta(seconds=1)  # the clock read 1 s later
    assert clock_info.banks[1] == 3 * DAY
    assert clock_info.deadline == result.game.updated_at + clock_info.banks[0]


async def test_untimed_games_have_no_deadline_and_nothing_is_ever_due(service, clocks, clock):
    info = await timed_game(service, None)
    assert (await clocks.clock_info(info.id)).time_control == "untimed"
    assert await clocks.deadline(info.id) is None
    clock.now += 400 * DAY
    assert await clocks.next_due() is None
    assert await clocks.run_due(clock.now) == 0


async def test_a_bad_time_control_is_refused_and_writes_nothing(service, db):
    before = db_dump(db)
    for text in ("4d", "2d+3d", "soon", "0d+1d"):
        with pytest.raises(ChallengeError) as error:
            await service.challenges.challenge("alak", 1, opponent_id=2, time_control=text)
        assert error.value.key == "errors.bad_time_control"
    assert db_dump(db) == before


async def test_a_challenge_remembers_its_time_control(service):
    timed = await service.challenges.challenge("kolory", 1, players=3, time_control="3D + 1d")
    untimed = await service.challenges.challenge("alak", 1, opponent_id=2)
    assert await service.challenges.challenge_time_control(timed.id) == "3d+1d"
    assert await service.challenges.challenge_time_control(untimed.id) is None


async def test_the_deadline_is_written_in_the_same_transaction_as_the_move(
    service, clocks, db
):
    info = await timed_game(service, "2d")
    result = await play_first_legal(service, info)
    rows = query(db, "SELECT ply, deadline FROM game_clocks WHERE game_id = ?", (info.id,))
    assert rows == [(1, (result.game.updated_at + 2 * DAY).isoformat(timespec="microseconds"))]


async def test_the_clock_stops_when_the_game_ends(service, clocks):
    info = await timed_game(service, "1d")
    await service.play.resign(info.id, info.seats[0])
    assert await clocks.deadline(info.id) is None
    assert await clocks.next_due() is None


async def test_create_game_for_tournaments_starts_the_clock_and_says_where_it_comes_from(
    service, clocks
):
    info = await service.challenges.create_game("alak", [7, 8], time_control="7d",
                                                source="tournament:3")
    assert info.seats == (7, 8)
    assert await clocks.deadline(info.id) == info.created_at + 7 * DAY
    started = await pending(service, "game_started")
    assert started[-1].payload == {"game_id": info.id, "ply": 0, "version": 0,
                                   "source": "tournament:3"}
    with pytest.raises(ChallengeError):
        await service.challenges.create_game("alak", [7, 8], time_control="3 weeks")


# ----- reminders --------------------------------------------------------------------------------


async def test_reminders_at_24_hours_before_and_at_the_deadline_each_once(
    service, clocks, clock
):
    info = await timed_game(service, "3d")
    deadline = await clocks.deadline(info.id)
    assert await clocks.next_due() == deadline - 24 * HOUR
    assert await clocks.run_due(deadline - 24 * HOUR - timedelta(seconds=1)) == 0
    assert await clocks.run_due(deadline - 24 * HOUR) == 1
    assert await clocks.run_due(deadline - HOUR) == 0  # already sent
    assert await clocks.next_due() == deadline
    assert await clocks.run_due(deadline) == 1
    assert await clocks.run_due(deadline + 5 * DAY) == 0
    assert await clocks.next_due() is None  # not a tournament game: nothing more to do
    reminders = await pending(service, "reminder")
    assert [r.payload["threshold"] for r in reminders] == ["due_soon", "overdue"]
    assert all(r.payload["user_id"] == info.seats[0] and r.payload["ply"] == 0
               for r in reminders)
    assert reminders[0].payload["deadline"] == deadline.isoformat()
    assert reminders[0].payload["dm"] is False


async def test_a_move_starts_a_new_turn_with_its_own_reminders(service, clocks, clock):
    info = await timed_game(service, "2d")
    deadline = await clocks.deadline(info.id)
    await clocks.run_due(deadline - 24 * HOUR)
    at(clock, deadline - HOUR)
    result = await play_first_legal(service, info)
    second_deadline = await clocks.deadline(info.id)
    assert second_deadline == result.game.updated_at + 2 * DAY
    assert await clocks.run_due(second_deadline) == 1
    reminders = await pending(service, "reminder")
    assert [(r.payload["ply"], r.payload["threshold"], r.payload["user_id"])
            for r in reminders] == [(0, "due_soon", info.seats[0]),
                                    (1, "overdue", info.seats[1])]


async def test_ruling_a_one_day_turn_gets_no_due_in_24_hours_notice(service, clocks, clock):
    info = await timed_game(service, "1d")
    deadline = await clocks.deadline(info.id)
    assert await clocks.next_due() == deadline
    assert await clocks.run_due(deadline - HOUR) == 0
    assert await clocks.run_due(deadline) == 1
    assert [r.payload["threshold"] for r in await pending(service, "reminder")] == ["overdue"]


async def test_after_downtime_past_both_thresholds_only_the_overdue_notice_goes_out(
    service, clocks
):
    info = await timed_game(service, "2d")
    deadline = await clocks.deadline(info.id)
    assert await clocks.run_due(deadline + 3 * DAY) == 1
    assert await clocks.run_due(deadline + 4 * DAY) == 0
    assert [r.payload["threshold"] for r in await pending(service, "reminder")] == ["overdue"]


async def test_restart_in_the_middle_neither_repeats_nor_loses_a_reminder(db, clock):
    store = await open_store(db.url)
    services = Services(store, clock=clock, seeds=lambda: SEED)
    info = await timed_game(services, "3d")
    deadline = await ClockService(store, services, clock=clock).deadline(info.id)
    assert await ClockService(store, services, clock=clock).run_due(deadline - 20 * HOUR) == 1
    await store.close()

    # The bot restarts (before and after the deadline passed while it was down).
    for moment, expected in ((deadline - 19 * HOUR, 0), (deadline + 2 * HOUR, 1),
                             (deadline + 3 * HOUR, 0)):
        store = await open_store(db.url)
        services = Services(store, clock=clock, seeds=lambda: SEED)
        restarted = ClockService(store, services, clock=clock)
        assert await restarted.run_due(moment) == expected
        await store.close()
    rows = query(db, "SELECT kind, payload FROM outbox WHERE kind = 'reminder'")
    assert len(rows) == 2
    assert query(db, "SELECT threshold FROM sent_reminders ORDER BY sent_at") == [
        ("due_soon",), ("overdue",)
    ]


async def test_two_rounds_racing_still_send_one_reminder(service, clocks):
    info = await timed_game(service, "3d")
    deadline = await clocks.deadline(info.id)
    counts = await asyncio.gather(*(clocks.run_due(deadline) for _ in range(4)))
    assert sum(counts) == 1
    assert len(await pending(service, "reminder")) == 1


async def test_dm_opt_in_is_off_by_default_and_travels_with_the_reminder(service, clocks):
    info = await timed_game(service, "3d")
    mover = info.user_to_move()
    assert await clocks.dm_reminders(mover) is False
    await clocks.set_dm_reminders(mover, True)
    assert await clocks.dm_reminders(mover) is True
    await clocks.run_due(await clocks.deadline(info.id))
    assert (await pending(service, "reminder"))[0].payload["dm"] is True
    await clocks.set_dm_reminders(mover, False)
    assert await clocks.dm_reminders(mover) is False


async def test_an_undo_restarts_the_turn_and_its_reminders(service, clocks, clock):
    info = await timed_game(service, "2d")
    first, second = info.seats
    await play_first_legal(service, info, first)
    deadline = await clocks.deadline(info.id)
    assert await clocks.run_due(deadline - 20 * HOUR) == 1  # seat 1's turn (ply 1) reminded
    at(clock, deadline - 10 * HOUR)
    await play_first_legal(service, info, second)
    await service.play.request_undo(info.id, second)
    undone = await service.play.answer_undo(info.id, first, True)
    restarted = await clocks.deadline(info.id)
    assert restarted == undone.updated_at + 2 * DAY
    assert await clocks.run_due(restarted - 20 * HOUR) == 1  # a new turn: reminded again
    assert [r.payload["ply"] for r in await pending(service, "reminder")] == [1, 1]


# ----- claims -----------------------------------------------------------------------------------


async def test_claim_only_after_the_deadline_and_only_by_an_opponent(
    service, clocks, clock, db
):
    info = await timed_game(service, "3d")
    mover, opponent = info.seats
    deadline = await clocks.deadline(info.id)
    before = db_dump(db)
    at(clock, deadline - timedelta(seconds=1))
    with pytest.raises(ClockError) as error:
        await clocks.claim(info.id, opponent)
    assert error.value.key == "errors.claim_too_early"
    assert error.value.params["deadline"] == int(deadline.timestamp())
    at(clock, deadline + HOUR)
    with pytest.raises(ClockError) as error:
        await clocks.claim(info.id, mover)
    assert error.value.key == "errors.claim_own_turn"
    with pytest.raises(NotAPlayer):
        await clocks.claim(info.id, 999)
    assert db_dump(db) == before

    ended = await clocks.claim(info.id, opponent)
    assert ended.status == "finished"
    assert ended.outcome.winners == frozenset({1})
    assert ended.timed_out_seat == 0 and ended.resigned_seat is None
    assert "ran out of time" in ended.outcome.reason
    kinds = [item.kind for item in await service.outbox.pending_outbox(1000)]
    assert kinds[-2:] == ["timeout", "game_over"]
    timeout = (await pending(service, "timeout"))[0]
    assert timeout.payload == {"game_id": info.id, "seat": 0, "user_id": mover,
                               "claimed_by": opponent, "version": 1}
    assert await service.games.replay_matches(info.id)
    assert await clocks.deadline(info.id) is None
    with pytest.raises(GameOver):
        await clocks.claim(info.id, opponent)


async def test_ruling_a_late_move_is_still_accepted_until_someone_claims(
    service, clocks, clock
):
    info = await timed_game(service, "1d")
    at(clock, await clocks.deadline(info.id) + DAY)
    result = await play_first_legal(service, info)
    assert result.game.status == "active"
    with pytest.raises(ClockError):  # the new turn has a fresh deadline
        await clocks.claim(info.id, info.seats[1])


async def test_a_claim_that_reads_the_game_before_a_resignation_ends_it_says_game_over(
    service, clocks, clock, store, monkeypatch
):
    """A resignation committed between the claim's read of the game and its read of the clock
    (a race seen between two processes): the clock is gone, and the claimer is told the game
    is over, not that it is untimed."""
    info = await timed_game(service, "1d")
    mover, opponent = info.seats
    at(clock, await clocks.deadline(info.id) + HOUR)
    reads = []
    real_get_game = store.get_game

    async def get_game_then_resign(game_id):
        row = await real_get_game(game_id)
        if not reads:
            reads.append(row)
            await service.play.resign(info.id, mover)  # lands before the claim reads the clock
        return row

    monkeypatch.setattr(store, "get_game", get_game_then_resign)
    with pytest.raises(GameOver):
        await clocks.claim(info.id, opponent)
    assert reads and reads[0].status == "active"


async def test_claim_in_an_untimed_game_is_refused(service, clocks, clock):
    info = await timed_game(service, "untimed")
    clock.now += 100 * DAY
    with pytest.raises(ClockError) as error:
        await clocks.claim(info.id, info.seats[1])
    assert error.value.key == "errors.claim_untimed"


async def test_ruling_claim_with_three_players_ends_the_game_all_others_win(
    service, clocks, clock, tally
):
    info = await timed_game(service, "2d", game="tally", users=(1, 2, 3))
    at(clock, await clocks.deadline(info.id))
    ended = await clocks.claim(info.id, 3)
    assert ended.outcome.winners == frozenset({1, 2})
    assert ended.timed_out_seat == 0
    assert await service.games.replay_matches(info.id)


async def test_ruling_a_partner_of_the_late_player_cannot_claim(service, clocks, clock, tally):
    info = await timed_game(service, "2d", game="tally", users=(1, 2, 3, 4))  # 0+2 v 1+3
    at(clock, await clocks.deadline(info.id))
    with pytest.raises(ClockError):
        await clocks.claim(info.id, 3)
    ended = await clocks.claim(info.id, 2)
    assert ended.outcome.winners == frozenset({1, 3})


# ----- tournament forfeits ----------------------------------------------------------------------


async def test_tournament_game_is_forfeited_after_the_grace_period_others_are_not(
    service, clocks, clock, graces
):
    tournament = await service.challenges.create_game("alak", [1, 2], time_control="1d",
                                                      source="tournament:1")
    casual = await service.challenges.create_game("alak", [3, 4], time_control="1d")
    graces[tournament.id] = 12 * HOUR
    deadline = await clocks.deadline(tournament.id)
    assert await clocks.deadline(casual.id) == deadline + timedelta(seconds=1)
    await clocks.run_due(deadline + timedelta(seconds=1))  # overdue notices for both
    assert await clocks.next_due() == deadline + 12 * HOUR
    await clocks.run_due(deadline + 12 * HOUR - timedelta(seconds=1))
    assert (await service.games.get_game(tournament.id)).status == "active"
    at(clock, deadline + 12 * HOUR)
    assert await clocks.run_due(deadline + 12 * HOUR) == 1
    ended = await service.games.get_game(tournament.id)
    assert ended.status == "finished" and ended.timed_out_seat == 0
    assert ended.outcome.winners == frozenset({1})
    timeout = (await pending(service, "timeout"))[0]
    assert timeout.payload["claimed_by"] is None
    assert (await service.games.get_game(casual.id)).status == "active"
    assert await clocks.next_due() is None
    assert await service.games.replay_matches(tournament.id)


async def test_a_move_within_the_grace_period_saves_the_tournament_game(
    service, clocks, clock, graces
):
    info = await service.challenges.create_game("alak", [1, 2], time_control="1d")
    graces[info.id] = DAY
    deadline = await clocks.deadline(info.id)
    at(clock, deadline + 2 * HOUR)
    await play_first_legal(service, info)
    await clocks.run_due(deadline + DAY)
    assert (await service.games.get_game(info.id)).status == "active"


async def test_a_game_whose_work_keeps_failing_is_retried_later_not_in_a_loop(
    service, clocks, clock, graces
):
    info = await service.challenges.create_game("alak", [1, 2], time_control="1d")
    await service.challenges.create_game("alak", [3, 4], time_control="2d")
    graces[info.id] = HOUR
    deadline = await clocks.deadline(info.id)
    await clocks.run_due(deadline)  # overdue notice
    calls = []

    async def broken(game_id, **kwargs):
        calls.append(game_id)
        raise RuntimeError("database on fire")

    clocks._end_on_time = broken
    moment = deadline + HOUR
    assert await clocks.run_due(moment) == 1  # the other game's "due soon" still went out
    assert calls == [info.id]
    assert await clocks.next_due() > moment  # not due in the past: the task would spin
    await clocks.run_due(moment + timedelta(minutes=1))
    assert calls == [info.id]  # still waiting
    await clocks.run_due(moment + timedelta(minutes=10))
    assert calls == [info.id, info.id]


# ----- vacations --------------------------------------------------------------------------------


async def test_vacation_shifts_the_deadlines_of_all_my_games_and_opponents_see_it(
    service, clocks, clock
):
    mine_to_move = await timed_game(service, "3d", users=(1, 2))
    theirs_to_move = await timed_game(service, "3d", users=(3, 1))
    other = await timed_game(service, "3d", users=(4, 5))
    before = {g.id: await clocks.deadline(g.id) for g in (mine_to_move, theirs_to_move, other)}
    clock.now += DAY
    status = await clocks.vacation(1, 5)
    assert status.until is not None and status.used_days == 5 and status.left_days == 25
    assert set(status.paused_games) == {mine_to_move.id, theirs_to_move.id}
    for game in (mine_to_move, theirs_to_move):  # ruling: the whole game pauses
        assert await clocks.deadline(game.id) == before[game.id] + 5 * DAY
        assert (await clocks.clock_info(game.id)).paused_by == ((1, status.until),)
    assert await clocks.deadline(other.id) == before[other.id]
    rows = await pending(service, "vacation")
    assert {r.game_id for r in rows} == {mine_to_move.id, theirs_to_move.id}
    assert all(r.payload["user_id"] == 1 for r in rows)


async def test_vacation_allowance_is_enforced_and_ending_early_gives_days_back(
    service, clocks, clock
):
    info = await timed_game(service, "3d", users=(1, 2))
    base = await clocks.deadline(info.id)
    started = (await clocks.vacation(1, 20)).until - 20 * DAY
    with pytest.raises(ClockError) as error:
        await clocks.vacation(1, 5)
    assert error.value.key == "errors.vacation_active"
    clock.now += 2 * DAY + HOUR
    ended = await clocks.vacation(1, 0)
    # 2 days, 1 hour and the clock's tick: a started hour counts.
    assert ended.until is None and ended.used == 2 * DAY + 2 * HOUR
    stopped = clock.now - timedelta(seconds=1)  # vacation_status read the clock once more
    assert await clocks.deadline(info.id) == base + (stopped - started)
    with pytest.raises(ClockError) as error:
        await clocks.vacation(1, 28)
    assert error.value.key == "errors.vacation_allowance"
    assert error.value.params["left"] == 27
    last = await clocks.vacation(1, 27)
    assert last.whole_days_left == 0 and round(last.left_days * 24) == 22
    with pytest.raises(ClockError) as error:
        await clocks.vacation(2, 31)
    assert error.value.key == "errors.vacation_days"


async def test_ruling_a_vacation_ended_after_seconds_costs_an_hour_not_a_day(
    service, clocks, clock
):
    await timed_game(service, "3d", users=(1, 2))
    await clocks.vacation(1, 5)
    clock.now += timedelta(seconds=7)
    ended = await clocks.vacation(1, 0)
    assert ended.used == HOUR
    assert ended.whole_days_left == 29 and 29.95 < ended.left_days < 29.96
    # Another short one costs another hour: pausing for free a few minutes at a time is not
    # possible.
    await clocks.vacation(1, 1)
    clock.now += timedelta(minutes=61)
    assert (await clocks.vacation(1, 0)).used == 3 * HOUR


async def test_ruling_a_vacation_pauses_and_announces_only_timed_games(service, clocks):
    timed = await timed_game(service, "3d", users=(1, 2))
    challenge = await service.challenges.challenge("alak", 3, opponent_id=1)
    untimed = await service.challenges.accept(challenge.id, 1)
    status = await clocks.vacation(1, 4)
    assert status.paused_games == (timed.id,)
    rows = await pending(service, "vacation")
    assert [r.game_id for r in rows] == [timed.id]
    assert (await clocks.clock_info(untimed.id)).deadline is None
    await clocks.vacation(1, 0)
    assert [r.game_id for r in await pending(service, "vacation")] == [timed.id, timed.id]


async def test_back_from_vacation_only_clocks_that_run_again_are_said_to(service, clocks):
    """Coming back resumes the clocks of one's timed games, except where another seated
    player is still away (the whole game stays paused). The threads hear which."""
    timed = await timed_game(service, "3d", users=(1, 2))
    shared = await timed_game(service, "3d", users=(4, 1))
    await clocks.vacation(1, 4)
    await clocks.vacation(4, 4)
    back = await clocks.vacation(1, 0)
    assert back.resumed_games == (timed.id,) and back.held_games == (shared.id,)
    assert (await clocks.clock_info(shared.id)).paused_by[0][0] == 4
    ended = [row for row in await pending(service, "vacation")
             if row.payload["user_id"] == 1 and row.payload["until"] is None]
    assert {row.game_id: row.payload.get("held") for row in ended[-2:]} == {
        timed.id: None, shared.id: True}
    await clocks.vacation(4, 0)
    now = await clocks.vacation_status(1)
    assert set(now.resumed_games) == {timed.id, shared.id} and now.held_games == ()


async def test_the_allowance_is_per_calendar_year(service, clocks, clock):
    clock.now = datetime(2026, 12, 1, tzinfo=UTC)
    await timed_game(service, "14d", users=(1, 2))
    await clocks.vacation(1, 30)
    clock.now = datetime(2027, 1, 2, tzinfo=UTC)
    status = await clocks.vacation(1, 10)
    assert status.used_days == 10


async def test_with_no_clock_to_pause_no_vacation_starts_and_no_day_is_spent(service, clocks):
    """A vacation pauses clocks: with no timed game in progress (untimed ones only, or none)
    there is nothing to pause, so none starts and the allowance is untouched; once a timed
    game is in progress, it starts."""
    challenge = await service.challenges.challenge("alak", 3, opponent_id=1)
    untimed = await service.challenges.accept(challenge.id, 1)
    for user, running in ((1, 1), (5, 0)):  # 5 plays nothing
        status = await clocks.vacation(user, 3)
        assert status.not_started and status.until is None
        assert status.running_games == running and status.used_days == 0
        assert (await clocks.vacation_status(user)).until is None
        with pytest.raises(ClockError) as error:
            await clocks.vacation(user, 0)
        assert error.value.key == "errors.vacation_none"
    assert await pending(service, "vacation") == []
    assert (await clocks.clock_info(untimed.id)).deadline is None
    timed = await timed_game(service, "3d", users=(1, 2))
    status = await clocks.vacation(1, 3)
    assert not status.not_started and status.paused_games == (timed.id,)
    assert status.used_days == 3


async def test_ending_a_vacation_when_not_on_one_is_refused(clocks):
    with pytest.raises(ClockError) as error:
        await clocks.vacation(1, 0)
    assert error.value.key == "errors.vacation_none"


async def test_fischer_time_spent_on_vacation_is_not_charged(service, clocks, clock):
    info = await timed_game(service, "3d+1d")
    clock.now += HOUR
    await clocks.vacation(info.seats[1], 2)  # the opponent's vacation pauses this game too
    clock.now += 2 * DAY + HOUR  # 1 h before, 2 days paused, 1 h after
    await play_first_legal(service, info, info.seats[0])
    banks = (await clocks.clock_info(info.id)).banks
    assert banks[0] == 3 * DAY  # 3 d - ~2 h + 1 d, capped at the 3-day bank


async def test_a_game_started_during_a_vacation_is_paused_from_the_start(
    service, clocks, clock
):
    await timed_game(service, "3d", users=(2, 3))  # a clock to pause: the vacation starts
    await clocks.vacation(2, 4)
    info = await timed_game(service, "1d", users=(1, 2))
    vacation_end = (await clocks.vacation_status(2)).until
    assert await clocks.deadline(info.id) == vacation_end + DAY


# ----- the scheduler task -----------------------------------------------------------------------


async def test_scheduler_task_sends_the_reminder_once_poked_at_the_right_time(
    service, clocks, clock
):
    info = await timed_game(service, "2d")
    deadline = await clocks.deadline(info.id)
    scheduler = clocks.scheduler()
    service.context.on_change = clocks.on_change = scheduler.poke
    scheduler.start()
    try:
        async with asyncio.timeout(5):
            while scheduler.rounds < 1:
                await asyncio.sleep(0)
        assert await pending(service, "reminder") == []
        at(clock, deadline - 23 * HOUR)
        scheduler.poke()  # what the wall clock's timeout would do in production
        async with asyncio.timeout(5):
            while not await pending(service, "reminder"):
                await asyncio.sleep(0)
        rounds = scheduler.rounds
        await play_first_legal(service, info)  # a move pokes through on_change
        async with asyncio.timeout(5):
            while scheduler.rounds == rounds:
                await asyncio.sleep(0)
    finally:
        await scheduler.stop()
    assert len(await pending(service, "reminder")) == 1


async def test_a_move_prepared_before_a_vacation_computes_its_clock_again(
    service, clocks, clock, store
):
    """The clock of a move is computed before its transaction; a vacation declared in between
    must not be lost (the transaction recomputes when the clock changed meanwhile)."""
    info = await timed_game(service, "3d")
    game = await store.get_game(info.id)
    now = clock()
    prepared = await clockstate.prepare_turn(store, info.id, game.seats, 1, 1, now)
    status = await clocks.vacation(2, 4)  # lands between the read and the write
    async with store.transaction() as tx:
        await clockstate.commit_turn(tx, prepared, game.seats, 1, 1, now)
    # 3 days of turn plus the whole 4-day vacation, which began after the turn did.
    assert status.until - 4 * DAY > now
    assert await clocks.deadline(info.id) == now + 3 * DAY + 4 * DAY
    # Without a change in between, the prepared clock is written as is.
    later = clock()
    prepared = await clockstate.prepare_turn(store, info.id, game.seats, 2, 0, later)
    async with store.transaction() as tx:
        await clockstate.commit_turn(tx, prepared, game.seats, 2, 0, later)
    assert await clocks.deadline(info.id) == prepared.row.deadline == status.until + 3 * DAY


async def test_create_game_in_a_callers_transaction_starts_the_clock_or_leaves_nothing(
    service, clocks, store, db
):
    before = db_dump(db)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await service.challenges.create_game_in(tx, "alak", [5, 6], time_control="2d")
            raise RuntimeError("the tournament's own write failed")
    assert db_dump(db) == before
    async with store.transaction() as tx:
        info = await service.challenges.create_game_in(tx, "alak", [5, 6], time_control="2d",
                                                       source="tournament:9")
    assert await clocks.deadline(info.id) == info.created_at + 2 * DAY


async def test_untimed_clock_info_follows_the_game_though_moves_skip_the_clock(
    service, clocks, db
):
    info = await timed_game(service, "untimed")
    written = query(db, "SELECT updated_at FROM game_clocks")
    for _ in range(3):
        result = await play_first_legal(service, info)
    assert query(db, "SELECT updated_at FROM game_clocks") == written  # no clock work
    clock_info = await clocks.clock_info(info.id)
    assert clock_info.to_move_user == result.game.user_to_move()
    assert clock_info.deadline is None and not clock_info.timed


async def test_a_move_of_an_untimed_game_has_no_deadline_to_tell_and_wakes_no_scheduler(
    service, clocks
):
    """Its board skips the clock reads (``due_info`` None once a move found it untimed), and
    the scheduler is not poked: no deadline moved. Its last move still pokes (the game
    ends)."""
    pokes = []
    service.context.on_change = lambda: pokes.append(1)
    info = await timed_game(service, "untimed")
    pokes.clear()
    assert await clocks.due_info(info.id) is not None  # no move yet: read as usual
    await play_first_legal(service, info)
    assert await clocks.due_info(info.id) is None
    assert pokes == []
    result = await play_first_legal(service, info)
    while result.game.status == "active":
        result = await play_first_legal(service, info)
    assert pokes == [1]


async def test_a_move_of_a_timed_game_tells_its_deadline_and_wakes_the_scheduler(
    service, clocks
):
    pokes = []
    service.context.on_change = lambda: pokes.append(1)
    info = await timed_game(service, "2d")
    pokes.clear()
    await play_first_legal(service, info)
    assert pokes == [1]
    due = await clocks.due_info(info.id)
    assert due is not None and due.deadline == await clocks.deadline(info.id)
