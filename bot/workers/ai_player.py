"""The AI players' moves: found in the database, thought in worker processes, played through
the game service like a person's move, then delivered.

Driven by the database, not by memory: a round lists the active games where an AI seat is to
move (``AiSeatService.ai_turns``), so after a restart the first round finds the turns left
waiting. With several processes (``bot.core.sharding``) a process lists the games of its shards'
servers only, as it delivers their outbox rows only: each AI turn is thought by one process,
the one that posts it. Each turn is thought once per process at a time, in a ``WorkerPool``
(``ai.decide`` never runs on the event loop), then played with the version it was thought at:
if the game moved on meanwhile, or another runner played that turn first (a process that still
held the shard a moment ago), the move loses with ``BoardChanged`` and nothing is written. The
move's outbox rows are then delivered like a person's (the board and the next human's turn
ping).

A round runs when woken (every committed change of this process pokes it, as it pokes the
correspondence scheduler; another process's commit that wrote rows for our servers wakes it
through the shard claim) and every ``POLL_SECONDS`` as the fallback.

Fairness: moves and hints are thought in a ``FairQueue`` (``bot.workers.fair_queue``) that serves
users in turn (a move belongs to the game's person, a hint to who asked), a round takes in hand at
most ``MAX_THINKING_PER_USER`` turns of one person's games (the others wait in the database), and a
user has at most ``hints_per_user`` hints being thought at once (``HintsBusy`` beyond): one
user's thirty games and hundreds of hints delay another's AI move by one think time at most.
Post-game reviews (``bot.workers.review``) evaluate their positions in the same queue, as background
jobs: a move or a hint goes before them and never waits for a worker they hold all of.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Protocol

import ai
import ai.draws
from bot.core.errors import ServiceError
from bot.core.sharding import EVERY_SERVER, Shards
from bot.services.aiseats import HIGHEST_AI_ID, LOWEST_AI_ID, AiJob, is_ai
from bot.services.draws import DrawJob
from bot.store.aiseats import AiTurn
from bot.workers.fair_queue import FairQueue
from bot.workers.pool import PoolBusy, WorkerPool

if TYPE_CHECKING:
    from bot.core.models import GameInfo
    from bot.services.games import GameService


class Delivers(Protocol):
    """The outbox delivery: posts what a game's moves wrote."""

    async def flush(self, game_id: int | None, *, written: GameInfo | None = None) -> bool: ...


class Plays(Protocol):
    """What the AI player uses of the bot: its services, and the delivery of what they wrote."""

    services: GameService
    delivery: Delivers

log = logging.getLogger(__name__)

#: How often a round runs without being woken (moves made by other processes).
POLL_SECONDS = 5.0
#: How many worker processes think at once (the machine's other cores serve the bot).
AI_WORKERS = 2
#: How many turns one process takes on at once (the others wait for the next round).
MAX_THINKING = 16
#: How many of them may be turns of one person's games: half, so others' turns always find
#: room in hand (the ``FairQueue`` then serves them in turn).
MAX_THINKING_PER_USER = MAX_THINKING // 2
#: How many turns a round lists (enough to find every waiting person's turn, not only the
#: turns of whoever has the most games waiting).
TURNS_LISTED = 200
#: How many hints of one user may be thought at once (the ``ai_hints_per_user`` setting).
HINTS_PER_USER = 1
#: How many jobs may wait for a worker in all (hints beyond are told the AI is busy).
MAX_WAITING = MAX_THINKING * 4
#: How long to wait before retrying a turn whose thinking failed (a worker died...).
RETRY_SECONDS = 5.0
#: How long a new game's first board is left to the command that started the game (which
#: hangs the game's thread on its own message) before the AI's move posts it anyway.
FIRST_BOARD_PATIENCE = 3.0


def think(job: AiJob) -> ai.Decision:
    """In a worker process: the move of the job's AI seat."""
    return ai.decide(job.game, job.view, job.seat, job.level, job.seed)


def judge_draw(job: DrawJob) -> bool:
    """In a worker process: whether the job's AI seat accepts the draw offered to it."""
    return ai.draws.accepts_draw(job.game, job.view, job.seat, job.seed)


def suggest(job: AiJob) -> ai.Hint:
    """In a worker process: the hint for the job's player."""
    return ai.hint(job.game, job.view, job.seat, job.seed)


class HintsBusy(RuntimeError):
    """The user already has ``hints_per_user`` hints being thought; nothing was started."""


class AiPlayer:
    """Plays the AI seats' turns and thinks the hints (see the module)."""

    def __init__(self, bot: Plays, pool: WorkerPool | None = None, *,
                 shards: Shards = EVERY_SERVER, hints_per_user: int = HINTS_PER_USER) -> None:
        self.bot: Any = bot
        #: The servers whose games' AI turns this process plays (``BoardGamesBot.own_shards``).
        self.shards = shards
        self.pool = pool or WorkerPool("ai", workers=AI_WORKERS)
        self.queue = FairQueue(self.pool, max_waiting=MAX_WAITING)
        self.hints_per_user = hints_per_user
        self._hints: dict[int, int] = {}  # user -> hints being thought
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._stopping = False
        #: Games whose AI turn this process is thinking about, and whose turn it is for.
        self._thinking: dict[int, asyncio.Task] = {}
        self._owners: dict[int, int | None] = {}
        #: Draw offers an AI seat of this process is judging.
        self._judging: set[int] = set()

    def may_hint(self, user_id: int) -> bool:
        """Whether ``user_id`` may ask for a hint now (fewer than ``hints_per_user`` of theirs
        are being thought)."""
        return self._hints.get(user_id, 0) < self.hints_per_user

    async def hint(self, job: AiJob) -> ai.Hint:
        """The hint for ``job``'s player, thought in their turn; ``HintsBusy`` if they have
        ``hints_per_user`` hints being thought already, ``PoolBusy`` if too many jobs wait."""
        user = job.user_id
        if not self.may_hint(user):
            raise HintsBusy(f"user {user} has {self._hints[user]} hint(s) being thought")
        self._hints[user] = self._hints.get(user, 0) + 1
        try:
            return await self.queue.run(user, suggest, job)
        finally:
            self._hints[user] -= 1
            if not self._hints[user]:
                del self._hints[user]

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="ai-player")

    def poke(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        """Stop taking turns; a turn being played finishes its database write (the move is
        written in one transaction or not at all: the next start plays it otherwise)."""
        if self._task is not None:
            # Python 3.11's wait_for swallows a cancellation that lands as its wait ends (a
            # poke at the moment of the stop): the flag and a poke make the loop leave on its
            # own even then, instead of playing on with pools about to close.
            self._stopping = True
            self._wake.set()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for task in list(self._thinking.values()):
            task.cancel()
        if self._thinking:
            await asyncio.gather(*self._thinking.values(), return_exceptions=True)

    def close(self) -> None:
        """Close the AI's workers, once whatever uses them has stopped (the turns, the hints
        of the interactions in flight, the reviews)."""
        self.queue.close()
        self.pool.close()

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                await self.play_round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("AI round failed; retrying")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)

    async def play_round(self) -> int:
        """Start thinking about the AI turns not already in hand, people's games in turn (at
        most ``MAX_THINKING``, ``MAX_THINKING_PER_USER`` of one person's); returns how many
        began."""
        started = 0
        # Offers first: an AI answers a draw offer before it moves on (a move would lapse it).
        for offer in await self.bot.services.draws.ai_draw_offers(
                LOWEST_AI_ID, HIGHEST_AI_ID, MAX_THINKING, shards=self.shards):
            await self.answer_draw_offers(offer.game_id)
        turns = await self.bot.services.aiseats.ai_turns(limit=TURNS_LISTED, shards=self.shards)
        for turn in in_turn(turns):
            if turn.game_id in self._thinking or len(self._thinking) >= MAX_THINKING:
                continue
            if self._in_hand(turn.owner) >= MAX_THINKING_PER_USER:
                continue
            task = asyncio.create_task(self.play_turn(turn.game_id, turn.owner),
                                       name=f"background-ai-{turn.game_id}")
            self._thinking[turn.game_id] = task
            self._owners[turn.game_id] = turn.owner
            task.add_done_callback(lambda _, game_id=turn.game_id: self._done(game_id))
            started += 1
        return started

    def _in_hand(self, owner: int | None) -> int:
        return sum(1 for game_owner in self._owners.values() if game_owner == owner)

    def _done(self, game_id: int) -> None:
        self._thinking.pop(game_id, None)
        self._owners.pop(game_id, None)
        self.poke()  # the next AI seat may be to move (an all-AI turn order)

    async def _first_board_out(self, game_id: int) -> None:
        """A game that starts with an AI to move: let the command that started it post the
        first board (delivering it here would start the thread elsewhere)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FIRST_BOARD_PATIENCE
        while loop.time() < deadline:
            pending = await self.bot.services.outbox.pending_outbox(game_id=game_id)
            if not any(item.kind == "game_started" for item in pending):
                return
            await asyncio.sleep(0.1)

    async def play_turn(self, game_id: int, owner: int | None = None) -> bool:
        """Think about the game's AI turn (in ``owner``'s turn: the person whose game it is)
        and play it; True if this call played it."""
        services = self.bot.services
        await self._first_board_out(game_id)
        job = await services.aiseats.ai_job(game_id)
        if job is None:
            return False
        started = asyncio.get_running_loop().time()
        try:
            # A game of AI seats only has no owner: its turns share one place in the rotation.
            decision = await self.queue.run(job.user_id if owner is None else owner, think, job)
        except PoolBusy:
            await asyncio.sleep(RETRY_SECONDS)  # a later round takes it
            return False
        except Exception:
            log.exception("the AI could not choose a move in game %s", game_id)
            await asyncio.sleep(RETRY_SECONDS)
            return False
        # Not the move: a hint of what the AI saw is no one's business before it is played.
        log.debug("AI (%s) of game %s thought %.2f s", job.level, game_id,
                  asyncio.get_running_loop().time() - started)
        # An offer made while it thought is answered before its move would lapse it.
        await self.answer_draw_offers(game_id)
        try:
            played = await services.play.move(game_id, job.user_id, decision.move,
                                              expected_version=job.version)
        except ServiceError as error:
            # Another process played this turn, a resignation ended the game…: nothing written.
            log.info("AI move in game %s not played: %s", game_id, error.key)
            return False
        following = played.game.user_to_move()
        if played.game.in_conversation and following is not None and is_ai(following):
            # Where the bot is not, its posts are follow-ups of one interaction, five at
            # most: the AI players' moves go out together, once a person is to move.
            return True
        try:
            await self.bot.delivery.flush(game_id, written=played.game)
        except Exception:
            log.warning("delivering the AI move of game %s failed; the outbox retries",
                        game_id, exc_info=True)
        return True

    async def answer_draw_offers(self, game_id: int) -> int:
        """The AI seats of the game answer its pending draw offers (``ai.draws``, judged in a
        worker); returns how many answers were given. Another process or a double answer
        loses cleanly (the offer is no longer open)."""
        services = self.bot.services
        answered = 0
        for offer in await services.draws.pending_draw_offers(game_id):
            if offer.id in self._judging:
                continue
            game = await services.games.get_game(game_id)
            judges = [uid for seat, uid in enumerate(game.seats)
                      if seat != offer.seat and is_ai(uid)]
            if not judges:
                continue
            self._judging.add(offer.id)
            try:
                job = await services.draws.draw_job(offer, judges[0])
                if job is None:
                    continue
                # In the turn of the person who offered (``FairQueue``), like their games' moves.
                accept = await self.queue.run(offer.user_id, judge_draw, job)
                await services.draws.answer_draw(game_id, judges[0], offer.id, accept)
                answered += 1
            except ServiceError as error:
                log.info("AI answer to draw offer %s not given: %s", offer.id, error.key)
                continue
            except PoolBusy:
                continue  # a later round answers it
            finally:
                self._judging.discard(offer.id)
            try:
                await self.bot.delivery.flush(game_id)
            except Exception:
                log.warning("delivering the AI's draw answer in game %s failed; the outbox "
                            "retries", game_id, exc_info=True)
        return answered


def in_turn(turns: list[AiTurn]) -> list[AiTurn]:
    """``turns`` (the longest waiting first) reordered person by person: each person's longest
    waiting turn, then each one's second, and so on, so that one person's many games do not
    come before everybody else's."""
    rounds: dict[int | None, int] = {}
    ranked = []
    for index, turn in enumerate(turns):
        rank = rounds.get(turn.owner, 0)
        rounds[turn.owner] = rank + 1
        ranked.append((rank, index, turn))
    return [turn for _, _, turn in sorted(ranked, key=lambda item: item[:2])]
