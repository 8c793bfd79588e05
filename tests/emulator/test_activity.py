"""Activities in the emulator: the application setting, Entry Point commands, the
``LAUNCH_ACTIVITY`` answer and the instances they start (``emulator.activities``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest
from discord.ext import commands

from bot.runtime.endpoints import use_endpoints
from emulator import Emulator
from emulator.activities import (
    APP_HANDLER,
    DISCORD_LAUNCH_ACTIVITY,
    EMBEDDED,
    ENTRY_POINT_REMOVED,
    LAUNCH_ACTIVITY,
    PRIMARY_ENTRY_POINT,
    ActivityInstance,
)
from emulator.api import AUTOCOMPLETE


class Launch(discord.ui.DynamicItem[discord.ui.Button], template=r"launch"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Open the board", custom_id="launch"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.launch_activity()


def activity_bot(launched: asyncio.Queue[discord.InteractionCallbackResponse]) -> commands.Bot:
    """A bot whose /board launches the Activity, whose /menu offers a button that does, whose
    Entry Point interactions (``APP_HANDLER``) launch it too, and whose autocomplete tries to."""
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                       guild_ready_timeout=0.01)

    @bot.tree.command(description="open the board")
    async def board(interaction: discord.Interaction):
        await launched.put(await interaction.response.launch_activity())

    @bot.tree.command(description="a button that opens the board")
    async def menu(interaction: discord.Interaction):
        view = discord.ui.View(timeout=None)
        view.add_item(Launch())
        await interaction.response.send_message("menu", view=view)

    @bot.tree.command(description="look a game up")
    async def find(interaction: discord.Interaction, game: str):
        await interaction.response.send_message(game)

    @find.autocomplete("game")
    async def find_game(interaction: discord.Interaction, current: str):
        await interaction.response.launch_activity()  # not an answer an autocomplete may give
        return []

    @bot.event
    async def on_interaction(interaction: discord.Interaction):
        # discord.py's command tree knows no Entry Point commands: the bot answers them here.
        data = interaction.data or {}
        if interaction.type == discord.InteractionType.application_command and data.get(
                "type") == PRIMARY_ENTRY_POINT:
            await launched.put(await interaction.response.launch_activity())

    bot.add_dynamic_items(Launch)
    return bot


@pytest.fixture
async def emu_and_launches() -> AsyncIterator[tuple[Emulator, asyncio.Queue]]:
    """An emulator whose application has Activities on (turned on after the bot synced its
    commands, which a bulk overwrite without the Entry Point command could not do), and the
    bot's launch answers."""
    emu = Emulator(activity_url="http://127.0.0.1:9/board", activities=False)
    await emu.start()
    use_endpoints(emu.api_base, emu.gateway_url)
    launched: asyncio.Queue[discord.InteractionCallbackResponse] = asyncio.Queue()
    bot = activity_bot(launched)
    await bot.login(emu.token)
    await bot.tree.sync()
    emu.enable_activities()
    task = asyncio.create_task(bot.connect(reconnect=False))
    await bot.wait_until_ready()
    try:
        yield emu, launched
    finally:
        await bot.close()
        await task
        await emu.close()
        use_endpoints(None, None)


@pytest.fixture
async def emu():
    emulator = Emulator(activities=True)
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.close()


def test_activities_follow_the_activity_url_unless_told():
    assert Emulator().activities_enabled is False
    assert Emulator(activity_url="http://127.0.0.1:9/").activities_enabled is True
    assert Emulator(activity_url="http://127.0.0.1:9/", activities=False).activities_enabled is (
        False)


async def test_turning_activities_on_flags_the_app_and_adds_the_launch_command(emu, rest):
    status, application = await rest(emu, "GET", "/applications/@me")
    assert status == 200 and application["flags"] & EMBEDDED
    status, global_commands = await rest(emu, "GET", f"/applications/{emu.application_id}/commands")
    [launch] = global_commands
    assert (launch["name"], launch["type"], launch["handler"]) == (
        "launch", PRIMARY_ENTRY_POINT, DISCORD_LAUNCH_ACTIVITY)
    plain = Emulator()
    assert not plain._application_payload()["flags"] & EMBEDDED and plain.entry_point() is None


async def test_a_bulk_overwrite_must_keep_the_entry_point(emu, rest):
    path = f"/applications/{emu.application_id}/commands"
    play = {"name": "play", "description": "play a game", "type": 1}
    status, body = await rest(emu, "PUT", path, body=[play])
    assert (status, body["code"]) == (400, ENTRY_POINT_REMOVED)
    assert emu.entry_point() is not None
    launch = {"name": "launch", "description": "", "type": PRIMARY_ENTRY_POINT,
              "handler": APP_HANDLER}
    status, stored = await rest(emu, "PUT", path, body=[play, launch])
    assert status == 200 and emu.entry_point()["handler"] == APP_HANDLER
    assert {c["name"] for c in stored} == {"play", "launch"}


async def test_discord_py_sync_fails_while_the_entry_point_is_left_out():
    emu = Emulator(activities=True)
    await emu.start()
    use_endpoints(emu.api_base, emu.gateway_url)
    try:
        bot = activity_bot(asyncio.Queue())
        await bot.login(emu.token)
        with pytest.raises(discord.HTTPException) as refused:
            await bot.tree.sync()
        assert refused.value.code == ENTRY_POINT_REMOVED
        await bot.close()
    finally:
        await emu.close()
        use_endpoints(None, None)


@pytest.mark.parametrize(("scope", "commands_sent", "field"), [
    ("guild", [{"name": "go", "description": "", "type": 4, "handler": 2}], "type"),
    ("global", [{"name": "go", "description": "", "type": 4, "handler": 2},
                {"name": "again", "description": "", "type": 4, "handler": 2}], "_errors"),
    ("global", [{"name": "go", "description": "", "type": 4, "handler": 2},
                {"name": "play", "description": "p", "type": 1, "handler": 1}], "handler"),
    ("global", [{"name": "go", "description": "", "type": 4, "handler": 3}], "handler"),
    ("global", [{"name": "go", "description": "", "type": 4, "options": [
        {"type": 3, "name": "x", "description": "x"}]}], "options"),
])
async def test_entry_point_commands_are_checked_as_discord_checks_them(
        emu, rest, scope, commands_sent, field):
    path = (f"/applications/{emu.application_id}/commands" if scope == "global" else
            f"/applications/{emu.application_id}/guilds/{emu.guild_id}/commands")
    status, body = await rest(emu, "PUT", path, body=commands_sent)
    assert (status, body["code"]) == (400, 50035), body
    assert field in str(body["errors"])


async def test_a_handler_needs_an_app_with_activities(rest):
    emu = Emulator()
    await emu.start()
    try:
        entry = {"name": "go", "description": "", "type": 4, "handler": 2}
        path = f"/applications/{emu.application_id}/commands"
        status, body = await rest(emu, "PUT", path, body=[entry])
        assert (status, body["code"]) == (400, 50035) and "handler" in body["errors"]["0"]
        del entry["handler"]
        assert (await rest(emu, "PUT", path, body=[entry]))[0] == 200
        with pytest.raises(LookupError, match="Activities are off"):
            await emu.launch("alice")
    finally:
        await emu.close()


async def test_the_launcher_with_discords_handler_starts_an_instance(emu, rest):
    mark = emu.mark()
    instance = await emu.launch("alice")
    assert isinstance(instance, ActivityInstance)
    expected = f"i-{instance.launch_id}-gc-{emu.guild_id}-{emu.channel_id}"
    assert instance.instance_id == expected
    said = await emu.wait_for_message(channel_id=emu.channel_id, since=mark)
    assert "started an Activity" in said.content
    assert await emu.launch("bob") is instance, "a launch where one runs joins it"
    status, found = await rest(
        emu, "GET", f"/applications/{emu.application_id}/activity-instances/{expected}")
    assert status == 200
    assert found["location"] == {"id": f"gc-{emu.guild_id}-{emu.channel_id}", "kind": "gc",
                                 "channel_id": str(emu.channel_id),
                                 "guild_id": str(emu.guild_id)}
    assert found["users"] == []  # nobody's client is connected yet
    status, body = await rest(
        emu, "GET", f"/applications/{emu.application_id}/activity-instances/i-1-gc-2-3")
    assert (status, body) == (404, {"message": "404: Not Found", "code": 0})


async def test_a_dm_instance_is_a_private_channel_location(emu):
    emu.install_app("alice")
    emu.commands[None][0]["integration_types"] = [0, 1]
    dm = emu.open_dm("alice", "bob")
    instance = await emu.launch("alice", channel=dm)
    assert instance.location_id == f"pc-{dm}" and instance.guild_id is None


async def test_the_app_launches_from_a_command_a_button_and_its_entry_point(emu_and_launches):
    emu, launched = emu_and_launches
    interaction = await emu.slash("alice", "board")
    assert await interaction.acknowledged() == LAUNCH_ACTIVITY
    answer = await asyncio.wait_for(launched.get(), 5)  # as discord.py read Discord's answer
    instance_id = answer.resource.id
    assert answer.activity_id == instance_id
    assert emu.activity_instances[instance_id].launched_by == emu.user("alice")
    menu = await (await emu.slash("bob", "menu")).reply()
    click = await emu.click("bob", menu, label="Open the board")
    assert await click.acknowledged() == LAUNCH_ACTIVITY
    emu.entry_point()["handler"] = APP_HANDLER
    entry = await emu.launch("carol")
    assert entry.payload["data"]["type"] == PRIMARY_ENTRY_POINT
    assert await entry.acknowledged() == LAUNCH_ACTIVITY
    assert list(emu.activity_instances) == [instance_id], "one channel, one instance"
    assert emu.refusals == []


async def test_an_autocomplete_cannot_launch(emu_and_launches):
    emu, _ = emu_and_launches
    # emu.autocomplete would wait for choices that never come: the interaction is sent bare.
    alice = emu.user("alice")
    data, owners = emu._command_data(alice, "find", {"game": "al"}, focused="game")
    await emu._send_interaction(AUTOCOMPLETE, alice, emu.channel_id, data, owners=owners)
    await emu.wait_for(lambda event: event.kind == "refused", timeout=5)
    [refused] = emu.refusals
    assert refused.status == 400 and "cannot launch" in refused.body["message"]
    assert emu.activity_instances == {}


async def test_no_launch_for_an_app_without_activities(emu_and_launches):
    emu, _ = emu_and_launches
    emu.activities_enabled = False
    interaction = await emu.slash("alice", "board")
    await emu.wait_for(lambda event: event.kind == "refused", timeout=5)
    [refused] = emu.refusals
    assert refused.status == 400 and "Activities enabled" in refused.body["message"]
    assert interaction.callback_type is None
    assert emu.activity_instances == {}
