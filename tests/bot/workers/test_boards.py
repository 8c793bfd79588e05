"""Move boards drawn in the board workers (``bot.workers.boards``): a worker process draws exactly
the image the bot's own process would, at the bot's priority, warmed before its first board, and a
worker that dies costs no board."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import pytest
import pytest_asyncio

import engines
import render
from bot.workers.board_process import WorkerGone
from bot.workers.boards import BoardDrawer


def mid_game(game_name: str, plies: int = 12):
    """A position some plies into a seeded random game at the game's most players, and the
    text of its last move."""
    game = engines.get(game_name)
    rng = random.Random(7)
    state = game.new(max(game.allowed_player_counts()), seed=7)
    move = None
    for _ in range(plies):
        if state.to_move is None:
            break
        move = rng.choice(list(game.legal_moves(state)))
        state = game.play(state, move)
    return state, None if move is None else str(move)


# One worker process for the module (starting one costs about a second), on one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def drawer():
    boards = BoardDrawer(workers=1, kind="process")
    await boards.warm_up()  # as the bot does when it starts
    yield boards
    await boards.close()


@pytest.mark.parametrize("game_name", render.supported_games())
async def test_a_worker_process_draws_the_same_board_as_the_bot_would(drawer, game_name):
    state, last_move = mid_game(game_name)
    options = dict(viewer=None, last_move=last_move, players=["Ann", "Bob", "Cy", "Di", "Ed"],
                   lang="fr", status=None, clock="due Mon 14:00 UTC")
    in_threads = drawer.drawn_in_threads
    drawn = await drawer.board(game_name, state, **options)
    assert drawn == render.board(game_name, state, **options)
    assert drawer.drawn_in_threads == in_threads  # it really was the worker process
    assert await drawer.run(os.getpid) != os.getpid()


async def test_a_worker_process_draws_a_players_hand_and_refuses_a_game_without_hands(drawer):
    state, _ = mid_game("lppg")
    view = engines.get("lppg").view(state, 1)
    drawn = await drawer.hand("lppg", view, 1, players=["Ann", "Bob", "Cy", "Di"], lang="en")
    assert drawn == render.hand("lppg", view, 1, players=["Ann", "Bob", "Cy", "Di"], lang="en")
    with pytest.raises(ValueError):
        await drawer.hand("alak", mid_game("alak")[0], 0)


async def test_board_workers_run_at_the_bots_priority_and_are_warm_before_their_first_board(
        drawer):
    await drawer.warm_up()
    assert await drawer.run(os.getpriority, os.PRIO_PROCESS, 0) == own_priority_now()
    # The worker built every game's palette before its first job (render caches it).
    built = await drawer.run(palettes_built)
    assert built == len(render.supported_games())


def own_priority_now() -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)


def palettes_built() -> int:
    """In the worker: how many games' palettes are cached already (run as its job)."""
    return render._palette.cache_info().currsize


async def test_a_board_whose_worker_was_killed_is_still_drawn_and_a_new_worker_takes_over(
        drawer):
    state, last_move = mid_game("alak")
    expected = render.board("alak", state, last_move=last_move)
    worker = await drawer.run(os.getpid)
    os.kill(worker, signal.SIGKILL)
    drawer.restart_delay = 0.5
    in_threads = drawer.drawn_in_threads
    # Asked at once: the job is lost with the process, and the board drawn in a thread; so
    # are the next ones for a while, then a new process draws them.
    assert await drawer.board("alak", state, last_move=last_move) == expected
    assert await drawer.board("alak", state, last_move=last_move) == expected
    assert drawer.drawn_in_threads == in_threads + 2
    await asyncio.sleep(drawer.restart_delay)
    assert await drawer.board("alak", state, last_move=last_move) == expected
    await drawer.warm_up()
    successor = await drawer.run(os.getpid)
    assert successor not in (worker, os.getpid())


def warm_behind_gate() -> None:
    """A worker's warm-up (run in the worker) that lasts until the test's gate file exists."""
    gate = os.environ["BOARDS_TEST_GATE"]
    while not os.path.exists(gate):
        time.sleep(0.01)


async def test_no_board_waits_for_a_worker_to_start_nor_for_one_that_died(tmp_path,
                                                                         monkeypatch):
    gate = tmp_path / "gate"
    monkeypatch.setenv("BOARDS_TEST_GATE", str(gate))
    boards = BoardDrawer(workers=1, kind="process", warm=f"{__name__}:warm_behind_gate")
    state, last_move = mid_game("alak")
    expected = render.board("alak", state, last_move=last_move)
    # Guards against a hang only; a board that waits for the worker never gets drawn here.
    guard = 60
    try:
        # The worker is still warming up (held by the gate): the board is drawn in a thread.
        drawn = await asyncio.wait_for(boards.board("alak", state, last_move=last_move), guard)
        assert drawn == expected and boards.drawn_in_threads == 1
        gate.touch()
        await asyncio.wait_for(boards.warm_up(), guard)  # the worker that was starting
        worker = await boards.run(os.getpid)
        assert await boards.board("alak", state, last_move=last_move) == expected
        assert boards.drawn_in_threads == 1, "the warm worker drew it"
        # The worker dies: the board it is asked fails at once with its pipe, and is drawn in
        # a thread; and the worker started after it is not waited for either.
        gate.unlink()
        boards.restart_delay = 0.0
        os.kill(worker, signal.SIGKILL)
        drawn = await asyncio.wait_for(boards.board("alak", state, last_move=last_move), guard)
        assert drawn == expected and boards.drawn_in_threads == 2
        drawn = await asyncio.wait_for(boards.board("alak", state, last_move=last_move), guard)
        assert drawn == expected and boards.drawn_in_threads == 3
        gate.touch()
        await asyncio.wait_for(boards.warm_up(), guard)
        assert await boards.board("alak", state, last_move=last_move) == expected
        assert boards.drawn_in_threads == 3
        assert await boards.run(os.getpid) not in (worker, os.getpid())
    finally:
        gate.touch()
        await boards.close()


async def test_a_board_waiting_in_a_worker_that_dies_is_drawn_in_a_thread_at_once():
    """The board is queued in the worker behind a job that never ends; the worker is killed:
    the board's job fails with it, and the board comes from a thread (the worker would never
    have answered)."""
    boards = BoardDrawer(workers=1, kind="process")
    state, last_move = mid_game("alak")
    expected = render.board("alak", state, last_move=last_move)
    try:
        await asyncio.wait_for(boards.warm_up(), 60)
        worker = await boards.run(os.getpid)
        stuck = asyncio.ensure_future(boards.run(time.sleep, 3600))
        board = asyncio.ensure_future(boards.board("alak", state, last_move=last_move))
        while boards._processes[0].pending < 2:  # both jobs are in the worker's hands
            await asyncio.sleep(0.01)
        assert not board.done() and boards.drawn_in_threads == 0
        os.kill(worker, signal.SIGKILL)
        assert await asyncio.wait_for(board, 60) == expected
        assert boards.drawn_in_threads == 1
        with pytest.raises(WorkerGone):
            await stuck
    finally:
        await boards.close()


async def test_boards_in_threads_share_the_bots_process():
    boards = BoardDrawer(workers=1, kind="thread")
    try:
        state, last_move = mid_game("palago")
        await boards.warm_up()
        drawn = await boards.board("palago", state, last_move=last_move)
        assert drawn == render.board("palago", state, last_move=last_move)
        assert await boards.run(os.getpid) == os.getpid()
    finally:
        await boards.close()


@pytest.mark.parametrize("kind", ["thread", "process"])
async def test_a_closed_drawer_draws_nothing(kind):
    boards = BoardDrawer(workers=1, kind=kind)
    await boards.close()
    with pytest.raises(RuntimeError):
        await boards.board("alak", engines.get("alak").new(2, seed=0))
