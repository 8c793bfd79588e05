"""What correspondence play says in Discord, as plain functions (no discord.py): the "due in …"
line under a board, a game's clock in ``/games``, and the outbox rows ``reminder``, ``timeout``
and ``vacation``. Times are Discord timestamps (``<t:unix:R>``), which every client shows in
its own language and time zone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.i18n import t
from bot.names import player_name as mention
from bot.services.clocks import ClockInfo


def unix(moment: datetime | str) -> int:
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return int(moment.timestamp())


def control_text(control: str, locale: Any) -> str:
    return t("clocks.untimed", locale) if control == "untimed" else control


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


def reminder_text(payload: Mapping[str, Any], seats: Sequence[int], locale: Any) -> str:
    """The reminder posted in the game's thread (it mentions the player to move)."""
    user = int(payload["user_id"])
    if payload["threshold"] == "due_soon":
        return t("clocks.reminder_due_soon", locale, player=mention(user, locale),
                 id=payload["game_id"], unix=unix(payload["deadline"]))
    opponents = " ".join(mention(other, locale) for other in seats if other != user)
    return t("clocks.reminder_overdue", locale, player=mention(user, locale), id=payload["game_id"],
             opponents=opponents)


def reminder_dm_text(payload: Mapping[str, Any], game_title: str, link: str,
                     locale: Any) -> str:
    key = "clocks.dm_due_soon" if payload["threshold"] == "due_soon" else "clocks.dm_overdue"
    return t(key, locale, game=game_title, id=payload["game_id"],
             unix=unix(payload["deadline"]), link=link)


def timeout_text(payload: Mapping[str, Any], locale: Any) -> str:
    player = mention(int(payload["user_id"]), locale)
    if payload.get("claimed_by") is None:
        return t("clocks.timeout_forfeit", locale, player=player)
    return t("clocks.timeout_claimed", locale, player=player,
             claimer=mention(int(payload["claimed_by"]), locale))


def vacation_text(payload: Mapping[str, Any], locale: Any) -> str:
    player = mention(int(payload["user_id"]), locale)
    if payload.get("until") is None:
        return t("clocks.vacation_ended", locale, player=player)
    return t("clocks.vacation_started", locale, player=player, until=unix(payload["until"]))
