"""Time controls for games that last days.

- ``untimed``: no deadline.
- ``Nd``: N days for every move (as in correspondence chess: 1, 2, 3, 5, 7 or 14).
- ``Nd+Md``: a Fischer-style bank: N days to start with, M days added after each of your moves;
  the bank never grows beyond its starting size, so a fast player cannot hoard weeks.

A ``Clock`` is the per-game value the service stores: each seat's bank and when the current turn
started. Time spent on vacation does not count against the player to move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

PER_MOVE_DAYS = (1, 2, 3, 5, 7, 14)
_PATTERN = re.compile(r"^(\d+)\s*d(?:\s*\+\s*(\d+)\s*d)?$")


@dataclass(frozen=True)
class TimeControl:
    days: int = 0  # 0 = untimed
    increment_days: int = 0
    fischer: bool = False

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``untimed``, ``3d`` or ``3d+1d`` (case and spaces ignored)."""
        cleaned = text.strip().lower()
        if cleaned in ("", "untimed", "none", "0"):
            return cls()
        match = _PATTERN.match(cleaned)
        if not match:
            raise ValueError(f"{text!r} is not a time control: use untimed, 3d or 3d+1d")
        days = int(match.group(1))
        if days < 1 or days > 60:
            raise ValueError("a time control gives between 1 and 60 days")
        if match.group(2) is None:
            if days not in PER_MOVE_DAYS:
                allowed = ", ".join(f"{d}d" for d in PER_MOVE_DAYS)
                raise ValueError(f"days per move must be one of {allowed}")
            return cls(days)
        increment = int(match.group(2))
        if not 0 < increment <= days:
            raise ValueError("the increment must be at least one day and at most the bank")
        return cls(days, increment, fischer=True)

    def __str__(self) -> str:
        if self.untimed:
            return "untimed"
        if self.fischer:
            return f"{self.days}d+{self.increment_days}d"
        return f"{self.days}d"

    @property
    def untimed(self) -> bool:
        return self.days == 0

    @property
    def bank(self) -> timedelta:
        return timedelta(days=self.days)


@dataclass(frozen=True)
class Clock:
    """The clocks of one game: each seat's remaining bank and the start of the current turn."""

    control: TimeControl
    banks: tuple[timedelta, ...]
    turn_started: datetime
    to_move: int | None

    @classmethod
    def start(cls, control: TimeControl, players: int, now: datetime, to_move: int) -> Clock:
        return cls(control, (control.bank,) * players, now, to_move)

    def deadline(self, paused: timedelta = timedelta(0)) -> datetime | None:
        """When the player to move runs out of time (``paused`` = vacation time since the turn
        started, which is not counted). None when untimed or the game is over."""
        if self.control.untimed or self.to_move is None:
            return None
        return self.turn_started + self.banks[self.to_move] + paused

    def after_move(
        self, now: datetime, next_to_move: int | None, paused: timedelta = timedelta(0)
    ) -> Clock:
        """The clock once the player to move has moved at ``now`` and ``next_to_move`` is up."""
        if self.control.untimed or self.to_move is None:
            return replace(self, turn_started=now, to_move=next_to_move)
        banks = list(self.banks)
        if self.control.fischer:
            used = max(timedelta(0), now - self.turn_started - paused)
            left = max(timedelta(0), banks[self.to_move] - used)
            banks[self.to_move] = min(
                self.control.bank, left + timedelta(days=self.control.increment_days)
            )
        # Per-move controls keep a full bank: every move gets the same number of days.
        return Clock(self.control, tuple(banks), now, next_to_move)

    def remaining(self, now: datetime, paused: timedelta = timedelta(0)) -> timedelta | None:
        deadline = self.deadline(paused)
        return None if deadline is None else deadline - now


Interval = tuple[datetime, datetime]


def merge_intervals(intervals: list[Interval] | tuple[Interval, ...]) -> list[Interval]:
    """Sorted, non-overlapping intervals covering the same time (empty ones dropped)."""
    merged: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def paused_between(pauses: list[Interval], start: datetime, end: datetime) -> timedelta:
    """How much of ``[start, end]`` falls inside the (merged) pauses."""
    total = timedelta(0)
    for pause_start, pause_end in merge_intervals(pauses):
        overlap = min(end, pause_end) - max(start, pause_start)
        if overlap > timedelta(0):
            total += overlap
    return total


def paused_until_spent(pauses: list[Interval], start: datetime, budget: timedelta) -> timedelta:
    """The pause time to add to ``start + budget`` when the clock stops during ``pauses``: a
    clock started at ``start`` with ``budget`` left runs out at ``start + budget + result``.
    A pause that begins after the clock ran out does not count."""
    paused = timedelta(0)
    running_until = start + budget
    for pause_start, pause_end in merge_intervals(pauses):
        if pause_end <= start:
            continue
        if pause_start >= running_until:
            break
        overlap = pause_end - max(pause_start, start)
        paused += overlap
        running_until += overlap
    return paused
