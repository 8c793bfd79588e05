"""``/sync``: publish the command tree (owner only), globally or to the configured guilds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t

if TYPE_CHECKING:
    from bot.app import BoardGamesBot


class Admin(commands.Cog):
    def __init__(self, bot: BoardGamesBot) -> None:
        self.bot = bot

    @app_commands.command(name="sync", description="Publish the bot's commands (owner only)")
    # Hidden from members who are not admins; the owner check below is what guards it.
    @app_commands.default_permissions(administrator=True)
    @app_commands.describe(scope="global: everywhere (slow to appear); guilds: configured guilds")
    async def sync(
        self, interaction: discord.Interaction, scope: Literal["global", "guilds"] = "guilds"
    ) -> None:
        locale = interaction.locale
        if not await self.bot.is_owner(interaction.user):
            await interaction.response.send_message(t("bot.sync.owner_only", locale),
                                                    ephemeral=True)
            return
        if scope == "guilds" and not self.bot.config.guild_ids:
            await interaction.response.send_message(t("bot.sync.no_guilds", locale),
                                                    ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        where = await self.bot.sync_commands(scope)
        await interaction.followup.send(
            t("bot.sync.done", locale, count=len(self.bot.tree.get_commands()),
              where=", ".join(where)),
            ephemeral=True,
        )


async def setup(bot: BoardGamesBot) -> None:
    await bot.add_cog(Admin(bot))
