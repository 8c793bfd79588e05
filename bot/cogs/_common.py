"""Helpers shared by the cogs (the leading underscore keeps this module from being loaded as
an extension): finding the game a command is about, and running a game action
whose outcome the outbox delivers (answering the interaction with it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.app import reply_error, send_ephemeral
from bot.i18n import t
from bot.services.errors import ServiceError
from bot.services.models import GameInfo

if TYPE_CHECKING:
    from bot.app import BoardGamesBot

Result = TypeVar("Result")


async def game_here(
    bot: BoardGamesBot, interaction: discord.Interaction, game_id: int | None = None
) -> GameInfo | None:
    """The game named by id (only if it may be seen from here: ``game_seen_from``), else the
    game of this thread; tells the user when there is none."""
    services = bot.services
    try:
        if game_id is not None:
            return await services.game_seen_from(game_id, guild_id=interaction.guild_id,
                                                 user_id=interaction.user.id)
        game = await services.game_for_thread(interaction.channel_id)
    except ServiceError as error:
        await reply_error(interaction, error)
        return None
    if game is None:
        await send_ephemeral(interaction, t("bot.game.no_game_here", interaction.locale))
    return game


async def act_and_deliver(
    bot: BoardGamesBot,
    interaction: discord.Interaction,
    game_id: int,
    action: Awaitable[Result],
    done_text: str,
    *,
    game_of: Callable[[Result], GameInfo] | None = None,
) -> None:
    """Run a service call on a game, then post what it wrote to the outbox as the answer.

    The service decides (turn, seat, legality...) before the interaction is acknowledged, so a
    refusal is an ephemeral reply and nothing is posted; it answers in milliseconds. When none of
    the delivered rows belongs where the interaction happened, ``done_text`` answers it.
    ``game_of`` gives the game as the call left it (saves the delivery reading it again)."""
    try:
        result = await action
    except ServiceError as error:
        await reply_error(interaction, error)
        return
    await interaction.response.defer(thinking=True)
    game = game_of(result) if game_of is not None else None
    if not await bot.delivery.flush(game_id, interaction, game=game):
        await interaction.edit_original_response(content=done_text)
