"""What players and spectators may know about a game's clock and a player's vacations: the
values ``bot.services.clocks`` returns and ``bot.core.correspondence.texts`` puts in words (both
import them from here, so neither imports the other)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.i18n import Text

DAY = timedelta(days=1)


@dataclass(frozen=True)
class ClockInfo:
    """What players and spectators may know about a game's clock."""

    game_id: int
    time_control: str  # "untimed", "3d", "3d+1d"
    deadline: datetime | None  # None: untimed or over
    to_move_user: int | None  # whose clock runs
    banks: tuple[timedelta, ...]  # seat -> bank (Fischer); the full turn for per-move controls
    #: Seated players on vacation right now, with the end of their vacation: the clock is paused.
    paused_by: tuple[tuple[int, datetime], ...] = ()

    @property
    def timed(self) -> bool:
        return self.time_control != "untimed"

    def remaining(self, now: datetime) -> timedelta | None:
        return None if self.deadline is None else self.deadline - now

    def overdue(self, now: datetime) -> bool:
        return self.deadline is not None and now >= self.deadline


@dataclass(frozen=True)
class VacationInfo:
    user_id: int
    until: datetime | None  # end of the current vacation, None when not on vacation
    used: timedelta  # taken from the allowance this calendar year (UTC)
    allowance_days: int
    paused_games: tuple[int, ...] = ()  # active timed games whose clocks the vacation pauses
    running_games: int = 0  # active games of the user during the vacation, timed or not
    #: Not on vacation: the active timed games whose clocks run (``resumed_games``) and those
    #: still paused by another seated player's vacation (``held_games``).
    resumed_games: tuple[int, ...] = ()
    held_games: tuple[int, ...] = ()
    #: A vacation asked for while no game in progress had a clock: none was started (nothing
    #: to pause), and no day was spent.
    not_started: bool = False

    @property
    def used_days(self) -> float:
        return self.used / DAY

    @property
    def left_days(self) -> float:
        """Days of the allowance still unused (a fraction once an hour was taken)."""
        return max(0.0, self.allowance_days - self.used_days)

    @property
    def whole_days_left(self) -> int:
        """The longest vacation that may still start this year, in days."""
        return math.floor(self.left_days)


def days_left_text(left: float, allowance: int) -> Text:
    """"25 vacation days left of 30 this year", translatable; once part of a day was taken
    (the allowance is used in started hours), in days and hours: "29 days and 23 hours of
    vacation left of 30 days", never a fraction of a day ("29.9")."""
    hours_left = math.floor(left * 24 + 1e-6)
    days, hours = divmod(hours_left, 24)
    if not hours:
        return Text("clocks.days_left", count=days, allowance=allowance)
    hours_text = Text("clocks.count.hours", count=hours)
    of = Text("clocks.count.days", count=allowance)
    if not days:
        return Text("clocks.time_left.hours", hours=hours_text, allowance=of)
    return Text("clocks.time_left.days_hours", days=Text("clocks.count.days", count=days),
                hours=hours_text, allowance=of)
