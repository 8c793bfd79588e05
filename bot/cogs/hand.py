"""``/hand``: your own LPPG cards, shown only to you (an ephemeral image drawn for your seat)."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
import render
from bot.app import reply_error, send_ephemeral
from bot.i18n import t
from bot.services.errors import ServiceError

if TYPE_CHECKING:
    from bot.app import BoardGamesBot

class Hand(commands.Cog):
    def __init__(self, bot: BoardGamesBot) -> None:
        self.bot = bot

    @app_commands.command(name="hand", description="See your cards (only you see them)")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        locale = interaction.locale
        services = self.bot.services
        game = await services.game_for_thread(interaction.channel_id)
        if game is None:
            await send_ephemeral(interaction, t("bot.game.no_game_here", locale))
            return
        if not engines.get(game.game).hidden_information:
            await send_ephemeral(interaction, t("bot.hand.no_hands", locale))
            return
        user = interaction.user.id
        if user not in game.seats:
            await send_ephemeral(interaction, t("bot.hand.not_a_player", locale))
            return
        seat = game.seats.index(user)
        try:
            view = await services.player_view(game.id, user)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        # Ephemeral from the first byte: the deferred answer is only ever visible to this user.
        await interaction.response.defer(ephemeral=True, thinking=True)
        names = [await self.bot.display_name(uid) for uid in game.seats]
        try:
            png = await asyncio.to_thread(render.hand, game.game, view, seat, players=names)
        except ValueError:
            # Hidden information that is not a hand (Palam's undealt draft batch): nothing of
            # it is the player's to see, and the board shows the rest.
            await interaction.followup.send(t("bot.hand.no_hands", locale), ephemeral=True)
            return
        await interaction.followup.send(
            t("bot.hand.yours", locale), ephemeral=True,
            file=discord.File(io.BytesIO(png), filename="hand.png"),
        )


async def setup(bot: BoardGamesBot) -> None:
    await bot.add_cog(Hand(bot))
