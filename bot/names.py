"""How messages name a seated player, without discord.py: a mention (``<@id>``) for a person,
the level's name ("AI (hard)") for an AI seat, which has no Discord account to mention or
notify; several AI seats of one level at a table are numbered ("AI 1 (easy)", "AI 2 (easy)")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.i18n import t
from bot.services.aiseats import ai_level, ai_number


def player_name(user_id: int | None, locale: Any = None, seats: Iterable[int] = ()) -> str:
    """A seated player as a message names them ("" for nobody); ``seats``: the table they
    sit at, where an AI seat that shares its level with others gets its number."""
    if user_id is None:
        return ""
    level = ai_level(user_id)
    if level is None:
        return f"<@{user_id}>"
    shown = t(f"ai.level.{level}", locale)
    number = ai_number(user_id, seats)
    if number is None:
        return t("ai.name", locale, level=shown)
    return t("ai.name_numbered", locale, level=shown, number=number)
