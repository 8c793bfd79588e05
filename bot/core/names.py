"""How messages name a seated player, without discord.py: a mention (``<@id>``) for a person,
the level's name ("AI (hard)") for an AI seat, which has no Discord account to mention or
notify; several AI seats of one level at a table are numbered ("AI 1 (easy)", "AI 2 (easy)")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.core.i18n import t
from bot.core.seats import ai_level, ai_number
from engines.phrases import Phrase


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


def naming_player(phrase: Phrase, seat: Phrase, player: str) -> Phrase | None:
    """What a move did (an engine's phrase, which names the mover by their seat: "Black plays
    h and captures 2 stones") with the mover named as ``player`` instead ("@alice plays h…"),
    so a move's post says who played what once; None when the phrase never names ``seat``."""
    found = False

    def swap(value: object) -> object:
        nonlocal found
        if not isinstance(value, Phrase):
            return value
        if value == seat:
            found = True
            return player
        return Phrase(value.key, **{name: swap(inner) for name, inner in value.params})

    named = swap(phrase)
    return named if found and isinstance(named, Phrase) else None
