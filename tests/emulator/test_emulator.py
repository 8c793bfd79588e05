"""The emulator against the real discord.py client: a tiny bot exercises every route we use."""

from __future__ import annotations

import discord
import pytest

from bot.runtime.endpoints import use_endpoints
from emulator import ADMINISTRATOR, EPHEMERAL, MANAGE_GUILD, Emulator, HiddenCommand
from tests.emulator.tinybot import make_bot


async def test_login_identify_and_guild(emu_and_bot):
    emu, bot = emu_and_bot
    guild = bot.get_guild(emu.guild_id)
    assert guild is not None and guild.get_channel(emu.channel_id) is not None
    assert {c["name"] for c in emu.commands[None]} == {
        "hello", "picture", "secret", "rights", "admins", "say", "silent", "where", "hush"}
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

    app = "app=309237681152"
    plain = f"manage_guild=False administrator=False send=True {app}"
    assert await rights("bob") == plain
    assert await rights("alice") == f"manage_guild=True administrator=True send=True {app}"
    emu.grant("bob", MANAGE_GUILD)
    assert await rights("bob") == f"manage_guild=True administrator=False send=True {app}"
    assert await rights("carol") == plain, "a grant is for one member only"
    emu.grant("carol", ADMINISTRATOR)
    assert await rights("carol") == (
        f"manage_guild=True administrator=True send=True {app}")


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


def test_commands_go_by_their_names_in_the_users_language_too():
    """As Discord's client offers them: a French user types /jouer; the interaction carries the
    command's own names."""
    emu = Emulator()
    emu.commands[None] = [{
        "id": "1", "name": "play", "type": 1, "name_localizations": {"fr": "jouer"},
        "options": [{
            "name": "alak", "type": 1, "name_localizations": {"fr": "alak"},
            "options": [{"name": "opponent", "type": 6,
                         "name_localizations": {"fr": "adversaire"}}],
        }],
    }]
    command, subs, leaf = emu.find_command("jouer alak", "fr")
    assert (command["name"], subs, leaf["name"]) == ("play", ["alak"], "alak")
    assert emu.find_command("play alak", "fr")[0] is command, "the own names still work"
    assert emu.option_name(leaf, "adversaire", "fr") == "opponent"
    assert emu.option_name(leaf, "adversaire", "en-US") is None
    with pytest.raises(LookupError, match="no command /jouer"):
        emu.find_command("jouer alak", "en-US")


async def test_a_dm_to_a_user_who_refuses_them_is_refused_with_50007(emu_and_bot):
    """Discord opens the DM channel but refuses the message (403, 50007 "Cannot send messages
    to this user") while the user's privacy settings close their DMs to the bot."""
    emu, bot = emu_and_bot
    bob = await bot.fetch_user(emu.user("bob").id)
    first = await bob.send("hello bob")
    assert first.channel.id == emu.dm_channel_of("bob")
    emu.refuse_dms("bob")
    with pytest.raises(discord.Forbidden) as refused:
        await bob.send("are you there?")
    assert refused.value.code == 50007 and refused.value.status == 403
    assert "Cannot send messages to this user" in refused.value.text
    assert [(r.status, r.code) for r in emu.refusals] == [(403, 50007)]
    assert [m.content for m in emu.channel_messages(first.channel.id)] == ["hello bob"]
    # Carol's DMs are open; once Bob opens his again, messages reach him.
    assert (await (await bot.fetch_user(emu.user("carol").id)).send("hi")).content == "hi"
    emu.refuse_dms("bob", refused=False)
    assert (await bob.send("welcome back")).content == "welcome back"


async def test_numbers_outside_an_options_range_are_refused_before_sending(emu_and_bot, rest):
    """Discord's client sends an integer option only within its ``min_value`` and
    ``max_value`` and within -2^53+1 .. 2^53-1."""
    emu, _ = emu_and_bot
    path = f"/applications/{emu.application_id}/commands"
    command = {"name": "pick", "description": "d", "type": 1, "options": [
        {"name": "n", "description": "d", "type": 4, "min_value": 1, "max_value": 10},
        {"name": "free", "description": "d", "type": 4},
        {"name": "ratio", "description": "d", "type": 10}]}
    assert (await rest(emu, "PUT", path, body=[command]))[0] == 200
    alice = emu.user("alice")
    for values in ({"n": 0}, {"n": 11}, {"free": 2**53}, {"free": -(2**53)}, {"free": 2**64},
                   {"ratio": 2.0**54}):
        with pytest.raises(LookupError, match="takes a number from"):
            emu._command_data(alice, "pick", values)
    data, _ = emu._command_data(alice, "pick", {"n": 10, "free": 2**53 - 1, "ratio": 0.5})
    assert [o["value"] for o in data["options"]] == [10, 2**53 - 1, 0.5]
