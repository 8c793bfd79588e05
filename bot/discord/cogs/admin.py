"""``/sync``: publish the command tree (owner only), globally or to the configured guilds.
``/admin abort`` and ``/admin settings``: what a member with Manage Server does for their
server (``bot.services.admin``: ending a stuck game with no result; the language of the
server's public posts and the default time control of ``/play``), and the poster of the
``aborted`` outbox row (the game's thread is told, its players pinged)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engines
from bot.core.correspondence.texts import control_text
from bot.core.errors import ServiceError
from bot.core.events import AdminAborted, OutboxItem
from bot.core.i18n import t
from bot.core.names import player_name
from bot.discord.cogs._common import archive_when_quiet, game_number
from bot.discord.cogs.play import TIME_CONTROL_CHOICES
from bot.discord.replies import pinging, reply_error, send_ephemeral
from bot.services.admin import SERVER_LANGUAGES
from bot.services.aiseats import is_ai

if TYPE_CHECKING:
    from bot.discord.host import CogHost


async def post_aborted(bot: CogHost, item: OutboxItem[AdminAborted]) -> None:
    """An ``aborted`` row: said in the game's thread, pinging its players (their game is
    over). An AI seat is neither named in that list nor pinged: it has no account to
    notify, and an aborted game gives it no turn to play (``ai_turns`` lists active games
    only)."""
    game = await bot.services.games.get_game(item.event.game_id)
    where = game.thread_id or game.channel_id
    if where is None:
        return
    locale = bot.delivery.language(game)  # the thread's language
    people = [uid for uid in game.seats if not is_ai(uid)]
    text = t("bot.admin.aborted_notice", locale, game=engines.get(game.game).title,
             id=game.id, by=player_name(item.event.by, locale),
             players=", ".join(player_name(uid, locale) for uid in people))
    await bot.delivery.send(where, item, guild_id=game.guild_id, content=text,
                            allowed_mentions=pinging(*people))
    await archive_when_quiet(bot, game)


class Admin(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.delivery.register({AdminAborted: functools.partial(post_aborted, self.bot)})

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

    admin = app_commands.Group(
        name="admin", description="Server settings and stuck games (Manage Server)",
        guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
    )

    @staticmethod
    async def _refused(interaction: discord.Interaction) -> bool:
        """Discord hides these commands from members without Manage Server, but a server may
        open them to others in its settings: the right is checked again here."""
        if interaction.permissions.manage_guild:
            return False
        await send_ephemeral(interaction, t("bot.admin.manage_server_only", interaction.locale))
        return True

    @admin.command(name="abort", description="End a stuck game with no result (not rated)")
    @app_commands.describe(game="The game number")
    async def abort(self, interaction: discord.Interaction,
                    game: game_number("abort")) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        try:
            info = await self.bot.services.admin.abort(game, guild_id=interaction.guild_id,
                                                       by=interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        await send_ephemeral(interaction, t("bot.admin.aborted", interaction.locale, id=info.id))
        await self.bot.delivery.flush(info.id)

    @admin.command(name="settings", description="This server's language and default time control")
    @app_commands.describe(
        language="The language of the bot's public posts on this server",
        time_control="The time control /play uses when none is given",
    )
    @app_commands.choices(
        language=[app_commands.Choice(name=locale_str(t(f"bot.admin.language_{code}", "en"),
                                                      key=f"bot.admin.language_{code}"),
                                      value=code)
                  for code in SERVER_LANGUAGES],
        time_control=TIME_CONTROL_CHOICES,
    )
    async def settings(self, interaction: discord.Interaction, language: str | None = None,
                       time_control: str | None = None) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        try:
            chosen, settings = await self.bot.services.admin.update_server_settings(
                interaction.guild_id, language=language, time_control=time_control)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        locale = interaction.locale
        await send_ephemeral(interaction, t(
            "bot.admin.settings", locale,
            language=t(f"bot.admin.language_{chosen or 'unset'}", locale),
            time_control=control_text(settings.get("time_control") or "untimed", locale)))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Admin(bot))
