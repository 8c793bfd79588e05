"""What the buttons and the outbox delivery need from the bot, as a protocol: they depend on this
rather than on ``bot.app`` (which builds on them), so imports point one way:
``app`` → ``delivery`` → ``views`` → ``host``, ``replies``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import discord

if TYPE_CHECKING:
    from bot.config import Config
    from bot.services.clocks import ClockService
    from bot.services.games import GameService
    from bot.services.models import GameInfo
    from bot.services.notify import NotifyService


class Answerer(Protocol):
    """The outbox delivery, as the buttons use it."""

    async def flush(
        self, game_id: int | None, interaction: discord.Interaction | None = None,
        written: GameInfo | None = None,
    ) -> bool:
        """Post the game's pending rows; the first that belongs where the interaction
        happened answers it. Returns whether it did. ``written``: the game as the action
        that wrote the rows left it (saves reading it again)."""
        ...

    def strip_buttons(self, message: discord.Message | None,
                      pressed: discord.Interaction | None = None) -> None:
        """Take the buttons off a message of ours, in the background (not where the bot is
        not, which the press ``pressed`` tells)."""
        ...

    def language(self, game: GameInfo) -> str:
        """The language of a game's posts."""
        ...


class Host(Protocol):
    """The bot (``bot.app.BoardGamesBot``) as its parts see it."""

    services: GameService
    clocks: ClockService
    notify: NotifyService
    config: Config
    delivery: Answerer
    #: True once the bot is shutting down: new interactions are turned away.
    closing: bool

    async def display_name(self, user_id: int, guild: discord.Guild | None = None) -> str: ...
