"""Making post-game reviews with the AI's workers: once per game position, with progress, and
one review in the works per user (``bot.workers.review``, set up by the ``Review`` cog).

* ``ReviewWork.admit(user_id)`` (before acknowledging): a user has at most one review in the
  works; a second is refused at once (``ReviewBusy``, translated), nothing else is done.
* ``ReviewWork.job(source, user_id)``: the review of that exact position (game, version,
  perspective), started if nobody started it; users asking for the same one share it. The job
  evaluates the positions in chunks, then asks the AI for its move where the largest mistakes
  were made, then stores the review (``ReviewService.save``): the next request reads it from
  the database at once, after a restart too. Each chunk is a ``BACKGROUND`` job of the AI's
  queue (``bot.workers.fair_queue``), in the turn of the user who asked: the AI's moves and hints
for
  people go first (a review never takes the last worker from them), and reviews are served
  user by user, so a short one is not queued behind ten long ones.
* ``follow(job, report, every)``: awaits a job, calling ``report(progress)`` at most once per
  ``every`` seconds while it works (the cog edits its progress message).

Move boards never wait for a review: they have workers of their own (``bot.workers.boards``), and
the AI's worker processes run at a lower OS priority than the bot's. The review's picture is drawn
in the heavy pool (``bot.workers.heavy``), like the other heavy pictures.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import render.review
from bot.core.errors import ServiceError
from bot.core.review import Review, analyse, plies_to_ask
from bot.services.review import (
    Evaluated,
    ReviewService,
    ReviewSource,
    better_moves_kept,
    evaluate_positions,
)
from bot.workers.fair_queue import BACKGROUND, FairQueue

log = logging.getLogger(__name__)

#: Seconds between two edits of a progress message at most.
PROGRESS_EVERY = 3.0
#: Positions a worker evaluates per job: enough to make rebuilding the game cheap beside the
#: evaluations, few enough that the progress moves.
CHUNK = 4


class ReviewBusy(ServiceError):
    """The user already has a review in the works."""

    key = "errors.review.busy"


@dataclass
class Progress:
    """``done`` of ``total`` positions evaluated; then ``better_done`` of ``better_total``
    positions where the AI looks for its own move."""

    done: int
    total: int
    better_done: int = 0
    better_total: int = 0

    def snapshot(self) -> Progress:
        return Progress(self.done, self.total, self.better_done, self.better_total)


@dataclass
class ReviewJob:
    source: ReviewSource
    progress: Progress
    #: Whose turn its jobs take in the AI's queue: who asked for it first.
    user_id: int
    task: asyncio.Task[Review] = field(init=False)


class ReviewWork:
    """Reviews being made (see the module)."""

    def __init__(self, thinking: FairQueue, service: ReviewService, *,
                 chunk: int = CHUNK) -> None:
        #: The AI's queue and workers (``AiPlayer.queue``).
        self.thinking = thinking
        self.service = service
        self.chunk = chunk
        self._jobs: dict[tuple[int, int, int], ReviewJob] = {}
        self._users: set[int] = set()
        #: Reviews made by this process (each one computed, not read back).
        self.made = 0

    @contextlib.contextmanager
    def admit(self, user_id: int) -> Iterator[None]:
        """Enter before acknowledging; stay inside while the user's review is made."""
        if user_id in self._users:
            raise ReviewBusy("errors.review.busy")
        self._users.add(user_id)
        try:
            yield
        finally:
            self._users.discard(user_id)

    def job(self, source: ReviewSource, user_id: int) -> ReviewJob:
        """The review of ``source``, asked for by ``user_id`` (started if nobody did)."""
        key = (source.game_id, source.perspective, source.version)
        job = self._jobs.get(key)
        if job is None:
            job = self._jobs[key] = ReviewJob(source, Progress(0, source.positions), user_id)
            job.task = asyncio.create_task(self._make(job), name=f"review-{source.game_id}")
            job.task.add_done_callback(lambda _: self._jobs.pop(key, None))
        return job

    def close(self) -> None:
        """Stop the reviews being made (the bot is stopping): nothing of them is stored, and
        asking again after a restart makes them anew."""
        for job in list(self._jobs.values()):
            job.task.cancel()

    async def _make(self, job: ReviewJob) -> Review:
        source, progress = job.source, job.progress
        thinking = self.thinking

        async def run(fn: Callable[..., Any], *args: Any) -> Any:
            return await thinking.run(job.user_id, fn, *args, priority=BACKGROUND)

        # A review hands the queue as many jobs at once as there are workers, no more.
        workers = asyncio.Semaphore(thinking.pool.workers)
        parts: list[Evaluated] = []

        async def evaluate(start: int, stop: int) -> None:
            async with workers:
                parts.append(await run(evaluate_positions, source, start, stop))
            progress.done += stop - start

        total = source.positions
        await _all(evaluate(start, min(total, start + self.chunk))
                   for start in range(0, total, self.chunk))
        parts.sort(key=lambda part: part.start)
        scores = [row for part in parts for row in part.scores]
        movers = [seat for part in parts for seat in part.movers]
        forced = [flag for part in parts for flag in part.forced]
        ended = source.ended()
        ends_by_move = source.finished and ended is None
        asked = [ply for ply in plies_to_ask(scores, movers, source.moves, forced,
                                             ends_by_move=ends_by_move)
                 if source.may_suggest(movers[ply - 1])]
        progress.better_total = len(asked)
        better: dict[int, str] = {}
        kept: dict[int, float] = {}

        async def ask(ply: int) -> None:
            async with workers:
                found = await run(better_moves_kept, source, [ply])
            for asked_ply, (move, value) in found.items():
                better[asked_ply], kept[asked_ply] = move, value
            progress.better_done += 1

        await _all(ask(ply) for ply in asked)
        review = analyse(source.game, source.players, source.moves, movers, forced, scores,
                         better=better, kept=kept, full_information=source.finished,
                         finished=source.finished, ended=ended)
        await self.service.save(source, review)
        self.made += 1
        return review


async def _all(coroutines: Any) -> None:
    """Run them together; on a failure, cancel the others (a job still waiting in the pool is
    dropped) and raise it."""
    tasks = [asyncio.ensure_future(c) for c in coroutines]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        raise


async def follow(job: ReviewJob, report: Callable[[Progress], Awaitable[None]],
                 every: float = PROGRESS_EVERY) -> Review:
    """The job's review, reporting its progress meanwhile: at most once per ``every`` seconds,
    and only when it changed. A report that fails is logged and the review goes on (a
    progress message is a courtesy). Whoever follows may give up without stopping the job."""
    shown: Progress | None = None
    while True:
        done, _ = await asyncio.wait({job.task}, timeout=every)
        if done:
            return job.task.result()
        now = job.progress.snapshot()
        if now != shown:
            shown = now
            try:
                await report(now)
            except Exception:
                log.exception("could not show the progress of the review of game %s",
                              job.source.game_id)


# ----- the picture (a job for the heavy pool) ---------------------------------------------------


def review_key(source: ReviewSource, names: Sequence[str], lang: str) -> tuple:
    return ("review", source.game_id, source.perspective, source.version, tuple(names), lang)


def review_png(source: ReviewSource, review: Review, names: Sequence[str],
               texts: render.review.ReviewTexts, captions: Sequence[Sequence[str]],
               lang: str = "en") -> bytes:
    """The review's picture (in a worker: the positions are rebuilt here). ``captions``: the
    translated caption of each of ``review.mistakes``."""
    states = source.states()
    panels = [render.review.MistakePanel(source.seen(states[m.ply - 1]), m.seat, caption,
                                         m.played)
              for m, caption in zip(review.mistakes, captions, strict=True)]
    marks = [(m.ply, m.seat) for m in review.mistakes]
    return render.review.review(source.game, review.scores, states[-1], panels, marks,
                                list(names), texts, lang=lang, ended=review.ended)
