"""The outbox delivery (``Delivery``, ``bot.discord.delivery`` describes it): which rows go out and
when: a handler's own rows right after its service call (``act``), the rest in the background,
each game's in order under its lock, every row then marked delivered; and who posts each event
type (the game's own posts, ``posting``; the other features' posters, ``register``)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.core.errors import BoardChanged, GameOver, NotFound, ServiceError
from bot.core.events import Event, GameEnded, OutboxItem, Unreadable
from bot.core.i18n import t
from bot.core.models import GameInfo, MoveResult
from bot.core.seats import is_ai
from bot.discord.anywhere import bot_is_here
from bot.discord.delivery.background import BackgroundPass
from bot.discord.delivery.buttons import StaleButtons
from bot.discord.delivery.compose import Composer, game_language
from bot.discord.delivery.conversations import ConversationSender
from bot.discord.delivery.images import BoardImages, DisplayName
from bot.discord.delivery.policy import Failed, acquire, after_failure, left_to_handler
from bot.discord.delivery.posting import (
    Answering,
    GamePosts,
    acknowledge_when_late,
    stop_waiting,
    together,
)
from bot.discord.delivery.threads import ThreadSender
from bot.discord.host import Acted, Action
from bot.discord.replies import reply_error, send_ephemeral

if TYPE_CHECKING:
    from bot.core.sharding import Shards
    from bot.services.clocks import ClockService
    from bot.services.notify import NotifyService
    from bot.services.wiring import Services
    from bot.workers.boards import BoardDrawer

log = logging.getLogger(__name__)

#: ``await poster(item)`` posts a row whose event type a feature owns (with ``Delivery.send``
#: so that it carries the row's nonce).
Poster = Callable[[OutboxItem[Any]], Awaitable[None]]
#: ``await handler(item, answering, final)``: posts one row; True if it answered the
#: interaction of ``answering``.
Handler = Callable[[OutboxItem[Any], Answering, bool], Awaitable[bool]]
#: ``await listener(game_id)`` when a ``game_over`` row is delivered (ratings, tournaments).
GameOverListener = Callable[[int], Awaitable[None]]


async def _posted_by(poster: Poster, item: OutboxItem[Any], answering: Answering,
                     final: bool) -> bool:
    await poster(item)
    return False  # a feature's post never answers the interaction


class Delivery:
    """Delivers the outbox (see ``bot.discord.delivery``). One handler per event type: the game's
    own posts (``posts``, composed by ``composer``, their boards drawn by ``images``, sent once by
    ``sender``, stale buttons taken off by ``buttons``), and the posters other features
    ``register``. It reads and marks the rows through ``services``, those of ``shards``'
    servers in the background."""

    def __init__(
        self,
        *,
        client: discord.Client,
        services: Services,
        clocks: ClockService,
        notify: NotifyService,
        boards: BoardDrawer,
        display_name: DisplayName,
        default_language: str,
        shards: Shards,
        board_url: Callable[[int], str] | None = None,
        launches_activity: Callable[[], bool] | None = None,
    ) -> None:
        self.services = services
        self.shards = shards
        self.images = BoardImages(boards, clocks, display_name, default_language)
        self.composer = Composer(services, clocks, notify, board_url, launches_activity)
        self.sender = ThreadSender(client, services, self.images)
        self.buttons = StaleButtons(client.http)
        self.conversations = ConversationSender(client, services)
        self.posts = GamePosts(services, self.composer, self.images, self.sender, self.buttons,
                               self.conversations)
        #: Who posts each event type: the game's own posts here, other features' posters
        #: added by ``register``.
        self._handlers: dict[type[Event], Handler] = dict.fromkeys(self.composer.posts,
                                                                  self.posts.post)
        #: Features told about finished games (``on_game_over``).
        self._game_over: list[GameOverListener] = []
        # A lock lives as long as someone delivers for its game (weak values: no growth).
        self._locks: weakref.WeakValueDictionary[int | None, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        #: The background pass (``start``, ``stop``, ``woken``).
        self.background = BackgroundPass(self.flush_all, self.flush, boards)

    def register(self, posters: Mapping[type[Event], Poster], *, replace: bool = False
                 ) -> None:
        """Let a feature post the event types it owns (a tournament's round pairings...):
        ``await poster(item)`` sends the row's message with ``send`` (which gives it the row's
        nonce); the row is then marked delivered like ours (a ``discord.HTTPException`` leaves
        it pending for a retry). One poster per type: a type posted already is refused, unless
        ``replace`` (a test standing in for a feature), and the game's own posts always are."""
        for event_type, poster in posters.items():
            if event_type in self.composer.posts or (event_type in self._handlers
                                                     and not replace):
                raise ValueError(f"{event_type.__name__} events are posted already")
            self._handlers[event_type] = functools.partial(_posted_by, poster)

    @property
    def posted(self) -> frozenset[type[Event]]:
        """The event types someone posts."""
        return frozenset(self._handlers)

    def on_game_over(self, listener: GameOverListener) -> None:
        """Call ``await listener(game_id)`` for every ``game_over`` row, before its message is
        posted (so a result never waits on Discord). At least once: a listener that fails
        leaves the row pending for a retry, and a restart may repeat it, so listeners must be
        idempotent (and catch up at start-up on their own)."""
        self._game_over.append(listener)

    async def send(
        self, channel_id: int, item: OutboxItem, *, guild_id: int | None = None, **kwargs: Any
    ) -> discord.Message:
        """Send a row's message in a channel, once: the row id is its nonce."""
        return await self.sender.send(channel_id, item, guild_id=guild_id, **kwargs)

    async def post(self, game: GameInfo, item: OutboxItem, **kwargs: Any
                   ) -> discord.Message | None:
        """Post a feature's row where ``game`` is played: in its thread (else its channel)
        once, with the row's nonce (``send``); where the bot is not (a DM, a group DM), as
        the answer of the game's latest interaction, or a follow-up once it is answered,
        since nothing else can post there. The message, or None in a conversation (the bot
        cannot edit it there, so there is nothing to keep). A follow-up never takes the last
        one an interaction allows, kept for the newest board."""
        if game.in_conversation:
            await self.conversations.follow_up(game, item, None, kwargs, final=False)
            return None
        where = game.thread_id or game.channel_id
        if where is None:
            return None
        return await self.send(where, item, guild_id=game.guild_id, **kwargs)

    def language(self, game: GameInfo) -> str:
        """The language of a game's posts: its own, else the bot's default."""
        return game_language(game, self.images.default_language)

    async def board_file(self, game: GameInfo, language: str | None = None) -> discord.File:
        """The game's current public board as a PNG attachment (``BoardImages.board_file``)."""
        return await self.images.board_file(game, language)

    def strip_buttons(self, message: discord.Message | None,
                      pressed: discord.Interaction | None = None) -> None:
        """Take the buttons off one of our messages, in the background (not where the bot is
        not, which ``pressed``, the interaction of the press, tells)."""
        self.buttons.strip_buttons(message, pressed)

    def strip(self, channel_id: int, message_id: int) -> None:
        """Take the buttons off message ``message_id`` of ``channel_id``, in the background."""
        self.buttons.strip(channel_id, message_id)

    async def flush_all(
        self, older_than: float = 0.0, *, at_once: tuple[type[Event], ...] = ()
    ) -> None:
        """Deliver every game's pending rows on this process's servers; with ``older_than``,
        not the games whose oldest row is younger than that (the handler that wrote it is
        answering its interaction with it) unless that row's event is of a type of
        ``at_once`` and answers no interaction (what the scheduler writes: no handler posts
        it)."""
        items = await self.services.outbox.pending_outbox(shards=self.shards)
        now = datetime.now(UTC)
        oldest: dict[int | None, OutboxItem] = {}
        for item in items:
            oldest.setdefault(item.game_id, item)
        for game_id, first in oldest.items():
            if left_to_handler(first, now, older_than, at_once):
                continue
            try:
                if older_than and await self._ai_still_moving(game_id):
                    continue
                await self.flush(game_id)
            except Exception:
                # One game's trouble must not hold the others' messages back.
                log.exception("delivering the outbox of game %s failed; will retry", game_id)

    async def _ai_still_moving(self, game_id: int | None) -> bool:
        """Whether a conversation game's AI players are still moving: the AI player posts
        their moves together once a person is to move (``together``), so a background pass
        leaves them to it."""
        if game_id is None:
            return False
        game = await self.services.games.get_game(game_id)
        mover = game.user_to_move()
        return game.in_conversation and mover is not None and is_ai(mover)

    # ----- delivering one game's rows -----------------------------------------------------------

    async def flush(
        self, game_id: int | None, interaction: discord.Interaction | None = None,
        written: GameInfo | None = None,
    ) -> bool:
        """Deliver the pending rows of ``game_id`` in order; the first row written for
        ``interaction`` (it holds its token) is its response. Returns whether the interaction
        was answered so. ``written``: the game as the service call that wrote the rows left
        it (``MoveResult.game``); a row of that version is posted without reading the game
        again."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        if interaction is not None and game_id is not None:
            await self.conversations.remember(game_id, interaction)  # a conversation's way in
        deferred = False
        if not await acquire(lock, interaction):
            # Another delivery of this game is slow (Discord rate limits...): acknowledge now,
            # privately, and post this interaction's rows like the others, with their nonces
            # (their token is forgotten first: the placeholder is not their answer).
            assert interaction is not None
            await self.services.outbox.forget_reply(interaction.token)
            await interaction.response.defer(ephemeral=True, thinking=True)
            deferred = True
            await lock.acquire()
        answered = False
        answering = Answering(interaction, written)
        late = (asyncio.create_task(acknowledge_when_late(  # read lazily: few answers are late
            interaction, answering, lambda token: self.services.outbox.forget_reply(token)))
            if interaction is not None and not deferred and bot_is_here(interaction) else None)
        try:
            if game_id is None:
                pending = await self.services.outbox.pending_outbox(shards=self.shards)
                items = [i for i in pending if i.game_id is None]
            else:
                items = await self.services.outbox.pending_outbox(game_id=game_id)
            for run in await self._runs(game_id, items, written):
                item = run[-1]
                try:
                    if len(run) == 1:
                        used = await self.deliver(item, answering, final=item is items[-1])
                    else:
                        used = await self._deliver_together(run, answering,
                                                            final=item is items[-1])
                except discord.HTTPException as error:
                    if after_failure(error) is Failed.RETRIED:
                        log.warning("outbox row %s (%s) failed; will retry", item.id,
                                    item.kind, exc_info=True)
                        break  # the game's later rows wait behind it
                    log.warning("outbox row %s (%s) undeliverable; dropped", item.id, item.kind)
                    used = False
                answered |= used
                for each in run:
                    log.debug("outbox row %s (%s) of game %s delivered%s", each.id, each.kind,
                              game_id, " as the interaction's answer" if used else "")
                    with contextlib.suppress(NotFound):  # another process marked it meanwhile
                        # Once the interaction has answered, its token leaves the other rows.
                        await self.services.outbox.mark_delivered(
                            each.id, answered_token=each.reply_token if used else None)
        finally:
            lock.release()
            if late is not None:
                deferred = await stop_waiting(late, answering) or deferred
        if deferred:
            assert interaction is not None
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    content=t("bot.game.done", interaction.locale))
            return True
        return answered

    async def _runs(self, game_id: int | None, items: list[OutboxItem],
                    written: GameInfo | None) -> list[list[OutboxItem]]:
        """The rows in the runs posted as one message each: where the bot is not, the moves
        that answer no interaction go together (``together``); elsewhere one row each."""
        if game_id is None or len(items) < 2:
            return [[item] for item in items]
        game = written if written is not None and written.id == game_id else (
            await self.services.games.get_game(game_id))
        if not game.in_conversation:
            return [[item] for item in items]
        return together(items)

    async def _deliver_together(self, run: list[OutboxItem], answering: Answering,
                                final: bool) -> bool:
        """Post a run of several rows as one message (``GamePosts.post_together``), a game's
        end told to its listeners first, as ``deliver`` does. Never an interaction's answer."""
        for item in run:
            if isinstance(item.event, GameEnded):
                for listener in self._game_over:
                    await listener(item.event.game_id)
        await self.posts.post_together(run, answering, final)
        return False

    async def deliver(self, item: OutboxItem[Any], answering: Answering | None = None,
                      final: bool = True) -> bool:
        """Post one row with its event type's handler; True if it was (or, before a restart,
        had been) the answer of the interaction whose token it holds. ``final``: the last row
        pending for its game."""
        event = item.event
        if isinstance(event, GameEnded):
            for listener in self._game_over:
                await listener(event.game_id)
        handler = self._handlers.get(type(event))
        if handler is None:
            # Marked as delivered all the same: left pending, such rows would pile up at the
            # head of the outbox and hide the others.
            why = event.problem if isinstance(event, Unreadable) else "nobody posts it"
            log.warning("outbox row %s (%s) skipped: %s", item.id, item.kind, why)
            return False
        return await handler(item, answering or Answering(), final)

    # ----- acting, then answering with what the action wrote ------------------------------------

    async def act(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: Action,
        *,
        reply_token: str | None,
        done_text: str | None,
        moved_past: bool = False,
    ) -> Acted | None:
        """Run ``action(reply_token)`` (a service call on game ``game_id``), then post what it
        wrote to the outbox, the first row written with ``reply_token`` as the interaction's
        answer; what it did (``Acted``), or None when the action was refused.

        The service decides (turn, seat, legality...) before anything is sent, so a refusal is
        a private reply and nothing is posted. There is no defer: a move takes milliseconds,
        and the answer is one request carrying the board and the mention of the next player (a
        deferred answer's follow-up would be an edit, and an edit pings nobody); only an answer
        running late is acknowledged privately, its rows then posted in the thread
        (``posting.acknowledge_when_late``). When no row
        answers the interaction (a command from another channel), ``done_text`` does, privately
        (None: the caller answers). ``moved_past``: the press of a button on a board the game
        may have moved past; where the bot is not, and rows were missed there, the game as it
        stands answers a refusal."""
        try:
            done = await action(reply_token)
        except (BoardChanged, GameOver) as error:
            if (moved_past and not bot_is_here(interaction)
                    and await self.services.conversations.take_conversation_missed(game_id)):
                await self.posts.show_as_it_stands(game_id, interaction)
            else:
                await reply_error(interaction, error)
            return None
        except ServiceError as error:
            await reply_error(interaction, error)
            return None
        # A move's rows are drawn from the game the move returned (no read of it again).
        written = done.game if isinstance(done, MoveResult) else None
        answered = await self.flush(game_id, interaction, written)
        if not answered and done_text is not None:
            await send_ephemeral(interaction, done_text)
        return Acted(done, answered)

