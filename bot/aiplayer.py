"""The AI players' moves: found in the database, thought in worker processes, played through
the game service like a person's move, then delivered.

Driven by the database, not by memory: a round lists the active games where an AI seat is to
move (``GameService.ai_turns``), so after a restart the first round finds the turns left
waiting. With several processes (``bot.sharding``) a process lists the games of its shards'
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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import ai
from bot.services.aiseats import AiJob, is_ai
from bot.services.errors import ServiceError
from bot.sharding import EVERY_SERVER, Shards
from bot.workers import PoolBusy, WorkerPool

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

#: How often a round runs without being woken (moves made by other processes).
POLL_SECONDS = 5.0
#: How many worker processes think at once (the machine's other cores serve the bot).
AI_WORKERS = 2
#: How many turns one process takes on at once (the others wait for the next round).
MAX_THINKING = 16
#: How long to wait before retrying a turn whose thinking failed (a worker died...).
RETRY_SECONDS = 5.0
#: How long a new game's first board is left to the command that started the game (which
#: hangs the game's thread on its own message) before the AI's move posts it anyway.
FIRST_BOARD_PATIENCE = 3.0


def think(job: AiJob) -> ai.Decision:
    """In a worker process: the move of the job's AI seat."""
    return ai.decide(job.game, job.view, job.seat, job.level, job.seed)


def suggest(job: AiJob) -> ai.Hint:
    """In a worker process: the hint for the job's player."""
    return ai.hint(job.game, job.view, job.seat, job.seed)


class AiPlayer:
    """Plays the AI seats' turns (see the module)."""

    def __init__(self, bot: Host, pool: WorkerPool | None = None, *,
                 shards: Shards = EVERY_SERVER) -> None:
        self.bot: Any = bot
        #: The servers whose games' AI turns this process plays (``BoardGamesBot.own_shards``).
        self.shards = shards
        self.pool = pool or WorkerPool("ai", workers=AI_WORKERS, max_jobs=MAX_THINKING * 2)
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        #: Games whose AI turn this process is thinking about.
        self._thinking: dict[int, asyncio.Task] = {}

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="ai-player")

    def poke(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        """Stop taking turns; a turn being played finishes its database write (the move is
        written in one transaction or not at all: the next start plays it otherwise)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for task in list(self._thinking.values()):
            task.cancel()
        if self._thinking:
            await asyncio.gather(*self._thinking.values(), return_exceptions=True)
        self.pool.close()

    async def _run(self) -> None:
        while True:
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
        """Start thinking about every AI turn not already in hand; returns how many began."""
        started = 0
        for turn in await self.bot.services.ai_turns(limit=MAX_THINKING, shards=self.shards):
            if turn.game_id in self._thinking or len(self._thinking) >= MAX_THINKING:
                continue
            task = asyncio.create_task(self.play_turn(turn.game_id),
                                       name=f"background-ai-{turn.game_id}")
            self._thinking[turn.game_id] = task
            task.add_done_callback(lambda _, game_id=turn.game_id: self._done(game_id))
            started += 1
        return started

    def _done(self, game_id: int) -> None:
        self._thinking.pop(game_id, None)
        self.poke()  # the next AI seat may be to move (an all-AI turn order)

    async def _first_board_out(self, game_id: int) -> None:
        """A game that starts with an AI to move: let the command that started it post the
        first board (delivering it here would start the thread elsewhere)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FIRST_BOARD_PATIENCE
        while loop.time() < deadline:
            pending = await self.bot.services.pending_outbox(game_id=game_id)
            if not any(item.kind == "game_started" for item in pending):
                return
            await asyncio.sleep(0.1)

    async def play_turn(self, game_id: int) -> bool:
        """Think about the game's AI turn and play it; True if this call played it."""
        services = self.bot.services
        await self._first_board_out(game_id)
        job = await services.ai_job(game_id)
        if job is None:
            return False
        try:
            decision = await self.pool.run(think, job)
        except PoolBusy:
            await asyncio.sleep(RETRY_SECONDS)  # a later round takes it
            return False
        except Exception:
            log.exception("the AI could not choose a move in game %s", game_id)
            await asyncio.sleep(RETRY_SECONDS)
            return False
        try:
            played = await services.move(game_id, job.user_id, decision.move,
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
