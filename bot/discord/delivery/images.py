"""Board images for the game's posts: the public board of a position, in the post's language,
with the names of the seated players and, while the game runs, its clock; drawn off the event
loop, in the board workers (``bot.workers.boards``)."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.core.correspondence.texts import board_clock_text
from bot.core.models import GameInfo, Position
from bot.core.names import player_name
from bot.core.seats import is_ai
from bot.discord.delivery.compose import game_language, outcome_text
from bot.services.clocks import ClockInfo

if TYPE_CHECKING:
    from bot.services.clocks import ClockService
    from bot.workers.boards import BoardDrawer


#: ``await display_name(user_id)``: a person's name as boards and thread titles show it.
DisplayName = Callable[[int], Awaitable[str]]


class BoardImages:
    """Draws the boards the delivery and ``/board`` post: in the board workers (``boards``),
    with the players' names (``display_name``) and the clock (``clocks``); in the game's
    language, else ``default_language``."""

    def __init__(self, boards: BoardDrawer, clocks: ClockService, display_name: DisplayName,
                 default_language: str) -> None:
        self.boards = boards
        self.clocks = clocks
        self.display_name = display_name
        self.default_language = default_language

    async def seat_names(self, game: GameInfo, language: str) -> list[str]:
        """The players' names for thread titles and boards (an AI seat's in ``language``)."""
        return [player_name(uid, language, game.seats) if is_ai(uid)
                else await self.display_name(uid) for uid in game.seats]

    async def position_file(self, game: GameInfo, position: Position, language: str,
                            clock: ClockInfo | None) -> discord.File:
        """The board of ``position`` (a row's own ply) as a PNG attachment."""
        return await self._png(game, position.state, position.last_move, position.ply,
                               language, clock)

    async def board_file(self, game: GameInfo, language: str | None = None) -> discord.File:
        """The game's current public board as a PNG attachment, rendered off the event loop,
        in ``language`` (default: the game's), with its clock while the game runs."""
        clock = None
        if game.status == "active":
            clock = await self.clocks.clock_info(game.id)
        return await self._png(game, game.state, game.last_move, game.ply,
                               language or game_language(game, self.default_language), clock)

    async def _png(
        self, game: GameInfo, state: Any, last_move: str | None, ply: int, language: str,
        clock: ClockInfo | None,
    ) -> discord.File:
        names = await self.seat_names(game, language)
        outcome = getattr(state, "outcome", None)
        # The image writes whose turn it is or who won itself; under it, why the game ended,
        # in the image's language.
        status = None if outcome is None else "\n" + outcome_text(outcome, language)
        clock_line = None if clock is None else board_clock_text(
            clock, names, game.seats, self.clocks.now(), language)
        # Off the event loop (docs/architecture.md), in the board workers (``bot.workers.boards``).
        png = await self.boards.board(
            game.game, state, viewer=None, last_move=last_move, players=names,
            lang=language, status=status, clock=clock_line,
        )
        return discord.File(io.BytesIO(png), filename=f"{game.game}-{game.id}-{ply}.png")
