"""``/history [user] [game] [private]``: a player's recent finished games, ``PAGE_SIZE`` a
page, with Previous / Next buttons (``bot.discord.views.history``).

The answer is public by default and then speaks the server's language (``answer_language``),
like ``/profile``; with ``private`` only the asker sees it, in their language. The pages are
turned by editing the message (an edit pings nobody; the mentions of opponents never ping
anyway). Only the asker turns them: anyone else pressing gets a private note in their own
language, and nothing changes. Which games are listed: ``bot.services.history``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.core.i18n import t
from bot.discord.cogs._common import answer_language
from bot.discord.cogs._history import page_text
from bot.discord.replies import NO_PINGS, clip, send_ephemeral
from bot.discord.views.history import HistoryButton, HistoryQuery
from bot.services.history import HistoryPage, HistoryService

if TYPE_CHECKING:
    from bot.discord.host import CogHost

GAME_CHOICES = [app_commands.Choice(name=engines.get(n).title, value=n) for n in engines.GAMES]


def page_view(page: HistoryPage, query: HistoryQuery, lang: str) -> discord.ui.View | None:
    """Previous / Next, each disabled where there is no page to go to (None: a single page)."""
    if page.page == 0 and not page.has_next:
        return None
    view = discord.ui.View(timeout=None)
    previous = HistoryQuery(query.asker_id, query.user_id, query.game, max(page.page - 1, 0),
                            query.private)
    following = HistoryQuery(query.asker_id, query.user_id, query.game, page.page + 1,
                             query.private)
    view.add_item(HistoryButton(previous, "p", t("history.previous", lang),
                                disabled=page.page == 0))
    view.add_item(HistoryButton(following, "n", t("history.next", lang),
                                disabled=not page.has_next))
    return view


class History(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self.history = HistoryService(bot.services.store)

    async def _page(self, interaction: discord.Interaction, query: HistoryQuery
                    ) -> tuple[str, discord.ui.View | None]:
        lang = await answer_language(self.bot, interaction, private=query.private)
        page = await self.history.page(query.user_id, game=query.game, page=query.page,
                                       guild_id=interaction.guild_id,
                                       asker_id=query.asker_id)
        return clip(page_text(page, lang)), page_view(page, query, lang)

    @app_commands.command(name="history",
                          description="A player's recent finished games: results, opponents, "
                                      "threads")
    @app_commands.describe(user="The player (default: you)",
                           game="Only the games of this game",
                           private="Answer only to you, without posting in the channel")
    @app_commands.choices(game=GAME_CHOICES)
    async def history_command(self, interaction: discord.Interaction,
                              user: discord.User | None = None, game: str | None = None,
                              private: bool = False) -> None:
        if game is not None and game not in engines.GAMES:
            await send_ephemeral(interaction, t("errors.unknown_game", interaction.locale,
                                                game=game, games=", ".join(engines.GAMES)))
            return
        target = user or interaction.user
        query = HistoryQuery(interaction.user.id, target.id, game, 0, private)
        text, view = await self._page(interaction, query)
        kwargs = {"allowed_mentions": NO_PINGS, "ephemeral": private}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(text, **kwargs)

    async def turn_page(self, interaction: discord.Interaction, query: HistoryQuery) -> None:
        """A press on Previous / Next (``bot.discord.views.history``)."""
        if interaction.user.id != query.asker_id:
            await send_ephemeral(interaction, t("history.not_yours", interaction.locale,
                                                player=f"<@{query.asker_id}>"))
            return
        text, view = await self._page(interaction, query)
        await interaction.response.edit_message(content=text, view=view,
                                                allowed_mentions=NO_PINGS)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(History(bot))
