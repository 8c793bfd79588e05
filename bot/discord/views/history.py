"""The Previous / Next buttons of a ``/history`` answer. Each ``custom_id`` carries the whole
query (who asked, whose games, which game, the page it leads to, public or private), so the
buttons keep working after a restart; only the one who asked turns the pages
(``bot.discord.cogs.history``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord

from bot.discord.views.game import Gate

#: ``*`` in place of a game: every game.
ALL_GAMES = "*"


@dataclass(frozen=True)
class HistoryQuery:
    asker_id: int
    user_id: int
    game: str | None
    page: int
    private: bool


def history_custom_id(query: HistoryQuery, direction: str) -> str:
    return (f"bg:hist:{query.asker_id}:{query.user_id}:{query.game or ALL_GAMES}:"
            f"{query.page}:{'p' if query.private else 's'}:{direction}")


class HistoryButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:hist:(?P<asker>\d+):(?P<user>-?\d+):(?P<game>[a-z*]+):(?P<page>\d+)"
             r":(?P<mode>[ps]):(?P<direction>[pn])",
):
    """Shows page ``query.page`` of the query (the page this button leads to)."""

    def __init__(self, query: HistoryQuery, direction: str, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or ("◀" if direction == "p" else "▶"),
            style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=history_custom_id(query, direction)))
        self.query = query

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> HistoryButton:
        game = None if match["game"] == ALL_GAMES else match["game"]
        query = HistoryQuery(int(match["asker"]), int(match["user"]), game,
                             int(match["page"]), match["mode"] == "p")
        return cls(query, match["direction"])

    async def callback(self, interaction: discord.Interaction) -> None:
        # Answered by the History cog (views do not import cogs).
        cog = interaction.client.get_cog("History")  # type: ignore[attr-defined]
        await cog.turn_page(interaction, self.query)
