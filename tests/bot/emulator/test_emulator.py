"""The emulator against the real discord.py client: a tiny bot exercises every route we use."""

from __future__ import annotations

import asyncio
import io
import re

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.emulator import ADMINISTRATOR, EPHEMERAL, MANAGE_GUILD, Emulator, HiddenCommand
from bot.endpoints import use_endpoints

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
            f"send={mine.send_messages} app_admin={app.administrator}", ephemeral=True
        )

    @bot.tree.command(description="for administrators")
    @app_commands.default_permissions(administrator=True)
    async def admins(interaction: discord.Interaction):
        await interaction.response.send_message("hello admin", ephemeral=True)

    bot.add_dynamic_items(Poke)
    return bot


@pytest.fixture
async def emu_and_bot():
    emu = Emulator()
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


async def test_login_identify_and_guild(emu_and_bot):
    emu, bot = emu_and_bot
    guild = bot.get_guild(emu.guild_id)
    assert guild is not None and guild.get_channel(emu.channel_id) is not None
    assert {c["name"] for c in emu.commands[None]} == {
        "hello", "picture", "secret", "rights", "admins"}
    assert emu.identified_count == 1


async def test_slash_with_user_and_choice_then_button_updates(emu_and_bot):
    emu, _ = emu_and_bot
    alice, bob = emu.user("alice"), emu.user("bob")
    interaction = await emu.slash(alice, "hello", {"friend": bob, "size": "big"})
    reply = await interaction.reply()
    assert reply.content == f"hello {bob.mention} size 2"
    assert await interaction.acknowledged() == 4
    click = await emu.click(bob, reply, label="Poke 1")
    assert await click.acknowledged() == 7
    updated = await click.reply()
    assert updated.id == reply.id and updated.content == "poked 1"
    assert [b["custom_id"] for b in updated.buttons()] == ["poke:2"]


async def test_defer_thread_files_and_followup(emu_and_bot):
    emu, _ = emu_and_bot
    mark = emu.mark()
    interaction = await emu.slash("alice", "picture")
    followup = await interaction.reply()
    assert await interaction.acknowledged() == 5
    assert followup.files and followup.files[0].is_png
    thread = emu.threads()[0]
    in_thread = await emu.wait_for_message(channel_id=int(thread["id"]), since=mark)
    assert in_thread.content == "in the thread" and in_thread.files[0].is_png


async def test_autocomplete_and_ephemeral(emu_and_bot):
    emu, _ = emu_and_bot
    choices = await emu.autocomplete("bob", "secret", {"text": "ap"}, focused="text")
    assert [c["value"] for c in choices] == ["apple", "apricot"]
    interaction = await emu.slash("bob", "secret", {"text": "x"})
    reply = await interaction.reply()
    assert reply.flags & EPHEMERAL and reply.ephemeral


async def test_unknown_options_are_refused_before_sending(emu_and_bot):
    emu, _ = emu_and_bot
    with pytest.raises(LookupError):
        await emu.slash("alice", "hello", {"friend": "bob", "colour": "red"})
    with pytest.raises(LookupError):
        await emu.slash("alice", "hello", {})
    with pytest.raises(LookupError):
        await emu.slash("alice", "nope")


async def test_wrong_token_is_refused():
    emu = Emulator()
    await emu.start()
    use_endpoints(emu.api_base, emu.gateway_url)
    try:
        bot = make_bot()
        with pytest.raises(discord.LoginFailure):
            await bot.login("not-the-token")
        await bot.close()
    finally:
        await emu.close()
        use_endpoints(None, None)


async def test_members_are_plain_members_unless_granted_more(emu_and_bot):
    """discord.py reads ``interaction.permissions`` from the payload's ``member.permissions``:
    a plain member may talk but not manage; grants add bits; the server owner (the first
    user) and administrators have them all; the bot is invited as an administrator."""
    emu, _ = emu_and_bot
    assert emu.owner is emu.user("alice")

    async def rights(name: str) -> str:
        return (await (await emu.slash(name, "rights")).reply()).content

    plain = "manage_guild=False administrator=False send=True app_admin=True"
    assert await rights("bob") == plain
    assert await rights("alice") == "manage_guild=True administrator=True send=True app_admin=True"
    emu.grant("bob", MANAGE_GUILD)
    assert await rights("bob") == "manage_guild=True administrator=False send=True app_admin=True"
    assert await rights("carol") == plain, "a grant is for one member only"
    emu.grant("carol", ADMINISTRATOR)
    assert await rights("carol") == (
        "manage_guild=True administrator=True send=True app_admin=True")


async def test_commands_are_offered_by_their_default_permissions(emu_and_bot):
    emu, _ = emu_and_bot
    with pytest.raises(HiddenCommand):
        await emu.slash("bob", "admins")
    emu.grant("bob", MANAGE_GUILD)
    with pytest.raises(HiddenCommand, match="needs permissions"):
        await emu.slash("bob", "admins")
    emu.grant("bob", ADMINISTRATOR)
    assert (await (await emu.slash("bob", "admins")).reply()).content == "hello admin"
    assert (await (await emu.slash("alice", "admins")).reply()).content == "hello admin"
