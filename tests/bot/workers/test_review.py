"""Making reviews with the AI's workers (``bot.workers.review``): progress, one review per user, one
job per position shared by whoever asks, stored once made, progress reports spaced out; the AI's
replies to people go first, and reviews take turns user by user. The AI's jobs
are replaced by quick ones here (the real ones run in tests/bot/services/test_review.py and
tests/e2e/test_review.py)."""

from __future__ import annotations

import asyncio
import itertools
import threading
from dataclasses import replace

import pytest

import bot.workers.review as reviews_module
from bot.services.review import Evaluated, ReviewSource
from bot.workers.fair_queue import FairQueue
from bot.workers.pool import WorkerPool
from bot.workers.review import Progress, ReviewBusy, ReviewWork, follow

#: Who asks for the reviews.
ASKER = 7


class MemoryReviews:
    """The stored reviews, in memory (``ReviewService``'s part that ``ReviewWork`` uses)."""

    def __init__(self) -> None:
        self.saved: dict[tuple[int, int], object] = {}

    async def save(self, source, review) -> None:
        self.saved[(source.game_id, source.version)] = review


def source(game_id: int = 1, moves: int = 9) -> ReviewSource:
    return ReviewSource(game_id, 7, "alak", 2, 123, {}, tuple(f"m{i}" for i in range(moves)),
                        None)


@pytest.fixture
def gate(monkeypatch):
    """Quick jobs: position p is worth ``1 - p / 10`` for seat 0 (seat 0 moves at even plies
    and loses 0.1 each time, seat 1 gains), each job waits for ``gate.release`` when held."""

    class Gate:
        def __init__(self) -> None:
            self.open = threading.Event()
            self.open.set()
            self.calls: list[tuple[int, int]] = []
            self.asked: list[list[int]] = []
            self.fail = False

    held = Gate()

    def evaluate(src, start, stop):
        held.open.wait(10)
        held.calls.append((start, stop))
        if held.fail:
            raise RuntimeError("the AI broke")
        values = [(1 - p / 10, p / 10) for p in range(start, stop)]
        movers = [p % 2 for p in range(start, min(stop, len(src.moves)))]
        return Evaluated(start, tuple(values), tuple(movers), (False,) * len(movers))

    def better(src, plies):
        held.asked.append(list(plies))
        return {ply: ("best", 1.0) for ply in plies}  # the AI's move keeps a sure win

    monkeypatch.setattr(reviews_module, "evaluate_positions", evaluate)
    monkeypatch.setattr(reviews_module, "better_moves_kept", better)
    return held


@pytest.fixture
def work():
    pool = WorkerPool("ai-test", workers=2, kind="thread")
    yield ReviewWork(FairQueue(pool), MemoryReviews(), chunk=3)
    pool.close()


async def test_a_review_is_made_in_chunks_then_stored(work, gate):
    job = work.job(source(), ASKER)
    review = await job.task
    assert sorted(gate.calls) == [(0, 3), (3, 6), (6, 9), (9, 10)]
    assert job.progress == Progress(10, 10, 0, 0)  # seat 0 loses 0.1 a move: no mistake
    assert review.scores[3] == (0.7, 0.3) and len(review.scores) == 10
    assert work.service.saved[(1, 7)] is review and work.made == 1
    assert gate.asked == []


async def test_the_ai_is_asked_where_the_largest_mistakes_were(work, gate, monkeypatch):
    def steep(src, start, stop):
        # Seat 0 (moves 1, 3, 5, 7, 9) loses 0.2 with each of its moves.
        values = [(max(0.0, 1 - 0.2 * ((p + 1) // 2)),) for p in range(start, stop)]
        values = [(a, 1 - a) for (a,) in values]
        movers = [p % 2 for p in range(start, min(stop, len(src.moves)))]
        return Evaluated(start, tuple(values), tuple(movers), (False,) * len(movers))

    monkeypatch.setattr(reviews_module, "evaluate_positions", steep)
    job = work.job(source(), ASKER)
    review = await job.task
    asked = sorted(p for plies in gate.asked for p in plies)
    assert asked and job.progress.better_total == len(asked) == job.progress.better_done
    assert all(m.better == "best" for m in review.mistakes if m.ply in asked)
    assert asked == [1, 3, 5, 7, 9]
    # Judged against the AI's move, which keeps a sure win: the later, the more was lost.
    assert [m.ply for m in review.mistakes_of(0)] == [5, 3, 1] and not review.mistakes_of(1)


async def test_one_review_per_user_and_one_job_per_position(work, gate):
    gate.open.clear()
    with work.admit(1):
        first = work.job(source(), ASKER)
        with pytest.raises(ReviewBusy) as refused, work.admit(1):
            pass
        assert refused.value.key == "errors.review.busy"
        with work.admit(2):  # another user asking for the same review shares the job
            assert work.job(source(), ASKER) is first
        assert work.job(source(game_id=2), ASKER) is not first
        gate.open.set()
        await first.task
    with work.admit(1):  # done: the user may ask again
        pass


async def test_progress_is_reported_spaced_out_and_only_when_it_moved(work, gate):
    gate.open.clear()
    job = work.job(source(moves=20), ASKER)
    seen: list[tuple[float, Progress]] = []
    loop = asyncio.get_running_loop()

    async def report(progress: Progress) -> None:
        seen.append((loop.time(), progress))

    async def drip() -> None:
        for _ in range(8):  # one chunk released now and then
            await asyncio.sleep(0.12)
            gate.open.set()
            await asyncio.sleep(0.01)
            gate.open.clear()
        gate.open.set()

    dripping = asyncio.create_task(drip())
    review = await follow(job, report, every=0.1)
    await dripping
    assert len(review.scores) == 21
    assert seen, "the progress was never shown"
    times = [at for at, _ in seen]
    assert all(b - a >= 0.099 for a, b in itertools.pairwise(times))
    dones = [p.done for _, p in seen]
    assert dones == sorted(dones) and len(set(dones)) == len(dones)  # never the same twice
    assert all(p.total == 21 for _, p in seen)


async def test_a_failed_review_is_said_and_can_be_asked_again(work, gate):
    gate.fail = True
    job = work.job(source(), ASKER)
    with pytest.raises(RuntimeError):
        await follow(job, lambda progress: asyncio.sleep(0), every=0.05)
    await asyncio.sleep(0)
    gate.fail = False
    again = work.job(source(), ASKER)
    assert again is not job
    assert len((await again.task).scores) == 10
    assert work.made == 1


async def test_while_a_game_runs_the_ai_suggests_moves_to_its_player_only(work, gate,
                                                                          monkeypatch):
    def everyone_errs(src, start, stop):
        # Seat 0 loses 0.2 with each of its moves, seat 1 then gives it back and more.
        values = [(0.5 - 0.2 * (p % 2),) for p in range(start, stop)]
        values = [(a, 1 - a) for (a,) in values]
        movers = [p % 2 for p in range(start, min(stop, len(src.moves)))]
        return Evaluated(start, tuple(values), tuple(movers), (False,) * len(movers))

    monkeypatch.setattr(reviews_module, "evaluate_positions", everyone_errs)
    running = replace(source(), perspective=1)  # seat 1's own review of a running game
    review = await work.job(running, ASKER).task
    asked = sorted(p for plies in gate.asked for p in plies)
    assert asked and all((p - 1) % 2 == 1 for p in asked)  # only seat 1's moves
    assert review.mistakes_of(0) and all(m.better is None for m in review.mistakes_of(0))
    assert all(m.better == "best" for m in review.mistakes_of(1))
    assert not review.finished and not review.full_information


async def test_closing_stops_the_reviews_in_the_works(work, gate):
    gate.open.clear()
    job = work.job(source(), ASKER)
    await asyncio.sleep(0.05)
    work.close()
    gate.open.set()
    with pytest.raises(asyncio.CancelledError):
        await job.task
    assert work.service.saved == {} and work.made == 0
