"""The Review button under a finished game's result: the AI's review of the game, privately,
in the language of whoever presses it (``bot.discord.cogs._review``). Anyone who sees the result may
press it (a finished game is reviewed for anyone on its server, like ``/record``)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.core.i18n import t
from bot.discord.views.game import Gate


class ReviewButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:review:(?P<game>\d+)",
):
    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(label=label or "Review", style=discord.ButtonStyle.secondary,
                              custom_id=f"bg:review:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ReviewButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # Answered by the Review cog (views do not import cogs: they build on the views).
        cog = interaction.client.get_cog("Review")  # type: ignore[attr-defined]
        await cog.answer(interaction, self.game_id)


def add_review_button(view: discord.ui.View | None, game_id: int, locale: Any) -> discord.ui.View:
    """``view`` (or a new one) with the Review button of ``game_id`` added."""
    view = view or discord.ui.View(timeout=None)
    view.add_item(ReviewButton(game_id, t("review.button", locale)))
    return view


def review_buttons_of(message: discord.Message) -> discord.ui.View | None:
    """The Review buttons of one of our messages, as a view to keep when its other buttons are
    taken off (None when it has none)."""
    view = None
    for row in message.components:
        for child in getattr(row, "children", ()):
            match = re.fullmatch(ReviewButton.__discord_ui_compiled_template__,
                                 getattr(child, "custom_id", None) or "")
            if match:
                view = view or discord.ui.View(timeout=None)
                view.add_item(ReviewButton(int(match["game"]), child.label or ""))
    return view
