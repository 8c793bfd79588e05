"""A game's clock on its page: when the move is due, and whether the visitor may claim the
win on time (as ``/claim`` checks; the service decides)."""

from __future__ import annotations

from typing import Any

from bot.core.correspondence.texts import control_text
from bot.core.models import GameInfo
from bot.services.clocks import ClockService


async def clock_state(clocks: ClockService, game_id: int, lang: str) -> dict[str, Any] | None:
    """When the move is due (None: no deadline): the page writes the time in the visitor's
    own time zone, and counts the time left down by itself from the server's ``now`` (its
    own clock may be off; the service's clock is the one the deadline is kept by)."""
    info = await clocks.due_info(game_id)
    if info is None or info.deadline is None:
        return None
    return {"deadline": info.deadline.isoformat(),
            "control": control_text(info.time_control, lang),
            "paused": bool(info.paused_by),
            "now": clocks.clock().isoformat()}


async def claimable(clocks: ClockService, info: GameInfo, seat: int | None) -> bool:
    """Whether the visitor (at ``seat``) may claim the win on time: the player to move is
    another, and their move is overdue."""
    if info.status != "active" or seat is None or info.to_move == seat:
        return False
    due = await clocks.due_info(info.id)
    return (due is not None and due.deadline is not None and not due.paused_by
            and due.deadline <= clocks.clock())
