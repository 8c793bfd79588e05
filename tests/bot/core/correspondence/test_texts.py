from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.correspondence.texts import (
    due_text,
    games_clock_text,
    reminder_dm_text,
    reminder_text,
    timeout_text,
    vacation_status_text,
    vacation_text,
)
from bot.core.events import Reminder, TimedOut, Vacation
from bot.services.clocks import ClockInfo, VacationInfo
from words import typeset

DEADLINE = datetime(2026, 3, 10, 18, 0, tzinfo=UTC)
UNIX = int(DEADLINE.timestamp())


def info(**changes):
    values = dict(game_id=4, time_control="3d+1d", deadline=DEADLINE, to_move_user=10,
                  banks=(timedelta(days=3),) * 2)
    values.update(changes)
    return ClockInfo(**values)


@pytest.mark.parametrize("locale, control", [
    ("en", "bank of 3 days, +1 day per move"),
    ("fr", "réserve de 3 jours, +1 jour par coup"),
])
def test_due_line_gives_a_discord_timestamp_and_the_control(locale, control):
    text = due_text(info(), locale)
    assert f"<t:{UNIX}:R>" in text and f"({control})" in text


def test_due_line_names_who_paused_the_clock():
    until = DEADLINE + timedelta(days=2)
    text = due_text(info(paused_by=((11, until),)), "en")
    assert "<@11>" in text and f"<t:{int(until.timestamp())}:f>" in text


def test_no_due_line_without_a_deadline():
    assert due_text(info(deadline=None, time_control="untimed"), "en") is None
    assert games_clock_text(info(deadline=None), DEADLINE, "en") == ""
    assert games_clock_text(None, DEADLINE, "en") == ""


def test_games_line_says_when_time_is_up():
    assert "due" in games_clock_text(info(), DEADLINE - timedelta(hours=1), "en")
    # Read with Discord's relative time: "time ran out 2 hours ago" (not "since 2 hours ago").
    assert games_clock_text(info(), DEADLINE, "en") == f"**time ran out** <t:{UNIX}:R>"
    assert "paused" in games_clock_text(info(paused_by=((11, DEADLINE),)), DEADLINE, "en")


def test_reminders_mention_the_player_and_overdue_invites_the_opponents_to_claim():
    reminder = Reminder(game_id=4, user_id=10, seat=0, threshold="due_soon", deadline=DEADLINE,
                        ply=3, dm=False)
    soon = reminder_text(reminder, (10, 20), "en")
    assert soon.startswith("<@10>") and f"<t:{UNIX}:R>" in soon and "<@20>" not in soon
    late = reminder_text(replace(reminder, threshold="overdue"), (10, 20), "fr")
    # The command by its French name, as French players have it.
    assert "<@10>" in late and "<@20>" in late and "/réclamer" in late
    dm = reminder_dm_text(reminder, "Alak", "https://discord.com/channels/1/2", "en")
    assert "Alak #4" in dm and "https://discord.com/channels/1/2" in dm


def test_timeout_and_vacation_notices():
    claimed = TimedOut(game_id=4, seat=0, user_id=10, claimed_by=20, version=7)
    assert "<@20> claimed" in timeout_text(claimed, "en")
    assert "tournament" in timeout_text(replace(claimed, claimed_by=None), "en")
    started = vacation_text(Vacation(game_id=4, user_id=10, until=DEADLINE), "en")
    assert f"<t:{UNIX}:f>" in started
    assert "back" in vacation_text(Vacation(game_id=4, user_id=10, until=None), "en")


def vacation(used: timedelta, paused=(), running=0, on=True, resumed=(), held=()
             ) -> VacationInfo:
    return VacationInfo(10, DEADLINE if on else None, used, 30, tuple(paused), running,
                        tuple(resumed), tuple(held))


@pytest.mark.parametrize("locale, expected", [
    ("en", ("the clocks of your 2 games are paused", "nothing is paused and nobody is told",
            "you have no game in progress",
            "29 days and 23 hours of vacation left of 30 days this year",
            "1 vacation day left of 30")),
    ("fr", ("les pendules de vos 2 parties sont arrêtées", "rien n'est arrêté et personne",
            "vous n'avez pas de partie en cours",
            "Il vous reste 29 jours et 23 heures de vacances sur 30 jours cette année",
            "Il vous reste 1 jour de vacances sur 30")),
])
def test_vacation_answers_say_what_is_paused_and_the_days_left_by_the_hour(locale, expected):
    """Timed games are paused; untimed ones only are said to be left alone; no game at all
    is its own case. What is left is said in days and hours (the allowance is used in started
    hours), never a fraction of a day, in the reader's plural."""
    timed, untimed, none, fraction, one = expected
    hour = timedelta(hours=1)
    paused = vacation_status_text(vacation(hour, paused=(1, 2), running=3), locale)
    assert timed in paused and f"<t:{UNIX}:f>" in paused
    assert untimed in vacation_status_text(vacation(hour, running=1), locale)
    assert none in vacation_status_text(vacation(hour), locale)
    assert fraction in vacation_status_text(vacation(hour, on=False), locale)
    assert one in vacation_status_text(vacation(timedelta(days=29), on=False), locale)


@pytest.mark.parametrize("locale, expected", [
    ("en", ("Welcome back. 30 vacation days left", "Welcome back: your clocks run again.",
            "except in 1 game where another player is still on vacation",
            "Your game with a clock stays paused while another of its players",
            "Your 2 games with a clock stay paused while another of their players")),
    ("fr", ("Bon retour. Il vous reste 30 jours", "Bon retour : vos pendules repartent.",
            "sauf dans 1 partie où un autre joueur est encore en vacances",
            "Votre partie avec pendule reste arrêtée tant qu'un autre de ses joueurs",
            "Vos 2 parties avec pendule restent arrêtées tant qu'un autre de leurs joueurs")),
])
def test_back_from_vacation_says_only_what_runs_again(locale, expected):
    """Without a timed game in progress nothing "runs again"; a game where another player is
    still away stays paused, and is said to."""
    nothing, running, some_held, one_held, two_held = (typeset(text, locale)
                                                       for text in expected)
    back = vacation_status_text(vacation(timedelta(0), on=False), locale)
    assert back.startswith(nothing)
    assert "run" not in back and "repart" not in back
    assert vacation_status_text(vacation(timedelta(0), on=False, resumed=(1,)),
                                locale).startswith(running)
    assert some_held in vacation_status_text(
        vacation(timedelta(0), on=False, resumed=(1, 2), held=(3,)), locale)
    for held, text in (((3,), one_held), ((3, 4), two_held)):
        answer = vacation_status_text(vacation(timedelta(0), on=False, held=held), locale)
        assert text in answer and "run again" not in answer and "repartent" not in answer


def test_a_thread_hears_whether_the_clock_runs_again():
    back = Vacation(game_id=4, user_id=10, until=None)
    assert "the clock runs again" in vacation_text(back, "en")
    held = vacation_text(replace(back, held=True), "en")
    assert "stays paused" in held and "runs again" not in held
    assert "reste arrêtée" in vacation_text(replace(back, held=True), "fr")
