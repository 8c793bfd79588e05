"""Outbox delivery: turns the rows the services wrote (in the same transaction as a move) into
Discord messages in the game's thread, then marks them delivered.

Handlers call ``flush(game_id, interaction)`` right after a service call, so the player's own
interaction carries the new board (the fastest answer); a background task delivers everything
else, and on start whatever an earlier run left pending. A per-game lock keeps the two from
delivering one row twice while games progress in parallel. Delivery is at-least-once: a crash
between posting and marking posts that message again after the restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import weakref
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

import engines
import render
from bot.correspondence.texts import due_text
from bot.i18n import t
from bot.services.errors import NotFound
from bot.services.models import GameInfo, OutboxItem
from bot.views.game import move_view, undo_view

if TYPE_CHECKING:
    from bot.app import BoardGamesBot

log = logging.getLogger(__name__)

#: ``await poster(bot, item)`` posts an outbox row of a kind another feature owns.
Poster = Callable[["BoardGamesBot", OutboxItem], Awaitable[None]]
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
#: The outbox kinds this sender posts (DESIGN: written by the game service).
KINDS = frozenset(
    {"game_started", "move", "undo_requested", "undo_done", "resigned", "game_over"}
)
#: Games last days: a thread stays open a week without messages (Discord's longest).
THREAD_ARCHIVE_MINUTES = 10080


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


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def mention(user_id: int | None) -> str:
    return "" if user_id is None else f"<@{user_id}>"


class Delivery:
    def __init__(self, bot: BoardGamesBot) -> None:
        self.bot = bot
        # A lock lives as long as someone delivers for its game (weak values: no growth).
        self._locks: weakref.WeakValueDictionary[int | None, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        #: Senders of outbox kinds other features write (``register_poster``).
        self._posters: dict[str, Poster] = {}
        #: Features told about finished games (``on_game_over``).
        self._game_over: list[GameOverListener] = []
        #: The newest board message of each game (this run only), and tasks editing old ones.
        self._boards: dict[int, int] = {}
        self._background: set[asyncio.Task] = set()

    def register_poster(self, kinds: Iterable[str], poster: Poster) -> None:
        """Let another feature post its own outbox kinds (a tournament's round pairings...):
        ``await poster(bot, item)`` sends the row's message; the row is then marked delivered
        like ours (a ``discord.HTTPException`` leaves it pending for a retry)."""
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

    # ----- the background sender ----------------------------------------------------------------

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="outbox-delivery")

    def wake(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
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

    async def flush_all(self, older_than: float = 0.0) -> None:
        """Deliver every game's pending rows; with ``older_than``, only games whose oldest row
        waited that long (younger rows are being answered by the handler that wrote them, which
        replies to its own interaction with them)."""
        items = await self.bot.services.pending_outbox()
        now = datetime.now(UTC)
        oldest: dict[int | None, datetime] = {}
        for item in items:
            oldest.setdefault(item.game_id, item.created_at)
        for game_id, created in oldest.items():
            if older_than and (now - _aware(created)).total_seconds() < older_than:
                continue
            try:
                await self.flush(game_id)
            except Exception:
                # One game's trouble must not hold the others' messages back.
                log.exception("delivering the outbox of game %s failed; will retry", game_id)

    # ----- delivering one game's rows -----------------------------------------------------------

    async def flush(
        self,
        game_id: int | None,
        interaction: discord.Interaction | None = None,
        *,
        game: GameInfo | None = None,
    ) -> bool:
        """Deliver the pending rows of ``game_id`` in order; the rows that belong where the
        interaction happened answer it. ``game`` is the game as the caller's service call left
        it (saves reading it again). Returns whether ``interaction`` was used."""
        used = False
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock:
            if game_id is None:
                pending = await self.bot.services.pending_outbox()
                items = [i for i in pending if i.game_id is None]
            else:
                items = await self.bot.services.pending_outbox(game_id=game_id)
            for item in items:
                try:
                    used |= await self.deliver(item, interaction, game)
                except (discord.NotFound, discord.Forbidden):
                    # The thread or channel is gone or closed to us: retrying cannot help.
                    log.warning("outbox row %s (%s) undeliverable; dropped", item.id, item.kind)
                except discord.HTTPException:
                    log.warning("outbox row %s (%s) failed; will retry", item.id, item.kind,
                                exc_info=True)
                    break
                with contextlib.suppress(NotFound):  # another process marked it meanwhile
                    await self.bot.services.mark_delivered(item.id)
        return used

    async def deliver(
        self,
        item: OutboxItem,
        interaction: discord.Interaction | None,
        known: GameInfo | None = None,
    ) -> bool:
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
        if known is not None and known.id == game_id and known.thread_id is not None:
            game = known
        else:
            game = await self.bot.services.get_game(game_id)
        if game.thread_id is None:
            await self._open_thread(game, interaction)
            game = await self.bot.services.get_game(game.id)
        locale: Any = interaction.locale if interaction else self.bot.config.default_language
        content, with_board, view = await self._compose(item, game, locale)
        in_place = interaction is not None and interaction.channel_id == game.thread_id
        kwargs: dict[str, Any] = {"content": content}
        if view is not None:
            kwargs["view"] = view
        if with_board:
            kwargs["file"] = await self.board_file(game)
        if in_place:
            assert interaction is not None
            sent = await interaction.followup.send(**kwargs, wait=True)
        else:
            thread = self.bot.get_partial_messageable(game.thread_id, guild_id=game.guild_id)
            sent = await thread.send(**kwargs)
        if with_board:
            self._replace_board(game, sent if view is not None else None, interaction)
        return in_place

    def _replace_board(
        self,
        game: GameInfo,
        sent: discord.Message | None,
        interaction: discord.Interaction | None,
    ) -> None:
        """Only the newest board keeps move buttons (``sent``, None when it has none): take
        them off the previous one, in the background and on a best-effort basis (this run's
        boards only; after a restart a pressed old board clears itself)."""
        previous = self._boards.pop(game.id, None)
        if sent is not None:
            self._boards[game.id] = sent.id
        pressed = interaction.message.id if interaction and interaction.message else None
        if previous is None or previous == pressed or game.thread_id is None:
            return
        thread = self.bot.get_partial_messageable(game.thread_id, guild_id=game.guild_id)

        async def strip() -> None:
            with contextlib.suppress(discord.HTTPException):
                await thread.get_partial_message(previous).edit(view=None)

        task = asyncio.create_task(strip(), name=f"strip-board-{previous}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _open_thread(self, game: GameInfo, interaction: discord.Interaction | None) -> None:
        """Give the game its own thread: from the challenge message when a click started it."""
        names = [await self.bot.display_name(uid) for uid in game.seats]
        title = engines.get(game.game).title
        name = t("bot.thread.name", self.bot.config.default_language,
                 game=title, id=game.id, players=" – ".join(names))[:100]
        from_message = (
            interaction is not None
            and interaction.message is not None
            and isinstance(interaction.channel, discord.TextChannel)
        )
        if from_message:
            assert interaction is not None and interaction.message is not None
            thread = await interaction.message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        else:
            # No challenge message to hang it on (a restart delivered this), or the challenge
            # was itself posted in a thread: a new thread in the game's channel.
            channel = self.bot.get_channel(game.channel_id) or await self.bot.fetch_channel(
                game.channel_id
            )
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        await self.bot.services.set_thread(game.id, thread.id)
        if interaction is not None and interaction.message is not None:
            await interaction.edit_original_response(
                content=t("bot.challenge.started", interaction.locale, game=title,
                          thread=thread.mention), view=None,
            )

    # ----- what each row says -------------------------------------------------------------------

    async def _compose(
        self, item: OutboxItem, game: GameInfo, locale: Any
    ) -> tuple[str, bool, discord.ui.View | None]:
        """(text, whether the board image goes with it, buttons)."""
        kind = item.kind
        payload = item.payload
        if kind == "game_started":
            seat_list = ", ".join(
                f"{mention(uid)} ({engines.get(game.game).seat_name(game.state, seat)})"
                for seat, uid in enumerate(game.seats)
            )
            text = t("bot.game.started", locale, game=engines.get(game.game).title,
                     players=seat_list)
            return await self._with_turn(text, game, locale)
        if kind == "move":
            seat = int(payload["seat"])
            description = payload.get("description") or ""
            if description and description != payload["move"]:
                text = t("bot.game.moved_described", locale, player=mention(game.seats[seat]),
                         move=payload["move"], description=description)
            else:
                text = t("bot.game.moved", locale, player=mention(game.seats[seat]),
                         move=payload["move"])
            return await self._with_turn(text, game, locale)
        if kind == "undo_done":
            return await self._with_turn(t("bot.game.undone", locale), game, locale)
        if kind == "resigned":
            seat = int(payload["seat"])
            return t("bot.game.resigned", locale, player=mention(game.seats[seat])), False, None
        if kind == "undo_requested":
            by = int(payload["by"])
            others = " ".join(mention(uid) for uid in game.seats if uid != by)
            text = t("bot.undo.requested", locale, player=mention(by), others=others)
            return text, False, undo_view(game.id, game.version, locale)
        if kind == "game_over":
            return self._result(game, locale), False, None
        raise AssertionError(f"unhandled outbox kind {kind!r}")  # KINDS lists what we post

    async def _with_turn(
        self, text: str, game: GameInfo, locale: Any
    ) -> tuple[str, bool, discord.ui.View | None]:
        user = game.user_to_move()
        if game.status != "active" or user is None:
            return text, True, None
        text += "\n" + t("bot.game.your_turn", locale, player=mention(user))
        # Timed games (bot.services.clocks): when the move is due, and who paused the clock.
        due = due_text(await self.bot.clocks.clock_info(game.id), locale)
        if due:
            text += " " + due
        engine = engines.get(game.game)
        moves: Sequence[Any]
        if engine.hidden_information or engine.chance:
            # The public view lacks what may decide the moves (hidden cards, the pile order).
            moves = await self.bot.services.legal_moves(game.id, user)
        else:
            moves = engine.legal_moves(game.state)  # may be lazy: only counted unless few
        shown = button_moves(moves)
        view = move_view(game.id, game.version, shown) if shown else None
        return text, True, view

    def _result(self, game: GameInfo, locale: Any) -> str:
        outcome = game.outcome
        if outcome is None:
            return t("bot.game.over", locale, reason="")
        winners = " ".join(mention(game.seats[s]) for s in sorted(outcome.winners))
        if winners:
            return t("bot.game.won", locale, winners=winners, reason=outcome.reason)
        return t("bot.game.drawn", locale, reason=outcome.reason)

    async def board_file(self, game: GameInfo, *, viewer: int | None = None) -> discord.File:
        """The board as a PNG attachment, rendered off the event loop."""
        names = [await self.bot.display_name(uid) for uid in game.seats]
        png = await asyncio.to_thread(
            render.board, game.game, game.state, viewer=viewer, last_move=game.last_move,
            players=names,
        )
        return discord.File(io.BytesIO(png), filename=f"{game.game}-{game.id}-{game.ply}.png")
