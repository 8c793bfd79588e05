"""Buttons on a game's board messages: one per legal move when there are few (Alak points, Palam
columns), and the answer to a take-back request."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.errors import ServiceError

if TYPE_CHECKING:
    from bot.app import BoardGamesBot

#: Discord's limit on a custom_id.
CUSTOM_ID_MAX = 100
BUTTONS_PER_ROW = 5


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:mv:(?P<game>\d+):(?P<version>\d+):(?P<move>.+)",
):
    """Plays ``move`` in ``game`` if the board is still at ``version`` (a stale button cannot
    play a move on a board its presser has not seen)."""

    def __init__(self, game_id: int, version: int, move: str, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=move, style=discord.ButtonStyle.secondary,
                custom_id=f"bg:mv:{game_id}:{version}:{move}", row=row,
            )
        )
        self.game_id, self.version, self.move = game_id, version, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["game"]), int(match["version"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.app import reply_error

        bot: BoardGamesBot = interaction.client  # type: ignore[assignment]
        try:
            result = await bot.services.move(
                self.game_id, interaction.user.id, self.move, expected_version=self.version
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        # A deferred update: the new board comes as a follow-up in the thread, and the pressed
        # board loses its buttons (they belong to a position that is gone).
        await interaction.response.defer()
        await bot.delivery.flush(self.game_id, interaction, game=result.game)
        await interaction.edit_original_response(view=None)


def move_view(game_id: int, version: int, moves: Sequence[Any]) -> discord.ui.View | None:
    """A row of buttons per five moves, or None when a move does not fit in a custom_id."""
    texts = [str(m) for m in moves]
    if any(len(f"bg:mv:{game_id}:{version}:{m}") > CUSTOM_ID_MAX for m in texts):
        return None
    view = discord.ui.View(timeout=None)
    for index, text in enumerate(texts):
        view.add_item(MoveButton(game_id, version, text, row=index // BUTTONS_PER_ROW))
    return view


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:undo:(?P<game>\d+):(?P<version>\d+):(?P<answer>yes|no)",
):
    def __init__(self, game_id: int, version: int, accept: bool, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or ("✓" if accept else "✗"),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=f"bg:undo:{game_id}:{version}:{'yes' if accept else 'no'}",
            )
        )
        self.game_id, self.version, self.accept = game_id, version, accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> UndoButton:
        return cls(int(match["game"]), int(match["version"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.app import reply_error

        bot: BoardGamesBot = interaction.client  # type: ignore[assignment]
        try:
            await bot.services.answer_undo(self.game_id, interaction.user.id, self.accept)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        key = "bot.undo.accepted" if self.accept else "bot.undo.declined"
        await interaction.response.edit_message(
            content=t(key, interaction.locale, player=interaction.user.mention), view=None
        )
        await bot.delivery.flush(self.game_id, interaction)


def undo_view(game_id: int, version: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(game_id, version, True, t("bot.undo.accept", locale)))
    view.add_item(UndoButton(game_id, version, False, t("bot.undo.decline", locale)))
    return view
