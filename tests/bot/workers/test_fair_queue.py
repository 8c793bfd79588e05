"""The AI's jobs served user by user (``bot.workers.fair_queue.FairQueue``), and the AI runner's
fair use (``bot.workers.ai_player``): another user's job waits for one job at most, however many one
user queued; a user's turns are taken in hand in turn with everyone's; a second hint in flight is
refused at once."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import pytest

from bot.services import Services
from bot.store.aiseats import AiTurn
from bot.workers.ai_player import MAX_THINKING_PER_USER, AiPlayer, HintsBusy, in_turn
from bot.workers.fair_queue import BACKGROUND, FairQueue
from bot.workers.pool import PoolBusy, WorkerPool

#: Guards against a hang only (a job of these tests takes milliseconds once let go).
GUARD = 60.0


class Gates:
    """Jobs that run until the test lets them go, one gate per job name."""

    def __init__(self) -> None:
        self.gates: dict[str, threading.Event] = {}
        self.started: list[str] = []

    def job(self, name: str) -> str:
        """In a worker thread: wait for the gate of ``name``."""
        self.started.append(name)
        assert self.gates.setdefault(name, threading.Event()).wait(GUARD)
        return name

    def open(self, name: str) -> None:
        self.gates.setdefault(name, threading.Event()).set()


async def until(condition, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GUARD
    while not condition():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.005)


async def test_with_one_worker_another_users_job_waits_for_one_job_at_most():
    pool = WorkerPool("fair-test", workers=1, kind="thread")
    queue, gates = FairQueue(pool), Gates()
    try:
        flood = [asyncio.ensure_future(queue.run(1, gates.job, f"flood-{i}")) for i in range(20)]
        await until(lambda: gates.started == ["flood-0"], "the first job started")
        other = asyncio.ensure_future(queue.run(2, gates.job, "other"))
        await asyncio.sleep(0.05)
        assert gates.started == ["flood-0"], "the worker was busy"
        gates.open("flood-0")  # the worker frees up: the other user's job is next
        await until(lambda: "other" in gates.started, "the other user's job started")
        assert gates.started == ["flood-0", "other"]
        for i in range(20):
            gates.open(f"flood-{i}")
        gates.open("other")
        assert await asyncio.wait_for(other, GUARD) == "other"
        assert await asyncio.wait_for(asyncio.gather(*flood), GUARD) == [
            f"flood-{i}" for i in range(20)]
        assert list(queue.served) == [1, 2] + [1] * 19
        assert queue.running == queue.waiting == 0
    finally:
        pool.close()


@pytest.mark.parametrize("workers", [2, 3])
async def test_one_user_never_holds_every_worker_another_starts_at_once(workers):
    pool = WorkerPool("fair-test", workers=workers, kind="thread")
    queue, gates = FairQueue(pool), Gates()
    try:
        flood = [asyncio.ensure_future(queue.run(1, gates.job, f"flood-{i}")) for i in range(20)]
        await until(lambda: len(gates.started) == workers - 1, "the first jobs started")
        await asyncio.sleep(0.05)
        assert len(gates.started) == workers - 1, "a worker is kept for anyone else"
        # Another user's job starts while every job of the flood is still running.
        other = asyncio.ensure_future(queue.run(2, gates.job, "other"))
        await until(lambda: "other" in gates.started, "the other user's job started")
        gates.open("other")
        assert await asyncio.wait_for(other, GUARD) == "other"
        for i in range(20):
            gates.open(f"flood-{i}")
        await asyncio.wait_for(asyncio.gather(*flood), GUARD)
        assert list(queue.served) == [1] * (workers - 1) + [2] + [1] * (21 - workers)
    finally:
        pool.close()


async def test_users_with_jobs_waiting_are_served_in_turn():
    pool = WorkerPool("fair-test", workers=1, kind="thread")
    queue, gates = FairQueue(pool), Gates()
    try:
        first = asyncio.ensure_future(queue.run(0, gates.job, "first"))
        await until(lambda: gates.started == ["first"], "the first job started")
        jobs = [asyncio.ensure_future(queue.run(user, gates.job, f"{user}-{n}"))
                for user in (1, 2, 3) for n in range(3)]
        await asyncio.sleep(0)
        for name in ["first", *(f"{user}-{n}" for user in (1, 2, 3) for n in range(3))]:
            gates.open(name)
        await asyncio.wait_for(asyncio.gather(first, *jobs), GUARD)
        # Round robin, not the order they came (1, 1, 1, 2, 2, 2, 3, 3, 3).
        assert list(queue.served) == [0, 1, 2, 3, 1, 2, 3, 1, 2, 3]
    finally:
        pool.close()


async def test_a_job_given_up_while_waiting_is_dropped_and_too_many_waiting_are_refused():
    pool = WorkerPool("fair-test", workers=1, kind="thread")
    queue, gates = FairQueue(pool, max_waiting=2), Gates()
    try:
        running = asyncio.ensure_future(queue.run(1, gates.job, "running"))
        await until(lambda: gates.started == ["running"], "the first job started")
        given_up = asyncio.ensure_future(queue.run(1, gates.job, "given-up"))
        kept = asyncio.ensure_future(queue.run(2, gates.job, "kept"))
        await asyncio.sleep(0)
        with pytest.raises(PoolBusy):
            await queue.run(3, gates.job, "one too many")
        given_up.cancel()
        gates.open("running")
        gates.open("kept")
        assert await asyncio.wait_for(kept, GUARD) == "kept"
        assert await running == "running"
        assert "given-up" not in gates.started and queue.waiting == 0
    finally:
        pool.close()


def test_turns_are_taken_person_by_person():
    turns = [AiTurn(game_id=i, version=1, seat=1, user_id=-300, owner=7) for i in range(6)]
    turns.insert(4, AiTurn(game_id=100, version=1, seat=1, user_id=-200, owner=8))
    turns.append(AiTurn(game_id=101, version=1, seat=1, user_id=-200, owner=8))
    ordered = [turn.game_id for turn in in_turn(turns)]
    # Each person's longest waiting turn first, then each one's second...
    assert ordered == [0, 100, 1, 101, 2, 3, 4, 5]


def test_an_ai_turn_names_the_person_whose_game_it_is():
    assert AiTurn(1, 1, 1, -300).owner is None  # a table of AI seats only


async def test_a_round_takes_another_persons_turn_before_one_persons_many(store):
    """Person 7 has ten games waiting for the AI, person 8 one, the newest: the runner takes
    8's turn among the first, and thinks about it after one of 7's at most."""
    service = Services(store)
    service.aiseats.ai_games_per_user = 20
    posts: list[int] = []

    class Delivery:
        async def flush(self, game_id, interaction=None, written=None) -> bool:
            posts.append(game_id)
            return False

    bot = SimpleNamespace(services=service, delivery=Delivery())
    player = AiPlayer(bot, WorkerPool("fair-test", workers=1, kind="thread"))
    try:
        many = []
        for _ in range(10):
            info = await service.aiseats.play_ai("alak", 7, "easy")
            await service.play.move(info.id, 7, (await service.games.legal_moves(info.id, 7))[0])
            many.append(info.id)
        info = await service.aiseats.play_ai("alak", 8, "easy")
        await service.play.move(info.id, 8, (await service.games.legal_moves(info.id, 8))[0])
        # Half the places in hand at most for one person's games; 8's turn is among them.
        assert await player.play_round() == MAX_THINKING_PER_USER + 1
        while player._thinking:
            await asyncio.wait_for(asyncio.gather(*list(player._thinking.values())), GUARD)
            await player.play_round()  # the turns left waiting
        assert sorted(posts) == sorted([*many, info.id])
        assert posts.index(info.id) <= 1, posts
    finally:
        await player.stop()
        player.close()


@pytest.mark.slow(11)
async def test_a_second_hint_of_a_user_in_flight_is_refused_at_once_others_are_not(store):
    service = Services(store)
    bot = SimpleNamespace(services=service, delivery=None)
    pool = WorkerPool("fair-test", workers=1, kind="thread")
    player, gates = AiPlayer(bot, pool, hints_per_user=1), Gates()
    try:
        jobs = {}
        for user in (7, 8):
            info = await service.aiseats.play_ai("alak", user, "easy")
            jobs[user] = await service.aiseats.hint_job(info.id, user)
        # The worker is busy: the hints wait their turn, in flight.
        busy = asyncio.ensure_future(player.queue.run(0, gates.job, "busy"))
        await until(lambda: gates.started == ["busy"], "the worker is busy")
        first = asyncio.ensure_future(player.hint(jobs[7]))
        await asyncio.sleep(0)
        assert not player.may_hint(7) and player.may_hint(8)
        with pytest.raises(HintsBusy):
            await player.hint(jobs[7])
        other = asyncio.ensure_future(player.hint(jobs[8]))
        gates.open("busy")
        tips = await asyncio.wait_for(asyncio.gather(first, other), GUARD)
        assert all(tip.move for tip in tips) and await busy == "busy"
        assert player.may_hint(7), "a hint answered frees its place"
    finally:
        await player.stop()
        player.close()


class ManualPool:
    """A pool whose jobs end when the test says so: which jobs it was handed, in order."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.jobs: dict[str, asyncio.Future] = {}

    @property
    def started(self) -> list[str]:
        return list(self.jobs)

    def submit(self, fn, name: str) -> asyncio.Future:
        self.jobs[name] = asyncio.get_running_loop().create_future()
        return self.jobs[name]

    async def finish(self, name: str) -> None:
        self.jobs[name].set_result(name)
        for _ in range(3):  # the queue's callbacks run: the next job is handed over
            await asyncio.sleep(0)


async def test_replies_to_people_go_before_reviews_which_never_take_the_last_worker():
    pool = ManualPool(workers=2)
    queue = FairQueue(pool)  # type: ignore[arg-type]
    reviews = [asyncio.ensure_future(queue.run(user, str, f"review-{user}-{n}",
                                               priority=BACKGROUND))
               for user in (1, 2, 3) for n in range(2)]
    await asyncio.sleep(0)
    assert pool.started == ["review-1-0"], "reviews hold all workers but one"
    reply = asyncio.ensure_future(queue.run(9, str, "move-9"))
    await asyncio.sleep(0)
    assert pool.started == ["review-1-0", "move-9"], "a reply finds the free worker"
    second = asyncio.ensure_future(queue.run(8, str, "hint-8"))
    await asyncio.sleep(0)
    await pool.finish("review-1-0")
    assert pool.started[-1] == "hint-8", "a waiting reply goes before the reviews"
    await pool.finish("move-9")
    assert pool.started[-1] == "review-2-0", "then the next user's review"
    for name in ("hint-8", "review-2-0"):
        await pool.finish(name)
    assert await reply == "move-9" and await second == "hint-8"
    while queue.running:
        await pool.finish(pool.started[-1])
    assert await asyncio.gather(*reviews) == [f"review-{u}-{n}" for u in (1, 2, 3)
                                              for n in range(2)]
    # Reviews took turns user by user: 1, 2, 3, then each one's second job.
    assert [n for n in pool.started if n.startswith("review")] == [
        "review-1-0", "review-2-0", "review-3-0", "review-1-1", "review-2-1", "review-3-1"]


async def test_a_short_review_is_not_queued_behind_long_ones():
    """Ten users' long reviews wait; an eleventh user's short one is served in the next round,
    one job per user, not after the hundred jobs queued before it."""
    pool = ManualPool(workers=3)
    queue = FairQueue(pool)  # type: ignore[arg-type]
    long = [asyncio.ensure_future(queue.run(user, str, f"long-{user}-{n}",
                                            priority=BACKGROUND))
            for user in range(1, 11) for n in range(10)]
    await asyncio.sleep(0)
    assert pool.started == ["long-1-0", "long-1-1"], "user 1 was alone: two workers of three"
    short = [asyncio.ensure_future(queue.run(11, str, f"short-{n}", priority=BACKGROUND))
             for n in range(2)]
    await asyncio.sleep(0)
    while "short-1" not in pool.started:
        await pool.finish(next(n for n, job in pool.jobs.items() if not job.done()))
    assert pool.started == ["long-1-0", "long-1-1", *(f"long-{u}-0" for u in range(2, 11)),
                            "short-0", "long-1-2", *(f"long-{u}-1" for u in range(2, 11)),
                            "short-1"]
    for task in (*long, *short):
        task.cancel()
    queue.close()


async def test_reviews_do_not_make_replies_busy():
    """``max_waiting`` bounds the replies waiting; reviews waiting do not count."""
    pool = ManualPool(workers=1)
    queue = FairQueue(pool, max_waiting=2)  # type: ignore[arg-type]
    reviews = [asyncio.ensure_future(queue.run(u, str, f"r-{u}", priority=BACKGROUND))
               for u in range(5)]
    await asyncio.sleep(0)
    replies = [asyncio.ensure_future(queue.run(9, str, f"m-{n}")) for n in range(2)]
    await asyncio.sleep(0)
    with pytest.raises(PoolBusy):
        await queue.run(8, str, "one too many")
    for task in (*reviews, *replies):
        task.cancel()
    queue.close()
