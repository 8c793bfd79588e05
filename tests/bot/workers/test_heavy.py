"""Heavy drawings: each picture drawn once and reused, users limited one at a time and a few a
minute, a full pool asks everybody to wait, and a replay drawn in a worker process is the one
drawn in the bot's own."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

import engines
import render
from bot.core.i18n import t
from bot.services.clocks import ReplaySource
from bot.workers.heavy import HeavyBusy, HeavyWork, PictureCache, UserLimits, replay_gif, replay_key
from bot.workers.pool import WorkerPool


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_user_draws_one_at_a_time_and_a_few_a_minute():
    clock = FakeClock()
    limits = UserLimits(at_once=1, per_window=3, window=60.0, clock=clock)
    with limits.hold(1):
        with pytest.raises(HeavyBusy) as error:
            limits.check(1)
        assert error.value.key == "errors.heavy.wait"
        limits.check(2)  # others are not held up
    for _ in range(2):
        limits.check(1)
        with limits.hold(1):
            pass
    with pytest.raises(HeavyBusy):
        limits.check(1)  # three started within the minute
    clock.now = 59.9
    with pytest.raises(HeavyBusy):
        limits.check(1)
    clock.now = 60.0
    limits.check(1)  # the first one left the window


def test_the_wait_message_is_translated():
    for key in ("errors.heavy.wait", "errors.heavy.busy"):
        english, french = t(key, "en"), t(key, "fr")
        assert "wait a moment" in english and "patientez" in french


def test_the_cache_keeps_the_most_recently_used_within_its_size():
    cache = PictureCache(max_bytes=10)
    cache.put("a", b"1234")
    cache.put("b", b"1234")
    assert cache.get("a") == b"1234"  # now the most recent
    cache.put("c", b"1234")
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (b"1234", None, b"1234")
    cache.put("huge", b"x" * 11)
    assert cache.get("huge") is None and len(cache) == 2


class Gate:
    """A drawing that waits for the test, counting how often it ran."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.calls = 0

    def draw(self, value: bytes) -> bytes:
        self.calls += 1
        if not self.open.wait(30):
            raise TimeoutError("the test never opened the gate")
        return value


@pytest.fixture
def heavy():
    work = HeavyWork(WorkerPool("test", workers=2, kind="thread"), max_jobs=2)
    yield work
    work.close()


async def test_a_picture_is_drawn_once_for_everyone_who_asks_and_then_reused(heavy):
    gate = Gate()
    waiting = [asyncio.create_task(heavy.run("k", gate.draw, b"gif")) for _ in range(5)]
    await asyncio.sleep(0)
    waiting[0].cancel()  # one who gives up does not stop the drawing for the others
    gate.open.set()
    assert await asyncio.gather(*waiting[1:]) == [b"gif"] * 4
    assert await heavy.run("k", gate.draw, b"other") == b"gif"
    assert gate.calls == 1 and heavy.cached("k") == b"gif"


async def test_a_failed_drawing_is_not_kept(heavy):
    def broken() -> bytes:
        raise RuntimeError("renderer exploded")

    with pytest.raises(RuntimeError):
        await heavy.run("k", broken)
    assert heavy.cached("k") is None
    assert await heavy.run("k", bytes, 3) == b"\0\0\0"


async def test_a_full_pool_asks_everybody_to_wait(heavy):
    gate = Gate()
    with heavy.admit(1):
        first = asyncio.ensure_future(heavy.run(None, gate.draw, b"1"))
        with heavy.admit(2):
            second = asyncio.ensure_future(heavy.run(None, gate.draw, b"2"))
            await asyncio.sleep(0)
            with pytest.raises(HeavyBusy) as error, heavy.admit(3):
                pass
            assert error.value.key == "errors.heavy.busy"
            gate.open.set()
            assert await asyncio.gather(first, second) == [b"1", b"2"]
    with heavy.admit(3):
        pass


def played_source(name: str, plies: int, seed: int = 11) -> ReplaySource:
    game = engines.get(name)
    state = game.new(players=2, seed=seed)
    moves: list[str] = []
    rng = random.Random(seed)
    while state.outcome is None and len(moves) < plies:
        move = rng.choice(list(game.legal_moves(state)))
        moves.append(str(move))
        state = game.play(state, move)
    return ReplaySource(7, len(moves) + 1, name, 2, seed, {}, tuple(moves), None)


@pytest.mark.parametrize("name", ["alak", "kolory"])
async def test_a_replay_drawn_in_a_worker_process_is_the_bots_own(name):
    """The worker gets the game's moves, not its states (Kolory's do not pickle), replays them
    there, and draws exactly what the bot would have drawn itself."""
    source = played_source(name, plies=8)
    names = ("Ann", "Bob")
    work = HeavyWork.create(workers=1, kind="process")
    try:
        gif = await work.run(replay_key(source, names), replay_gif, source, names)
    finally:
        work.close()
    assert gif == render.replay(name, source.public_states(), list(names))
    assert gif[:6] == b"GIF89a"


def test_the_replay_key_and_repr_leave_the_seed_out():
    source = played_source("alak", plies=4, seed=987_654_321_987)
    assert "987654321987" not in repr(source)
    assert 987_654_321_987 not in replay_key(source, ("Ann", "Bob"))
