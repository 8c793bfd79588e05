"""A seek's message (Join, and Withdraw for its owner) and the ``/lobby`` list (a Join button
per entry). Both buttons carry the challenge's number in their custom_id, so they work after a
restart.

A seek's message is public: it speaks the language of the game's thread (the server's, else the
poster's), and so do its edits (joined, withdrawn, expired). The lobby is the presser's own
list (ephemeral, their language). A game started from the lobby gets a starter message in the
seek's channel (an ephemeral message cannot hold a thread) and the seek's message becomes a
pointer to the thread.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import discord

import engines
from bot.core.correspondence.texts import control_text
from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.core.models import Challenge, GameInfo
from bot.discord.host import Host
from bot.discord.replies import NO_PINGS, reply_error
from bot.discord.views.challenge import (
    announce_start,
    challenge_language,
    options_text,
    render_challenge,
)
from bot.discord.views.game import Gate
from bot.services.seeks import Lobby, Seek

#: Discord's limit on buttons in one message (5 rows of 5).
MAX_BUTTONS = 25


def stamp(moment: datetime, style: str) -> str:
    """A Discord timestamp: every reader sees it in their own language and time zone."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def seek_details(seek: Seek, language: Any) -> str:
    """Time control, rated or not, and the rating range: "3 days per move, rated, ratings
    1400–1700"."""
    control = (t("seeks.untimed", language) if seek.time_control in (None, "untimed")
               else control_text(seek.time_control, language))
    parts = [control, t("seeks.rated" if seek.rated else "seeks.unrated", language)]
    low, high = seek.min_rating, seek.max_rating
    if low is not None and high is not None:
        parts.append(t("seeks.range_both", language, min=low, max=high))
    elif low is not None:
        parts.append(t("seeks.range_min", language, min=low))
    elif high is not None:
        parts.append(t("seeks.range_max", language, max=high))
    return ", ".join(parts)


def seek_message(seek: Seek, language: str) -> tuple[str, discord.ui.View | None]:
    """A seek's text and buttons as it stands (open, withdrawn or expired)."""
    challenge = seek.challenge
    title = engines.get(challenge.game).title
    host = f"<@{challenge.host_id}>"
    if challenge.status == "expired":
        days = max(1, round((seek.expires_at - challenge.created_at).total_seconds() / 86400))
        return t("seeks.expired", language, host=host, game=title, count=days), None
    if challenge.status == "cancelled":
        return t("seeks.withdrawn", language, host=host, game=title), None
    text = t("seeks.posted", language, host=host, rating=seek.host_rating, game=title,
             details=seek_details(seek, language), expires=stamp(seek.expires_at, "f"))
    view = discord.ui.View(timeout=None)
    view.add_item(SeekButton(seek.id, "join", t("seeks.button.join", language)))
    view.add_item(SeekButton(seek.id, "withdraw", t("seeks.button.withdraw", language)))
    return text, view


async def render_seek(bot: Host, seek: Seek) -> tuple[str, discord.ui.View | None]:
    return seek_message(seek, await challenge_language(bot, seek.challenge))


async def edit_posted(bot: Host, challenge: Challenge, content: str,
                      view: discord.ui.View | None = None) -> None:
    """Change a seek's or challenge's public message (an edit: it pings nobody)."""
    if challenge.message_id is None or challenge.channel_id is None:
        return  # never posted (the bot stopped in between): nothing to change
    channel = bot.get_partial_messageable(  # type: ignore[attr-defined]
        challenge.channel_id, guild_id=challenge.guild_id)
    await channel.get_partial_message(challenge.message_id).edit(
        content=content, view=view, allowed_mentions=NO_PINGS)


async def refresh_posted(bot: Host, challenge_id: int) -> None:
    """Redraw a seek's or challenge's public message as it now stands."""
    seek = await bot.services.seeks.find_seek(challenge_id)
    if seek is not None:
        content, view = await render_seek(bot, seek)
        await edit_posted(bot, seek.challenge, content, view)
    else:
        challenge = await bot.services.challenges.get_challenge(challenge_id)
        content, view = await render_challenge(bot, challenge)
        await edit_posted(bot, challenge, content, view)


#: Discord's limit on a message's content; a lobby longer than this lists what fits.
CONTENT_MAX = 2000


def lobby_message(lobby: Lobby, language: str) -> tuple[str, discord.ui.View | None]:
    """The lobby: a section per kind, a line and a Join button per entry, as many entries as
    fit in one message (the rest counted in a last line)."""
    # Each entry: its challenge id, its number as shown (apart from games' "#9"), its line.
    sections: list[tuple[str, list[tuple[int, str, str]]]] = []
    if lobby.seeks:
        entries = []
        for seek in lobby.seeks:
            number = t("seeks.number", language, id=seek.id)
            entries.append((seek.id, number, t(
                "seeks.lobby.seek_line", language, number=number,
                game=engines.get(seek.challenge.game).title,
                host=f"<@{seek.challenge.host_id}>", rating=seek.host_rating,
                details=seek_details(seek, language), age=stamp(seek.challenge.created_at, "R"))))
        sections.append((t("seeks.lobby.seeks", language), entries))
    for key, challenges in (("challenges", lobby.challenges), ("tables", lobby.tables)):
        entries = []
        for challenge in challenges:
            title = engines.get(challenge.game).title + options_text(
                challenge.game, challenge.options, language)
            kind = "challenge" if key == "challenges" else "table"
            number = t(f"seeks.{kind}_number", language, id=challenge.id)
            common = {"number": number, "game": title, "host": f"<@{challenge.host_id}>",
                      "age": stamp(challenge.created_at, "R")}
            if key == "challenges":
                control = lobby.time_controls.get(challenge.id)
                details = (t("seeks.untimed", language) if control in (None, "untimed")
                           else control_text(control, language))
                line = t("seeks.lobby.challenge_line", language, **common, details=details)
            else:
                line = t("seeks.lobby.table_line", language, **common,
                         count=len(challenge.joined), players=challenge.players)
            entries.append((challenge.id, number, line))
        if entries:
            sections.append((t(f"seeks.lobby.{key}", language), entries))
    if not sections:
        return t("seeks.lobby.empty", language), None
    total = sum(len(entries) for _, entries in sections)
    room = CONTENT_MAX - len(t("seeks.lobby.more", language, count=total)) - 1
    lines = [t("seeks.lobby.title", language)]
    view = discord.ui.View(timeout=None)
    shown = 0
    for heading, entries in sections:
        for index, (challenge_id, number, line) in enumerate(entries):
            added = ([heading] if index == 0 else []) + [line]
            if (len("\n".join([*lines, *added])) > room
                    or len(view.children) >= MAX_BUTTONS):
                break
            lines.extend(added)
            view.add_item(LobbyButton(challenge_id, t("seeks.button.join_numbered", language,
                                                      number=number)))
            shown += 1
    if shown < total:
        lines.append(t("seeks.lobby.more", language, count=total - shown))
    return "\n".join(lines), view


class SeekButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:sk:(?P<id>\d+):(?P<action>join|withdraw)",
):
    """A seek message's Join (anyone but its owner, within its rating range) or Withdraw
    (its owner)."""

    def __init__(self, challenge_id: int, action: str, label: str = "") -> None:
        style = (discord.ButtonStyle.success if action == "join"
                 else discord.ButtonStyle.secondary)
        super().__init__(discord.ui.Button(label=label or action.capitalize(), style=style,
                                           custom_id=f"bg:sk:{challenge_id}:{action}"))
        self.challenge_id, self.action = challenge_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> SeekButton:
        return cls(int(match["id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Host = interaction.client  # type: ignore[assignment]
        services = bot.services
        try:
            if self.action == "join":
                game = await services.challenges.accept(self.challenge_id, interaction.user.id)
            else:
                await services.challenges.cancel(self.challenge_id, interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        if self.action == "join":
            await announce_start(bot, interaction, game)
            return
        content, view = await render_seek(bot, await services.seeks.get_seek(self.challenge_id))
        await interaction.response.edit_message(content=content, view=view)


class LobbyButton(
    Gate,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bg:lb:(?P<id>\d+)",
):
    """A lobby entry's Join: takes up a seek or an open challenge (the game starts), or takes
    a place at a table (its host starts it)."""

    def __init__(self, challenge_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or f"#{challenge_id}",
                                           style=discord.ButtonStyle.success,
                                           custom_id=f"bg:lb:{challenge_id}"))
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> LobbyButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Host = interaction.client  # type: ignore[assignment]
        services = bot.services
        user = interaction.user.id
        try:
            challenge = await services.challenges.get_challenge(self.challenge_id)
            if challenge.players > 2:
                await services.challenges.join(self.challenge_id, user)
                game = None
            else:
                game = await services.challenges.accept(self.challenge_id, user)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        if game is None:
            lobby = await services.seeks.lobby(interaction.guild_id or 0)
            content, view = lobby_message(lobby, interaction.locale.value)
            await interaction.response.edit_message(content=content, view=view)
            await refresh_posted(bot, self.challenge_id)
            return
        await self._started(bot, interaction, challenge, game)

    @staticmethod
    async def _started(bot: Host, interaction: discord.Interaction, challenge: Challenge,
                       game: GameInfo) -> None:
        """The lobby says where the game is; the offer's public message too, once the thread
        exists (started from a message of its own)."""
        title = engines.get(game.game).title
        mine = interaction.locale.value
        await interaction.response.edit_message(
            content=t("bot.challenge.started", mine, game=title,
                      thread=t("bot.game.number", mine, id=game.id)),
            view=None)
        await bot.delivery.flush(game.id, interaction)
        thread = (await bot.services.games.get_game(game.id)).thread_id
        where = (f"<#{thread}>" if thread is not None
                 else t("bot.game.number", mine, id=game.id))
        await interaction.edit_original_response(
            content=t("bot.challenge.started", mine, game=title, thread=where))
        await edit_posted(bot, challenge, t("bot.challenge.started", bot.delivery.language(game),
                                            game=title, thread=where))
