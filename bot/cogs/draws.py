"""``/draw`` and ``/abort`` in a game's thread (``bot.services.draws``), and the posters of
their outbox rows: an offer (a new message that pings the opponents, with Accept/Decline), its
refusal (said publicly, pinging the sender), its acceptance, its lapse, and a player's abort.
The buttons of an offer come off once it is over (their message is stored with the offer, so
after a restart too); a button pressed on an offer that is over refuses."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.cogs._common import archive_when_quiet, game_here
from bot.i18n import t
from bot.names import player_name
from bot.replies import NO_PINGS, pinging, reply_error, send_ephemeral
from bot.services.aiseats import is_ai
from bot.services.errors import ServiceError
from bot.services.models import OutboxItem
from bot.views.draws import draw_answer_view

if TYPE_CHECKING:
    from bot.host import CogHost

KINDS = ("draw_offered", "draw_declined", "draw_agreed", "draw_lapsed", "aborted_by_player")


async def post_draw_row(bot: CogHost, item: OutboxItem) -> None:
    """Post one of ``KINDS`` in the game's thread, in the game's language."""
    payload = item.payload
    game = await bot.services.games.get_game(int(payload["game_id"]))
    where = game.thread_id or game.channel_id
    if where is None:
        return
    locale = bot.delivery.language(game)
    by = int(payload["by"])
    people = [uid for uid in game.seats if not is_ai(uid)]
    if item.kind == "aborted_by_player":
        others = [uid for uid in people if uid != by]
        text = t("draws.aborted_notice", locale, game=engines.get(game.game).title, id=game.id,
                 by=player_name(by, locale),
                 players=" ".join(player_name(uid, locale) for uid in others))
        await bot.delivery.send(where, item, guild_id=game.guild_id, content=text,
                                allowed_mentions=pinging(*others))
        await archive_when_quiet(bot, game)
        return
    offer_id = int(payload["offer_id"])
    if item.kind == "draw_offered":
        others = [uid for uid in game.seats if uid != by]
        askable = [uid for uid in others if not is_ai(uid)]
        names = " ".join(player_name(uid, locale) for uid in others)
        if askable:
            text = t("draws.offered", locale, player=player_name(by, locale), others=names)
            view = draw_answer_view(game.id, offer_id, locale)
        else:  # the AI answers on its own, at once: nothing to press
            text = t("draws.offered_to_ai", locale, player=player_name(by, locale), ai=names)
            view = discord.utils.MISSING
        message = await bot.delivery.send(where, item, guild_id=game.guild_id, content=text,
                                          view=view, allowed_mentions=pinging(*askable))
        if askable:
            await bot.services.draws.set_draw_offer_message(offer_id, message.channel.id,
                                                            message.id)
        return
    await _strip_offer(bot, offer_id)
    if item.kind == "draw_lapsed" and payload.get("silent"):
        return  # the game's end (a result, an abort) says enough
    sender = player_name(by, locale)
    answerer = player_name(payload.get("answered_by"), locale)
    if item.kind == "draw_declined":
        text = t("draws.declined", locale, player=answerer, sender=sender)
        pings = pinging(by)
    elif item.kind == "draw_agreed":
        text = t("draws.agreed", locale, player=answerer, sender=sender)
        pings = pinging(by)  # the one who offered learns the answer, as for a refusal
    else:
        text = t("draws.lapsed", locale, sender=sender)
        pings = NO_PINGS
    await bot.delivery.send(where, item, guild_id=game.guild_id, content=text,
                            allowed_mentions=pings)


async def _strip_offer(bot: CogHost, offer_id: int) -> None:
    offer = await bot.services.draws.draw_offer(offer_id)
    if offer is not None and offer.message_id is not None and offer.channel_id is not None:
        bot.delivery.strip(offer.channel_id, offer.message_id)


class Draws(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.delivery.register_poster(KINDS, post_draw_row)

    @app_commands.command(name="draw", description="Offer a draw in this thread's game")
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction) -> None:
        game = await game_here(self.bot, interaction)
        if game is None:
            return
        try:
            result = await self.bot.services.draws.offer_draw(game.id, interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        key = "draws.agreed_private" if result.agreed else "draws.offered_private"
        await send_ephemeral(interaction, t(key, interaction.locale, id=game.id))
        await self.bot.delivery.flush(game.id)

    @app_commands.command(
        name="abort",
        description="End this thread's game with no result, before everyone has moved",
    )
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction) -> None:
        game = await game_here(self.bot, interaction)
        if game is None:
            return
        try:
            await self.bot.services.draws.abort_by_player(game.id, interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        await send_ephemeral(interaction, t("draws.you_aborted", interaction.locale, id=game.id))
        await self.bot.delivery.flush(game.id)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Draws(bot))
