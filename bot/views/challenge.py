"""The challenge message and its buttons: Accept/Decline (a named opponent), Accept/Cancel (an
open challenge), Join/Leave/Start/Cancel (a lobby for more than two players).

The message is public: it speaks the language the game's thread will speak (the server's, else
the challenger's), whoever presses a button; refusals are private, in the presser's language.
"""

from __future__ import annotations

import re
from typing import Any

import discord

import ai
import engines
from bot.correspondence.texts import control_text
from bot.host import Host
from bot.i18n import choice_name, language_code, number, option_name, t
from bot.names import player_name
from bot.replies import reply_error
from bot.services.errors import ServiceError
from bot.services.models import Challenge
from bot.views.game import Gate

ACTIONS = ("accept", "decline", "cancel", "join", "leave", "start")
#: A lobby's buttons that give a free place to an AI player of a level (the host's).
AI_ACTIONS = tuple(f"ai-{level}" for level in ai.LEVELS)
STYLES = {
    "accept": discord.ButtonStyle.success,
    "join": discord.ButtonStyle.success,
    "start": discord.ButtonStyle.primary,
    "decline": discord.ButtonStyle.danger,
    "cancel": discord.ButtonStyle.secondary,
    "leave": discord.ButtonStyle.secondary,
    **{action: discord.ButtonStyle.secondary for action in AI_ACTIONS},
}


def option_value_text(value: Any, language: str) -> str:
    """An option's value as players read it: a choice by its name in ``language``, a switch
    as on/off, a number as the language writes numbers."""
    if isinstance(value, bool):
        return t("bot.option.on" if value else "bot.option.off", language)
    if isinstance(value, int | float):
        return number(value, language)
    return choice_name(value, language)


def options_text(game_name: str, options: dict[str, Any], language: str = "en") -> str:
    """Only the options that differ from the game's defaults, named as the players see them
    in ``/play``: " (length 13)", " (longueur 13)"."""
    game = engines.get(game_name)
    path = f"play {game.name}"
    changed = [
        f"{option_name(path, opt.name, language)} {option_value_text(options[opt.name], language)}"
        for opt in game.options
        if opt.name in options and options[opt.name] != opt.default and not opt.hidden
    ]
    return f" ({', '.join(changed)})" if changed else ""


def challenge_message(
    challenge: Challenge, locale: Any, time_control: str | None = None
) -> tuple[str, discord.ui.View | None]:
    """The text and buttons of a challenge, for its first post and every update (a Join or a
    Leave edits the message: nothing may go missing then). ``time_control`` is the challenge's
    (``untimed``, ``3d``, ``3d+1d``); an untimed challenge shows no line for it."""
    text, view = _challenge_body(challenge, locale)
    if view is not None and time_control not in (None, "untimed"):
        text += "\n" + t("clocks.time_control", locale,
                         control=control_text(time_control, locale))
    return text, view


async def challenge_language(bot: Host, challenge: Challenge) -> str:
    """The language of a challenge's message: the server's, else the challenger's."""
    found = await bot.services.public_language(challenge.guild_id, challenge.locale)
    return found or bot.config.default_language


async def render_challenge(
    bot: Host, challenge: Challenge
) -> tuple[str, discord.ui.View | None]:
    """``challenge_message`` in the challenge's language, with its stored time control."""
    time_control = await bot.services.challenge_time_control(challenge.id)
    return challenge_message(challenge, await challenge_language(bot, challenge), time_control)


def _challenge_body(challenge: Challenge, locale: Any) -> tuple[str, discord.ui.View | None]:
    language = language_code(locale)
    title = engines.get(challenge.game).title + options_text(challenge.game, challenge.options,
                                                             language)
    host = f"<@{challenge.host_id}>"
    if challenge.status == "declined":
        return t("bot.challenge.declined", locale, game=title, host=host,
                 player=f"<@{challenge.opponent_id}>"), None
    if challenge.status == "cancelled":
        return t("bot.challenge.cancelled", locale, game=title, host=host), None
    if challenge.players > 2:
        seated = ", ".join(player_name(uid, locale) for uid in challenge.joined)
        text = t("bot.challenge.lobby", locale, host=host, game=title, players=challenge.players,
                 seated=seated, count=len(challenge.joined))
        actions = ("join", "leave", "start", "cancel")
        if not challenge.is_full:
            actions += AI_ACTIONS
    elif challenge.opponent_id is not None:
        text = t("bot.challenge.named", locale, host=host, game=title,
                 opponent=f"<@{challenge.opponent_id}>")
        actions = ("accept", "decline")
    else:
        text = t("bot.challenge.open", locale, host=host, game=title)
        actions = ("accept", "cancel")
    view = discord.ui.View(timeout=None)
    for action in actions:
        label = t("bot.button." + action.replace("-", "."), locale)
        view.add_item(ChallengeButton(challenge.id, action, label))
    return text, view


class ChallengeButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:ch:(?P<id>\d+):(?P<action>" + "|".join((*ACTIONS, *AI_ACTIONS)) + ")",
):
    def __init__(self, challenge_id: int, action: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action.capitalize(), style=STYLES[action],
                custom_id=f"bg:ch:{challenge_id}:{action}",
            )
        )
        self.challenge_id, self.action = challenge_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ChallengeButton:
        return cls(int(match["id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Host = interaction.client  # type: ignore[assignment]
        services = bot.services
        user = interaction.user.id
        try:
            if self.action in ("accept", "start"):
                call = services.accept if self.action == "accept" else services.start
                game = await call(self.challenge_id, user)
            elif self.action in AI_ACTIONS:
                challenge = await services.add_ai(self.challenge_id, user,
                                                  self.action.removeprefix("ai-"))
            else:
                call = {
                    "decline": services.decline, "cancel": services.cancel,
                    "join": services.join, "leave": services.leave,
                }[self.action]
                challenge = await call(self.challenge_id, user)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        if self.action in ("accept", "start"):
            # The game exists. Its thread starts from this message, so it will have this
            # message's id: the challenge becomes a pointer to it at once (the answer comes in
            # Discord's 3 s whatever a burst of starts costs), then the thread is started and
            # the first board (the outbox row the service wrote) posted there, a new message
            # that pings the players. A challenge posted inside a thread cannot hold one: its
            # game gets a thread in the channel, linked here once it exists.
            title = engines.get(game.game).title
            language = bot.delivery.language(game)
            here = interaction.message is not None and interaction.channel_id == game.channel_id
            where = f"<#{interaction.message.id}>" if here else f"#{game.id}"
            await interaction.response.edit_message(
                content=t("bot.challenge.started", language, game=title, thread=where),
                view=None,
            )
            await bot.delivery.flush(game.id, interaction)
            thread = None if here else (await services.get_game(game.id)).thread_id
            if thread is not None:
                await interaction.edit_original_response(content=t(
                    "bot.challenge.started", language, game=title, thread=f"<#{thread}>"))
            return
        content, view = await render_challenge(bot, challenge)
        await interaction.response.edit_message(content=content, view=view)
