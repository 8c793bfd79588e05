"""A hint in a game against the AI: the AI's suggestion for the presser's move, shown only to
them (``/hint`` and the board's **Hint**), thought in the AI's worker pool; a player with a hint
still being thought is told so at once."""

from __future__ import annotations

from typing import Any

import discord

from bot.core.errors import ServiceError
from bot.core.i18n import say, t
from bot.core.models import GameInfo
from bot.discord.replies import NO_PINGS, reply_error, send_ephemeral
from bot.workers.ai_player import HintsBusy
from bot.workers.pool import PoolBusy


async def give_hint(bot: Any, interaction: discord.Interaction, info: GameInfo) -> None:
    """Answer ``interaction`` privately with a hint for the presser's move in ``info``."""
    locale = interaction.locale
    try:
        job = await bot.services.aiseats.hint_job(info.id, interaction.user.id)
    except ServiceError as error:
        await reply_error(interaction, error)
        return
    if not bot.ai_player.may_hint(interaction.user.id):
        await send_ephemeral(interaction, t("ai.hint_busy", locale))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        tip = await bot.ai_player.hint(job)
    except HintsBusy:  # another of their hints got in meanwhile
        await send_ephemeral(interaction, t("ai.hint_busy", locale))
        return
    except PoolBusy:
        await send_ephemeral(interaction, t("ai.busy", locale))
        return
    if tip.reason is None:
        text = t("ai.hint.move", locale, move=tip.move)
    else:
        text = t("ai.hint.because", locale, move=tip.move, reason=say(tip.reason, locale))
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)

