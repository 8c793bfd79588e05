"""What the buttons, the outbox delivery and the cogs need from the bot, as protocols: they
depend on these rather than on the bot (``bot.discord.client``, which builds on them and loads the
cogs by name), so imports point one way: ``client`` → ``cogs`` → ``delivery`` → ``views`` →
``host``, ``replies``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

if TYPE_CHECKING:
    from discord import app_commands
    from discord.ext import commands

    from bot.core.events import Event, OutboxItem
    from bot.core.models import GameInfo
    from bot.core.settings import Config
    from bot.discord.shutdown import StopOrder
    from bot.services.clocks import ClockService
    from bot.services.notify import NotifyService
    from bot.services.scheduler import Scheduler
    from bot.services.wiring import Services
    from bot.workers.boards import BoardDrawer
    from bot.workers.heavy import HeavyWork
    from bot.workers.pool import WorkerPool
    from bot.workers.review import ReviewWork


#: ``await action(reply_token)``: a service call whose outbox rows answer an interaction.
Action = Callable[[str | None], Awaitable[object]]


@dataclass(frozen=True)
class Acted:
    """What ``Answerer.act`` did: the action's result, and whether the rows it wrote answered
    the interaction."""

    result: Any
    answered: bool


class Answerer(Protocol):
    """The outbox delivery, as the buttons use it."""

    async def act(
        self, interaction: discord.Interaction, game_id: int, action: Action, *,
        reply_token: str | None, done_text: str | None, moved_past: bool = False,
    ) -> Acted | None:
        """Run ``action(reply_token)`` on game ``game_id``, then deliver what it wrote, its
        first row answering ``interaction`` (a refusal is answered privately: None);
        ``done_text`` answers privately when no row does (None: the caller answers).
        ``moved_past``: a press on a board the game may have moved past."""
        ...

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
    """The bot (``bot.discord.client.BoardGamesBot``) as its parts see it."""

    services: Services
    clocks: ClockService
    notify: NotifyService
    config: Config
    delivery: Answerer
    #: True once the bot is shutting down: new interactions are turned away.
    closing: bool

    async def display_name(self, user_id: int, guild: discord.Guild | None = None) -> str: ...


class Outbox(Answerer, Protocol):
    """The outbox delivery (``bot.discord.delivery.Delivery``) as the cogs use it."""

    def register(
        self, posters: Mapping[type[Event], Callable[[OutboxItem[Any]], Awaitable[None]]], *,
        replace: bool = False,
    ) -> None:
        """Post the rows of each event type with its poster (a feature's own messages)."""
        ...

    def on_game_over(self, listener: Callable[[int], Awaitable[None]]) -> None:
        """Call ``listener(game_id)`` for every finished game, before its result is posted."""
        ...

    async def send(self, channel_id: int, item: OutboxItem, *, guild_id: int | None = None,
                   **kwargs: Any) -> discord.Message:
        """Send a row's message once (the row id is its nonce)."""
        ...

    async def post(self, game: GameInfo, item: OutboxItem, **kwargs: Any
                   ) -> discord.Message | None:
        """Post a row's message where the game is played (its thread; where the bot is not,
        as the answer or a follow-up of the game's latest interaction): the message, or None
        where the bot cannot edit it."""
        ...

    async def board_file(self, game: GameInfo, language: str | None = None) -> discord.File:
        """The game's current public board as a PNG attachment."""
        ...


class AiRunner(Protocol):
    """The AI player (``bot.workers.ai_player.AiPlayer``): its worker pool also answers
    ``/hint``."""

    pool: WorkerPool


class CogHost(Host, Protocol):
    """The bot as its cogs see it: its parts, and the members of the discord.py
    ``commands.Bot`` it is that they call. The cogs depend on this, never on ``bot.discord.client``
    (which loads them by name)."""

    delivery: Outbox
    heavy: HeavyWork
    reviews: ReviewWork
    boards: BoardDrawer
    ai_player: AiRunner
    scheduler: Scheduler
    stop_order: StopOrder
    tree: app_commands.CommandTree
    http: Any  # discord.py's HTTP client
    user: discord.ClientUser | None

    async def add_cog(self, cog: commands.Cog, /) -> None: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None
    ) -> discord.PartialMessageable: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def is_owner(self, user: discord.abc.User, /) -> bool: ...

    async def sync_commands(self, scope: str) -> list[str]:
        """Publish the command tree ("global" or "guilds"); where it was synced."""
        ...
