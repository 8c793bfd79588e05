"""``/hint``: in a game against the AI, the move the ``hard`` level would play and, where the
game allows it, why, shown only to the player who asked. Refused in games between people and
where any opponent of the asker is a person (the service says why).

The search runs in the AI players' worker processes and takes up to the hard level's budget
(about a second, more when the workers are busy), beyond Discord's 3 s for a first answer: the
answer is deferred (privately), then given as its follow-up. A player whose previous hint is
still being thought is told so at once (``ai_hints_per_user``), never left without an answer;
hints take their turn with everyone's AI moves (``bot.aiqueue``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.aiplayer import HintsBusy
from bot.cogs._common import game_here, game_number
from bot.i18n import say, t
from bot.replies import NO_PINGS, reply_error, send_ephemeral
from bot.services.errors import ServiceError
from bot.workers import PoolBusy

if TYPE_CHECKING:
    from bot.app import BoardGamesBot


class Hint(commands.Cog):
    def __init__(self, bot: BoardGamesBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="hint", description="Suggest a move in your game against the AI (only you see it)")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def hint(self, interaction: discord.Interaction,
                   game: game_number("hint") = None) -> None:
        info = await game_here(self.bot, interaction, game)
        if info is None:
            return
        locale = interaction.locale
        try:
            job = await self.bot.services.hint_job(info.id, interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        if not self.bot.ai_player.may_hint(interaction.user.id):
            await send_ephemeral(interaction, t("ai.hint_busy", locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            tip = await self.bot.ai_player.hint(job)
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


async def setup(bot: BoardGamesBot) -> None:
    await bot.add_cog(Hint(bot))
