"""The discord.py client: the bot object, its parts and its extensions.

The Discord layer is thin (docs/architecture.md): cogs parse interactions, call ``bot.services`` (a
``Services``: ``bot.services.play.move(...)``…) and turn results into messages;
``bot.discord.delivery`` sends what the services wrote to the outbox. Correspondence play:
``bot.clocks`` (a ``ClockService`` on the same store) and ``bot.scheduler``, the one task that
writes reminders and tournament forfeits when they fall due (``bot.discord.housekeeping``); it
starts when the bot is ready (its first round catches up after a restart) and is poked by every
move, new game and vacation.

Imports point one way: this module builds on ``bot.discord.delivery``, ``bot.discord.views``,
``bot.discord.replies`` and ``bot.discord.host`` (what those and the cogs need from the bot), never
the reverse; cogs are loaded by name. ``bot.runtime.app`` starts it; ``bot.discord.shutdown`` is the
order in which it stops.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import pkgutil
from datetime import timedelta
from typing import Any

import discord
from discord.ext import commands

from bot.core.models import GameInfo
from bot.core.names import player_name
from bot.core.seats import is_ai
from bot.core.settings import Config
from bot.core.sharding import Shards
from bot.discord.anywhere import register_installs
from bot.discord.command_errors import answer_command_error
from bot.discord.delivery import Delivery
from bot.discord.entry_point import EMBEDDED, entry_points, sync_global
from bot.discord.housekeeping import DueWork
from bot.discord.shutdown import (
    GameTree,
    StopOrder,
    cancel_and_wait,
    finish_answers,
    finish_in_flight,
)
from bot.discord.sight import member_sight
from bot.discord.translator import CatalogTranslator
from bot.discord.views import DYNAMIC_ITEMS, answer_move_form
from bot.discord.views.game import rematch_said
from bot.services.clocks import ClockService, GraceFor
from bot.services.notify import NotifyService
from bot.services.rematches import Rematch
from bot.services.review import ReviewService
from bot.services.scheduler import Scheduler
from bot.services.wiring import Services
from bot.store.base import ShardClaim
from bot.web.server import WebBoard
from bot.web.watchers import Sight
from bot.workers.ai_player import AI_WORKERS, AiPlayer
from bot.workers.boards import BoardDrawer
from bot.workers.heavy import HeavyWork
from bot.workers.pool import WorkerPool
from bot.workers.review import ReviewWork

log = logging.getLogger(__name__)

# A board-game bot never joins voice: skip discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


def extensions() -> list[str]:
    """Every module of ``bot.discord.cogs``: one extension per feature, each with ``async def
    setup(bot)``, so a feature joins the bot by adding its module."""
    from bot.discord import cogs

    modules = pkgutil.iter_modules(cogs.__path__)
    return sorted(f"{cogs.__name__}.{m.name}" for m in modules if not m.name.startswith("_"))


class BoardGamesBot(commands.Bot):
    def __init__(
        self,
        config: Config,
        services: Services,
        *,
        guild_ready_timeout: float = 2.0,
        grace_for: GraceFor | None = None,
        **client_options: Any,
    ) -> None:
        # Slash commands only: no message content, no member list. Guilds gives us channels and
        # threads, which is all the game threads need.
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            owner_ids=set(config.owner_ids),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            guild_ready_timeout=guild_ready_timeout,
            tree_cls=GameTree,
            **client_options,
        )
        self.config = config
        self.services = services
        #: The shards whose servers this process answers for: their interactions, deliveries,
        #: reminders, forfeits and pruning (all of them when the bot is not sharded).
        self.own_shards = Shards.configured(config.shard_count, config.shard_ids)
        #: This process's exclusive hold on ``own_shards`` (set by ``launch``/``run``).
        self.claim: ShardClaim | None = None
        #: Set when the bot starts shutting down: new interactions are turned away.
        self.closing = False
        #: The task reading the gateway (``connect``), set by whoever starts it.
        self.gateway_task: asyncio.Task | None = None
        services.challenges.challenge_expiry = timedelta(days=config.challenge_expiry_days)
        services.challenges.seek_expiry = timedelta(days=config.seek_expiry_days)
        services.aiseats.ai_games_per_user = config.ai_games_per_user
        self.heavy = HeavyWork.create(config.heavy_workers, config.heavy_pool)
        self.boards = BoardDrawer(config.board_workers, config.board_pool)
        self._names: dict[int, str] = {}
        # Correspondence play: clocks, and the one task that sends reminders and forfeits
        # when due (woken through on_change by new games, vacations and the moves that can
        # move a deadline: those of timed games, and last moves).
        self.clocks = ClockService(
            services.store, services, grace_for=grace_for,
            vacation_days_per_year=config.vacation_days_per_year, shards=self.own_shards,
        )
        # Notifications a player controls (digest, quiet mode, refused DMs), on the clocks'
        # time so that tests moving one move both.
        self.notify = NotifyService(services.store, clock=self.clocks.now,
                                    shards=self.own_shards)
        #: Whether the app has Activities (learnt at start: the application's ``EMBEDDED``
        #: flag, or an Entry Point command found by the global sync): then the web board is
        #: also the app's Activity, and boards' **Open board** launches it.
        self.has_activities = False
        self.has_entry_point = False
        #: The web board (``bot.web``), when ``web_port`` is set: it starts with the bot.
        self.web: WebBoard | None = None
        if config.web_enabled:
            self.web = WebBoard(
                self, public_url=config.web_public_url, client_id=self._client_id,
                client_secret=config.client_secret, api_base=config.api_base,
                bind=config.web_host, port=config.web_port,
            )
        self.delivery = Delivery(
            client=self, services=services, clocks=self.clocks, notify=self.notify,
            boards=self.boards, display_name=self.display_name,
            default_language=config.default_language, shards=self.own_shards,
            board_url=self.web.game_url if self.web is not None else None,
            launches_activity=self.launches_activity,
        )
        #: What the scheduler does when it wakes: reminders, forfeits, digests, pruning.
        self.due_work = DueWork(
            self.clocks, self.notify, services, self.delivery, shards=self.own_shards,
            history=timedelta(days=config.outbox_history_days),
        )
        self.scheduler = Scheduler(self.due_work.next_due, self.due_work, now=self.clocks.now)
        self.clocks.on_change = self.scheduler.poke
        # AI players: their turns are found in the database, woken by every change.
        self.ai_player = AiPlayer(self, WorkerPool("ai", workers=AI_WORKERS, kind=config.ai_pool),
                                  shards=self.own_shards, hints_per_user=config.ai_hints_per_user)
        # Post-game reviews: evaluated by the AI's workers after the replies people wait for,
        # stored (bot.reviews, the Review cog); their pictures are drawn in the heavy pool.
        self.reviews = ReviewWork(self.ai_player.queue, ReviewService(services.store))
        services.context.on_change = self._changed
        #: How the bot stops (``bot.discord.shutdown``): every background task, in one order.
        self.stop_order = StopOrder()
        self._order_stops()

    def _order_stops(self) -> None:
        order = self.stop_order
        order.add("refuse", "new interactions", self._refuse)
        if self.web is not None:
            # Before everything its requests use: the services, the pools, the database.
            order.add("producers", "web board", self.web.stop)
        order.add("producers", "correspondence scheduler", self.scheduler.stop)
        order.add("producers", "AI player", self.ai_player.stop)
        order.add("in flight", "interactions and their background work", finish_in_flight)
        order.add("pool users", "post-game reviews", self.reviews.close)
        order.add("pool users", "outbox delivery and boards' warm-up",
                  self.delivery.background.stop)
        order.add("pools", "AI workers", self.ai_player.close)
        order.add("pools", "heavy pool", self.heavy.close)
        order.add("pools", "board workers", self.boards.close)
        order.add("gateway", "gateway", self._close_gateway)
        order.add("gateway", "answers to the last interactions", finish_answers)

    def _refuse(self) -> None:
        self.closing = True

    async def _close_gateway(self) -> None:
        """Stop reading the gateway, then close it normally at once: Discord sends nothing
        more (what it sent meanwhile is lost: the window is kept as short as can be)."""
        # While a read is pending, discord.py's close sends close code 4000 (resumable)
        # instead of the normal 1000 it means.
        if self.gateway_task is not asyncio.current_task():
            await cancel_and_wait(self.gateway_task)
        await self._close_sessions()

    async def _close_sessions(self) -> None:
        if self.ws is not None and self.ws.open:
            await self.ws.close(code=1000)

    def _changed(self) -> None:
        """A committed change: deadlines may have moved, and an AI seat may be to move."""
        self.scheduler.poke()
        self.ai_player.poke()

    def hold(self, claim: ShardClaim) -> None:
        """Run with ``claim`` held: commits in other processes that wrote rows for our servers
        have them delivered at once, the scheduler look again (a vacation declared in
        another server moves the deadlines of games in ours), and the AI runner look for
        turns (a game of ours may now wait for an AI seat)."""
        self.claim = claim

        def woken(game_id: int | None) -> None:
            self.delivery.background.woken(game_id)
            self.scheduler.poke()
            self.ai_player.poke()

        claim.on_wake = woken
        if self.web is not None:  # pages open here on a game another process changed
            claim.on_any_wake = self.web.live.wake

    async def setup_hook(self) -> None:
        # Command names, descriptions and choices are localised from the i18n catalogs.
        await self.tree.set_translator(CatalogTranslator())
        for extension in extensions():
            # Imported once per process and set up on this bot, rather than load_extension,
            # which runs the module anew for every bot (a restart in the same process) and
            # leaves two copies of its classes about. Bot.close removes the cogs all the same.
            await importlib.import_module(extension).setup(self)
        register_installs(self.tree)  # where each command may be installed and used
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = answer_command_error
        if self.config.sync_on_start != "off":
            await self.sync_commands(self.config.sync_on_start)
        if self.web is not None and not self.closing:
            await self._learn_activities()
            await self.web.start()

    async def _learn_activities(self) -> None:
        """Whether the app has Activities: the application's flags (``EMBEDDED``, which Discord
        sets on an app with an Activity), or the Entry Point command a global sync found."""
        try:
            info = await self.application_info()
            self.has_activities = bool(info.flags.value & EMBEDDED) or self.has_entry_point
            if not self.has_activities and self.application_id is not None:
                # The flag is documented as not always public: the Entry Point command, which
                # Discord creates when Activities are turned on, says it too.
                commands = await self.http.get_global_commands(self.application_id)
                self.has_activities = bool(entry_points(commands))
        except discord.HTTPException:
            log.warning("whether the app has Activities could not be read: assumed not",
                        exc_info=True)

    def launches_activity(self) -> bool:
        """Whether boards' **Open board** launches the Activity (else it is a link only)."""
        return self.web is not None and (self.has_activities or self.has_entry_point)

    def _client_id(self) -> str:
        """The OAuth2 client id: the configured one, else the application's own id."""
        return self.config.client_id or str(self.application_id or "")

    async def deliver(self, game_id: int, written: GameInfo) -> None:
        """Post what a change made outside Discord (the web board) wrote to the outbox."""
        await self.delivery.flush(game_id, written=written)

    async def sight(self, user_id: int, guild_id: int, channel_id: int) -> Sight:
        """Whether a web visitor may watch a game played in that server's channel."""
        return await member_sight(self, user_id, guild_id, channel_id)

    async def announce_rematch(self, rematch: Rematch, user_id: int) -> None:
        """Say in the game's thread what a Rematch pressed on the web board did, as the
        button's answer says it (the new game's board is delivered apart, by ``deliver``)."""
        where = rematch.game.thread_id or rematch.game.channel_id
        if where is None:
            return
        channel = self.get_channel(where) or await self.fetch_channel(where)
        text, mentions = rematch_said(rematch, user_id, self.delivery.language(rematch.game))
        await channel.send(text, allowed_mentions=mentions)  # type: ignore[union-attr]

    async def on_ready(self) -> None:
        log.info("connected as %s to %d guild(s)", self.user, len(self.guilds))
        if self.closing:
            # A stop began before the gateway was ready (a SIGTERM at start-up): it has
            # stopped, or is stopping, what it found; starting now would run tasks on pools
            # about to close. The starts below never wait, so no stop can begin among them.
            log.info("ready while stopping: the background tasks are not started")
            return
        # Deliver what an earlier run left in the outbox, then keep delivering.
        self.delivery.background.start()
        # Its first round catches up on reminders and forfeits that fell due while down.
        self.scheduler.start()
        # Its first round plays the AI turns left waiting by an earlier run.
        self.ai_player.start()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # A Move… form has no object waiting for it (``answer_move_form`` says why).
        await answer_move_form(interaction)

    async def close(self) -> None:
        """Stop cleanly, in the one order of ``bot.discord.shutdown``: turn new interactions away,
        stop what makes new work, let the interactions in flight finish, stop the tasks that use the
        pools, close the pools, then the gateway."""
        await self.stop_order.run()
        await super().close()

    async def sync_commands(self, scope: str) -> list[str]:
        """Publish the command tree: "global" (up to an hour to show everywhere) or "guilds"
        (the configured guilds, instantly). Returns where it was synced, for the reply."""
        if scope == "guilds":
            done = []
            for guild_id in self.config.guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
                done.append(str(guild_id))
            return done
        _, self.has_entry_point = await sync_global(self.tree)
        return ["global"]

    async def display_name(self, user_id: int, guild: discord.Guild | None = None) -> str:
        """A player's name for boards and thread titles (cached; a fetch at most once); an
        AI seat's is its level's name."""
        if is_ai(user_id):
            return player_name(user_id, self.config.default_language)
        if guild is not None:
            member = guild.get_member(user_id)
            if member is not None:
                return member.display_name
        if user_id in self._names:
            return self._names[user_id]
        user = self.get_user(user_id)
        if user is None:
            try:
                user = await self.fetch_user(user_id)
            except discord.HTTPException:
                return str(user_id)
        self._names[user_id] = user.display_name
        return user.display_name

class ShardedBoardGamesBot(BoardGamesBot, commands.AutoShardedBot):
    """The bot when ``shard_count`` is set: discord.py's ``AutoShardedBot`` opens one gateway
    session per shard of ``own_shards`` (IDENTIFY with ``[shard, count]``), and Discord sends
    each the events of its servers (``bot.core.sharding``)."""

    async def _close_sessions(self) -> None:
        for shard in self.shards.values():
            await shard.disconnect()
