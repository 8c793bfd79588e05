"""The challenge message and its buttons: Accept/Decline/Withdraw (a named opponent),
Accept/Withdraw (an open challenge), Join/Leave/Start/Cancel (a lobby for more than two
players). Withdraw and Cancel are the host's (the same action, ``cancel``), and so are a
lobby's AI buttons: "+ AI (level)" per level while a place is free, and "− AI (level)" per
level seated, which takes that level's last seated AI player off the table. A "− AI" button
names the AI seat it removes, so pressing it twice (or on an old copy of the message) is
refused once that AI has left.

The message is public: it speaks the language the game's thread will speak (the server's, else
the challenger's), whoever presses a button, and so does its edit when the challenge expires;
refusals are private, in the presser's language.
"""

from __future__ import annotations

import re
from typing import Any

import discord

import ai
import engines
from bot.core.correspondence.texts import control_text
from bot.core.errors import ServiceError
from bot.core.i18n import choice_name, language_code, number, option_name, t
from bot.core.models import Challenge, GameInfo
from bot.core.names import player_name
from bot.discord.host import Host
from bot.discord.replies import reply_error
from bot.discord.views.game import Gate
from bot.services.aiseats import ai_level
from bot.store.base import CONVERSATION, counts_for_ratings

ACTIONS = ("accept", "decline", "cancel", "join", "leave", "start")
#: A lobby's buttons that give a free place to an AI player of a level (the host's).
AI_ACTIONS = tuple(f"ai-{level}" for level in ai.LEVELS)
#: A lobby's button that takes the AI seat its custom_id names off the table (the host's).
REMOVE_AI = "ai-off"
#: A lobby's rows of buttons: the players' actions, adding AI players, removing them.
LOBBY_ROW, ADD_AI_ROW, REMOVE_AI_ROW = 0, 1, 2
STYLES = {
    "accept": discord.ButtonStyle.success,
    "join": discord.ButtonStyle.success,
    "start": discord.ButtonStyle.primary,
    "decline": discord.ButtonStyle.danger,
    "cancel": discord.ButtonStyle.secondary,
    "leave": discord.ButtonStyle.secondary,
    **{action: discord.ButtonStyle.secondary for action in AI_ACTIONS},
    REMOVE_AI: discord.ButtonStyle.secondary,
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
    if view is not None and (challenge.rated is not None
                             or challenge.place == CONVERSATION):
        # What the accepting player agrees to: rated or casual, said when it is not the
        # place's default or where games are casual unless asked (``counts_for_ratings``).
        rated = counts_for_ratings(challenge.place, challenge.rated)
        text += "\n" + t("anywhere.rated_challenge" if rated else "anywhere.casual_challenge",
                         locale)
    if view is not None and time_control not in (None, "untimed"):
        text += "\n" + t("clocks.time_control", locale,
                         control=control_text(time_control, locale))
    return text, view


async def challenge_language(bot: Host, challenge: Challenge) -> str:
    """The language of a challenge's message: the server's, else the challenger's."""
    found = await bot.services.settings.public_language(challenge.guild_id, challenge.locale)
    return found or bot.config.default_language


async def render_challenge(
    bot: Host, challenge: Challenge
) -> tuple[str, discord.ui.View | None]:
    """``challenge_message`` in the challenge's language, with its stored time control."""
    time_control = await bot.services.challenges.challenge_time_control(challenge.id)
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
    if challenge.status == "expired":
        return t("bot.challenge.expired", locale, game=title, host=host), None
    labels = {action: t("bot.button." + action.replace("-", "."), locale)
              for action in (*ACTIONS, *AI_ACTIONS)}
    if challenge.players > 2:
        seated = ", ".join(player_name(uid, locale, challenge.joined) for uid in challenge.joined)
        text = t("bot.challenge.lobby", locale, host=host, game=title, players=challenge.players,
                 seated=seated, count=len(challenge.joined))
        counts = [n for n in engines.get(challenge.game).allowed_player_counts()
                  if 2 <= n < challenge.players]
        if counts:
            text += "\n" + t("bot.challenge.lobby_start_early", locale, host=host,
                             counts=", ".join(map(str, counts)))
        return text, _lobby_view(challenge, labels, locale)
    labels["cancel"] = t("bot.button.withdraw", locale)
    if challenge.opponent_id is not None:
        text = t("bot.challenge.named", locale, host=host, game=title,
                 opponent=f"<@{challenge.opponent_id}>")
        actions = ("accept", "decline", "cancel")
    else:
        text = t("bot.challenge.open", locale, host=host, game=title)
        actions = ("accept", "cancel")
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(ChallengeButton(challenge.id, action, labels[action]))
    return text, view


def _lobby_view(challenge: Challenge, labels: dict[str, str], locale: Any) -> discord.ui.View:
    """A lobby's buttons, a row each: Join/Leave/Start/Cancel; "+ AI" per level while a place
    is free; "− AI" per level seated. At most 4 + 3 + 3 buttons, inside Discord's 5 × 5."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start", "cancel"):
        view.add_item(ChallengeButton(challenge.id, action, labels[action], row=LOBBY_ROW))
    if not challenge.is_full:
        for action in AI_ACTIONS:
            # The places taken as drawn: a second press of the same message (a double click)
            # finds the table changed and is refused instead of seating a second AI.
            view.add_item(ChallengeButton(challenge.id, action, labels[action],
                                          seated=len(challenge.joined), row=ADD_AI_ROW))
    for seat in last_ai_of_each_level(challenge.joined):
        label = t("bot.button.ai.remove", locale,
                  player=player_name(seat, locale, challenge.joined))
        view.add_item(ChallengeButton(challenge.id, REMOVE_AI, label, seat=seat,
                                      row=REMOVE_AI_ROW))
    return view


def last_ai_of_each_level(joined: tuple[int, ...]) -> list[int]:
    """The AI seats a lobby's "− AI" buttons remove: per level seated (in ``ai.LEVELS``
    order), the one that sat down last, as if its "+ AI" press were taken back."""
    last = {ai_level(seat): seat for seat in joined if ai_level(seat) is not None}
    return [last[level] for level in ai.LEVELS if level in last]


class ChallengeButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:ch:(?P<id>\d+):(?P<action>" + "|".join((*ACTIONS, *AI_ACTIONS, REMOVE_AI))
    + r")(?::(?P<seat>-\d+)|:(?P<seated>\d+))?",
):
    """A challenge's button. ``seat``: the AI seat a "− AI" button removes (in its
    custom_id after the action, ``bg:ch:7:ai-off:-101``); ``seated``: the places a "+ AI"
    button's lobby had taken when it was drawn (``bg:ch:7:ai-easy:2``; none on the buttons of
    messages drawn before it existed, which are not checked)."""

    def __init__(self, challenge_id: int, action: str, label: str = "", *,
                 seat: int | None = None, seated: int | None = None,
                 row: int | None = None) -> None:
        custom_id = f"bg:ch:{challenge_id}:{action}"
        if seat is not None:
            custom_id += f":{seat}"
        elif seated is not None:
            custom_id += f":{seated}"
        super().__init__(
            discord.ui.Button(
                label=label or action.capitalize(), style=STYLES[action],
                custom_id=custom_id, row=row,
            )
        )
        self.challenge_id, self.action, self.seat, self.seated = (challenge_id, action, seat,
                                                                  seated)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ChallengeButton:
        seat, seated = match["seat"], match["seated"]
        return cls(int(match["id"]), match["action"], seat=None if seat is None else int(seat),
                   seated=None if seated is None else int(seated))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Host = interaction.client  # type: ignore[assignment]
        services = bot.services
        user = interaction.user.id
        try:
            if self.action in ("accept", "start"):
                challenges = services.challenges
                call = challenges.accept if self.action == "accept" else challenges.start
                game = await call(self.challenge_id, user)
            elif self.action in AI_ACTIONS:
                challenge = await services.aiseats.add_ai(self.challenge_id, user,
                                                          self.action.removeprefix("ai-"),
                                                          seated=self.seated)
            elif self.action == REMOVE_AI:
                challenge = await services.aiseats.remove_ai(self.challenge_id, user, self.seat)
            else:
                call = {
                    "decline": services.challenges.decline, "cancel": services.challenges.cancel,
                    "join": services.challenges.join, "leave": services.challenges.leave,
                }[self.action]
                challenge = await call(self.challenge_id, user)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        if self.action in ("accept", "start"):
            await announce_start(bot, interaction, game)
            return
        content, view = await render_challenge(bot, challenge)
        await interaction.response.edit_message(content=content, view=view)


async def announce_start(bot: Host, interaction: discord.Interaction, game: GameInfo) -> None:
    """A click on a challenge's (or seek's) message started ``game``.

    Its thread starts from this message, so it will have this message's id: the challenge
    becomes a pointer to it at once (the answer comes in Discord's 3 s whatever a burst of
    starts costs), then the thread is started and the first board (the outbox row the service
    wrote) posted there, a new message that pings the players. A challenge posted inside a
    thread cannot hold one: its game gets a thread in the channel, linked here once it
    exists."""
    title = engines.get(game.game).title
    language = bot.delivery.language(game)
    if game.in_conversation:
        # No thread where the bot is not: the game goes on right here, its boards follow
        # this answer.
        await interaction.response.edit_message(
            content=t("anywhere.started_here", language, game=title), view=None)
        await bot.delivery.flush(game.id, interaction)
        return
    here = interaction.message is not None and interaction.channel_id == game.channel_id
    where = (f"<#{interaction.message.id}>" if here
             else t("bot.game.number", language, id=game.id))
    await interaction.response.edit_message(
        content=t("bot.challenge.started", language, game=title, thread=where), view=None)
    await bot.delivery.flush(game.id, interaction)
    thread = None if here else (await bot.services.games.get_game(game.id)).thread_id
    if thread is not None:
        await interaction.edit_original_response(content=t(
            "bot.challenge.started", language, game=title, thread=f"<#{thread}>"))
