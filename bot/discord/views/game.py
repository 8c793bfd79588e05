"""Buttons on a game's messages: one per legal move when there are few (Alak points, Palam
columns; an LPPG player's placements come privately with ``/hand``), the answers to a
take-back request, the confirmation of a resignation, and Rematch under a game's result.

A move button plays its move only on the board version it was drawn for, and its answer is the
new board as a new message (the interaction's response), so the mention of the next player
notifies them. Take-back buttons belong to one request (the id of its outbox row): pressed once
the request is over, they refuse."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.core.names import player_name
from bot.discord.host import Host
from bot.discord.replies import NO_PINGS, pinging, reply_error, send_ephemeral
from bot.discord.views.move_labels import move_label
from bot.services.rematches import Rematch

#: Discord's limits: a custom_id, a label, buttons per row and rows per message.
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
BUTTONS_PER_ROW = 5
ROWS_MAX = 5


#: Every id is below this: Discord's snowflakes fit in 63 bits, and so do the databases'
#: signed 64-bit integers (a larger number would not even reach a query).
ID_LIMIT = 2**63
NUMBER = re.compile(r"-?\d+")


def names_impossible_number(item: discord.ui.DynamicItem[Any]) -> bool:
    """Whether a button's custom_id, read by its template, names a number no id can be (a
    forged custom_id: the bot writes only ids it has)."""
    match = item.template.fullmatch(item.custom_id)
    return match is not None and any(
        value is not None and NUMBER.fullmatch(value) and abs(int(value)) >= ID_LIMIT
        for value in match.groupdict().values())


class Gate:
    """Mixed into every button: while the bot shuts down it starts nothing new, and a button
    naming an impossible number is refused before it is read any further."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        host: Host = interaction.client  # type: ignore[assignment]
        if getattr(host, "closing", False):
            await send_ephemeral(interaction, t("bot.errors.closing", interaction.locale))
            return False
        if isinstance(self, discord.ui.DynamicItem) and names_impossible_number(self):
            await send_ephemeral(interaction, t("bot.errors.impossible_number",
                                                interaction.locale))
            return False
        return True


def move_custom_id(game_id: int, version: int, move: str) -> str:
    """The custom_id of a move button (``MoveButton``'s template reads it back)."""
    return f"bg:mv:{game_id}:{version}:{move}"


class MoveButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:mv:(?P<game>\d+):(?P<version>\d+):(?P<move>.+)",
):
    """Plays ``move`` in ``game`` if the board is still at ``version`` (a stale button cannot
    play a move on a board its presser has not seen)."""

    def __init__(self, game_id: int, version: int, move: str, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=move, style=discord.ButtonStyle.secondary,
                custom_id=move_custom_id(game_id, version, move), row=row,
            )
        )
        self.game_id, self.version, self.move = game_id, version, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["game"]), int(match["version"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        # The board (or the /hand message) is in the game's thread: this interaction answers
        # with the new board there. Where the bot is not, this board may be the last one
        # posted there (later rows found no live token): a refusal then shows the game as it
        # stands (``moved_past``).
        await host.delivery.act(
            interaction, self.game_id,
            lambda token: host.services.play.move(self.game_id, interaction.user.id, self.move,
                                             expected_version=self.version, reply_token=token),
            reply_token=interaction.token, done_text=t("bot.game.done", interaction.locale),
            moved_past=True,
        )


def fits(game_id: int, version: int, moves: Sequence[str]) -> bool:
    """Whether these moves can be buttons: few enough, and each fits a label and a custom_id."""
    return len(moves) <= BUTTONS_PER_ROW * ROWS_MAX and all(
        len(m) <= LABEL_MAX and len(move_custom_id(game_id, version, m)) <= CUSTOM_ID_MAX
        for m in moves
    )


class MoveButtons(discord.ui.View):
    """The move buttons of one board, kept as their component payload: every board has new
    ones (their custom_ids name its version), and a ``MoveButton`` object per move costs more
    than the rest of posting the board's message does on the bot's side. A press is dispatched
    by ``MoveButton``'s template like that of any move button, whichever view sent it."""

    def __init__(self, game_id: int, version: int, texts: Sequence[str],
                 labels: Sequence[str] | None = None) -> None:
        super().__init__(timeout=None)
        shown = list(texts if labels is None else labels)
        self.rows = [
            {"type": discord.ComponentType.action_row.value, "components": [
                {"type": discord.ComponentType.button.value,
                 "style": discord.ButtonStyle.secondary.value, "disabled": False,
                 "label": label, "custom_id": move_custom_id(game_id, version, text)}
                for text, label in zip(texts[start:start + BUTTONS_PER_ROW],
                                       shown[start:start + BUTTONS_PER_ROW], strict=True)
            ]}
            for start in range(0, len(texts), BUTTONS_PER_ROW)
        ]

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def move_view(game_id: int, version: int, moves: Sequence[Any],
              language: object | None = None) -> MoveButtons | None:
    """A row of buttons per five moves, or None when they do not fit on a message; their
    labels in ``language`` (``move_label``), the moves they play as the engines write them."""
    texts = list(dict.fromkeys(str(m) for m in moves))  # a custom_id is unique per message
    if not texts or not fits(game_id, version, texts):
        return None
    return MoveButtons(game_id, version, texts,
                       [move_label(text, language)[:LABEL_MAX] for text in texts])


def answer_button(kind: str, game_id: int, asked: int, accept: bool,
                  label: str = "") -> discord.ui.Button:
    """A yes (green) or no (red) button answering question ``asked`` (a take-back request, a
    draw offer...) of ``game_id``: ``bg:<kind>:<game>:<asked>:yes|no``."""
    return discord.ui.Button(
        label=label or ("✓" if accept else "✗"),
        style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
        custom_id=f"bg:{kind}:{game_id}:{asked}:{'yes' if accept else 'no'}",
    )


class UndoButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:undo:(?P<game>\d+):(?P<request>\d+):(?P<answer>yes|no)",
):
    """Agree to (or refuse) take-back request ``request`` of ``game``."""

    def __init__(self, game_id: int, request: int, accept: bool, label: str = "") -> None:
        super().__init__(answer_button("undo", game_id, request, accept, label))
        self.game_id, self.request, self.accept = game_id, request, accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> UndoButton:
        return cls(int(match["game"]), int(match["request"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        acted = await host.delivery.act(
            interaction, self.game_id,
            lambda token: host.services.play.answer_undo(self.game_id, interaction.user.id,
                                                    self.accept, request=self.request,
                                                    reply_token=token),
            reply_token=interaction.token, done_text=None,
        )
        if acted is None:
            return
        if acted.answered:
            # Answered with the new board (or the refusal): this request is over.
            host.delivery.strip_buttons(interaction.message, interaction)
            return
        # One agreement of several: the request stays open, saying who agreed so far.
        agreed = " ".join(f"<@{uid}>" for uid in acted.result.undo_accepted_by)
        content = (interaction.message.content if interaction.message else "") + "\n" + t(
            "bot.undo.agreed_so_far", interaction.locale, players=agreed)
        await interaction.response.edit_message(content=content[:2000],
                                                allowed_mentions=NO_PINGS)


def undo_view(game_id: int, request: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(game_id, request, True, t("bot.undo.accept", locale)))
    view.add_item(UndoButton(game_id, request, False, t("bot.undo.decline", locale)))
    return view


class ResignButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:resign:(?P<game>\d+):(?P<version>\d+):(?P<user>\d+)",
):
    """Confirms ``user``'s resignation of ``game``, on the board ``version`` they were shown.
    It comes in a private answer to ``/resign``; pressed once the game moved on or ended, it
    refuses (a confirmation is for the position it was asked on; an AI's move is the game
    moving on like anyone's, and an AI seat is named in the question, never mentioned)."""

    def __init__(self, game_id: int, version: int, user_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "Resign", style=discord.ButtonStyle.danger,
                custom_id=f"bg:resign:{game_id}:{version}:{user_id}",
            )
        )
        self.game_id, self.version, self.user_id = game_id, version, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["game"]), int(match["version"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        if interaction.user.id != self.user_id:
            await send_ephemeral(interaction, t("bot.resign.not_yours", interaction.locale))
            return
        try:
            await host.services.play.resign(self.game_id, self.user_id,
                                            expected_version=self.version)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        # The private question becomes the answer; the thread hears of it from the outbox
        # (the result is a new message there, which pings the winners).
        await interaction.response.edit_message(
            content=t("bot.resign.done", interaction.locale, id=self.game_id), view=None)
        # Passed on: where the bot is not, the result can only be a follow-up of this press.
        await host.delivery.flush(self.game_id, interaction)


def resign_view(game_id: int, version: int, user_id: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(game_id, version, user_id, t("bot.resign.confirm", locale)))
    return view


class RematchButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:rematch:(?P<game>\d+)",
):
    """Under a finished game's result: a player asks for a rematch (``ask_rematch``: the
    first press proposes, the other people's accept, the last one starts the new game; AI
    seats accept without pressing, so one person against the AI starts it at once)."""

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(label=label or "Rematch", style=discord.ButtonStyle.primary,
                              custom_id=f"bg:rematch:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client  # type: ignore[assignment]
        try:
            rematch = await host.services.rematches.ask_rematch(self.game_id, interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        # Posted in the thread for everyone: in the game's language, whoever pressed.
        text, mentions = rematch_said(rematch, interaction.user.id,
                                      host.delivery.language(rematch.game))
        await interaction.response.send_message(text, allowed_mentions=mentions)
        if rematch.new_game is None:
            return
        host.delivery.strip_buttons(interaction.message, interaction)
        # The new game's first board, in its own thread, pings every player (where the bot
        # is not: a follow-up of this press).
        await host.delivery.flush(rematch.new_game.id, interaction)


def rematch_said(rematch: Rematch, user_id: int, locale: str
                 ) -> tuple[str, discord.AllowedMentions]:
    """What the thread is told of ``user_id``'s Rematch (pressed here or on the web board):
    asked, pinging those whose answer is awaited; or started (no ping: the new game's first
    board pings every player)."""
    game_id = rematch.game.id
    if rematch.new_game is None:
        waiting = " ".join(player_name(uid, locale) for uid in rematch.waiting)
        return (t("bot.rematch.asked", locale, player=player_name(user_id, locale), id=game_id,
                  waiting=waiting), pinging(*rematch.waiting))
    # One press started it: every other seat is an AI's, which accepts without asking.
    key = "started_against_ai" if len(rematch.asked) == 1 else "started"
    return (t(f"bot.rematch.{key}", locale, id=game_id, new_id=rematch.new_game.id),
            NO_PINGS)


def rematch_view(game_id: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, t("bot.rematch.button", locale)))
    return view
