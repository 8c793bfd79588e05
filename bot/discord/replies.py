"""Answers to one user that always fit Discord: the pieces every part of the Discord layer shares
(app, delivery, views, cogs), kept below them all so imports point one way.

Discord refuses a message over 2,000 characters (400, code 50035), and the user then sees "The
application did not respond". Whatever a user typed and a reply repeats is cut to
``ECHO_MAX`` characters, and every text is cut to ``CONTENT_MAX`` as a last resort.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.services.aiseats import is_ai
from engines.phrases import Phrase

log = logging.getLogger(__name__)

#: Discord's limit on a message's content.
CONTENT_MAX = 2000
#: How much of something a user typed a reply repeats.
ECHO_MAX = 100
NO_PINGS = discord.AllowedMentions.none()


def pinging(*user_ids: int | None) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (the others mentioned are only named); an AI
    seat is never notified."""
    wanted = [discord.Object(uid) for uid in user_ids if uid is not None and not is_ai(uid)]
    return discord.AllowedMentions(everyone=False, roles=False, users=wanted or False)


def clip(text: str, limit: int = CONTENT_MAX) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when something was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clipped(value: Any) -> Any:
    if isinstance(value, str):
        return clip(value, ECHO_MAX)
    if isinstance(value, Phrase):  # an engine's refusal may quote what was typed
        return Phrase(value.key, **{name: _clipped(v) for name, v in value.params})
    return value


def clip_params(params: dict[str, Any]) -> dict[str, Any]:
    """Message parameters with every text cut to ``ECHO_MAX``, also inside an engine's phrase
    (they may repeat user input)."""
    return {k: _clipped(v) for k, v in params.items()}


def fit_lines(lines: list[str], more: Callable[[int], str], limit: int = CONTENT_MAX) -> str:
    """``lines`` joined, as many as fit in ``limit`` characters, then ``more(left out)``."""
    text = "\n".join(lines)
    kept = len(lines)
    while len(text) > limit and kept > 1:
        kept -= 1
        text = "\n".join([*lines[:kept], more(len(lines) - kept)])
    return clip(text, limit)


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """An answer only the user sees (and that pings nobody), whether or not the interaction
    was acknowledged already."""
    text = clip(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text, ephemeral=True,
                                                    allowed_mentions=NO_PINGS)
    except discord.HTTPException:
        log.warning("could not tell the user about an error", exc_info=True)


async def reply_error(interaction: discord.Interaction, error: ServiceError) -> None:
    """The service's player-readable reason, in the user's language, only to them."""
    try:
        text = t(error.key, interaction.locale, **clip_params(error.params))
    except (KeyError, IndexError):
        text = t("errors.unknown", interaction.locale)
    await send_ephemeral(interaction, text)
