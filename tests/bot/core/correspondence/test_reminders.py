from datetime import UTC, datetime, timedelta

from bot.core.correspondence.reminders import Threshold, due_thresholds, next_threshold_time

DEADLINE = datetime(2026, 3, 10, 18, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def test_nothing_due_before_the_last_day():
    assert due_thresholds(DEADLINE, DEADLINE - 25 * HOUR, set()) == []


def test_due_soon_at_24_hours_then_overdue_at_the_deadline():
    assert due_thresholds(DEADLINE, DEADLINE - 24 * HOUR, set()) == [Threshold.DUE_SOON]
    assert due_thresholds(DEADLINE, DEADLINE - HOUR, {Threshold.DUE_SOON}) == []
    assert due_thresholds(DEADLINE, DEADLINE, {Threshold.DUE_SOON}) == [Threshold.OVERDUE]


def test_a_sent_reminder_is_never_due_again():
    sent = {Threshold.DUE_SOON, Threshold.OVERDUE}
    assert due_thresholds(DEADLINE, DEADLINE + 100 * HOUR, sent) == []
    assert next_threshold_time(DEADLINE, sent) is None


def test_after_downtime_past_both_thresholds_only_overdue_is_sent():
    assert due_thresholds(DEADLINE, DEADLINE + HOUR, set()) == [Threshold.OVERDUE]


def test_next_threshold_time_is_the_earliest_unsent():
    assert next_threshold_time(DEADLINE, set()) == DEADLINE - 24 * HOUR
    assert next_threshold_time(DEADLINE, {Threshold.DUE_SOON}) == DEADLINE
    assert next_threshold_time(None, set()) is None


def test_once_overdue_was_sent_the_skipped_due_soon_never_follows():
    # After downtime only OVERDUE went out; the next round must not send "due in 24 h" late.
    assert due_thresholds(DEADLINE, DEADLINE + 2 * HOUR, {Threshold.OVERDUE}) == []
    assert next_threshold_time(DEADLINE, {Threshold.OVERDUE}) is None
