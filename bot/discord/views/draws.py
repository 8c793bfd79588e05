"""Buttons of draw offers and aborts (``bot.services.draws``): Accept/Decline under an offer
(they answer that offer only: pressed once it is over, they refuse), **Offer a draw** beside
the confirmation of ``/resign`` and of the board's **Resign**, and **Abort** under a game's
first boards (until every player has moved once)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.core.models import GameInfo
from bot.discord.host import Host
from bot.discord.replies import reply_error, send_ephemeral
from bot.discord.views.game import Gate, answer_button, resign_view
from bot.services.draws import draw_possible


class DrawAnswerButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:draw:(?P<game>\d+):(?P<offer>\d+):(?P<answer>yes|no)",
):
    """Accept (or decline) draw offer ``offer`` of ``game``."""

    def __init__(self, game_id: int, offer_id: int, accept: bool, label: str = "") -> None:
        super().__init__(answer_button("draw", game_id, offer_id, accept, label))
        self.game_id, self.offer_id, self.accept = game_id, offer_id, accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> DrawAnswerButton:
        return cls(int(match["game"]), int(match["offer"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        try:
            result = await host.services.draws.answer_draw(self.game_id, interaction.user.id,
                                                           self.offer_id, self.accept)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        # The answer is said publicly by the outbox rows (a new message that pings whom it
        # concerns); the buttons of the offer come off there too. Where the bot is not, that
        # message is this press's answer (the result's board a follow-up of it).
        if await said_by_the_outbox(host, result.game, interaction):
            return
        key = "draws.you_accepted" if self.accept else "draws.you_declined"
        await send_ephemeral(interaction, t(key, interaction.locale, id=self.game_id))
        await host.delivery.flush(self.game_id)


async def said_by_the_outbox(host: Host, game: GameInfo,
                             interaction: discord.Interaction) -> bool:
    """Where the bot is not (``game`` is played in a conversation), deliver the game's rows
    at once with ``interaction`` as the way in (the first becomes its answer, the others its
    follow-ups: nothing else can post there); whether that answered it. In a thread: False,
    nothing done (the caller answers privately, then the rows go to the thread)."""
    if not game.in_conversation:
        return False
    await host.delivery.flush(game.id, interaction)
    return interaction.response.is_done()


def draw_answer_view(game_id: int, offer_id: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DrawAnswerButton(game_id, offer_id, True, t("draws.accept", locale)))
    view.add_item(DrawAnswerButton(game_id, offer_id, False, t("draws.decline", locale)))
    return view


class DrawOfferButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:drawoffer:(?P<game>\d+):(?P<user>\d+)",
):
    """Beside the confirmation of ``/resign`` (only ``user`` sees it): offer a draw instead."""

    def __init__(self, game_id: int, user_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(label=label or "Offer a draw", style=discord.ButtonStyle.secondary,
                              custom_id=f"bg:drawoffer:{game_id}:{user_id}")
        )
        self.game_id, self.user_id = game_id, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> DrawOfferButton:
        return cls(int(match["game"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        if interaction.user.id != self.user_id:
            await send_ephemeral(interaction, t("bot.resign.not_yours", interaction.locale))
            return
        try:
            result = await host.services.draws.offer_draw(self.game_id, self.user_id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        key = "draws.agreed_private" if result.agreed else "draws.offered_private"
        await interaction.response.edit_message(
            content=t(key, interaction.locale, id=self.game_id), view=None)
        # Passed on: where the bot is not, the offer can only be a follow-up of this press.
        await host.delivery.flush(self.game_id, interaction)


def resign_view_with_draw(info: GameInfo, user_id: int, locale: Any) -> discord.ui.View:
    """The confirmation of ``user_id``'s resignation (``resign_view``) and, where the game can
    end in a draw by agreement, **Offer a draw** beside it."""
    view = resign_view(info.id, info.version, user_id, locale)
    if draw_possible(info.game, info.players):
        view.add_item(DrawOfferButton(info.id, user_id, t("draws.offer_button", locale)))
    return view


class AbortButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:abort:(?P<game>\d+)",
):
    """Under a game's first boards: a player ends the game with no result, until every
    player has moved once (then it refuses, saying what is left: resign, draw, claim)."""

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(label=label or "Abort", style=discord.ButtonStyle.danger,
                              custom_id=abort_custom_id(game_id))
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> AbortButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        try:
            game = await host.services.draws.abort_by_player(self.game_id, interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        host.delivery.strip_buttons(interaction.message, interaction)
        # Where the bot is not, the abort can only be said as this press's answer: said to
        # everyone there, pinging the other players (the outbox row's poster).
        if await said_by_the_outbox(host, game, interaction):
            return
        await send_ephemeral(interaction, t("draws.you_aborted", interaction.locale,
                                            id=self.game_id))
        await host.delivery.flush(self.game_id)


def abort_custom_id(game_id: int) -> str:
    return f"bg:abort:{game_id}"


def abort_row(game_id: int, locale: Any) -> dict[str, Any]:
    """The Abort button as a component row, for a board's view (``with_abort``)."""
    return {"type": discord.ComponentType.action_row.value, "components": [
        {"type": discord.ComponentType.button.value,
         "style": discord.ButtonStyle.danger.value, "disabled": False,
         "label": t("draws.abort_button", locale), "custom_id": abort_custom_id(game_id)}]}


class _Rows(discord.ui.View):
    """A view sent as raw component rows (a press is dispatched by the buttons' templates)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def with_abort(view: discord.ui.View | None, game_id: int, locale: Any) -> discord.ui.View:
    """A board's buttons with an Abort row below them (move buttons take four rows at
    most: ``bot.discord.delivery.MAX_MOVE_BUTTONS``)."""
    rows = view.to_components() if view is not None else []
    return _Rows([*rows, abort_row(game_id, locale)])
