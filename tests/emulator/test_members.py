"""Who is a member of a server and what they may see there, as Discord answers it: Get Guild
Member (a member object, 404 / 10007 for a user who is not a member) and a member overwrite
on a channel, resolved by discord.py as on Discord (the overwrite denies View Channel in the
channel and its threads)."""

from __future__ import annotations

import asyncio


async def test_get_guild_member_answers_for_members_only(emu_and_bot, rest):
    emu, _ = emu_and_bot
    carol = emu.add_user("zed")
    status, member = await rest(emu, "GET", f"/guilds/{emu.guild_id}/members/{carol.id}")
    assert status == 200 and member["user"]["id"] == str(carol.id) and member["roles"] == []
    emu.leave("zed")
    status, answer = await rest(emu, "GET", f"/guilds/{emu.guild_id}/members/{carol.id}")
    assert (status, answer.get("code")) == (404, 10007)
    # Still a member of another server.
    other, _ = emu.add_guild("other")
    status, _ = await rest(emu, "GET", f"/guilds/{other}/members/{carol.id}")
    assert status == 200
    status, answer = await rest(emu, "GET", f"/guilds/{emu._next_id()}/members/{carol.id}")
    assert (status, answer.get("code")) == (404, 10004)
    outside, _ = emu.add_guild("elsewhere", bot=False)
    status, answer = await rest(emu, "GET", f"/guilds/{outside}/members/{carol.id}")
    assert (status, answer.get("code")) == (403, 50001)


async def test_a_member_overwrite_hides_a_channel_from_that_member(emu_and_bot):
    emu, bot = emu_and_bot
    dora, eve = emu.add_user("dora"), emu.add_user("eve")
    guild = bot.get_guild(emu.guild_id)
    channel = guild.get_channel(emu.channel_id)
    seen = await guild.fetch_member(dora.id)
    assert channel.permissions_for(seen).view_channel
    updated = asyncio.ensure_future(bot.wait_for("guild_channel_update", timeout=10))
    await emu.hide_channel("dora", emu.channel_id)
    await updated
    assert not channel.permissions_for(await guild.fetch_member(dora.id)).view_channel
    assert channel.permissions_for(await guild.fetch_member(eve.id)).view_channel
