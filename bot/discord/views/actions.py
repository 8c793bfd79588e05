"""The buttons under a game's board that stand for its commands, so that a player needs nothing
installed (where the app was installed by someone else, only they have its commands):
**My cards** shows an LPPG player their hand privately (``/hand``), **Move…** opens a form with
one text field for a move in the game's notation (the same parser and the same private refusal
as ``/move``), **Undo**, **Resign** (confirmed first), **Hint** and **Claim** do what their
commands do. Each names its
game in its custom_id, so it works after a restart."""

from __future__ import annotations

import re
from typing import Any

import discord

import engines
from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.core.names import player_name
from bot.discord.host import Host
from bot.discord.replies import NO_PINGS, reply_error
from bot.discord.views.game import Gate, resign_view
from bot.discord.views.hand import show_hand
from bot.discord.views.hint import give_hint

#: What a move typed in the form may hold (Discord allows up to 4000 characters).
MOVE_TEXT_MAX = 100


class MoveForm(discord.ui.Modal):
    """The form of **Move…**: one line, the move in canonical notation."""

    def __init__(self, game_id: int, locale: Any, example: str | None) -> None:
        super().__init__(title=t("anywhere.form.title", locale, id=game_id)[:45],
                         custom_id=f"bg:form:{game_id}", timeout=None)
        self.game_id = game_id
        self.text: discord.ui.TextInput = discord.ui.TextInput(
            label=t("anywhere.form.label", locale)[:45], max_length=MOVE_TEXT_MAX,
            placeholder=(t("anywhere.form.placeholder", locale, example=example)[:100]
                         if example else None),
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        # The new board, with the next player's ping, is this submission's answer.
        await host.delivery.act(
            interaction, self.game_id,
            lambda token: host.services.play.move(self.game_id, interaction.user.id,
                                             self.text.value, reply_token=token),
            reply_token=interaction.token, done_text=t("bot.game.done", interaction.locale),
        )


class MoveFormButton(
    Gate, discord.ui.DynamicItem[discord.ui.Button], template=r"bg:form:(?P<game>\d+)",
):
    """**Move…**: opens ``MoveForm`` for a player of the game (its example: one of their
    legal moves)."""

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "Move…", custom_id=f"bg:form:{game_id}",
                                           style=discord.ButtonStyle.primary))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> MoveFormButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        try:
            moves = await host.services.games.legal_moves(self.game_id, interaction.user.id)
        except ServiceError as error:  # not a player, the game is over…
            await reply_error(interaction, error)
            return
        example = str(moves[len(moves) // 2]) if moves else None
        await interaction.response.send_modal(MoveForm(self.game_id, interaction.locale, example))


class ResignAskButton(
    Gate, discord.ui.DynamicItem[discord.ui.Button], template=r"bg:resign-ask:(?P<game>\d+)",
):
    """**Resign**: asks the presser privately, as ``/resign`` does (``ResignButton``
    confirms on this very position)."""

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "Resign",
                                           custom_id=f"bg:resign-ask:{game_id}",
                                           style=discord.ButtonStyle.secondary))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ResignAskButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        user = interaction.user.id
        try:
            info = await host.services.play.resignable(self.game_id, user)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        locale = interaction.locale
        others = ", ".join(player_name(uid, locale) for uid in info.seats if uid != user)
        text = t("bot.resign.ask", locale, game=engines.get(info.game).title, id=info.id,
                 opponents=others)
        await interaction.response.send_message(
            text, view=resign_view(info.id, info.version, user, locale), ephemeral=True,
            allowed_mentions=NO_PINGS)


class HandButton(
    Gate, discord.ui.DynamicItem[discord.ui.Button], template=r"bg:hand:(?P<game>\d+)",
):
    """**My cards** (LPPG): the presser's hand and, on their turn, its moves, privately (as
    ``/hand``)."""

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "My cards",
                                           custom_id=f"bg:hand:{game_id}",
                                           style=discord.ButtonStyle.success))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        await show_hand(host, interaction, await host.services.games.get_game(self.game_id))


class GameActionButton(Gate, discord.ui.DynamicItem[discord.ui.Button],
                       template=r"bg:act:(?P<game>\d+):(?P<action>undo|claim|hint)"):
    """**Undo** (ask to take the last move back, as ``/undo``), **Claim** (the win once the
    opponent's time is up, as ``/claim``: refused politely before), **Hint** (against the
    AI, as ``/hint``). Undo and Claim answer with what the game's outbox says (the request,
    the result), Hint privately."""

    def __init__(self, game_id: int, action: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or action.capitalize(),
                                           custom_id=f"bg:act:{game_id}:{action}",
                                           style=discord.ButtonStyle.secondary))
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> GameActionButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Any = interaction.client
        game_id, user = self.game_id, interaction.user.id
        if self.action == "hint":
            await give_hint(host, interaction, await host.services.games.get_game(game_id))
            return
        if self.action == "undo":
            action = host.services.play.request_undo
            done = t("bot.game.done", interaction.locale)
        else:
            action = host.clocks.claim
            done = t("clocks.claimed", interaction.locale, id=game_id)
        await host.delivery.act(interaction, game_id,
                                lambda token: action(game_id, user, reply_token=token),
                                reply_token=interaction.token, done_text=done)


def action_row(game_id: int, locale: Any, *, hands: bool = False, timed: bool = False,
               against_ai: bool = False, hint: bool = False) -> dict[str, Any]:
    """The row of command buttons under a board, as a component payload (five at most, as
    Discord allows): **My cards** when the game hides the players' cards (``hands``),
    **Move…**, **Undo** (not ``against_ai``: the AI takes nothing back), **Resign**, then
    **Hint** where the player to move may have one (``hint``), else **Claim** in a timed game
    between people. A button that could only refuse is not shown."""
    buttons: list[discord.ui.DynamicItem[discord.ui.Button]] = [
        MoveFormButton(game_id, t("anywhere.button.move", locale)),
        ResignAskButton(game_id, t("anywhere.button.resign", locale)),
    ]
    if not against_ai:
        buttons.insert(1, GameActionButton(game_id, "undo", t("anywhere.button.undo", locale)))
    if hands:
        buttons.insert(0, HandButton(game_id, t("anywhere.button.hand", locale)))
    if hint:
        buttons.append(GameActionButton(game_id, "hint", t("anywhere.button.hint", locale)))
    elif timed and not against_ai:
        buttons.append(GameActionButton(game_id, "claim", t("anywhere.button.claim", locale)))
    return {"type": discord.ComponentType.action_row.value,
            "components": [b.item.to_component_dict() for b in buttons]}


#: Discord allows five rows of components on a message.
ROWS_MAX = 5


class ActionRows(discord.ui.View):
    """A board's rows of buttons as component payloads (move buttons, Abort, the actions)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def with_actions(view: discord.ui.View | None, row: dict[str, Any]) -> discord.ui.View:
    """A board's buttons with the action row below them; beyond Discord's five rows, the move
    buttons give way, all of them (Move… plays any move): a part of the legal moves as buttons
    would look like all there is."""
    rows = [*(view.to_components() if view is not None else []), row]
    if len(rows) > ROWS_MAX:
        rows = [r for r in rows if not any(
            str(c.get("custom_id", "")).startswith("bg:mv:") for c in r["components"])]
    return ActionRows(rows)
