"""Buttons that are out of date once a new message of a game is up come off, in the background,
off the player's path (an edit notifies nobody): the previous board's, the message pressed to
play, and an open take-back request's when the request is over. Best effort: a board left with
buttons refuses them when pressed (its version)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import aiohttp
import discord
from discord.http import HTTPClient, handle_message_parameters

from bot.core.events import MovePlayed, OutboxItem, UndoDeclined, UndoDone, UndoRequested
from bot.core.models import GameInfo
from bot.discord.anywhere import bot_is_here
from bot.discord.delivery.compose import Composed
from bot.discord.views.review import review_buttons_of


class StaleButtons:
    """This run's newest board message of each game and open take-back requests, and the
    background edits that take their buttons off."""

    def __init__(self, http: HTTPClient) -> None:
        self.http = http
        #: This run's newest board message of each game (channel, message), and the open
        #: take-back request of each game.
        self._boards: dict[int, tuple[int, int]] = {}
        self._undo_requests: dict[int, tuple[int, int]] = {}
        self._background: set[asyncio.Task] = set()

    def answered_before(self, game: GameInfo, original: dict[str, Any]) -> None:
        """A row turned out to be answered before a restart by ``original``: the board it
        carried (with buttons) is the game's newest."""
        if original.get("components") and game.thread_id is not None:
            self._boards[game.id] = (game.thread_id, int(original["id"]))

    def after_post(
        self,
        item: OutboxItem,
        game: GameInfo,
        thread_id: int,
        message_id: int,
        composed: Composed,
        pressed: discord.Message | None,
    ) -> None:
        """Buttons that are out of date once this message is up come off, in the background:
        the previous board's, the message pressed to play (``pressed``), and an open take-back
        request's when the request is over. Not in a conversation: an edit there needs an
        interaction of that message, so its stale buttons refuse when pressed instead."""
        if game.in_conversation:
            return
        if composed.position is not None:
            previous = self._boards.pop(game.id, None)
            if composed.view is not None:
                self._boards[game.id] = (thread_id, message_id)
            if previous is not None and previous[1] != message_id:
                self._strip(*previous)
            stripped = {message_id, previous[1] if previous else None}
            if pressed is not None and pressed.id not in stripped:
                self.strip_buttons(pressed)
        event = item.event
        if isinstance(event, UndoRequested):
            self._undo_requests[game.id] = (thread_id, message_id)
        elif isinstance(event, UndoDone | UndoDeclined) or (
                isinstance(event, MovePlayed) and event.undo_dropped_by):
            request = self._undo_requests.pop(game.id, None)
            if request is not None:
                self._strip(*request)

    def strip_buttons(self, message: discord.Message | None,
                      pressed: discord.Interaction | None = None) -> None:
        """Take the buttons off one of our messages, in the background (an ephemeral one
        cannot be edited this way, nor one where the bot is not, which ``pressed``, the
        interaction of the press, tells: their stale buttons refuse when pressed). A result's
        Review button stays: a game can be reviewed whatever happened since (a rematch)."""
        if message is None or message.flags.ephemeral or not message.components:
            return
        if pressed is not None and not bot_is_here(pressed):
            return
        kept = review_buttons_of(message)
        self._strip(message.channel.id, message.id, kept)

    def strip(self, channel_id: int, message_id: int) -> None:
        """Take every button off message ``message_id`` of ``channel_id``, in the background."""
        self._strip(channel_id, message_id)

    def _strip(self, channel_id: int, message_id: int,
               kept: discord.ui.View | None = None) -> None:
        async def strip() -> None:
            # Best effort: a board left with buttons refuses them when pressed (its version).
            # The plain edit request: ``PartialMessage.edit`` would also build a
            # discord.Message of the answer, which nobody reads (a quarter of its cost).
            with (
                contextlib.suppress(discord.HTTPException, aiohttp.ClientError, OSError),
                handle_message_parameters(view=kept) as params,
            ):
                await self.http.edit_message(channel_id, message_id, params=params)

        # Named "background-…" so that shutdown waits for it.
        task = asyncio.create_task(strip(), name=f"background-strip-{message_id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)
