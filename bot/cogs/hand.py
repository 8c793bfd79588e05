"""``/hand``: your own LPPG cards and, when it is your turn, your moves as buttons, shown only to
you (an ephemeral image drawn for your seat). The public board never carries those buttons:
which placements are legal would tell your cards."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.i18n import language_code, t
from bot.replies import NO_PINGS, reply_error, send_ephemeral
from bot.services.errors import ServiceError
from bot.views.game import move_view

if TYPE_CHECKING:
    from bot.host import CogHost


class Hand(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
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
        names = [await self.bot.display_name(uid) for uid in game.seats]
        try:
            png = await self.bot.boards.hand(game.game, view, seat, players=names,
                                             lang=language_code(locale))
        except ValueError:
            # Hidden information that is not a hand (Palam's undealt draft batch): nothing of
            # it is the player's to see, and the board shows the rest.
            await send_ephemeral(interaction, t("bot.hand.no_hands", locale))
            return
        text = t("bot.hand.yours", locale)
        moves = await services.legal_moves(game.id, user)
        buttons = move_view(game.id, game.version, moves) if moves else None
        if buttons is not None:
            text += "\n" + t("bot.hand.your_moves", locale)
        elif moves:
            text += "\n" + t("bot.hand.many_moves", locale, count=len(moves))
        # One ephemeral answer: only this user ever sees it (the file name tells nothing).
        kwargs = {"view": buttons} if buttons is not None else {}
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=NO_PINGS, **kwargs,
            file=discord.File(io.BytesIO(png), filename="hand.png"),
        )


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Hand(bot))
