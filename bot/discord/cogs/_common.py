"""Helpers shared by the cogs (the leading underscore keeps this module from being loaded as
an extension): finding the game a command is about (and suggesting game numbers as one types
them), and the reply token of a command's game action (whose outcome the outbox delivery posts
as the command's answer: ``Delivery.act``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import engines
from bot.core.errors import ServiceError
from bot.core.i18n import language_code, t
from bot.core.models import GameInfo
from bot.discord.replies import reply_error, send_ephemeral
from render.header import move_number

if TYPE_CHECKING:
    from bot.discord.host import CogHost


async def game_here(
    bot: CogHost, interaction: discord.Interaction, game_id: int | None = None
) -> GameInfo | None:
    """The game named by id (only if it may be seen from here: ``game_seen_from``), else the
    game of this thread; tells the user when there is none."""
    services = bot.services
    try:
        if game_id is not None:
            return await services.games.game_seen_from(game_id, guild_id=interaction.guild_id,
                                                       user_id=interaction.user.id)
        game = await services.games.game_for_thread(interaction.channel_id)
    except ServiceError as error:
        await reply_error(interaction, error)
        return None
    if game is None:
        await send_ephemeral(interaction, t("bot.game.no_game_here", interaction.locale))
    return game


async def answer_language(
    bot: CogHost, interaction: discord.Interaction, *, private: bool = False
) -> str:
    """The language of an answer to ``interaction``, the one place that decides it: what only
    the user sees speaks the user's language; what everyone sees speaks the server's
    (``/admin settings language``), like game threads, else the user's."""
    own = language_code(interaction.locale)
    if private or interaction.guild_id is None:
        return own
    return await bot.services.settings.public_language(interaction.guild_id, own) or own


def reply_token(interaction: discord.Interaction, game: GameInfo) -> str | None:
    """The interaction's token when it is used in the game's thread: the rows the action
    writes are then answered by this interaction (its response is the new board)."""
    return interaction.token if interaction.channel_id == game.thread_id else None


#: Discord shows at most 25 autocomplete choices.
MAX_GAME_CHOICES = 25
#: Discord's largest integer option: the top of ranges that have no other (a larger number
#: would not fit the database's integers either).
LARGEST = 2**53 - 1
#: A finished game's thread archives itself after this many minutes without a message (one of
#: Discord's 60, 1440, 4320, 10080): a day to read the result, talk and ask for a rematch.
FINISHED_THREAD_ARCHIVE_MINUTES = 1440

log = logging.getLogger(__name__)


async def archive_when_quiet(bot: CogHost, game: GameInfo) -> None:
    """Let a finished game's thread archive itself a day after its last message.

    Discord lets a thread's creator (the bot started every game thread) set its auto-archive
    delay and archive it without Manage Threads (discord-api-docs, topics/threads, "Editing &
    Deleting Threads"), so the invite's permissions suffice. The delay, rather than an
    archive now, leaves the result readable and Rematch pressable; Discord keeps the timer, so
    a restart loses nothing. Best effort: a refusal is logged, and the result still goes out."""
    if game.thread_id is None or game.in_conversation:  # a conversation is no thread
        return
    try:
        await bot.http.edit_channel(game.thread_id,
                                    auto_archive_duration=FINISHED_THREAD_ARCHIVE_MINUTES)
    except discord.HTTPException:
        log.warning("could not shorten the auto-archive delay of game %s's thread", game.id)


def game_choice_label(game: GameInfo, user_id: int, locale: Any) -> str:
    """An autocomplete choice: number, game, and how it stands (whose turn, or over)."""
    title = engines.get(game.game).title
    if game.status != "active":
        return t("bot.game.choice_over", locale, id=game.id, game=title)
    key = "bot.game.choice_your_turn" if game.user_to_move() == user_id else "bot.game.choice"
    return t(key, locale, id=game.id, game=title, number=move_number(game.ply))


class NumberOption(app_commands.Transformer):
    """An integer option naming something by its number (from 1 to ``LARGEST``); subclasses
    suggest the numbers worth naming (``autocomplete``)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return LARGEST

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> int:
        return int(value)


class GameNumber(NumberOption):
    """A ``game`` option: a game number, autocompleted with the games worth naming for
    ``purpose`` (``GameReads.games_to_suggest``: your games on this server first, never
    another server's)."""

    def __init__(self, purpose: str) -> None:
        self.purpose = purpose

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: int | float | str, /
    ) -> list[app_commands.Choice[int]]:
        bot: CogHost = interaction.client  # type: ignore[assignment]
        user = interaction.user.id
        found = await bot.services.games.games_to_suggest(
            guild_id=interaction.guild_id, user_id=user, purpose=self.purpose, limit=100)
        # What was typed: a number (as "#12" or "n°12" too) or part of a game's name.
        typed = str(value or "").strip().casefold().removeprefix("n°").lstrip("#")
        fitting = [g for g in found if not typed or str(g.id).startswith(typed)
                   or typed in engines.get(g.game).title.casefold()]
        return [app_commands.Choice(name=game_choice_label(g, user, interaction.locale),
                                    value=g.id) for g in fitting[:MAX_GAME_CHOICES]]


def game_number(purpose: str) -> Any:
    """The annotation of a ``game`` option suggesting games for ``purpose``."""
    return app_commands.Transform[int, GameNumber(purpose)]
