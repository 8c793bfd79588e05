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
from bot.discord.replies import NO_PINGS, reply_error, send_ephemeral
from bot.discord.views.draws import resign_view_with_draw
from bot.discord.views.game import BUTTONS_PER_ROW, ID_LIMIT, Gate
from bot.discord.views.hand import show_hand
from bot.discord.views.hint import give_hint

#: What a move typed in the form may hold (Discord allows up to 4000 characters).
MOVE_TEXT_MAX = 100


#: A Move… form's custom_id: its game and the person it was opened for (a form opened by an
#: earlier version of the bot names its game only).
FORM_ID = re.compile(r"bg:form:(?P<game>\d+)(?::(?P<user>\d+))?")
#: The custom_id of the form's one field.
MOVE_FIELD = "move"


def form_custom_id(game_id: int, user_id: int) -> str:
    return f"bg:form:{game_id}:{user_id}"


class MoveForm(discord.ui.Modal):
    """The form of **Move…**: one line, the move in canonical notation. Its custom_id names the
    game and the person it is for, so that each person's form is their own; its submission is
    answered by ``answer_move_form``, never by this object (see there)."""

    def __init__(self, game_id: int, user_id: int, locale: Any, example: str | None) -> None:
        super().__init__(title=t("anywhere.form.title", locale, id=game_id)[:45],
                         custom_id=form_custom_id(game_id, user_id), timeout=None)
        self.add_item(discord.ui.TextInput(
            label=t("anywhere.form.label", locale)[:45], max_length=MOVE_TEXT_MAX,
            custom_id=MOVE_FIELD,
            placeholder=(t("anywhere.form.placeholder", locale, example=example)[:100]
                         if example else None),
        ))
        # discord.py keeps a sent modal by its custom_id alone and forgets it at its first
        # submission (or a restart), which would leave other submissions unanswered: stopped
        # before it is sent, it is not kept at all, and every submission goes to
        # ``answer_move_form``.
        self.stop()


def typed_text(components: list[dict[str, Any]]) -> str:
    """The value of a submitted form's first text input (in an action row or a label)."""
    for component in components:
        inner = component.get("components") or (
            [component["component"]] if component.get("component") else [])
        if inner:
            found = typed_text(inner)
            if found:
                return found
        elif component.get("type") == discord.ComponentType.text_input.value:
            return str(component.get("value") or "")
    return ""


async def answer_move_form(interaction: discord.Interaction) -> bool:
    """Answer a submitted Move… form, whoever's it is and whenever it was opened (before a
    restart too): the move typed is played for its submitter, the new board (with the next
    player's ping) being the answer, as ``/move`` does; a refusal is private. Everything
    comes from the submission and the database. The user its custom_id names only keeps
    people's forms apart (Discord lets only that person submit it): the move is always the
    submitter's own. False when ``interaction`` is no Move… form (someone else answers it)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    match = FORM_ID.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return False
    host: Host = interaction.client  # type: ignore[assignment]
    if getattr(host, "closing", False):
        await send_ephemeral(interaction, t("bot.errors.closing", interaction.locale))
        return True
    if any(value is not None and int(value) >= ID_LIMIT for value in match.groups()):
        await send_ephemeral(interaction, t("bot.errors.impossible_number", interaction.locale))
        return True
    game_id, text = int(match["game"]), typed_text(list(data.get("components") or []))
    text = text[:MOVE_TEXT_MAX + 1]  # longer than the form allows: refused as no move is
    await host.delivery.act(
        interaction, game_id,
        lambda token: host.services.play.move(game_id, interaction.user.id, text,
                                              reply_token=token),
        reply_token=interaction.token, done_text=t("bot.game.done", interaction.locale),
    )
    return True


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
        await interaction.response.send_modal(
            MoveForm(self.game_id, interaction.user.id, interaction.locale, example))


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
            text, view=resign_view_with_draw(info, user, locale), ephemeral=True,
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


class ActivityButton(Gate, discord.ui.DynamicItem[discord.ui.Button],
                     template=r"bg:board:(?P<game>\d+)"):
    """**Open board** where the app has Activities: launches the web board as the Activity in
    the channel (callback ``LAUNCH_ACTIVITY``), which opens this game for whoever pressed it.
    """

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "Open board",
                                           custom_id=f"bg:board:{game_id}",
                                           style=discord.ButtonStyle.primary))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ActivityButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # The Activity learns which game to open from the web board (``bot.web.launches``):
        # Discord tells it the channel, not the button.
        web = getattr(interaction.client, "web", None)
        if web is not None and interaction.channel_id is not None:
            web.launches.note(interaction.user.id, interaction.channel_id, self.game_id)
        await interaction.response.launch_activity()


def link_button(label: str, url: str) -> dict[str, Any]:
    """A link button's payload (style 5: it opens ``url``; no custom id, no interaction)."""
    return {"type": discord.ComponentType.button.value,
            "style": discord.ButtonStyle.link.value, "label": label, "url": url}


def board_link_rows(row: dict[str, Any], links: list[dict[str, Any]] | None
                    ) -> list[dict[str, Any]]:
    """The action row with the web board's buttons at its end, or on a row of their own when
    they do not fit (five buttons a row)."""
    if not links:
        return [row]
    if len(row["components"]) + len(links) <= BUTTONS_PER_ROW:
        return [{**row, "components": [*row["components"], *links]}]
    return [row, {"type": discord.ComponentType.action_row.value, "components": links}]


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


def with_actions(view: discord.ui.View | None, row: dict[str, Any],
                 link: list[dict[str, Any]] | None = None) -> discord.ui.View:
    """A board's buttons with the action row below them (and the web board's buttons,
    ``board_link_rows``); beyond Discord's five rows, the move buttons give way, all of them
    (Move… plays any move): a part of the legal moves as buttons would look like all there
    is."""
    rows = [*(view.to_components() if view is not None else []), *board_link_rows(row, link)]
    if len(rows) > ROWS_MAX:
        rows = [r for r in rows if not any(
            str(c.get("custom_id", "")).startswith("bg:mv:") for c in r["components"])]
    return ActionRows(rows)
