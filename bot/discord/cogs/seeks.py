"""``/seek``, ``/unseek`` and ``/lobby``: offering a game to anyone on the server, withdrawing
the offer, and seeing (and joining) what is open there (``bot.services.seeks``,
``bot.discord.views.seeks``). Server-only: a game from a seek is played in a thread of the
channel."""

from __future__ import annotations

import functools
import string
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.core.errors import NotFound, ServiceError
from bot.core.events import OutboxItem, SeekExpired
from bot.core.i18n import language_code, t
from bot.discord.cogs._common import answer_language
from bot.discord.cogs.play import TIME_CONTROL_CHOICES, game_channel
from bot.discord.replies import NO_PINGS, reply_error, send_ephemeral
from bot.discord.views.seeks import edit_posted, lobby_message, render_seek
from bot.services.seeks import RATING_BOUNDS

if TYPE_CHECKING:
    from bot.discord.host import CogHost

GAME_CHOICES = [app_commands.Choice(name=engines.get(name).title, value=name)
                for name in engines.GAMES]
Rating = app_commands.Range[int, RATING_BOUNDS[0], RATING_BOUNDS[1]]


async def post_expired_seek(bot: CogHost, item: OutboxItem[SeekExpired]) -> None:
    """A ``seek_expired`` row: the seek's message says it expired and loses its buttons."""
    seek = await bot.services.seeks.get_seek(item.event.challenge_id)
    content, _ = await render_seek(bot, seek)
    await edit_posted(bot, seek.challenge, content)


class Seeks(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.delivery.register({SeekExpired: functools.partial(post_expired_seek, self.bot)})

    @app_commands.command(
        name="seek",
        description="Offer a game to anyone on this server: it is listed in /lobby until "
                    "someone joins")
    @app_commands.guild_only()
    @app_commands.describe(
        game="The game",
        time_control="Days per move, or a bank plus days per move (default: the server's)",
        rated="Whether the game counts for ratings (default: yes)",
        min_rating="The lowest rating a joiner may have in this game",
        max_rating="The highest rating a joiner may have in this game",
    )
    @app_commands.choices(game=GAME_CHOICES, time_control=TIME_CONTROL_CHOICES)
    async def seek(self, interaction: discord.Interaction, game: str,
                   time_control: str | None = None, rated: bool = True,
                   min_rating: Rating | None = None, max_rating: Rating | None = None) -> None:
        if isinstance(interaction.channel, discord.Thread):
            # A seek's game gets a thread made from the seek's message, and a thread cannot hold
            # another thread: seeks are posted in the server's text channels.
            await send_ephemeral(interaction, t("seeks.errors.in_thread",
                                                language_code(interaction.locale)))
            return
        try:
            seek = await self.bot.services.seeks.seek(
                game, interaction.user.id, guild_id=interaction.guild_id,
                channel_id=game_channel(interaction), time_control=time_control, rated=rated,
                min_rating=min_rating, max_rating=max_rating,
                locale=language_code(interaction.locale))
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        content, view = await render_seek(self.bot, seek)
        # An offer to nobody in particular: nobody is pinged.
        response = await interaction.response.send_message(content, view=view,
                                                           allowed_mentions=NO_PINGS)
        if response.message_id is not None:
            await self.bot.services.challenges.set_challenge_message(seek.id, response.message_id)

    @app_commands.command(name="unseek", description="Withdraw one of your seeks, or all of them")
    @app_commands.guild_only()
    @app_commands.describe(
        seek="The seek's number (leave empty to withdraw all yours on this server)")
    async def unseek(self, interaction: discord.Interaction,
                     seek: app_commands.Range[int, 1] | None = None) -> None:
        services = self.bot.services
        user = interaction.user.id
        try:
            if seek is None:
                withdrawn = await services.seeks.withdraw_seeks(user, interaction.guild_id)
            else:
                found = await services.seeks.get_seek(seek)
                if found.challenge.guild_id != interaction.guild_id:  # not seen from here
                    raise NotFound("seeks.errors.not_found", id=seek)
                withdrawn = [await services.challenges.cancel(seek, user)]
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        if not withdrawn:
            await send_ephemeral(interaction, t("seeks.none_to_withdraw", interaction.locale))
            return
        numbers = ", ".join(t("seeks.number", interaction.locale, id=c.id) for c in withdrawn)
        await send_ephemeral(interaction, t("seeks.withdrawn_list", interaction.locale,
                                            count=len(withdrawn), ids=numbers))
        for challenge in withdrawn:
            content, _ = await render_seek(self.bot, await services.seeks.get_seek(challenge.id))
            await edit_posted(self.bot, challenge, content)

    @unseek.autocomplete("seek")
    async def _own_seeks(self, interaction: discord.Interaction, typed: str
                         ) -> list[app_commands.Choice[int]]:
        seeks = await self.bot.services.seeks.open_seeks_of(interaction.user.id,
                                                            interaction.guild_id)
        locale = interaction.locale
        # Typed as shown ("S7", "P7", "#7", "n°7") or as a number.
        typed_text = str(typed or "").strip().removeprefix("n°").lstrip("#")
        digits = typed_text.lstrip(string.ascii_letters)
        return [app_commands.Choice(name=t("seeks.number", locale, id=s.id) + " "
                                    + engines.get(s.challenge.game).title,
                                    value=s.id)
                for s in seeks if str(s.id).startswith(digits)][:25]

    @app_commands.command(
        name="lobby",
        description="The games you can join on this server: seeks, open challenges, tables")
    @app_commands.guild_only()
    async def lobby(self, interaction: discord.Interaction) -> None:
        lobby = await self.bot.services.seeks.lobby(interaction.guild_id or 0)
        language = await answer_language(self.bot, interaction, private=True)
        content, view = lobby_message(lobby, language)
        kwargs = {} if view is None else {"view": view}
        await interaction.response.send_message(content, ephemeral=True,
                                                allowed_mentions=NO_PINGS, **kwargs)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Seeks(bot))
