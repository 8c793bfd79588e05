"""How messages name a seated player, without discord.py: a mention (``<@id>``) for a person,
the level's name ("AI (hard)") for an AI seat, which has no Discord account to mention or
notify."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.seats import ai_level


def player_name(user_id: int | None, locale: Any = None) -> str:
    """A seated player as a message names them ("" for nobody)."""
    if user_id is None:
        return ""
    level = ai_level(user_id)
    if level is None:
        return f"<@{user_id}>"
    return t("ai.name", locale, level=t(f"ai.level.{level}", locale))
