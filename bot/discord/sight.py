"""What Discord says of a web visitor and a game's channel (``WebHost.sight``): whether they
are a member of its server (Get Guild Member: the bot has no members intent, so it asks) and
can see the channel, by their permissions there as Discord resolves them (the server's roles,
then the channel's overwrites; a thread has its parent's), which discord.py computes from the
server and channel it keeps up to date from the gateway."""

from __future__ import annotations

import discord

from bot.web.watchers import Sight


async def member_sight(client: discord.Client, user_id: int, guild_id: int,
                       channel_id: int) -> Sight:
    """``"sees"``, ``"stranger"`` (not a member, or a server the bot left), ``"hidden"``, or
    ``"unsure"`` when Discord did not answer (an error of its own, a timeout)."""
    guild = client.get_guild(guild_id)
    if guild is None:
        return "stranger"
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.NotFound:
            return "stranger"
        except (discord.HTTPException, TimeoutError):
            return "unsure"
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        try:
            channel = await guild.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return "hidden"
        except (discord.HTTPException, TimeoutError):
            return "unsure"
    try:
        sees = channel.permissions_for(member).view_channel
    except discord.ClientException:  # a thread whose parent the bot no longer knows
        return "hidden"
    return "sees" if sees else "hidden"
