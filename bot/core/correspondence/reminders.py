"""Which reminders are due. A reminder is identified by (game, ply, threshold) so the same one
is never sent twice, even across restarts: the service records each sent key in the database."""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum


class Threshold(StrEnum):
    DUE_SOON = "due_soon"  # 24 hours before the deadline
    OVERDUE = "overdue"  # the deadline has passed: the opponent may /claim


DUE_SOON_BEFORE = timedelta(hours=24)


def threshold_times(deadline: datetime) -> dict[Threshold, datetime]:
    return {Threshold.DUE_SOON: deadline - DUE_SOON_BEFORE, Threshold.OVERDUE: deadline}


def due_thresholds(
    deadline: datetime | None, now: datetime, already_sent: set[Threshold]
) -> list[Threshold]:
    """Thresholds reached by ``now`` and not yet sent, in order. When the bot was down past both
    thresholds only the overdue notice is sent: a "due in 24 h" after the deadline is noise."""
    if deadline is None or Threshold.OVERDUE in already_sent:
        return []  # thresholds come in order: once the last one went out, nothing is left
    reached = [
        t for t, at in threshold_times(deadline).items() if at <= now and t not in already_sent
    ]
    if Threshold.OVERDUE in reached:
        return [Threshold.OVERDUE]
    return reached


def next_threshold_time(
    deadline: datetime | None, already_sent: set[Threshold]
) -> datetime | None:
    """When the next reminder of this game falls due (None when nothing is left to send)."""
    if deadline is None or Threshold.OVERDUE in already_sent:
        return None
    pending = [at for t, at in threshold_times(deadline).items() if t not in already_sent]
    return min(pending, default=None)
