"""Reviews beside the AI's replies (issue: reviews slowed other people's AI): the wall time of a
hard Alak reply alone and while other users' reviews are made, and of a light user's review
alone and while others' long reviews are made, all in one ``FairQueue`` on two worker
processes as in the bot (``bot.workers.ai_player``, ``bot.workers.review``). Not a test: nothing
here asserts.

    python -m bench.review_fairness [--replies 12] [--reviewers 10]

Replies are ``REPLY`` jobs (a person waits), review evaluations ``BACKGROUND`` jobs: a reply
goes first and reviews never hold the last worker, and reviews take turns user by user. Wall
times depend on what else the machine runs; the load average is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import statistics
import time
from dataclasses import replace

import engines
from bench.review import GAMES, Forget, played
from bot.services.aiseats import AiJob
from bot.services.review import ReviewSource
from bot.workers.ai_player import think
from bot.workers.fair_queue import FairQueue
from bot.workers.pool import WorkerPool
from bot.workers.review import ReviewWork

#: A person's game of Alak against the hard AI: the position the AI answers.
REPLY_PLIES = 6


def reply_jobs(count: int) -> list[AiJob]:
    """Hard Alak replies in positions a few moves into different games."""
    game = engines.get("alak")
    jobs = []
    for index in range(count):
        state = game.new(2, seed=index, options={"length": 15})
        for _ in range(REPLY_PLIES):
            state = game.play(state, game.legal_moves(state)[index % 3])
        seat = state.to_move
        jobs.append(AiJob(index, 0, 1, "alak", game.dump(game.view(state, seat)), seat, "hard",
                          str(index)))
    return jobs


async def replies(queue: FairQueue, jobs: list[AiJob]) -> list[float]:
    """Each reply's wall time, one after another (a person answers the board they see)."""
    took = []
    for job in jobs:
        start = time.perf_counter()
        await queue.run(job.user_id, think, job)
        took.append(time.perf_counter() - start)
    return took


@functools.cache
def game_of(label: str) -> ReviewSource:
    return played(*GAMES[label])


async def review(work: ReviewWork, label: str, user: int) -> float:
    """The wall time of ``user``'s review of a game of its own (``label``'s moves)."""
    start = time.perf_counter()
    await work.job(replace(game_of(label), game_id=user), user).task
    return time.perf_counter() - start


async def run(reply_count: int, reviewers: int) -> None:
    pool = WorkerPool("ai", workers=2)
    queue = FairQueue(pool)
    work = ReviewWork(queue, Forget())  # type: ignore[arg-type]
    jobs = reply_jobs(reply_count)
    try:
        await queue.run(0, think, jobs[0])  # the workers started
        alone = await replies(queue, jobs)
        reviewing = asyncio.ensure_future(review(work, "polygo", 100))
        during = await replies(queue, jobs)
        await reviewing
        print(f"| hard Alak reply, alone | {statistics.median(alone):.2f} s p50, "
              f"{max(alone):.2f} s max ({len(alone)}) |")
        print(f"| hard Alak reply, during another user's review | "
              f"{statistics.median(during):.2f} s p50, {max(during):.2f} s max "
              f"({len(during)}) |")
        light_alone = await review(work, "alak", 200)
        crowd = [asyncio.ensure_future(review(work, "polygo", 300 + n))
                 for n in range(reviewers)]
        await asyncio.sleep(1.0)  # the others' reviews are under way
        light_crowded = await review(work, "alak", 201)
        await asyncio.gather(*crowd)
        print(f"| light review (40-ply Alak), alone | {light_alone:.1f} s |")
        print(f"| light review (40-ply Alak) beside {reviewers} users' 100-ply Polygo "
              f"reviews | {light_crowded:.1f} s |")
    finally:
        queue.close()
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=12)
    parser.add_argument("--reviewers", type=int, default=10)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print("| what | wall time |")
    print("| --- | --- |")
    asyncio.run(run(args.replies, args.reviewers))
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
