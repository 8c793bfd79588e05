"""``/play <game>``: challenge someone, open a challenge to anyone, open a lobby, or play the AI.

Against the AI: a ``level:`` option (easy, medium, hard) starts the game at once, with no Accept
step; with ``players:`` above two, every other seat is an AI of that level. A level is one pick
in the command that also says "against the AI" by being there, where a bot chosen as
``opponent`` in Discord's user picker says nothing of the strength (it is understood too: the
bot itself as opponent plays the AI at ``DEFAULT_LEVEL``).

One sub-command per registered game, with that game's options as typed parameters and choices
built from the engine's metadata (``engines.get(name).options``), so adding a game adds its
sub-command without code here.
"""

from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import ai
import engines
from bot.core.correspondence.texts import control_text
from bot.core.errors import ServiceError
from bot.core.events import ChallengeExpired, OutboxItem
from bot.core.i18n import choice_name, language_code, t
from bot.discord.anywhere import answers_forced_private, place_of
from bot.discord.replies import NO_PINGS, pinging, reply_error, send_ephemeral
from bot.discord.views.challenge import render_challenge
from bot.store.base import CONVERSATION

if TYPE_CHECKING:
    from bot.discord.host import CogHost

#: Discord allows at most 25 choices per option; larger sets become a bounded number.
MAX_CHOICES = 25
RESERVED = ("opponent", "players", "time_control", "level", "rated")
#: The level of a game against the bot chosen as ``opponent`` with no ``level``.
DEFAULT_LEVEL = "medium"
#: The time controls offered by /play (bot.correspondence.timecontrol reads any valid one).
TIME_CONTROLS = (
    "untimed", "1d", "2d", "3d", "5d", "7d", "14d", "3d+1d", "7d+1d", "14d+2d",
)


def _time_control_choice(control: str) -> app_commands.Choice[str]:
    """A time control offered by /play, named in words in each language ("3 days per
    move", "3 jours par coup")."""
    name = locale_str(control_text(control, "en"),
                      text=lambda language: control_text(control, language))
    return app_commands.Choice(name=name, value=control)


TIME_CONTROL_CHOICES = [_time_control_choice(control) for control in TIME_CONTROLS]


def _option_parameter(option: engines.Option) -> tuple[inspect.Parameter, list | None]:
    """The slash-command parameter for an engine option (its annotation carries an integer
    range when there are too many values for choices), and its choices."""
    values = list(option.choices)
    if isinstance(option.default, bool):
        annotation: Any = bool
        choices = None
    elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        if len(values) <= MAX_CHOICES:
            annotation = int
            choices = [app_commands.Choice(name=str(v), value=v) for v in values]
        else:
            annotation = app_commands.Range[int, min(values), max(values)]
            choices = None
    else:
        annotation = str
        choices = [app_commands.Choice(name=choice_name(v, "en"), value=str(v))
                   for v in values[:MAX_CHOICES]]
    parameter = inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation | None
    )
    return parameter, choices


async def post_expired_challenge(bot: CogHost, item: OutboxItem[ChallengeExpired]) -> None:
    """A ``challenge_expired`` row: the challenge's message says it expired and loses its
    buttons (an edit: nobody is pinged for an offer that is gone)."""
    challenge = await bot.services.challenges.get_challenge(item.event.challenge_id)
    if challenge.message_id is None or challenge.channel_id is None:
        return  # never posted (the bot stopped in between): nothing to change
    if challenge.place == CONVERSATION:
        return  # where the bot is not, it cannot edit: Accept then says it expired
    content, _ = await render_challenge(bot, challenge)  # in the challenge's language
    channel = bot.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id)
    await channel.get_partial_message(challenge.message_id).edit(
        content=content, view=None, allowed_mentions=NO_PINGS)


def game_channel(interaction: discord.Interaction) -> int | None:
    """Where a game started by this command gets its thread: game threads hang off a text
    channel, so a /play inside a thread uses its parent."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return interaction.channel_id


class Play(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        # Where it may be used: everywhere the app is installed (``bot.discord.anywhere``).
        self.group = app_commands.Group(
            name="play", description="Start a game: challenge a player, anyone, or open a table",
        )
        for name in engines.GAMES:
            self.group.add_command(self._game_command(engines.get(name)))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)
        self.bot.delivery.register(
            {ChallengeExpired: functools.partial(post_expired_challenge, self.bot)})

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    def _game_command(self, game: engines.Game) -> app_commands.Command:
        counts = game.allowed_player_counts()

        async def callback(interaction: discord.Interaction, **kwargs: Any) -> None:
            await self.play(interaction, game.name, kwargs)

        parameters = [
            inspect.Parameter(
                "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=discord.Interaction,
            ),
            inspect.Parameter(
                "opponent", inspect.Parameter.KEYWORD_ONLY, default=None,
                annotation=discord.User | None,
            ),
        ]
        descriptions: dict[str, str] = {
            "opponent": "Who you challenge (leave empty to let anyone accept)",
        }
        choices: dict[str, list] = {}
        if len(counts) > 1:
            parameters.append(
                inspect.Parameter(
                    "players", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=int | None
                )
            )
            descriptions["players"] = "Number of players (more than two opens a table to join)"
            choices["players"] = [app_commands.Choice(name=str(n), value=n) for n in counts]
        parameters.append(
            inspect.Parameter(
                "time_control", inspect.Parameter.KEYWORD_ONLY, default=None,
                annotation=str | None,
            )
        )
        descriptions["time_control"] = "Days per move, or a bank plus days per move (default: none)"
        choices["time_control"] = TIME_CONTROL_CHOICES
        parameters.append(
            inspect.Parameter(
                "level", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None,
            )
        )
        descriptions["level"] = "Play against the AI at this level (starts at once)"
        choices["level"] = [app_commands.Choice(name=level, value=level) for level in ai.LEVELS]
        parameters.append(
            inspect.Parameter(
                "rated", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=bool | None,
            )
        )
        descriptions["rated"] = ("Count this game for ratings (outside servers with the bot: "
                                 "casual unless yes)")
        for option in game.options:
            if option.name in RESERVED or option.hidden:
                continue
            parameter, option_choices = _option_parameter(option)
            parameters.append(parameter)
            descriptions[option.name] = (option.description or option.name)[:100]
            if option_choices:
                choices[option.name] = option_choices
        callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        callback.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
        callback.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
        return app_commands.Command(
            name=game.name,
            description=f"Play {game.title}"[:100],
            callback=callback,
        )

    async def play(
        self, interaction: discord.Interaction, game_name: str, values: dict[str, Any]
    ) -> None:
        locale = interaction.locale
        if answers_forced_private(interaction):
            # Discord would show the game to this player alone: nobody could answer it.
            await send_ephemeral(interaction, t("anywhere.needs_external_apps", locale))
            return
        opponent: discord.User | discord.Member | None = values.pop("opponent", None)
        players = values.pop("players", None) or engines.get(game_name).min_players
        time_control = values.pop("time_control", None)
        level = values.pop("level", None)
        rated = values.pop("rated", None)
        options = {name: value for name, value in values.items() if value is not None}
        me = self.bot.user
        if opponent is not None and me is not None and opponent.id == me.id:
            opponent, level = None, level or DEFAULT_LEVEL
        elif opponent is not None and level is not None:
            await send_ephemeral(interaction, t("errors.level_with_opponent", locale))
            return
        if level is not None:
            await self.play_ai(interaction, game_name, level, players, time_control, options)
            return
        if opponent is not None and opponent.bot:
            await send_ephemeral(interaction, t("bot.play.no_bots", locale))
            return
        if opponent is not None and players > 2:
            await send_ephemeral(interaction, t("bot.play.lobby_no_opponent", locale))
            return
        place = place_of(interaction)
        channel_id = interaction.channel_id if place else game_channel(interaction)
        try:
            challenge = await self.bot.services.challenges.challenge(
                game_name, interaction.user.id,
                opponent_id=None if opponent is None else opponent.id,
                players=players, options=options,
                guild_id=interaction.guild_id, channel_id=channel_id,
                time_control=time_control, locale=language_code(locale), place=place,
                rated=rated,
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        content, view = await render_challenge(self.bot, challenge)
        # Only the challenged player must act: only they are pinged.
        response = await interaction.response.send_message(
            content, view=view, allowed_mentions=pinging(challenge.opponent_id))
        if response.message_id is not None:
            await self.bot.services.challenges.set_challenge_message(challenge.id,
                                                                     response.message_id)

    async def play_ai(
        self, interaction: discord.Interaction, game_name: str, level: str, players: int,
        time_control: str | None, options: dict[str, Any],
    ) -> None:
        """A game against the AI, started at once: the answer points to its thread, where the
        first board is posted (a message of its own, so the player to move is pinged)."""
        place = place_of(interaction)
        channel_id = interaction.channel_id if place else game_channel(interaction)
        try:
            game = await self.bot.services.aiseats.play_ai(
                game_name, interaction.user.id, level, players=players, options=options,
                guild_id=interaction.guild_id, channel_id=channel_id, time_control=time_control,
                locale=language_code(interaction.locale), place=place,
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        title = engines.get(game.game).title
        language = self.bot.delivery.language(game)
        if game.in_conversation:
            # Here, in this conversation: the first board is this command's answer.
            await self.bot.delivery.flush(game.id, interaction)
            return
        await interaction.response.send_message(
            t("bot.challenge.started", language, game=title,
              thread=t("bot.game.number", language, id=game.id)),
            allowed_mentions=NO_PINGS,
        )
        await self.bot.delivery.flush(game.id, interaction)
        thread = (await self.bot.services.games.get_game(game.id)).thread_id
        if thread is not None:
            await interaction.edit_original_response(content=t(
                "bot.challenge.started", language, game=title, thread=f"<#{thread}>"))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Play(bot))
