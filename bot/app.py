"""The discord.py application: the bot object, its extensions, and how it is started and
stopped.

The Discord layer is thin (DESIGN.md §2): cogs parse interactions, call ``bot.services`` (a
``GameService``) and turn results into messages; ``bot.delivery`` sends what the services wrote
to the outbox. Correspondence play: ``bot.clocks`` (a ``ClockService`` on the same store) and
``bot.scheduler``, the one task that writes reminders and tournament forfeits when they fall
due; it starts when the bot is ready (its first round catches up after a restart) and is poked
by every move, new game and vacation.

Imports point one way: this module builds on ``bot.delivery``, ``bot.views``, ``bot.replies``
and ``bot.host`` (what those need from the bot), never the reverse; cogs are loaded by name.

Several processes (``shard_count``/``shard_ids``): a process first holds its shards in the
database (``hold_shards``; it waits while another live process holds one), then connects to
those shards only, and delivers, reminds, forfeits, prunes and plays the AI turns
(``bot.aiplayer``) for their servers only; losing the hold stops it (``bot.store.base.ShardClaim``).

Stopping (SIGTERM from ``docker stop``, where Python is PID 1 and would otherwise ignore it, or
SIGINT): new interactions are turned away with a short notice, the ones in flight finish, the
gateway is closed normally (1000) and then the database; the process exits 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pkgutil
import signal
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.aiplayer import AiPlayer
from bot.anywhere import register_installs
from bot.boards import BoardDrawer
from bot.config import Config
from bot.correspondence.scheduler import Scheduler
from bot.delivery import HANDLER_GRACE_SECONDS, Delivery
from bot.endpoints import use_endpoints
from bot.heavy import HeavyWork
from bot.i18n import t
from bot.i18n.translator import CatalogTranslator
from bot.names import player_name
from bot.replies import reply_error, send_ephemeral
from bot.reviews import ReviewWork
from bot.services.aiseats import is_ai
from bot.services.clocks import ClockService, GraceFor
from bot.services.errors import ServiceError
from bot.services.games import GameService
from bot.services.notify import NotifyService
from bot.services.reviews import ReviewService
from bot.sharding import Shards
from bot.store import Store, open_store
from bot.store.base import ShardClaim
from bot.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

# A board-game bot never joins voice: skip discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False



def extensions() -> list[str]:
    """Every module of ``bot.cogs``: one extension per feature, each with ``async def
    setup(bot)``, so a feature joins the bot by adding its module."""
    from bot import cogs

    modules = pkgutil.iter_modules(cogs.__path__)
    return sorted(f"bot.cogs.{m.name}" for m in modules if not m.name.startswith("_"))


#: Names discord.py gives the tasks that run slash commands and button callbacks.
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-")
#: How long a stop waits for the work in flight (the process must be gone within 5 s).
STOP_GRACE_SECONDS = 3.0
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: The outbox kinds the scheduler writes (reminders; forfeits and their game over).
SCHEDULED_KINDS = frozenset({"reminder", "timeout", "digest"})
#: How often the scheduler prunes the outbox's history (it wakes at least hourly).
PRUNE_EVERY = timedelta(hours=1)


class GameTree(app_commands.CommandTree):
    """The command tree; while the bot shuts down it starts no new command (a short notice
    instead; autocomplete gets no suggestions)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # Which command, by whom, where: never its options (a move typed, a hand's card).
        log.debug("%s /%s by user %s in channel %s", interaction.type.name,
                  interaction.command and interaction.command.qualified_name,
                  interaction.user.id, interaction.channel_id)
        if not getattr(self.client, "closing", False):
            return True
        if interaction.type == discord.InteractionType.autocomplete:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
        else:
            await send_ephemeral(interaction, t("bot.errors.closing", interaction.locale))
        return False


class BoardGamesBot(commands.Bot):
    def __init__(
        self,
        config: Config,
        services: GameService,
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
        self._pruned_at: datetime | None = None
        #: Set when the bot starts shutting down: new interactions are turned away.
        self.closing = False
        #: The task reading the gateway (``connect``), set by whoever starts it.
        self.gateway_task: asyncio.Task | None = None
        services.challenge_expiry = timedelta(days=config.challenge_expiry_days)
        services.seek_expiry = timedelta(days=config.seek_expiry_days)
        services.ai_games_per_user = config.ai_games_per_user
        self.delivery = Delivery(self)
        self.heavy = HeavyWork.create(config.heavy_workers, config.heavy_pool)
        # Post-game reviews: made in the heavy pool, stored (bot.reviews, the Review cog).
        self.reviews = ReviewWork(self.heavy, ReviewService(services.store))
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
        self.scheduler = Scheduler(self._next_due, self._run_due, now=self.clocks.now)
        self.clocks.on_change = self.scheduler.poke
        # AI players: their turns are found in the database, woken by every change.
        self.ai_player = AiPlayer(self, shards=self.own_shards,
                                  hints_per_user=config.ai_hints_per_user)
        services.on_change = self._changed

    def _changed(self) -> None:
        """A committed change: deadlines may have moved, and an AI seat may be to move."""
        self.scheduler.poke()
        self.ai_player.poke()

    async def _next_due(self) -> datetime | None:
        """The scheduler's next wake-up: a clock's (reminder, forfeit…) or a daily digest."""
        due = [d for d in (await self.clocks.next_due(), await self.notify.next_digest_due())
               if d is not None]
        return min(due, default=None)

    async def _run_due(self, now: datetime) -> None:
        """The scheduler's round: write what is due, then post it at once; and at most every
        ``PRUNE_EVERY`` delete the outbox rows of this process's servers delivered longer ago
        than the configured history."""
        written = await self.clocks.run_due(now)
        written += await self.notify.run_due_digests(now)
        if written:
            # Its reminders and forfeits, not the rows a handler is answering with meanwhile.
            await self.delivery.flush_all(older_than=HANDLER_GRACE_SECONDS,
                                          at_once=SCHEDULED_KINDS)
        if self._pruned_at is None or now - self._pruned_at >= PRUNE_EVERY:
            self._pruned_at = now
            history = timedelta(days=self.config.outbox_history_days)
            pruned = await self.services.prune_outbox(history, shards=self.own_shards)
            if pruned:
                log.info("pruned %d delivered outbox row(s) older than %s", pruned, history)

    def hold(self, claim: ShardClaim) -> None:
        """Run with ``claim`` held: commits in other processes that wrote rows for our servers
        have them delivered at once, the scheduler look again (a vacation declared in
        another server moves the deadlines of games in ours), and the AI runner look for
        turns (a game of ours may now wait for an AI seat)."""
        self.claim = claim

        def woken(game_id: int | None) -> None:
            self.delivery.woken(game_id)
            self.scheduler.poke()
            self.ai_player.poke()

        claim.on_wake = woken

    async def setup_hook(self) -> None:
        # Command names, descriptions and choices are localised from the i18n catalogs.
        await self.tree.set_translator(CatalogTranslator())
        for extension in extensions():
            await self.load_extension(extension)
        register_installs(self.tree)  # where each command may be installed and used
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error
        if self.config.sync_on_start != "off":
            await self.sync_commands(self.config.sync_on_start)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d guild(s)", self.user, len(self.guilds))
        # Deliver what an earlier run left in the outbox, then keep delivering.
        self.delivery.start()
        # Its first round catches up on reminders and forfeits that fell due while down.
        self.scheduler.start()
        # Its first round plays the AI turns left waiting by an earlier run.
        self.ai_player.start()

    async def close(self) -> None:
        """Stop cleanly: turn new interactions away, let those in flight finish (and the
        background work of cogs and the delivery), then close the gateway normally."""
        self.closing = True
        await self.scheduler.stop()
        await self.ai_player.stop()
        await self._finish_interactions(STOP_GRACE_SECONDS)
        await self.delivery.stop()
        self.reviews.close()
        self.heavy.close()
        await self.boards.close()
        # Stop reading the gateway first: while a read is pending, discord.py's close sends
        # close code 4000 (resumable) instead of the normal 1000 it means.
        if self.gateway_task is not None and self.gateway_task is not asyncio.current_task():
            self.gateway_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.gateway_task
        await super().close()

    async def _finish_interactions(self, timeout: float) -> None:
        """Let work in flight finish before the connections and the database close (a stop
        must not cut a move's answer in half): interactions and event listeners run in tasks
        discord.py names after their dispatcher, and our background work (cogs, delivery) is
        named ``background-…``. Work started meanwhile (a board's buttons taken off after its
        answer, a late interaction turned away) is waited for too, until ``timeout``."""
        prefixes = (*HANDLER_TASKS, "discord.py: ", "background-")
        current = asyncio.current_task()
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            running = [
                task for task in asyncio.all_tasks()
                if task is not current and not task.done()
                and task.get_name().startswith(prefixes)
            ]
            left = deadline - asyncio.get_running_loop().time()
            if not running or left <= 0:
                return
            await asyncio.wait(running, timeout=left)

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
        await self.tree.sync()
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

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, ServiceError):
            await reply_error(interaction, original)
            return
        if isinstance(error, app_commands.CheckFailure):
            text = t("bot.errors.not_allowed", interaction.locale)
        else:
            log.error("command %s failed", interaction.command and interaction.command.name,
                      exc_info=original)
            text = t("errors.unknown", interaction.locale)
        await send_ephemeral(interaction, text)


class ShardedBoardGamesBot(BoardGamesBot, commands.AutoShardedBot):
    """The bot when ``shard_count`` is set: discord.py's ``AutoShardedBot`` opens one gateway
    session per shard of ``own_shards`` (IDENTIFY with ``[shard, count]``), and Discord sends
    each the events of its servers (``bot.sharding``)."""


def create_bot(config: Config, services: GameService, **options: Any) -> BoardGamesBot:
    """The bot for ``config``: sharded when ``shard_count`` is set, else a single gateway
    session as Discord gives a small bot."""
    if not config.shard_count:
        return BoardGamesBot(config, services, **options)
    shards = Shards.configured(config.shard_count, config.shard_ids)
    return ShardedBoardGamesBot(config, services, shard_count=shards.count,
                                shard_ids=list(shards.ids), **options)


async def hold_shards(store: Store, config: Config) -> ShardClaim:
    """Wait until this process holds its shards in the database (another live process holding
    one of them makes it wait: a standby takes over when that process ends or is killed)."""
    claim = store.claim_shards(Shards.configured(config.shard_count, config.shard_ids))
    await claim.acquire()
    return claim


@dataclass
class RunningBot:
    """A bot connected in the background (tests, benchmarks, the local console)."""

    bot: BoardGamesBot
    store: Store
    task: asyncio.Task
    claim: ShardClaim

    async def stop(self) -> None:
        await self.bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.claim.release()
        await self.store.close()


async def launch(config: Config, *, guild_ready_timeout: float = 2.0) -> RunningBot:
    """Open the database, log in and connect; return once the bot is ready."""
    use_endpoints(config.api_base or None, config.gateway_url or None)
    store = await open_store(config.database, pool_size=config.database_pool_size)
    try:
        claim = await hold_shards(store, config)
    except BaseException:
        await store.close()
        raise
    bot = create_bot(config, GameService(store), guild_ready_timeout=guild_ready_timeout)
    bot.hold(claim)
    try:
        await bot.login(config.token)
        task = asyncio.create_task(bot.connect(reconnect=True), name="discord-connect")
        bot.gateway_task = task
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            task.result()  # raises what stopped the connection
            raise ConnectionError("the gateway connection ended before the bot was ready")
    except BaseException:
        await bot.close()
        await claim.release()
        await store.close()
        raise
    return RunningBot(bot, store, task, claim)


async def run(config: Config) -> None:
    """Run until SIGTERM or SIGINT (``python -m bot`` with a token), then stop cleanly (see
    the module docstring); returns normally, so the process exits 0."""
    use_endpoints(config.api_base or None, config.gateway_url or None)
    store = await open_store(config.database, pool_size=config.database_pool_size)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop.set)
    connection: asyncio.Task | None = None
    claim: ShardClaim | None = None
    bot: BoardGamesBot | None = None
    try:
        # Before the gateway: two sessions of one shard would both answer its servers.
        claim = await _until(hold_shards(store, config), stop)
        if claim is None:
            return
        # Should the database drop our hold (a lost connection), another process may take
        # the shards over: stop, and let the supervisor start us again.
        claim.on_lost = stop.set
        bot = create_bot(config, GameService(store))
        bot.hold(claim)
        await bot.login(config.token)
        connection = asyncio.create_task(bot.connect(reconnect=True), name="discord-connect")
        bot.gateway_task = connection
        stopping = asyncio.create_task(stop.wait(), name="stop-signal")
        done, _ = await asyncio.wait({connection, stopping},
                                     return_when=asyncio.FIRST_COMPLETED)
        if connection in done:
            stopping.cancel()
            connection.result()  # raises what ended the connection
        elif claim.held:
            log.info("stop signal received: finishing the work in flight")
        else:
            raise RuntimeError(f"lost the hold on {claim.shards}; stopping so as not to "
                               "answer beside the process that takes them over")
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)
        if bot is not None:
            await bot.close()
        if connection is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await connection
        if claim is not None:
            await claim.release()
        await store.close()


async def _until(work: Any, stop: asyncio.Event) -> Any:
    """``await work``, or None if ``stop`` is set first (a stop while waiting for shards)."""
    task = asyncio.ensure_future(work)
    stopping = asyncio.create_task(stop.wait())
    done, _ = await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if task in done:
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return None
