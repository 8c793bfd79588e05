"""Posting the game's own events (``Composer.posts``: a game starts, a move, a take-back, a
resignation, the result) where the game is played: the first row an interaction wrote is that
interaction's answer (one request: the board, the text, the ping); the others go to the game's
thread with their nonces, or, where the bot is not, follow the game's latest interaction; then
the buttons the new message makes stale come off."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.core.events import GameEnded, GameEvent, MovePlayed, OutboxItem
from bot.core.models import GameInfo
from bot.discord.delivery.buttons import StaleButtons
from bot.discord.delivery.compose import Composed, Composer, game_language
from bot.discord.delivery.conversations import ConversationSender
from bot.discord.delivery.images import BoardImages
from bot.discord.delivery.policy import LATE_MINIMUM, LATE_SECONDS
from bot.discord.delivery.threads import ThreadSender
from bot.discord.replies import clip

if TYPE_CHECKING:
    from bot.services.wiring import Services

log = logging.getLogger(__name__)


@dataclass
class Answering:
    """What one flush of a game's rows answers: ``interaction`` (None: nobody is waiting),
    ``written``, the game as the action that wrote the rows left it (a row of that version is
    posted without reading the game again), and ``settled``, the tokens whose first row has
    been handled (only the first row of a token can be its interaction's answer)."""

    interaction: discord.Interaction | None = None
    written: GameInfo | None = None
    settled: set[str] = field(default_factory=set)
    #: Held while the interaction is being answered, by a row or by the acknowledgement of
    #: an answer that is running late (``Delivery.flush``): never both at once.
    responding: asyncio.Lock = field(default_factory=asyncio.Lock)


async def acknowledge_when_late(interaction: discord.Interaction, answering: Answering,
                                forget_reply: Callable[[str], Awaitable[Any]]) -> bool:
    """Discord allows 3 s to answer an interaction. When the board that answers it is not on
    its way ``LATE_SECONDS`` after the press (a busy machine, a slow database), acknowledge it
    privately instead, its token forgotten by the rows (``forget_reply``: they then go to the
    game's thread like the others, their pings with them), and return True: the caller says
    "done" in the placeholder. Only where the bot is in the channel (``Delivery.flush``), so
    that the thread can take the rows."""
    elapsed = (datetime.now(UTC) - interaction.created_at).total_seconds()
    # A clock ahead of Discord's must not acknowledge every press at once.
    await asyncio.sleep(max(LATE_MINIMUM, LATE_SECONDS - elapsed))
    async with answering.responding:
        if interaction.response.is_done():
            return False
        log.info("interaction %s answered late: acknowledged, its rows go to the thread",
                 interaction.id)
        await forget_reply(interaction.token)
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.defer(ephemeral=True, thinking=True)
        return interaction.response.is_done()


async def stop_waiting(late: asyncio.Task[bool], answering: Answering) -> bool:
    """Stop ``acknowledge_when_late`` (not while it acknowledges); whether it did."""
    async with answering.responding:
        late.cancel()
    return late.done() and not late.cancelled() and late.result()


async def message_kwargs(images: BoardImages, game: GameInfo, composed: Composed,
                         language: str) -> dict[str, Any]:
    """What a composed row is sent with: its text, pings, buttons and board image."""
    kwargs: dict[str, Any] = {"content": clip(composed.content),
                              "allowed_mentions": composed.pings}
    if composed.view is not None:
        kwargs["view"] = composed.view
    if composed.position is not None:
        kwargs["file"] = await images.position_file(game, composed.position, language,
                                                    composed.clock)
    return kwargs


def together(items: list[OutboxItem]) -> list[list[OutboxItem]]:
    """A conversation game's pending rows in runs posted as one message each: moves that
    answer no interaction (the AI players', which follow a person's move) go together, and a
    game's end joins the moves just before it (its final board then comes with its result);
    every other row is a run of its own. Where the bot is not, a person's move has an
    answer and five follow-ups at most (``bot.discord.delivery.conversations``)."""
    runs: list[list[OutboxItem]] = []
    for item in items:
        previous = runs[-1] if runs else None
        if (previous is not None and item.reply_token is None
                and isinstance(item.event, MovePlayed | GameEnded)
                and all(p.reply_token is None and isinstance(p.event, MovePlayed)
                        for p in previous)):
            previous.append(item)
        else:
            runs.append([item])
    return runs


class GamePosts:
    """Posts the game's own events: composed by ``composer``, their boards drawn by
    ``images``, sent once by ``sender`` (or ``conversations`` where the bot is not), the
    buttons they make stale taken off by ``buttons``."""

    def __init__(self, services: Services, composer: Composer, images: BoardImages,
                 sender: ThreadSender, buttons: StaleButtons,
                 conversations: ConversationSender) -> None:
        self.services = services
        self.composer = composer
        self.images = images
        self.sender = sender
        self.buttons = buttons
        self.conversations = conversations

    def language(self, game: GameInfo) -> str:
        return game_language(game, self.images.default_language)

    async def post(self, item: OutboxItem[GameEvent], answering: Answering, final: bool
                   ) -> bool:
        """Post one row; True if it was (or, before a restart, had been) the answer of the
        interaction whose token it holds. ``final``: the last row pending for its game (kept
        when a conversation's follow-ups run short)."""
        event = item.event
        written, interaction = answering.written, answering.interaction
        # A game's ending without a version (``GameEnded``) or an older row is read afresh.
        if (written is not None and written.id == event.game_id
                and getattr(event, "version", None) == written.version):
            game = written  # what this row's change left: as a read would find it now
        else:
            game = await self.services.games.get_game(event.game_id)
        token = item.reply_token
        first = token is not None and token not in answering.settled
        if token is not None:
            answering.settled.add(token)
        ours = interaction is not None and token == interaction.token
        answers = first and ours and not interaction.response.is_done()
        if first and not ours:
            original = await self.sender.answered_before(item)
            if original is not None:  # the bot stopped after answering, before marking
                self.buttons.answered_before(game, original)
                return True
        thread_id = await self.sender.thread_of(game, item, interaction)
        language = self.language(game)
        composed = await self.composer.compose(item, game, language)
        kwargs = await message_kwargs(self.images, game, composed, language)
        message_id = None
        if answers:
            assert interaction is not None
            async with answering.responding:
                # Acknowledged meanwhile, as running late: the board goes to the thread.
                answers = not interaction.response.is_done()
                if answers:
                    try:
                        response = await interaction.response.send_message(**kwargs)
                        message_id = response.message_id
                    except discord.NotFound:
                        # Too late for the interaction (Discord allows 3 s): the board goes to
                        # the thread like any other row (the player saw "did not respond").
                        log.warning("interaction for outbox row %s expired; posting it",
                                    item.id)
                        answers = False
                        if "file" in kwargs:
                            kwargs["file"].reset()
        if not answers and game.in_conversation:
            # Where the bot is not, only an interaction's token can post (``bot.discord.anywhere``).
            message_id = await self.conversations.follow_up(game, item, interaction, kwargs,
                                                            final)
        elif not answers:
            message_id = (await self.sender.post_in_thread(game, thread_id, item, kwargs)).id
        if message_id is not None:
            pressed = interaction.message if answers and interaction is not None else None
            self.buttons.after_post(item, game, thread_id, message_id, composed, pressed)
        return answers

    async def post_together(self, run: list[OutboxItem[GameEvent]], answering: Answering,
                            final: bool) -> None:
        """Post a run of a conversation game's rows as one message (``together``): its
        moves' sentences and the board after the last, and when the run ends the game, its
        result with it. Such rows answer no interaction (none holds a token): a follow-up of
        the game's latest interaction, one of the five Discord allows."""
        game = await self.services.games.get_game(run[0].event.game_id)
        language = self.language(game)
        ended = run[-1] if isinstance(run[-1].event, GameEnded) else None
        moves = run[:-1] if ended is not None else run
        composed = await self.composer.moves_together(moves, game, language)
        if ended is not None:
            result = await self.composer.compose(ended, game, language)
            composed = Composed(composed.content + "\n" + result.content, composed.position,
                                result.view, result.pings, composed.clock)
        kwargs = await message_kwargs(self.images, game, composed, language)
        await self.conversations.follow_up(game, run[-1], answering.interaction, kwargs, final)

    async def show_as_it_stands(self, game_id: int, interaction: discord.Interaction) -> None:
        """Answer ``interaction`` (a press in a conversation on a board the game has moved
        past) with the game as it stands: where the bot is not, the rows it could not post
        in time (no live token, as after a restart past 15 minutes) are shown so."""
        game = await self.services.games.get_game(game_id)
        language = self.language(game)
        composed = await self.composer.as_it_stands(game, language)
        await interaction.response.send_message(
            **await message_kwargs(self.images, game, composed, language))
