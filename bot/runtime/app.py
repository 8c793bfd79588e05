"""The bot's process: start it (``launch`` for tests, benchmarks and the console; ``run`` for
``python -m bot``), and stop it.

Several processes (``shard_count``/``shard_ids``): a process first holds its shards in the
database (``hold_shards``; it waits while another live process holds one), then connects to
those shards only, and delivers, reminds, forfeits, prunes and plays the AI turns
(``bot.workers.ai_player``) for their servers only; losing the hold stops it
(``bot.store.base.ShardClaim``).

Stopping (SIGTERM from ``docker stop``, where Python is PID 1 and would otherwise ignore it, or
SIGINT): the bot closes in the one order of ``bot.discord.shutdown`` (new interactions are turned
away with a short notice, the ones in flight finish, background tasks stop before the pools they
use, the gateway is closed normally with 1000), then the shard hold and the database; the
process exits 0.

The bot itself (``BoardGamesBot``, its parts and cogs) is built in ``bot.discord.client``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from dataclasses import dataclass
from typing import Any

from bot.core.settings import Config
from bot.core.sharding import Shards
from bot.discord.client import BoardGamesBot, ShardedBoardGamesBot
from bot.runtime.endpoints import use_endpoints
from bot.services.wiring import Services
from bot.store import Store, open_store
from bot.store.base import ShardClaim

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def create_bot(config: Config, services: Services, **options: Any) -> BoardGamesBot:
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
    bot = create_bot(config, Services(store), guild_ready_timeout=guild_ready_timeout)
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
        bot = create_bot(config, Services(store))
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
