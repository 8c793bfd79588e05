"""``/hint``: in a game against the AI, the move the ``hard`` level would play and, where the
game allows it, why, shown only to the player who asked. Refused in games between people and
where any opponent of the asker is a person (the service says why).

The search runs in the AI players' worker processes and takes up to the hard level's budget
(about a second, more when the workers are busy), beyond Discord's 3 s for a first answer: the
answer is deferred (privately), then given as its follow-up. A player whose previous hint is
still being thought is told so at once (``ai_hints_per_user``), never left without an answer;
hints take their turn with everyone's AI moves (``bot.workers.fair_queue``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs._common import game_here, game_number
from bot.discord.views.hint import give_hint

if TYPE_CHECKING:
    from bot.discord.host import CogHost


class Hint(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    @app_commands.command(
        name="hint", description="Suggest a move in your game against the AI (only you see it)")
    @app_commands.describe(game="A game number (default: the game of this thread)")
    async def hint(self, interaction: discord.Interaction,
                   game: game_number("hint") = None) -> None:
        info = await game_here(self.bot, interaction, game)
        if info is None:
            return
        await give_hint(self.bot, interaction, info)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Hint(bot))
