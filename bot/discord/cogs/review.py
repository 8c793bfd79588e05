"""``/review [game]``: the AI's review of a game (``bot.discord.cogs._review``); the Review button
under a game's result (``bot.discord.views.review``) answers through ``Review.answer``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs._common import game_number
from bot.discord.cogs._review import answer_review

if TYPE_CHECKING:
    from bot.discord.host import CogHost


class Review(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    @app_commands.command(
        name="review",
        description="The AI's review of a game: who was winning, and the biggest mistakes")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def review(self, interaction: discord.Interaction,
                     game: game_number("any") = None) -> None:
        await self.answer(interaction, game)

    async def answer(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """The review asked for (``/review`` or the Review button, ``bot.discord.views.review``)."""
        await answer_review(self.bot, interaction, game_id)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Review(bot))
