"""What correspondence play says in Discord, as plain functions (no discord.py): a time control
in words, the "due in …" line under a board and the clock line drawn on it, a game's clock in
``/games``, the answer to ``/vacation``, and the notices of the ``Reminder``, ``TimedOut`` and
``Vacation`` events (``bot.core.events.clocks``). Times in messages are Discord timestamps
(``<t:unix:R>``), which every client shows in its own language and time zone; an image cannot
hold one, so the clock drawn on a board gives the date and time in UTC, written the way the
board's language writes them (Babel)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from babel.dates import format_datetime, format_timedelta

from bot.core.correspondence.clockinfo import ClockInfo, VacationInfo, days_left_text
from bot.core.correspondence.timecontrol import TimeControl
from bot.core.events import Reminder, TimedOut, Vacation
from bot.core.i18n import Text, language_code, t
from bot.core.names import player_name as mention


def unix(moment: datetime | str) -> int:
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return int(moment.timestamp())


def control_text(control: str, locale: Any) -> str:
    """A time control in words: "untimed", "3 days per move", "bank of 3 days, +1 day per
    move" (a text that is not a time control is shown as it is)."""
    try:
        parsed = TimeControl.parse(control)
    except ValueError:
        return control
    if parsed.untimed:
        return t("clocks.untimed", locale)
    if not parsed.fischer:
        return t("clocks.control.per_move", locale, count=parsed.days)
    bank = t("clocks.count.days", locale, count=parsed.days)
    return t("clocks.control.fischer", locale, bank=bank, count=parsed.increment_days)


def duration_text(length: timedelta, locale: Any) -> str:
    """A stretch of time as days and hours, the short way ("2d 4h", "2 j 4 h"), a started hour
    counting as a whole one (as time is counted everywhere here), so a bank of 3 days reads
    "3d" until an hour of it is gone, not "2d 23h" a second after the start; under an hour,
    minutes (a started one counting)."""
    language = language_code(locale)
    left = max(0, math.ceil(length.total_seconds()))
    if left > 3600 - 60:  # an hour or more once the started minute counts
        hours, seconds = math.ceil(left / 3600), 0
    else:
        hours, seconds = 0, math.ceil(left / 60) * 60
    days, hours = divmod(hours, 24)
    parts = [(amount, unit) for amount, unit in ((days, "day"), (hours, "hour")) if amount]
    return " ".join(
        format_timedelta(timedelta(**{f"{unit}s": amount}), granularity=unit, threshold=10**6,
                         format="narrow", locale=language)
        for amount, unit in parts or [(seconds // 60, "minute")]
    )


def moment_text(moment: datetime, locale: Any) -> str:
    """A date and time in UTC for an image ("Tue 15 Jul, 14:00 UTC")."""
    return format_datetime(moment.astimezone(UTC), "EEE d MMM, HH:mm", tzinfo=UTC,
                           locale=language_code(locale)) + " UTC"


def board_clock_text(info: ClockInfo, names: Sequence[str], seats: Sequence[int], now: datetime,
                     locale: Any) -> str | None:
    """The clock line drawn on a board: when the move is due (or that the clock is paused) and,
    with a bank (``3d+1d``), what is left of each player's: the player to move's runs down
    until the deadline. None for a game without a deadline."""
    if info.deadline is None:
        return None
    if info.paused_by:
        text = t("clocks.board.paused", locale)
    else:
        text = t("clocks.board.due", locale, when=moment_text(info.deadline, locale))
    control = TimeControl.parse(info.time_control)
    if control.fischer and len(info.banks) == len(seats):
        banks = [
            info.deadline - now if user == info.to_move_user else bank
            for user, bank in zip(seats, info.banks, strict=True)
        ]
        shown = ", ".join(f"{name} {duration_text(bank, locale)}"
                          for name, bank in zip(names, banks, strict=False))
        text += " · " + t("clocks.board.banks", locale, banks=shown)
    return text


def due_text(info: ClockInfo, locale: Any) -> str | None:
    """The line under a board: when the move is due, and who paused the clock. None when the
    game has no deadline (untimed or over)."""
    if info.deadline is None:
        return None
    text = t("clocks.due", locale, unix=unix(info.deadline),
             control=control_text(info.time_control, locale))
    if info.paused_by:
        until = max(end for _, end in info.paused_by)
        players = ", ".join(mention(user, locale) for user, _ in info.paused_by)
        text += " " + t("clocks.paused", locale, players=players, until=unix(until))
    return text


def games_clock_text(info: ClockInfo | None, now: datetime, locale: Any) -> str:
    """A game's clock in ``/games`` ("" when untimed)."""
    if info is None or info.deadline is None:
        return ""
    if info.paused_by:
        return t("clocks.games_paused", locale)
    key = "clocks.games_overdue" if info.overdue(now) else "clocks.games_due"
    return t(key, locale, unix=unix(info.deadline))


def reminder_text(reminder: Reminder, seats: Sequence[int], locale: Any) -> str:
    """The reminder posted in the game's thread (it mentions the player to move)."""
    user = reminder.user_id
    if reminder.threshold == "due_soon":
        return t("clocks.reminder_due_soon", locale, player=mention(user, locale),
                 id=reminder.game_id, unix=unix(reminder.deadline))
    opponents = [mention(other, locale) for other in seats if other != user]
    return t("clocks.reminder_overdue", locale, player=mention(user, locale),
             id=reminder.game_id, opponents=" ".join(opponents), count=len(opponents))


def reminder_dm_text(reminder: Reminder, game_title: str, link: str, locale: Any) -> str:
    key = "clocks.dm_due_soon" if reminder.threshold == "due_soon" else "clocks.dm_overdue"
    return t(key, locale, game=game_title, id=reminder.game_id,
             unix=unix(reminder.deadline), link=link)


def timeout_text(timed_out: TimedOut, locale: Any) -> str:
    player = mention(timed_out.user_id, locale)
    if timed_out.claimed_by is None:
        return t("clocks.timeout_forfeit", locale, player=player)
    return t("clocks.timeout_claimed", locale, player=player,
             claimer=mention(timed_out.claimed_by, locale))


def vacation_text(vacation: Vacation, locale: Any) -> str:
    """A game thread's notice of a player's vacation: started, or over (and whether the clock
    runs again or still waits for another player who is away)."""
    player = mention(vacation.user_id, locale)
    if vacation.until is None:
        key = "clocks.vacation_ended_held" if vacation.held else "clocks.vacation_ended"
        return t(key, locale, player=player)
    return t("clocks.vacation_started", locale, player=player, until=unix(vacation.until))


def vacation_status_text(status: VacationInfo, locale: Any) -> str:
    """The answer to ``/vacation``: until when, what it pauses (the timed games; untimed ones
    have no clock to pause), and the days left. At its end, which clocks run again: none when
    no timed game is in progress, and not those of games where another player is away."""
    days_left = days_left_text(status.left_days, status.allowance_days)
    if status.not_started:
        key = "vacation_not_started" if status.running_games else "vacation_not_started_no_games"
        return t(f"clocks.{key}", locale, days_left=days_left)
    if status.until is None:
        held = len(status.held_games)
        if held and status.resumed_games:
            return t("clocks.vacation_off_some_held", locale, days_left=days_left,
                     games=Text("clocks.count.games", count=held))
        if held:
            return t("clocks.vacation_off_held", locale, days_left=days_left, count=held)
        if status.resumed_games:
            return t("clocks.vacation_off", locale, days_left=days_left)
        return t("clocks.vacation_off_no_clocks", locale, days_left=days_left)
    until = unix(status.until)
    if status.paused_games:
        return t("clocks.vacation_on", locale, until=until, days_left=days_left,
                 games=Text("clocks.count.games", count=len(status.paused_games)))
    if status.running_games:
        return t("clocks.vacation_on_untimed", locale, until=until, days_left=days_left)
    return t("clocks.vacation_on_no_games", locale, until=until, days_left=days_left)
