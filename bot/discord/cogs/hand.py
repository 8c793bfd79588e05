"""``/hand``: your own LPPG cards and, when it is your turn, your moves as buttons, shown only to
you (an ephemeral image drawn for your seat). The public board never carries those buttons:
which placements are legal would tell your cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.core.i18n import t
from bot.discord.replies import send_ephemeral
from bot.discord.views.hand import show_hand

if TYPE_CHECKING:
    from bot.discord.host import CogHost


class Hand(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    @app_commands.command(name="hand", description="See your cards (only you see them)")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        locale = interaction.locale
        services = self.bot.services
        game = await services.games.game_for_thread(interaction.channel_id)
        if game is None:
            await send_ephemeral(interaction, t("bot.game.no_game_here", locale))
            return
        if not engines.get(game.game).hidden_information:
            await send_ephemeral(interaction, t("bot.hand.no_hands", locale))
            return
        await show_hand(self.bot, interaction, game)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Hand(bot))
