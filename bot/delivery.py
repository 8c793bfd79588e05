"""Outbox delivery: turns the rows the services wrote (in the same transaction as a move) into
Discord messages, exactly once and in order, then marks them delivered.

* **In order, each at its own ply.** A game's rows go out in id order under a per-game lock,
  and each is drawn from the game as that row's change left it (``GameService.position``): a
  message posted late still shows its own move, names the player to move after it, and carries
  buttons for its own version (stale ones refuse).
* **One request per move, and a ping.** A handler calls ``flush(game_id, interaction)`` right
  after its service call. The first row the service wrote for that interaction (the row holds
  the interaction's token) is the interaction's response itself: a new message (callback type
  4) with the board, the text and the mention, so the mention notifies (a deferred answer's
  follow-up would be an edit, and an edit notifies nobody). Taking the buttons off the previous
  board is an edit in the background, off the player's path.
* **Exactly once.** Everything else goes to the channel with the row id as its nonce
  (``enforce_nonce``): Discord creates it once even when a crash makes us send it again. An
  interaction's response carries no nonce, so the service stores the interaction's token on the
  rows in the move's transaction; a row still pending with a token (the bot stopped between
  answering and marking) is looked up with GET …/messages/@original before it is posted again.
  Beyond a token's 15 minutes that is no longer possible: the row is posted again, since a
  board twice is better than none. A game's thread id is recorded before the thread exists: a
  thread started from a message takes the message's id (the challenge message, or a starter
  message sent with the row's nonce), and Discord refuses a second thread from one message
  (160004). A post that finds the thread missing (a crash between the two) starts it then.
* A background task delivers what handlers left (after ``HANDLER_GRACE_SECONDS``), and on start
  whatever an earlier run left. With several processes each delivers the rows of its shards'
  servers only (``BoardGamesBot.own_shards``, held exclusively: ``bot.store.base.ShardClaim``);
  a commit in another process that wrote rows for them wakes it (``woken``), polling is the
  fallback.

Hidden information never reaches a public message: boards are drawn from the public view, and a
position where the player to move sees more than the public (an LPPG hand) gets no move
buttons; that player gets them privately with ``/hand``.

Every post of a game is in the game's language (``GameInfo.locale``, fixed when it started;
the bot's default for older games), whoever caused it: the text, what the engine said (the
move's description, the result's reason, seat names) and the board image, with its clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import weakref
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.http import Route, handle_message_parameters

import engines
from bot.anywhere import bot_is_here
from bot.correspondence.texts import board_clock_text, due_text
from bot.i18n import listed, say, t
from bot.names import naming_player, player_name
from bot.replies import NO_PINGS, clip, pinging
from bot.services.aiseats import is_ai
from bot.services.clocks import ClockInfo
from bot.services.errors import NotFound
from bot.services.models import GameInfo, OutboxItem, Position
from bot.views.actions import action_row
from bot.views.game import MoveButtons, move_view, rematch_view, undo_view
from bot.views.review import add_review_button, review_buttons_of
from engines import Phrase

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

#: ``await poster(bot, item)`` posts an outbox row of a kind another feature owns (with
#: ``Delivery.send`` so that it carries the row's nonce).
Poster = Callable[[Any, OutboxItem], Awaitable[None]]
#: ``await listener(game_id)`` when a ``game_over`` row is delivered (ratings, tournaments).
GameOverListener = Callable[[int], Awaitable[None]]

#: Above this many legal moves the board gets no move buttons (use /move and its autocomplete).
MAX_MOVE_BUTTONS = 20
#: Beyond this many moves we do not look for a subset worth buttons (formatting costs time).
MAX_SCANNED_MOVES = 400
#: One-word moves get buttons only if they are at least this share of all moves.
MIN_BUTTON_SHARE = 0.05
#: How often the background task looks for rows it was not told about (other processes).
POLL_SECONDS = 5.0
#: The background sender leaves rows this young to the handler that wrote them.
HANDLER_GRACE_SECONDS = 10.0
#: How long a handler waits for another delivery of its game before acknowledging its
#: interaction some other way (Discord allows 3 s).
LOCK_PATIENCE = 2.0
#: An interaction token answers this long (then a row's answer can no longer be looked up).
TOKEN_SECONDS = 15 * 60.0
#: Follow-ups Discord creates per interaction of a user-installed app (discord-api-docs,
#: "Create Followup Message"; counted for every conversation game, the bot's DM included).
FOLLOW_UPS_MAX = 5
#: How many games' latest interactions are kept (conversations' AI replies need them).
REMEMBERED_INTERACTIONS = 1000
#: The outbox kinds this sender posts (DESIGN: written by the game service).
KINDS = frozenset({
    "game_started", "move", "undo_requested", "undo_done", "undo_declined", "resigned",
    "game_over",
})
#: Games last days: a thread stays open a week without messages (Discord's longest).
THREAD_ARCHIVE_MINUTES = 10080
#: Discord's code for a second thread started from one message.
THREAD_ALREADY_CREATED = 160004
UNKNOWN_CHANNEL = 10003


def button_moves(moves: Sequence[Any]) -> list[str]:
    """The moves that get a button under the board: all of them when there are few (Alak's
    points); otherwise the one-word moves when they are few and a fair share of the whole
    (Palam's six column drops among its swaps). Games with hundreds of moves get none: their
    players type with the autocomplete."""
    if len(moves) <= MAX_MOVE_BUTTONS:
        return [str(m) for m in moves]
    if len(moves) > MAX_SCANNED_MOVES:
        return []
    one_word = [text for text in map(str, moves) if " " not in text]
    if len(one_word) <= MAX_MOVE_BUTTONS and len(one_word) >= MIN_BUTTON_SHARE * len(moves):
        return one_word
    return []


def public_buttons(game_name: str, position: Position) -> list[str]:
    """The move buttons a public board may carry: from the public view only, and none when the
    player to move sees more than the public (their moves would tell their cards)."""
    if position.to_move is None or position.private_moves:
        return []
    return button_moves(engines.get(game_name).legal_moves(position.state))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


#: A seated player as messages name them (a person's mention, an AI seat's name).
mention = player_name


def token_alive(interaction: discord.Interaction) -> bool:
    """Whether an interaction's token still answers follow-ups (Discord: 15 minutes), with a
    minute to spare for the request itself."""
    age = (datetime.now(UTC) - interaction.created_at).total_seconds()
    return age < TOKEN_SECONDS - 60


def description_text(description: Any, move: str, language: str,
                     mover: tuple[Phrase, str] | None = None) -> str:
    """What a move did, in ``language``: a ``move`` row stores the engine's phrase (rows
    written before phrases were stored hold English text, shown as it is). Empty when it says
    no more than the move itself. ``mover``: (seat, name): the phrase names the mover so, and
    an empty text means it did not name them."""
    if isinstance(description, dict):
        phrase = Phrase.load(description)
        if mover is not None:
            named = naming_player(phrase, *mover)
            return "" if named is None else say(named, language)
        return "" if phrase.key == "move.plain" else say(phrase, language)
    if mover is not None:
        return ""
    text = str(description or "")
    return "" if text == move else text


def outcome_text(outcome: engines.Outcome, language: str) -> str:
    """Why a game ended, in ``language`` (the engine's English when it gave no phrase)."""
    return outcome.reason if outcome.phrase is None else say(outcome.phrase, language)


@dataclass
class Composed:
    """What one row says: text, the position whose board goes with it (None: no image),
    buttons, whom its mentions notify, and the clock drawn on the board (the position's
    while it is the game's newest)."""

    content: str
    position: Position | None
    view: discord.ui.View | None
    pings: discord.AllowedMentions
    clock: ClockInfo | None = None


class Delivery:
    def __init__(self, bot: Host) -> None:
        self.bot: Any = bot  # the discord.py client as well
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
        #: This run's newest board message of each game (channel, message), and the open
        #: take-back request of each game.
        self._boards: dict[int, tuple[int, int]] = {}
        self._undo_requests: dict[int, tuple[int, int]] = {}
        self._background: set[asyncio.Task] = set()
        #: Each game's latest interaction, the way into a conversation for the rows no
        #: interaction of their own answers (an AI's move); the oldest go first.
        self._interactions: dict[int, discord.Interaction] = {}

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
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        return await channel.send(nonce=str(item.id), **kwargs)

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
        items = await self.bot.services.pending_outbox(shards=self.bot.own_shards)
        now = datetime.now(UTC)
        oldest: dict[int | None, OutboxItem] = {}
        for item in items:
            oldest.setdefault(item.game_id, item)
        for game_id, first in oldest.items():
            young = (now - _aware(first.created_at)).total_seconds() < older_than
            if young and (first.kind not in at_once or first.reply_token is not None):
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
            self._remember(game_id, interaction)
        deferred = False
        if not await self._acquire(lock, interaction):
            # Another delivery of this game is slow (Discord rate limits...): acknowledge now,
            # privately, and post this interaction's rows like the others, with their nonces
            # (their token is forgotten first: the placeholder is not their answer).
            assert interaction is not None
            await self.bot.services.forget_reply(interaction.token)
            await interaction.response.defer(ephemeral=True, thinking=True)
            deferred = True
            await lock.acquire()
        answered = False
        settled: set[str] = set()  # tokens whose answer (or not) is known by now
        try:
            if game_id is None:
                pending = await self.bot.services.pending_outbox(shards=self.bot.own_shards)
                items = [i for i in pending if i.game_id is None]
            else:
                items = await self.bot.services.pending_outbox(game_id=game_id)
            for item in items:
                try:
                    used = await self.deliver(item, interaction, settled, written,
                                              final=item is items[-1])
                except (discord.NotFound, discord.Forbidden):
                    # The thread or channel is gone or closed to us: retrying cannot help.
                    log.warning("outbox row %s (%s) undeliverable; dropped", item.id, item.kind)
                    used = False
                except discord.HTTPException:
                    log.warning("outbox row %s (%s) failed; will retry", item.id, item.kind,
                                exc_info=True)
                    break
                answered |= used
                log.debug("outbox row %s (%s) of game %s delivered%s", item.id, item.kind,
                          game_id, " as the interaction's answer" if used else "")
                with contextlib.suppress(NotFound):  # another process marked it meanwhile
                    # Once the interaction has answered, its token leaves the other rows.
                    await self.bot.services.mark_delivered(
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

    @staticmethod
    async def _acquire(lock: asyncio.Lock, interaction: discord.Interaction | None) -> bool:
        """Take the game's lock; a handler waits at most ``LOCK_PATIENCE`` (False then)."""
        if interaction is None or interaction.response.is_done() or not lock.locked():
            await lock.acquire()  # free: taken at once (wait_for would start a task)
            return True
        try:
            await asyncio.wait_for(lock.acquire(), LOCK_PATIENCE)
        except TimeoutError:
            return False
        return True

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
            game = await self.bot.services.get_game(game_id)
        settled = set() if settled is None else settled
        token = item.reply_token
        first = token is not None and token not in settled
        if token is not None:
            settled.add(token)
        ours = interaction is not None and token == interaction.token
        answers = first and ours and not interaction.response.is_done()
        if first and not ours and await self._answered(item, game):
            return True  # the bot stopped after answering, before marking: done already
        thread_id = await self._thread_of(game, item, interaction)
        language = self.language(game)
        composed = await self._compose(item, game, language)
        kwargs: dict[str, Any] = {"content": clip(composed.content),
                                  "allowed_mentions": composed.pings}
        if composed.view is not None:
            kwargs["view"] = composed.view
        if composed.position is not None:
            kwargs["file"] = await self._board_file(game, composed.position, language,
                                                    composed.clock)
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
            message_id = await self._follow_up(game, item, interaction, kwargs, final)
        elif not answers:
            message_id = (await self._post_in_thread(game, thread_id, item, kwargs)).id
        if message_id is not None:
            pressed = interaction.message if answers and interaction is not None else None
            self._after_post(item, game, thread_id, message_id, composed, pressed)
        return answers

    async def _answered(self, item: OutboxItem, game: GameInfo) -> bool:
        """Whether the interaction whose token the row holds was answered already (a restart
        between answering and marking): its original response exists."""
        age = (datetime.now(UTC) - _aware(item.created_at)).total_seconds()
        if age > TOKEN_SECONDS:
            return False  # the token is dead: no way to know; posting again loses nothing
        route = Route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                      webhook_id=self.bot.application_id, webhook_token=item.reply_token)
        try:
            data = await self.bot.http.request(route)
        except discord.NotFound:  # never answered (or its token died unanswered)
            return False
        if data.get("components") and game.thread_id is not None:
            self._boards[game.id] = (game.thread_id, int(data["id"]))
        log.info("outbox row %s was answered before the restart; not posted again", item.id)
        return True

    def _after_post(
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
        if item.kind == "undo_requested":
            self._undo_requests[game.id] = (thread_id, message_id)
        elif item.kind in ("undo_done", "undo_declined") or item.payload.get("undo_dropped_by"):
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
                await self.bot.http.edit_message(channel_id, message_id, params=params)

        # Named "background-…" so that shutdown waits for it.
        task = asyncio.create_task(strip(), name=f"background-strip-{message_id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ----- the game's thread --------------------------------------------------------------------

    async def _thread_of(
        self, game: GameInfo, item: OutboxItem, interaction: discord.Interaction | None
    ) -> int:
        """The game's thread, started if it has none yet: from the challenge message when a
        click started the game there, else from a starter message in the game's channel. The
        thread id (the message's) is recorded before the thread is made."""
        if game.thread_id is not None:
            return game.thread_id
        name = await self._thread_name(game)
        source = interaction.message if interaction is not None else None
        if source is None or source.channel.id != game.channel_id or source.flags.ephemeral:
            # No challenge message to hang it on (a restart or a tournament delivers this, or
            # the challenge was posted in a thread): a starter message, sent once.
            source = await self.send(
                game.channel_id, item, guild_id=game.guild_id, allowed_mentions=NO_PINGS,
                content=t("bot.thread.starter", self.language(game), name=name),
            )
        await self.bot.services.set_thread(game.id, source.id)
        await self._start_thread(game.channel_id, source.id, name)
        return source.id

    async def seat_names(self, game: GameInfo, language: str) -> list[str]:
        """The players' names for thread titles and boards (an AI seat's in ``language``)."""
        return [player_name(uid, language, game.seats) if is_ai(uid)
                else await self.bot.display_name(uid) for uid in game.seats]

    async def _thread_name(self, game: GameInfo) -> str:
        language = self.language(game)
        names = await self.seat_names(game, language)
        title = engines.get(game.game).title
        return t("bot.thread.name", language,
                 game=title, id=game.id, players=" – ".join(names))[:100]

    async def _start_thread(self, channel_id: int, message_id: int, name: str) -> None:
        try:
            await self.bot.http.start_thread_with_message(
                channel_id, message_id, name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        except discord.HTTPException as error:
            if error.code != THREAD_ALREADY_CREATED:  # started before a restart: fine
                raise

    def _remember(self, game_id: int, interaction: discord.Interaction) -> None:
        self._interactions.pop(game_id, None)
        self._interactions[game_id] = interaction
        if len(self._interactions) > REMEMBERED_INTERACTIONS:
            del self._interactions[next(iter(self._interactions))]

    async def _follow_up(
        self, game: GameInfo, item: OutboxItem, interaction: discord.Interaction | None,
        kwargs: dict[str, Any], final: bool = True,
    ) -> int | None:
        """Post a conversation game's row as a follow-up of the interaction that caused it,
        else of the game's latest interaction while its token lives (an AI's reply to a
        move). Without a live token nothing can reach the conversation: the row is dropped
        (the next interaction there shows the game as it stands)."""
        interaction = interaction or self._interactions.get(game.id)
        if interaction is None or not token_alive(interaction):
            log.info("outbox row %s of game %s: no live interaction in its conversation; "
                     "dropped", item.id, game.id)
            return None
        sent = int(interaction.extras.get("follow_ups", 0))
        if interaction.response.is_done() and (
                sent >= FOLLOW_UPS_MAX or (sent == FOLLOW_UPS_MAX - 1 and not final)):
            # Discord creates 5 follow-ups per interaction of a user-installed app: the
            # last one is kept for the newest board (it pings whoever must move).
            log.info("outbox row %s of game %s skipped: its interaction's follow-ups are "
                     "spent", item.id, game.id)
            return None
        try:
            if not interaction.response.is_done():
                response = await interaction.response.send_message(**kwargs)
                return response.message_id
            interaction.extras["follow_ups"] = sent + 1
            message = await interaction.followup.send(wait=True, **kwargs)
        except discord.HTTPException as error:
            # 50027 (token too old), 40094 (a user install's sixth follow-up): retrying
            # cannot help.
            log.info("outbox row %s of game %s not posted in its conversation: %s", item.id,
                     game.id, error)
            return None
        return message.id

    async def _post_in_thread(
        self, game: GameInfo, thread_id: int, item: OutboxItem, kwargs: dict[str, Any]
    ) -> discord.Message:
        """Post in the game's thread; if the thread is missing (the bot stopped between
        recording its id and starting it), start it from its message and post again."""
        try:
            return await self.send(thread_id, item, guild_id=game.guild_id, **kwargs)
        except discord.NotFound as error:
            if error.code != UNKNOWN_CHANNEL or game.channel_id is None:
                raise
        await self._start_thread(game.channel_id, thread_id, await self._thread_name(game))
        if "file" in kwargs:
            kwargs["file"].reset()
        return await self.send(thread_id, item, guild_id=game.guild_id, **kwargs)

    # ----- what each row says -------------------------------------------------------------------

    async def _position(self, game: GameInfo, ply: int, payload: dict[str, Any],
                        last_move: str | None) -> Position:
        return await self.bot.services.position(
            game.id, ply=ply, version=payload.get("version"), last_move=last_move, game=game)

    def language(self, game: GameInfo) -> str:
        """The language of a game's posts: its own, else the bot's default."""
        return game.locale or self.bot.config.default_language

    async def _compose(self, item: OutboxItem, game: GameInfo, locale: str) -> Composed:
        kind = item.kind
        payload = item.payload
        engine = engines.get(game.game)
        everyone = discord.AllowedMentions(everyone=False, roles=False, users=True)
        if kind == "game_started":
            position = await self._position(game, 0, payload, None)
            seat_list = ", ".join(
                f"{mention(uid, locale, game.seats)} "
                f"({say(engine.seat_phrase(position.state, seat), locale)})"
                for seat, uid in enumerate(game.seats)
            )
            text = t("bot.game.started", locale, game=engine.title, players=seat_list)
            composed = await self._with_turn(text, game, position, locale)
            composed.pings = everyone  # every player learns that the game is on
            return composed
        if kind == "move":
            position = await self._position(game, int(payload["ply"]), payload, payload["move"])
            seat = int(payload["seat"])
            mover = mention(game.seats[seat], locale, game.seats)
            # Said once: "@alice plays h and captures 2 stones", not "@alice played h: Black
            # plays h and captures 2 stones" (the engine's sentence, naming the player).
            said = description_text(payload.get("description"), payload["move"], locale,
                                    (engine.seat_phrase(position.state, seat), mover))
            description = "" if said else description_text(payload.get("description"),
                                                           payload["move"], locale)
            if said:
                text = said + "."
            elif description:
                text = t("bot.game.moved_described", locale, player=mover,
                         move=payload["move"], description=description)
            else:
                text = t("bot.game.moved", locale, player=mover, move=payload["move"])
            if payload.get("undo_dropped_by"):
                text += "\n" + t("bot.undo.dropped", locale,
                                 player=mention(payload["undo_dropped_by"], locale))
            return await self._with_turn(text, game, position, locale)
        if kind == "undo_done":
            position = await self._position(game, int(payload["ply"]) - 1, payload,
                                             payload.get("last_move"))
            return await self._with_turn(t("bot.game.undone", locale), game, position, locale)
        if kind == "resigned":
            seat = int(payload["seat"])
            text = t("bot.game.resigned", locale,
                     player=mention(game.seats[seat], locale, game.seats))
            return Composed(text, None, None, NO_PINGS)
        if kind == "undo_requested":
            by = int(payload["by"])
            others = [uid for uid in game.seats if uid != by]
            text = t("bot.undo.requested", locale, player=mention(by, locale),
                     others=" ".join(mention(uid, locale) for uid in others))
            return Composed(text, None, undo_view(game.id, item.id, locale), pinging(*others))
        if kind == "undo_declined":
            requester = payload.get("requester")
            text = t("bot.undo.declined", locale, player=mention(int(payload["by"]), locale))
            if requester is not None:
                text += " " + mention(int(requester), locale)
            return Composed(text, None, None, pinging(requester))
        if kind == "game_over":
            offered = await self.bot.services.rematch_offered(game.id)
            view = rematch_view(game.id, locale) if offered else None
            if game.status == "finished" and game.ply > 0:  # something to review
                view = add_review_button(view, game.id, locale)
            return Composed(self._result(game, locale), None, view, everyone)
        raise AssertionError(f"unhandled outbox kind {kind!r}")  # KINDS lists what we post

    async def _with_turn(
        self, text: str, game: GameInfo, position: Position, locale: str
    ) -> Composed:
        """The text with the board of ``position``, and while the game goes on at that
        position, the mention of the player to move (who alone is pinged) and the move
        buttons of that version."""
        if position.to_move is None:
            return Composed(text, position, None, NO_PINGS)
        user = game.seats[position.to_move]
        ai_turn = is_ai(user)
        key = "ai.thinking" if ai_turn else "bot.game.your_turn"
        text += "\n" + t(key, locale, player=mention(user, locale, game.seats))
        clock = None
        if position.current:
            # Timed games (bot.services.clocks): when the move is due, and who paused the clock.
            clock = await self.bot.clocks.due_info(game.id)
            due = due_text(clock, locale) if clock is not None else None
            if due:
                text += " " + due
        if ai_turn:  # nobody to ping and nothing to press: the AI answers on its own
            return Composed(text, position, None, NO_PINGS, clock)
        shown = public_buttons(game.game, position)
        view = move_view(game.id, position.version, shown) if shown else None
        if game.in_conversation:
            # Only the app's installer has its commands there: buttons stand for them.
            view = view or MoveButtons(game.id, position.version, [])
            view.rows.append(action_row(
                game.id, locale, hands=engines.get(game.game).hidden_information,
                timed=clock is not None and clock.deadline is not None,
                against_ai=any(is_ai(uid) for uid in game.seats)))
        # Quiet mode (``/mute``): the player is named, not pinged.
        pings = pinging(user) if await self.bot.notify.turn_pings(user, game.id) else NO_PINGS
        return Composed(text, position, view, pings, clock)

    def _result(self, game: GameInfo, locale: str) -> str:
        outcome = game.outcome
        if outcome is None:
            return t("bot.game.over", locale, reason="")
        reason = outcome_text(outcome, locale)
        winners = [mention(game.seats[s], locale, game.seats) for s in sorted(outcome.winners)]
        if winners:
            return t("bot.game.won", locale, winners=listed(winners, locale),
                     count=len(winners), reason=reason)
        return t("bot.game.drawn", locale, reason=reason)

    # ----- board images -------------------------------------------------------------------------

    async def _board_file(self, game: GameInfo, position: Position, language: str,
                          clock: ClockInfo | None) -> discord.File:
        return await self._png(game, position.state, position.last_move, position.ply,
                               language, clock)

    async def board_file(self, game: GameInfo, language: str | None = None) -> discord.File:
        """The game's current public board as a PNG attachment, rendered off the event loop,
        in ``language`` (default: the game's), with its clock while the game runs."""
        clock = None
        if game.status == "active":
            clock = await self.bot.clocks.clock_info(game.id)
        return await self._png(game, game.state, game.last_move, game.ply,
                               language or self.language(game), clock)

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
            clock, names, game.seats, self.bot.clocks.now(), language)
        # Off the event loop (DESIGN.md), in the board workers (``bot.boards``).
        png = await self.bot.boards.board(
            game.game, state, viewer=None, last_move=last_move, players=names,
            lang=language, status=status, clock=clock_line,
        )
        return discord.File(io.BytesIO(png), filename=f"{game.game}-{game.id}-{ply}.png")
