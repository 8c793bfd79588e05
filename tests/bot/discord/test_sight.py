"""``member_sight`` when Discord does not answer the member lookup: the visitor is "unsure"
(asked to retry), neither refused as a stranger nor shown a server error."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.discord.sight import member_sight


class Guild:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def get_member(self, user_id: int) -> None:
        return None

    async def fetch_member(self, user_id: int):
        raise self.error


def client_with(guild: Guild) -> SimpleNamespace:
    return SimpleNamespace(get_guild=lambda guild_id: guild)


@pytest.mark.parametrize("error", [
    discord.DiscordServerError(SimpleNamespace(status=503, reason="Service Unavailable"), ""),
    TimeoutError(),
])
async def test_no_answer_from_discord_is_unsure(error):
    assert await member_sight(client_with(Guild(error)), 3, 60, 70) == "unsure"


async def test_an_unknown_member_is_a_stranger():
    missing = discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                               {"code": 10007, "message": "Unknown Member"})
    assert await member_sight(client_with(Guild(missing)), 3, 60, 70) == "stranger"
