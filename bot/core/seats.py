"""Who sits at a table: a person's Discord id, or a reserved id that names an AI seat and its
level (``bot.services.aiseats`` explains the scheme). Plain values, known to every layer: the
services that seat AI players, the names messages give them (``bot.core.names``), the replies.
"""

from __future__ import annotations

from collections.abc import Iterable

import ai

#: Reserved ids per level: ``−(SLOTS_PER_LEVEL × (index + 1) + slot)``.
SLOTS_PER_LEVEL = 100
LOWEST_AI_ID = -(SLOTS_PER_LEVEL * (len(ai.LEVELS) + 1) - 1)
HIGHEST_AI_ID = -SLOTS_PER_LEVEL


def ai_user_id(level: str, slot: int = 0) -> int:
    """The reserved user id of an AI seat of ``level`` (``slot``: which one of that level)."""
    if level not in ai.LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if not 0 <= slot < SLOTS_PER_LEVEL:
        raise ValueError(f"slot must be in 0..{SLOTS_PER_LEVEL - 1}, got {slot}")
    return -(SLOTS_PER_LEVEL * (ai.LEVELS.index(level) + 1) + slot)


def ai_level(user_id: int | None) -> str | None:
    """The level of an AI seat's id, or None for a person."""
    if user_id is None or not LOWEST_AI_ID <= user_id <= HIGHEST_AI_ID:
        return None
    return ai.LEVELS[-user_id // SLOTS_PER_LEVEL - 1]


def ai_number(user_id: int, seats: Iterable[int]) -> int | None:
    """Which AI of its level ``user_id`` is at a table of ``seats`` (1, 2…, in the order of
    their reserved ids, so a rematch's turned seats keep the numbers), or None when it is
    the only one of its level there."""
    level = ai_level(user_id)
    same = sorted({uid for uid in seats if ai_level(uid) == level} | {user_id}, reverse=True)
    return None if level is None or len(same) < 2 else same.index(user_id) + 1


def is_ai(user_id: int | None) -> bool:
    return ai_level(user_id) is not None


def has_ai(seats: tuple[int, ...]) -> bool:
    return any(is_ai(user_id) for user_id in seats)
