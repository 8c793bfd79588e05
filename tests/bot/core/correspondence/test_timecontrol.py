from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.correspondence.timecontrol import (
    Clock,
    TimeControl,
    merge_intervals,
    paused_between,
    paused_until_spent,
)

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


@pytest.mark.parametrize("text", ["untimed", "1d", "3d", "14d", "3d+1d", "7d+2d"])
def test_notation_round_trips(text):
    assert str(TimeControl.parse(text)) == text
    assert TimeControl.parse(text.upper().replace("+", " + ")) == TimeControl.parse(text)


@pytest.mark.parametrize("text", ["4d", "0d+1d", "3d+0d", "3d+4d", "tomorrow", "-1d", "99d+1d"])
def test_bad_time_controls_are_refused_with_a_reason(text):
    with pytest.raises(ValueError, match=r"\w"):
        TimeControl.parse(text)


def test_untimed_has_no_deadline():
    clock = Clock.start(TimeControl.parse("untimed"), 2, T0, 0)
    assert clock.deadline() is None
    assert clock.after_move(T0 + 40 * DAY, 1).deadline() is None


def test_days_per_move_give_every_move_the_same_time():
    clock = Clock.start(TimeControl.parse("3d"), 2, T0, 0)
    assert clock.deadline() == T0 + 3 * DAY
    clock = clock.after_move(T0 + 2 * DAY, 1)
    assert clock.deadline() == T0 + 5 * DAY
    clock = clock.after_move(T0 + 2 * DAY + timedelta(hours=1), 0)
    assert clock.deadline() == T0 + 5 * DAY + timedelta(hours=1)


def test_fischer_bank_spends_time_and_adds_the_increment_up_to_the_start_bank():
    clock = Clock.start(TimeControl.parse("3d+1d"), 2, T0, 0)
    clock = clock.after_move(T0 + 2 * DAY, 1)  # seat 0 used 2 days: 3 - 2 + 1 = 2 days left
    assert clock.banks[0] == 2 * DAY
    assert clock.deadline() == T0 + 5 * DAY  # seat 1 still has its 3 days
    clock = clock.after_move(T0 + 2 * DAY + timedelta(hours=1), 0)
    assert clock.banks[1] == 3 * DAY  # capped at the starting bank
    assert clock.deadline() == T0 + 2 * DAY + timedelta(hours=1) + 2 * DAY


def test_vacation_time_is_not_counted():
    clock = Clock.start(TimeControl.parse("3d+1d"), 2, T0, 0)
    assert clock.deadline(paused=2 * DAY) == T0 + 5 * DAY
    clock = clock.after_move(T0 + 4 * DAY, 1, paused=2 * DAY)  # 2 days really used
    assert clock.banks[0] == 2 * DAY


def test_game_over_has_no_deadline():
    clock = Clock.start(TimeControl.parse("1d"), 2, T0, 0).after_move(T0, None)
    assert clock.deadline() is None


# ----- pauses (vacations) -------------------------------------------------------------------


def test_overlapping_pauses_merge():
    assert merge_intervals([(T0 + 2 * DAY, T0 + 4 * DAY), (T0, T0 + 3 * DAY)]) == [
        (T0, T0 + 4 * DAY)
    ]


def test_paused_between_counts_only_the_overlap():
    pauses = [(T0 - DAY, T0 + DAY), (T0 + 5 * DAY, T0 + 9 * DAY)]
    assert paused_between(pauses, T0, T0 + 6 * DAY) == 2 * DAY


def test_a_pause_during_the_turn_pushes_the_end_back_by_its_length():
    pauses = [(T0 + DAY, T0 + 3 * DAY)]
    assert paused_until_spent(pauses, T0, 3 * DAY) == 2 * DAY


def test_a_pause_reached_only_thanks_to_an_earlier_one_also_counts():
    # Bank 2 days: the first pause pushes the end to day 4, so the pause at day 3 counts too.
    pauses = [(T0 + DAY, T0 + 3 * DAY), (T0 + 3 * DAY + DAY / 2, T0 + 5 * DAY)]
    assert paused_until_spent(pauses, T0, 2 * DAY) == 2 * DAY + DAY + DAY / 2


def test_a_pause_after_the_clock_ran_out_does_not_count():
    assert paused_until_spent([(T0 + 4 * DAY, T0 + 6 * DAY)], T0, 3 * DAY) == timedelta(0)


@settings(max_examples=150, deadline=None)
@given(
    budget_hours=st.integers(min_value=1, max_value=24 * 14),
    pauses=st.lists(
        st.tuples(st.integers(min_value=-48, max_value=24 * 30), st.integers(1, 24 * 10)),
        max_size=5,
    ),
)
def test_property_the_clock_runs_exactly_its_budget_outside_the_pauses(budget_hours, pauses):
    start = T0
    intervals = [(start + h * HOUR, start + (h + length) * HOUR) for h, length in pauses]
    budget = budget_hours * HOUR
    paused = paused_until_spent(intervals, start, budget)
    end = start + budget + paused
    # Time actually running between the turn's start and the end is the whole budget...
    assert (end - start) - paused_between(intervals, start, end) == budget
    # ...and the end is not inside a pause (the clock runs out while running).
    assert not any(a < end <= b for a, b in merge_intervals(intervals) if b > start)
