"""The outbox delivery (``Delivery``, ``bot.delivery`` describes it): which rows go out and
when: a handler's own rows right after its service call, the rest in the background, each
game's in order under its lock, every row then marked delivered."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.delivery.buttons import StaleButtons
from bot.delivery.compose import KINDS, Composed, Composer, game_language
from bot.delivery.conversations import ConversationSender
from bot.delivery.images import BoardImages
from bot.delivery.policy import (
    HANDLER_GRACE_SECONDS,
    POLL_SECONDS,
    Failed,
    acquire,
    after_failure,
    left_to_handler,
)
from bot.delivery.threads import ThreadSender
from bot.i18n import t
from bot.replies import clip
from bot.services.errors import NotFound
from bot.services.models import GameInfo, OutboxItem

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

#: ``await poster(bot, item)`` posts an outbox row of a kind another feature owns (with
#: ``Delivery.send`` so that it carries the row's nonce).
Poster = Callable[[Any, OutboxItem], Awaitable[None]]
#: ``await listener(game_id)`` when a ``game_over`` row is delivered (ratings, tournaments).
GameOverListener = Callable[[int], Awaitable[None]]


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


class Delivery:
    """Delivers the outbox (see ``bot.delivery``): what rows say is composed by ``composer``,
    their boards drawn by ``images``, sent once by ``sender``, and the buttons they make stale
    taken off by ``buttons``."""

    def __init__(self, bot: Host) -> None:
        self.bot: Any = bot  # the discord.py client as well
        self.composer = Composer(bot)
        self.images = BoardImages(bot)
        self.sender = ThreadSender(bot, self.images)
        self.buttons = StaleButtons(bot)
        self.conversations = ConversationSender(bot)
        # A lock lives as long as someone delivers for its game (weak values: no growth).
        self._locks: weakref.WeakValueDictionary[int | None, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._warming: asyncio.Task | None = None
        self._woken: set[asyncio.Task] = set()  # deliveries another process asked for
        #: Senders of outbox kinds other features write (``register_poster``).
        self._posters: dict[str, Poster] = {}
        #: Features told about finished games (``on_game_over``).
        self._game_over: list[GameOverListener] = []

    def register_poster(self, kinds: Iterable[str], poster: Poster) -> None:
        """Let another feature post its own outbox kinds (a tournament's round pairings...):
        ``await poster(bot, item)`` sends the row's message with ``send`` (which gives it the
        row's nonce); the row is then marked delivered like ours (a ``discord.HTTPException``
        leaves it pending for a retry)."""
        for kind in kinds:
            if kind in KINDS:
                raise ValueError(f"outbox kind {kind!r} is the game delivery's own")
            self._posters[kind] = poster

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

    def language(self, game: GameInfo) -> str:
        """The language of a game's posts: its own, else the bot's default."""
        return game_language(self.bot, game)

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

    # ----- the background sender ----------------------------------------------------------------

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="outbox-delivery")
        if self._warming is None:
            # What the first board of a game would build while its player waits (its
            # palette, its pieces: 0.1-0.3 s) is built beforehand.
            self._warming = asyncio.create_task(self._warm_up(), name="board-warm-up")

    async def warmed_up(self) -> None:
        """Wait until the delivery has started and its boards' warm-up is over (benchmarks
        measure after it)."""
        while self._warming is None:
            await asyncio.sleep(0.01)
        await asyncio.shield(self._warming)

    async def _warm_up(self) -> None:
        try:
            await self.bot.boards.warm_up()
        except Exception:  # a game's first board builds what it needs all the same
            log.warning("warming up the boards failed", exc_info=True)

    def wake(self) -> None:
        self._wake.set()

    def woken(self, game_id: int | None) -> None:
        """Another process wrote rows of ``game_id`` (None: rows of no game) for our servers:
        deliver them now, in the background (no handler of ours is answering with them)."""
        if self._task is None:
            return  # not started yet: its first pass delivers everything pending
        task = asyncio.create_task(self._flush_woken(game_id), name=f"background-wake-{game_id}")
        self._woken.add(task)
        task.add_done_callback(self._woken.discard)

    async def _flush_woken(self, game_id: int | None) -> None:
        try:
            await self.flush(game_id)
        except Exception:  # the background pass retries
            log.exception("delivering the outbox of game %s failed; will retry", game_id)

    async def stop(self) -> None:
        if self._warming is not None:
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._warming
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        grace = 0.0  # the first pass (at start) delivers everything left pending
        while True:
            try:
                await self.flush_all(older_than=grace)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox delivery pass failed; retrying")
            grace = HANDLER_GRACE_SECONDS
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)

    async def flush_all(
        self, older_than: float = 0.0, *, at_once: frozenset[str] = frozenset()
    ) -> None:
        """Deliver every game's pending rows on this process's servers; with ``older_than``,
        not the games whose oldest row is younger than that (the handler that wrote it is
        answering its interaction with it) unless that row is of a kind of ``at_once`` and
        answers no interaction (what the scheduler writes: no handler posts it)."""
        items = await self.bot.services.outbox.pending_outbox(shards=self.bot.own_shards)
        now = datetime.now(UTC)
        oldest: dict[int | None, OutboxItem] = {}
        for item in items:
            oldest.setdefault(item.game_id, item)
        for game_id, first in oldest.items():
            if left_to_handler(first, now, older_than, at_once):
                continue
            try:
                await self.flush(game_id)
            except Exception:
                # One game's trouble must not hold the others' messages back.
                log.exception("delivering the outbox of game %s failed; will retry", game_id)

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
            await self.bot.services.outbox.forget_reply(interaction.token)
            await interaction.response.defer(ephemeral=True, thinking=True)
            deferred = True
            await lock.acquire()
        answered = False
        settled: set[str] = set()  # tokens whose answer (or not) is known by now
        try:
            if game_id is None:
                pending = await self.bot.services.outbox.pending_outbox(shards=self.bot.own_shards)
                items = [i for i in pending if i.game_id is None]
            else:
                items = await self.bot.services.outbox.pending_outbox(game_id=game_id)
            for item in items:
                try:
                    used = await self.deliver(item, interaction, settled, written,
                                              final=item is items[-1])
                except discord.HTTPException as error:
                    if after_failure(error) is Failed.RETRIED:
                        log.warning("outbox row %s (%s) failed; will retry", item.id,
                                    item.kind, exc_info=True)
                        break  # the game's later rows wait behind it
                    log.warning("outbox row %s (%s) undeliverable; dropped", item.id, item.kind)
                    used = False
                answered |= used
                log.debug("outbox row %s (%s) of game %s delivered%s", item.id, item.kind,
                          game_id, " as the interaction's answer" if used else "")
                with contextlib.suppress(NotFound):  # another process marked it meanwhile
                    # Once the interaction has answered, its token leaves the other rows.
                    await self.bot.services.outbox.mark_delivered(
                        item.id, answered_token=item.reply_token if used else None)
        finally:
            lock.release()
        if deferred:
            assert interaction is not None
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    content=t("bot.game.done", interaction.locale))
            return True
        return answered

    async def show_as_it_stands(self, game_id: int, interaction: discord.Interaction) -> None:
        """Answer ``interaction`` (a press in a conversation on a board the game has moved
        past) with the game as it stands: where the bot is not, the rows it could not post
        in time (no live token, as after a restart past 15 minutes) are shown so."""
        game = await self.bot.services.games.get_game(game_id)
        language = self.language(game)
        composed = await self.composer.as_it_stands(game, language)
        await interaction.response.send_message(
            **await message_kwargs(self.images, game, composed, language))

    async def deliver(
        self,
        item: OutboxItem,
        interaction: discord.Interaction | None,
        settled: set[str] | None = None,
        written: GameInfo | None = None,
        final: bool = True,
    ) -> bool:
        """Post one row; True if it was (or, before a restart, had been) the response of the
        interaction whose token it holds. Only the first game row of a token can be: the
        token joins ``settled`` once that row is handled. ``written``: see ``flush``;
        ``final``: the last row pending for its game (kept when follow-ups run short)."""
        if item.kind == "game_over" and "game_id" in item.payload:
            for listener in self._game_over:
                await listener(int(item.payload["game_id"]))
        poster = self._posters.get(item.kind)
        if poster is not None:
            await poster(self.bot, item)
            return False
        if item.kind not in KINDS or "game_id" not in item.payload:
            # Marked as delivered all the same: left pending, such rows would pile up at the
            # head of the outbox and hide the others.
            log.warning("outbox row %s has a kind nobody posts (%r); skipped", item.id,
                        item.kind)
            return False
        game_id = int(item.payload["game_id"])
        if (written is not None and written.id == game_id
                and item.payload.get("version") == written.version):
            game = written  # what this row's change left: as a read would find it now
        else:
            game = await self.bot.services.games.get_game(game_id)
        settled = set() if settled is None else settled
        token = item.reply_token
        first = token is not None and token not in settled
        if token is not None:
            settled.add(token)
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
            try:
                response = await interaction.response.send_message(**kwargs)
                message_id = response.message_id
            except discord.NotFound:
                # Too late for the interaction (Discord allows 3 s): the board goes to the
                # thread like any other row (the player saw "did not respond").
                log.warning("interaction for outbox row %s expired; posting it", item.id)
                answers = False
                if "file" in kwargs:
                    kwargs["file"].reset()
        if not answers and game.in_conversation:
            # Where the bot is not, only an interaction's token can post (``bot.anywhere``).
            message_id = await self.conversations.follow_up(game, item, interaction, kwargs,
                                                            final)
        elif not answers:
            message_id = (await self.sender.post_in_thread(game, thread_id, item, kwargs)).id
        if message_id is not None:
            pressed = interaction.message if answers and interaction is not None else None
            self.buttons.after_post(item, game, thread_id, message_id, composed, pressed)
        return answers
