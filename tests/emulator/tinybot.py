"""A tiny discord.py bot for the emulator's tests: a command per route the real bot uses."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator

import discord
from discord import app_commands
from discord.ext import commands

from bot.runtime.endpoints import use_endpoints
from emulator import Emulator

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


class Poke(discord.ui.DynamicItem[discord.ui.Button], template=r"poke:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Poke {n}", custom_id=f"poke:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.n == 0:
            await interaction.response.send_message("not for you", ephemeral=True)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(Poke(self.n + 1))
        await interaction.response.edit_message(content=f"poked {self.n}", view=view)


class MoveForm(discord.ui.Modal, title="Your move"):
    move = discord.ui.TextInput(label="Move", custom_id="move", placeholder="e.g. f",
                                max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.name} played {self.move.value}")


class OpenForm(discord.ui.DynamicItem[discord.ui.Button], template=r"form:open"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Move…", custom_id="form:open"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(MoveForm())


def make_bot() -> commands.Bot:
    bot = commands.Bot(
        command_prefix=commands.when_mentioned,
        intents=discord.Intents.default(),
        guild_ready_timeout=0.01,
    )

    @bot.tree.command(description="say hello")
    @app_commands.choices(size=[app_commands.Choice(name="small", value=1),
                                app_commands.Choice(name="big", value=2)])
    async def hello(interaction: discord.Interaction, friend: discord.User, size: int = 1):
        view = discord.ui.View(timeout=None)
        view.add_item(Poke(1))
        await interaction.response.send_message(
            f"hello {friend.mention} size {size}", view=view
        )

    @bot.tree.command(description="an image in a thread")
    async def picture(interaction: discord.Interaction):
        await interaction.response.defer(thinking=True)
        thread = await interaction.channel.create_thread(
            name="pictures", type=discord.ChannelType.public_thread
        )
        await thread.send("in the thread", file=discord.File(io.BytesIO(PNG), "board.png"))
        await interaction.followup.send(
            f"see {thread.mention}", file=discord.File(io.BytesIO(PNG), "b.png")
        )

    @bot.tree.command(description="secret")
    async def secret(interaction: discord.Interaction, text: str):
        await interaction.response.send_message(f"only you: {text}", ephemeral=True)

    @secret.autocomplete("text")
    async def secret_text(interaction: discord.Interaction, current: str):
        words = ["apple", "apricot", "banana"]
        return [app_commands.Choice(name=w, value=w) for w in words if w.startswith(current)]

    @bot.tree.command(description="what may I do here")
    async def rights(interaction: discord.Interaction):
        mine, app = interaction.permissions, interaction.app_permissions
        await interaction.response.send_message(
            f"manage_guild={mine.manage_guild} administrator={mine.administrator} "
            f"send={mine.send_messages} app={app.value}", ephemeral=True
        )

    @bot.tree.command(description="for administrators")
    @app_commands.default_permissions(administrator=True)
    async def admins(interaction: discord.Interaction):
        await interaction.response.send_message("hello admin", ephemeral=True)

    @bot.tree.command(description="say something in one of the ways a bot can")
    @app_commands.choices(way=[app_commands.Choice(name=w, value=w) for w in WAYS])
    async def say(interaction: discord.Interaction, text: str, way: str = "reply"):
        await say_in(interaction, text, way)

    @bot.tree.command(description="answer nothing (the test acknowledges by hand)")
    async def silent(interaction: discord.Interaction):
        return

    @bot.tree.command(description="where am I")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def where(interaction: discord.Interaction, follow_ups: int = 0):
        view = discord.ui.View(timeout=None)
        view.add_item(OpenForm())
        channel = interaction.channel
        await interaction.response.send_message(
            f"where {getattr(channel, 'type', None)} by {interaction.user.name} "
            f"guild={interaction.guild_id} external={interaction.permissions.use_external_apps}",
            view=view,
        )
        for n in range(follow_ups):
            await interaction.followup.send(f"follow-up {n + 1}")

    @bot.tree.command(description="answer nothing, anywhere")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def hush(interaction: discord.Interaction):
        return

    bot.add_dynamic_items(Poke, OpenForm)
    return bot


#: The ways ``/say`` answers: the interaction response, one without pings, a deferred response
#: and its follow-ups, a message in the channel, and an edit of the response.
WAYS = ("reply", "quiet", "defer", "defer_twice", "channel", "edit")


async def say_in(interaction: discord.Interaction, text: str, way: str) -> None:
    if way == "reply":
        await interaction.response.send_message(text)
    elif way == "quiet":
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none())
    elif way in ("defer", "defer_twice"):
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(text)
        if way == "defer_twice":
            await interaction.followup.send("again: " + text)
    elif way == "channel":
        await interaction.response.send_message("posting", ephemeral=True)
        await interaction.channel.send(text)
    else:  # edit: a first answer without the text, then the text by an edit
        await interaction.response.send_message("…")
        await interaction.edit_original_response(content=text)


async def started(**options) -> AsyncIterator[tuple[Emulator, commands.Bot]]:
    """An emulator (with ``options``) and the tiny bot connected to it."""
    emu = Emulator(**options)
    await emu.start()
    use_endpoints(emu.api_base, emu.gateway_url)
    bot = make_bot()
    await bot.login(emu.token)
    await bot.tree.sync()
    task = asyncio.create_task(bot.connect(reconnect=False))
    await bot.wait_until_ready()
    try:
        yield emu, bot
    finally:
        await bot.close()
        await task
        await emu.close()
        use_endpoints(None, None)
