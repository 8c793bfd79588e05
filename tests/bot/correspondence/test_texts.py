from datetime import UTC, datetime, timedelta

import pytest

from bot.correspondence.texts import (
    due_text,
    games_clock_text,
    reminder_dm_text,
    reminder_text,
    timeout_text,
    vacation_text,
)
from bot.services.clocks import ClockInfo

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
    assert "time is up" in games_clock_text(info(), DEADLINE, "en")
    assert "paused" in games_clock_text(info(paused_by=((11, DEADLINE),)), DEADLINE, "en")


def test_reminders_mention_the_player_and_overdue_invites_the_opponents_to_claim():
    payload = {"game_id": 4, "user_id": 10, "threshold": "due_soon",
               "deadline": DEADLINE.isoformat()}
    soon = reminder_text(payload, (10, 20), "en")
    assert soon.startswith("<@10>") and f"<t:{UNIX}:R>" in soon and "<@20>" not in soon
    late = reminder_text({**payload, "threshold": "overdue"}, (10, 20), "fr")
    # The command by its French name, as French players have it.
    assert "<@10>" in late and "<@20>" in late and "/réclamer" in late
    dm = reminder_dm_text(payload, "Alak", "https://discord.com/channels/1/2", "en")
    assert "Alak #4" in dm and "https://discord.com/channels/1/2" in dm


def test_timeout_and_vacation_notices():
    assert "<@20> claimed" in timeout_text({"user_id": 10, "claimed_by": 20}, "en")
    assert "tournament" in timeout_text({"user_id": 10, "claimed_by": None}, "en")
    started = vacation_text({"user_id": 10, "until": DEADLINE.isoformat()}, "en")
    assert f"<t:{UNIX}:f>" in started
    assert "back" in vacation_text({"user_id": 10, "until": None}, "en")
