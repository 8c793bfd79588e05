"""The emulator's sharded gateway: a session IDENTIFYs with ``[shard, count]``, gets the
servers of its shard only, and each server's events arrive on its shard's session, as on
Discord (``(guild_id >> 22) % count``)."""

from __future__ import annotations

import asyncio
import contextlib

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.sharding import shard_of
from bot.runtime.endpoints import use_endpoints
from emulator import Emulator


def shard_bot(shard: int, count: int) -> commands.AutoShardedBot:
    bot = commands.AutoShardedBot(
        command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
        guild_ready_timeout=0.01, shard_ids=[shard], shard_count=count,
    )

    @bot.tree.command(description="which shard answers")
    async def whoami(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"shard {interaction.guild.shard_id}")

    app_commands.guild_only(whoami)
    return bot


@contextlib.asynccontextmanager
async def connected(emu: Emulator, *bots: commands.AutoShardedBot):
    tasks = []
    try:
        for bot in bots:
            await bot.login(emu.token)
            tasks.append(asyncio.create_task(bot.connect(reconnect=False)))
            await asyncio.wait_for(bot.wait_until_ready(), 10)
        await bots[0].tree.sync()
        yield
    finally:
        for bot in bots:
            await bot.close()
        for task in tasks:
            with contextlib.suppress(Exception):
                await task


async def test_each_server_s_events_go_to_its_shard_s_session():
    emu = Emulator(shards=2)
    await emu.start()
    use_endpoints(emu.api_base, emu.gateway_url)
    second_guild, second_channel = emu.add_guild("Other games")
    assert shard_of(emu.guild_id, 2) == 0 and shard_of(second_guild, 2) == 1
    zero, one = shard_bot(0, 2), shard_bot(1, 2)
    try:
        async with connected(emu, zero, one):
            assert emu.shard_sessions() == {0: 2, 1: 2}
            # Each session was given its own shard's servers only.
            assert [g.id for g in zero.guilds] == [emu.guild_id]
            assert [g.id for g in one.guilds] == [second_guild]
            first = await (await emu.slash("alice", "whoami")).reply()
            second = await (await emu.slash("bob", "whoami", channel=second_channel)).reply()
            assert (first.content, second.content) == ("shard 0", "shard 1")
            # /gateway/bot recommends the emulator's shard count.
            assert (await zero.http.get_bot_gateway())[0] == 2
    finally:
        await emu.close()
        use_endpoints(None, None)


async def test_a_session_for_a_shard_that_does_not_exist_is_refused():
    emu = Emulator()
    await emu.start()
    use_endpoints(emu.api_base, emu.gateway_url)
    bot = shard_bot(0, 1)
    bot.shard_ids = [3]  # shard 3 of 1
    try:
        await bot.login(emu.token)
        task = asyncio.create_task(bot.connect(reconnect=False))
        done, _ = await asyncio.wait({task}, timeout=10)
        assert task in done
        error = task.exception()
        assert isinstance(error, discord.ConnectionClosed) and error.code == 4010
    finally:
        await bot.close()
        await emu.close()
        use_endpoints(None, None)
