"""A player's own LPPG cards, shown only to them: an ephemeral image drawn for their seat and,
on their turn, their moves as buttons (``/hand`` and the board's **My cards**), or when they are
too many, the way to type one (``/move``, or the board's **Move…** for a player without the
app's commands there). The public
board never carries those buttons: which placements are legal would tell the cards."""

from __future__ import annotations

import io

import discord

from bot.core.errors import ServiceError
from bot.core.i18n import language_code, t
from bot.core.models import GameInfo
from bot.discord.anywhere import bot_is_here
from bot.discord.host import Host
from bot.discord.replies import NO_PINGS, reply_error, send_ephemeral
from bot.discord.views.game import move_view


def has_commands(interaction: discord.Interaction) -> bool:
    """Whether the presser has the bot's commands where they pressed: everyone has them in a
    server with the bot, only whoever installed the app on their account elsewhere (the
    interaction's user install is theirs)."""
    return bot_is_here(interaction) or interaction.is_user_integration()


async def show_hand(bot: Host, interaction: discord.Interaction, game: GameInfo) -> None:
    """Answer ``interaction`` privately with the presser's hand in ``game``."""
    locale = interaction.locale
    services = bot.services
    user = interaction.user.id
    if user not in game.seats:
        await send_ephemeral(interaction, t("bot.hand.not_a_player", locale))
        return
    seat = game.seats.index(user)
    try:
        view = await services.games.player_view(game.id, user)
    except ServiceError as error:
        await reply_error(interaction, error)
        return
    names = [await bot.display_name(uid) for uid in game.seats]
    try:
        png = await bot.boards.hand(game.game, view, seat, players=names,
                                         lang=language_code(locale))
    except ValueError:
        # Hidden information that is not a hand (Palam's undealt draft batch): nothing of
        # it is the player's to see, and the board shows the rest.
        await send_ephemeral(interaction, t("bot.hand.no_hands", locale))
        return
    text = t("bot.hand.yours", locale)
    moves = await services.games.legal_moves(game.id, user)
    buttons = move_view(game.id, game.version, moves, locale) if moves else None
    if buttons is not None:
        text += "\n" + t("bot.hand.your_moves", locale)
    elif moves and has_commands(interaction):
        text += "\n" + t("bot.hand.many_moves", locale, count=len(moves))
    elif moves:  # no /move here: the board's Move… form plays any move
        button = t("anywhere.button.move", bot.delivery.language(game))
        text += "\n" + t("bot.hand.many_moves_form", locale, count=len(moves),
                         button=f"**{button}**")
    # One ephemeral answer: only this user ever sees it (the file name tells nothing).
    kwargs = {"view": buttons} if buttons is not None else {}
    await interaction.response.send_message(
        text, ephemeral=True, allowed_mentions=NO_PINGS, **kwargs,
        file=discord.File(io.BytesIO(png), filename="hand.png"),
    )
