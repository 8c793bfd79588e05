"""Correspondence play: ``/claim``, ``/vacation``, ``/settings``, ``/record``, ``/replay`` and
``/watch``, and the poster of the outbox rows ``reminder``, ``timeout`` and ``vacation``
(registered with ``bot.discord.delivery``). The clocks themselves live in ``bot.services.clocks``;
the bot owns the ``ClockService`` (``bot.clocks``) and its scheduler task (``bot.scheduler``).

Reminders: a mention of the player to move in the game's thread, plus a direct message when the
player opted in with ``/settings``. A reminder whose turn is over by the time it is delivered
(the player moved, or the game ended) is dropped.

``/watch`` ruling: spectators follow a game by being added to its public thread, where the bot
posts only public boards (hands are only ever shown with ephemeral ``/hand`` answers); they also
get the current public board at once, privately. No extra subscription table: Discord's thread
membership is the subscription, and leaving the thread ends it.
"""

from __future__ import annotations

import functools
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.core.correspondence import texts
from bot.core.errors import ServiceError
from bot.core.events import OutboxItem, Reminder, TimedOut, Vacation
from bot.core.i18n import language_code, t
from bot.core.models import GameInfo
from bot.core.names import player_name
from bot.core.review import expected_score_comments
from bot.discord.cogs._common import game_here, game_number, reply_token
from bot.discord.cogs.notify import send_dm, zone_autocomplete
from bot.discord.replies import NO_PINGS, reply_error, send_ephemeral
from bot.services.aiseats import is_ai
from bot.workers.heavy import HeavyBusy, replay_gif, replay_key

if TYPE_CHECKING:
    from bot.discord.host import CogHost

log = logging.getLogger(__name__)


def _still_due(reminder: Reminder, game: GameInfo) -> bool:
    return game.status == "active" and game.ply == reminder.ply


async def _post_in_thread(bot: CogHost, item: OutboxItem[Any], game: GameInfo, text: str,
                          pings: bool = True) -> bool:
    """Post a clock notice in its game's thread; False when the game has nowhere to post."""
    # Every game gets its thread when its first row (game_started) is delivered, and rows go
    # out in order; a game without one (its channel refused threads) gets the channel.
    where = game.thread_id or game.channel_id
    if where is None:
        log.warning("outbox row %s: game %s has nowhere to post", item.id, game.id)
        return False
    await bot.delivery.send(where, item, guild_id=game.guild_id, content=text,
                            **({} if pings else {"allowed_mentions": NO_PINGS}))
    return True


async def post_reminder(bot: CogHost, item: OutboxItem[Reminder]) -> None:
    """A reminder in the game's thread (in its language), and by DM to a player who asked for
    them. Quiet mode (``/mute``): only the last reminder before a time-out pings. Where the bot
    is not, nothing can be posted between interactions: the DM alone goes."""
    reminder = item.event
    game = await bot.services.games.get_game(reminder.game_id)
    if not _still_due(reminder, game):
        return
    pings = await bot.notify.reminder_pings(reminder.user_id, game.id, reminder.threshold)
    if not game.in_conversation:
        text = texts.reminder_text(reminder, game.seats, bot.delivery.language(game))
        if not await _post_in_thread(bot, item, game, text, pings):
            return
    if reminder.dm and pings:
        await _remind_by_dm(bot, item, game)


async def post_timeout(bot: CogHost, item: OutboxItem[TimedOut]) -> None:
    """A loss on time, in the game's thread (where the bot is not, it is claimed with
    /claim, whose answer says it)."""
    game = await bot.services.games.get_game(item.event.game_id)
    if not game.in_conversation:
        await _post_in_thread(bot, item, game,
                              texts.timeout_text(item.event, bot.delivery.language(game)))


async def post_vacation(bot: CogHost, item: OutboxItem[Vacation]) -> None:
    """A player's vacation (or its end), in the game's thread."""
    game = await bot.services.games.get_game(item.event.game_id)
    if not game.in_conversation:
        await _post_in_thread(bot, item, game,
                              texts.vacation_text(item.event, bot.delivery.language(game)))


async def _remind_by_dm(bot: CogHost, item: OutboxItem[Reminder], game: GameInfo) -> None:
    """Best effort: closed DMs must not hold the thread's reminder back (nor repeat it); a
    refusal (50007) puts DMs to the user on hold (``bot.discord.cogs.notify.send_dm``)."""
    user_id = item.event.user_id
    # A conversation in a server without the bot is still that server's channel.
    link = f"https://discord.com/channels/{game.guild_id or '@me'}/{game.thread_id}"
    text = texts.reminder_dm_text(item.event, engines.get(game.game).title, link,
                                  await _dm_language(bot, user_id, game))
    try:
        await send_dm(bot, user_id, text, nonce=str(item.id))  # once, like every outbox message
    except discord.HTTPException:
        log.info("could not send reminder %s by DM to %s", item.id, user_id)


async def _dm_language(bot: CogHost, user_id: int, game: GameInfo) -> str:
    """A direct message is the player's own: the language of the client they turned DM
    reminders on with (``/settings``), else the game's."""
    chosen = await bot.services.settings.user_locale(user_id)
    return language_code(chosen) if chosen else bot.delivery.language(game)


class Clocks(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        bot = self.bot
        self.bot.delivery.register({
            Reminder: functools.partial(post_reminder, bot),
            TimedOut: functools.partial(post_timeout, bot),
            Vacation: functools.partial(post_vacation, bot),
        })


    async def _names(self, game: GameInfo, language: str | None = None) -> dict[int, str]:
        """The players' names (an AI seat's in ``language``, numbered as at the table)."""
        language = language or self.bot.config.default_language
        return {uid: player_name(uid, language, game.seats) if is_ai(uid)
                else await self.bot.display_name(uid) for uid in game.seats}

    @app_commands.command(name="claim", description="Claim the win when your opponent's time is up")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def claim(self, interaction: discord.Interaction,
                    game: game_number("play") = None) -> None:
        info = await game_here(self.bot, interaction, game)
        if info is None:
            return
        await self.bot.delivery.act(
            interaction, info.id,
            lambda token: self.bot.clocks.claim(info.id, interaction.user.id, reply_token=token),
            reply_token=reply_token(interaction, info),
            done_text=t("clocks.claimed", interaction.locale, id=info.id),
        )

    @app_commands.command(name="vacation", description="Pause the clocks of all your games")
    @app_commands.describe(days="How many days from now (0 ends your current vacation)")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 366]
    ) -> None:
        locale = interaction.locale
        try:
            status = await self.bot.clocks.vacation(interaction.user.id, days)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        await send_ephemeral(interaction, texts.vacation_status_text(status, locale))
        # Tell the opponents in each timed game's thread now rather than at the next delivery
        # pass (a vacation changes nothing in untimed games, which are told nothing).
        for game in await self.bot.services.games.games_of(interaction.user.id):
            try:
                await self.bot.delivery.flush(game.id)
            except Exception:
                log.exception("posting the vacation notice of game %s failed", game.id)

    @app_commands.command(name="settings", description="Your reminder settings")
    @app_commands.describe(
        dm_reminders="Also send me reminders by direct message",
        digest="A daily direct message listing your games where it is your turn",
        digest_hour="The hour of the digest (0 to 23) in your time zone",
        time_zone="Your time zone, e.g. Europe/Paris or America/New_York",
    )
    @app_commands.autocomplete(time_zone=zone_autocomplete)
    async def settings(
        self, interaction: discord.Interaction, dm_reminders: bool | None = None,
        digest: bool | None = None, digest_hour: app_commands.Range[int, 0, 23] | None = None,
        time_zone: str | None = None,
    ) -> None:
        """Reminders by DM, the daily digest (``bot.services.notify``). A wrong time zone is
        refused before anything changes; any DM setting given tries DMs again after Discord
        refused one."""
        user = interaction.user.id
        locale = interaction.locale
        notify = self.bot.notify
        try:
            if digest is not None or digest_hour is not None or time_zone is not None:
                await notify.set_digest(user, enabled=digest, hour=digest_hour,
                                        time_zone=time_zone)
            if dm_reminders is not None:
                await notify.set_dm_reminders(user, dm_reminders)
            if dm_reminders or digest:
                # Direct messages are theirs alone: in the language of the client they asked
                # with.
                await self.bot.services.settings.set_user_locale(user, language_code(locale))
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        saved = await notify.settings(user)
        state = t("clocks.settings_on" if saved.dm_reminders else "clocks.settings_off", locale)
        lines = [t("clocks.settings_saved", locale, state=state)]
        if saved.digest and saved.digest_next_at is not None:
            lines.append(t("notify.digest_on", locale, hour=saved.digest_hour,
                           zone=saved.time_zone, next=int(saved.digest_next_at.timestamp())))
        else:
            lines.append(t("notify.digest_off", locale))
        if saved.dm_refused_at is not None:
            lines.append(t("notify.dms_on_hold", locale))
        await send_ephemeral(interaction, "\n".join(lines))

    @app_commands.command(name="record", description="Download a game's record as text")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def record(self, interaction: discord.Interaction,
                     game: game_number("any") = None) -> None:
        info = await game_here(self.bot, interaction, game)
        if info is None:
            return
        names = await self._names(info)
        # A finished game's stored review adds the expected scores after each move.
        review = await self.bot.reviews.service.finished_review(info.id)
        comments = None
        if review is not None and len(review.moves) == info.ply:
            comments = expected_score_comments(review, [names[uid] for uid in info.seats])
        text = await self.bot.clocks.record_text(info.id, names=names, comments=comments)
        file = discord.File(io.BytesIO(text.encode("utf-8")),
                            filename=f"{info.game}-{info.id}.txt")
        await interaction.response.send_message(
            t("clocks.record_ready", interaction.locale, id=info.id), file=file, ephemeral=True
        )

    @app_commands.command(name="replay", description="An animated replay of a game")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def replay(self, interaction: discord.Interaction,
                     game: game_number("any") = None) -> None:
        info = await game_here(self.bot, interaction, game)
        if info is None:
            return
        if info.ply == 0:
            await send_ephemeral(interaction, t("clocks.replay_empty", interaction.locale,
                                                id=info.id))
            return
        heavy = self.bot.heavy
        # Everyone sees the replay: in the game's language, like its thread.
        language = self.bot.delivery.language(info)
        # Within the user's limits (checked first: a refusal costs nothing and is private);
        # a replay drawn before comes from the cache, a new one from the worker pool.
        try:
            with heavy.admit(interaction.user.id):
                source = await self.bot.clocks.replay_source(info.id)
                names = tuple((await self._names(info, language)).values())
                await interaction.response.defer(thinking=True)
                gif = await heavy.run(replay_key(source, names, language), replay_gif, source,
                                      names, language)
        except HeavyBusy as error:
            await reply_error(interaction, error)
            return
        title = engines.get(info.game).title
        await interaction.followup.send(
            t("clocks.replay_ready", language, game=title, id=info.id),
            file=discord.File(io.BytesIO(gif), filename=f"{info.game}-{info.id}.gif"),
        )

    @app_commands.command(name="watch", description="Follow a game as a spectator")
    @app_commands.describe(game="The game number")
    @app_commands.guild_only()
    async def watch(self, interaction: discord.Interaction, game: game_number("watch")) -> None:
        try:
            info = await self.bot.services.games.game_to_watch(
                game, guild_id=interaction.guild_id, user_id=interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = interaction.locale
        text = t("clocks.watch_no_thread", locale, id=info.id)
        if info.thread_id is not None:
            try:
                thread = self.bot.get_channel(info.thread_id) or await self.bot.fetch_channel(
                    info.thread_id
                )
                await thread.add_user(interaction.user)
                text = t("clocks.watch_added", locale, id=info.id, thread=f"<#{thread.id}>")
            except (discord.HTTPException, AttributeError):
                log.info("could not add %s to the thread of game %s", interaction.user.id,
                         info.id)
        # The public board only (viewer=None): a spectator never sees a hand. Only they see
        # this answer: in their language.
        file = await self.bot.delivery.board_file(info, language_code(locale))
        await interaction.followup.send(text, file=file, ephemeral=True)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Clocks(bot))
