"""``/draw`` and ``/abort`` in a game's thread (``bot.services.draws``), and the posters of
their outbox rows: an offer (a new message that pings the opponents, with Accept/Decline), its
refusal (said publicly, pinging the sender), its acceptance, its lapse, and a player's abort.
The buttons of an offer come off once it is over (their message is stored with the offer, so
after a restart too); a button pressed on an offer that is over refuses. Where the bot is not
(a DM, a group DM), each is the answer, or a follow-up, of the press that caused it
(``Delivery.post``)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.core.errors import ServiceError
from bot.core.events import (
    AbortedByPlayer,
    DrawAgreed,
    DrawDeclined,
    DrawLapsed,
    DrawOffered,
    Event,
    OutboxItem,
)
from bot.core.i18n import t
from bot.core.names import player_name
from bot.discord.cogs._common import archive_when_quiet, game_here
from bot.discord.replies import NO_PINGS, pinging, reply_error, send_ephemeral
from bot.discord.views.draws import draw_answer_view, said_by_the_outbox
from bot.services.aiseats import is_ai

if TYPE_CHECKING:
    from bot.core.models import GameInfo
    from bot.discord.delivery import Poster
    from bot.discord.host import CogHost

async def _game_thread(bot: CogHost, game_id: int) -> tuple[GameInfo, str] | None:
    """The game and the language of its posts; None when it has nowhere to post (no thread,
    no channel, no conversation)."""
    game = await bot.services.games.get_game(game_id)
    if game.thread_id is None and game.channel_id is None and not game.in_conversation:
        return None
    return game, bot.delivery.language(game)


async def post_offer(bot: CogHost, item: OutboxItem[DrawOffered]) -> None:
    """A draw offer: a new message pinging the opponents who can answer, with Accept and
    Decline (none when only the AI is asked: it answers on its own, at once)."""
    offer = item.event
    found = await _game_thread(bot, offer.game_id)
    if found is None:
        return
    game, locale = found
    others = [uid for uid in game.seats if uid != offer.by]
    askable = [uid for uid in others if not is_ai(uid)]
    names = " ".join(player_name(uid, locale) for uid in others)
    if askable:
        text = t("draws.offered", locale, player=player_name(offer.by, locale), others=names)
        view = draw_answer_view(game.id, offer.offer_id, locale)
    else:  # the AI answers on its own, at once: nothing to press
        text = t("draws.offered_to_ai", locale, player=player_name(offer.by, locale), ai=names)
        view = discord.utils.MISSING
    message = await bot.delivery.post(game, item, content=text, view=view,
                                      allowed_mentions=pinging(*askable))
    # Kept to take the buttons off once the offer is over; where the bot is not, it cannot
    # edit the message (None): the buttons then refuse when pressed.
    if askable and message is not None:
        await bot.services.draws.set_draw_offer_message(offer.offer_id, message.channel.id,
                                                  message.id)


async def _post_answer(bot: CogHost, item: OutboxItem[DrawDeclined | DrawAgreed],
                       key: str) -> None:
    """An offer's answer, said publicly: the one who offered learns it (pinged), and the
    offer's buttons come off."""
    answer = item.event
    found = await _game_thread(bot, answer.game_id)
    if found is None:
        return
    game, locale = found
    await _strip_offer(bot, answer.offer_id)
    text = t(key, locale, player=player_name(answer.answered_by, locale),
             sender=player_name(answer.by, locale))
    await bot.delivery.post(game, item, content=text, allowed_mentions=pinging(answer.by))


async def post_declined(bot: CogHost, item: OutboxItem[DrawDeclined]) -> None:
    await _post_answer(bot, item, "draws.declined")


async def post_agreed(bot: CogHost, item: OutboxItem[DrawAgreed]) -> None:
    await _post_answer(bot, item, "draws.agreed")


async def post_lapsed(bot: CogHost, item: OutboxItem[DrawLapsed]) -> None:
    """An offer that ran out: its buttons come off, and unless the game's end says enough
    (``silent``), the thread is told."""
    lapsed = item.event
    found = await _game_thread(bot, lapsed.game_id)
    if found is None:
        return
    game, locale = found
    await _strip_offer(bot, lapsed.offer_id)
    if lapsed.silent:
        return  # the game's end (a result, an abort) says enough
    await bot.delivery.post(game, item,
                            content=t("draws.lapsed", locale,
                                      sender=player_name(lapsed.by, locale)),
                            allowed_mentions=NO_PINGS)


async def post_aborted(bot: CogHost, item: OutboxItem[AbortedByPlayer]) -> None:
    """A player's abort: said in the thread, pinging the other people at the table."""
    by = item.event.by
    found = await _game_thread(bot, item.event.game_id)
    if found is None:
        return
    game, locale = found
    others = [uid for uid in game.seats if not is_ai(uid) and uid != by]
    text = t("draws.aborted_notice", locale, game=engines.get(game.game).title, id=game.id,
             by=player_name(by, locale),
             players=" ".join(player_name(uid, locale) for uid in others))
    await bot.delivery.post(game, item, content=text, allowed_mentions=pinging(*others))
    await archive_when_quiet(bot, game)


async def _strip_offer(bot: CogHost, offer_id: int) -> None:
    offer = await bot.services.draws.draw_offer(offer_id)
    if offer is not None and offer.message_id is not None and offer.channel_id is not None:
        bot.delivery.strip(offer.channel_id, offer.message_id)


def posters(bot: CogHost) -> dict[type[Event], Poster]:
    """The draws feature's posters, one per event type it owns."""
    return {
        DrawOffered: functools.partial(post_offer, bot),
        DrawDeclined: functools.partial(post_declined, bot),
        DrawAgreed: functools.partial(post_agreed, bot),
        DrawLapsed: functools.partial(post_lapsed, bot),
        AbortedByPlayer: functools.partial(post_aborted, bot),
    }


class Draws(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.delivery.register(posters(self.bot))

    @app_commands.command(name="draw", description="Offer a draw in this thread's game")
    # Offered wherever games are played (``bot.discord.anywhere``).
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
        if await said_by_the_outbox(self.bot, game, interaction):
            return  # where the bot is not, the offer (or the result) is the answer
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
