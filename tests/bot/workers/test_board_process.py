"""A worker process spoken to over a pipe from the event loop (``bot.workers.board_process``): jobs
and their errors come back to their callers in any order, a stray print breaks nothing, a
worker that dies fails its jobs and is replaced, and a worker never outlives its bot."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import subprocess
import sys
import time

import pytest

from bot.workers.board_process import DrawingProcess, WorkerGone
from tests.bot.workers.test_pool import PROJECT_ROOT, assert_worker_ends_with_killed_bot, running


async def test_jobs_run_in_another_process_and_their_errors_reach_their_callers():
    worker = DrawingProcess()
    try:
        pid = await worker.run(os.getpid)
        assert pid != os.getpid() and worker.pid == pid
        # Many at once, answered in order, each to its own caller.
        results = await asyncio.gather(*(worker.run(math.factorial, n) for n in range(30)))
        assert results == [math.factorial(n) for n in range(30)]
        with pytest.raises(ValueError):
            await worker.run(math.factorial, -1)
        # A job that prints writes to the worker's standard error, not into the answers.
        assert await worker.run(print, "a stray line") is None
        assert await worker.run(math.factorial, 5) == 120
        assert worker.pending == 0
    finally:
        await worker.close()
    with pytest.raises(RuntimeError):
        await worker.run(os.getpid)


async def test_a_worker_that_dies_fails_its_jobs_and_the_next_job_starts_another():
    worker = DrawingProcess()
    try:
        first = await worker.run(os.getpid)
        sleeping = asyncio.ensure_future(worker.run(time.sleep, 30))
        await asyncio.sleep(0.2)  # the job is running
        os.kill(first, signal.SIGKILL)
        with pytest.raises(WorkerGone):
            await asyncio.wait_for(sleeping, 10)
        second = await worker.run(os.getpid)
        assert second not in (first, os.getpid())
    finally:
        await worker.close()


async def test_the_worker_warms_up_before_its_first_job():
    worker = DrawingProcess(warm="tests.bot.workers.test_board_process:mark_warm")
    try:
        assert await worker.run(warmed_by) == "mark_warm"
    finally:
        await worker.close()


def mark_warm() -> None:
    """In the worker, before its first job."""
    os.environ["WARMED_BY"] = "mark_warm"


def warmed_by() -> str | None:
    """In the worker: what warmed it up."""
    return os.environ.get("WARMED_BY")


async def test_a_worker_never_inherits_the_bots_secrets(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "not-for-workers")
    monkeypatch.setenv("BOT_DATABASE", "postgresql://bot:secret@db/bot")
    monkeypatch.setenv("BOT_LANGUAGE", "fr")
    worker = DrawingProcess()
    try:
        seen = await worker.run(environment_of, ("DISCORD_TOKEN", "BOT_DATABASE", "BOT_LANGUAGE"))
        assert seen == {"DISCORD_TOKEN": None, "BOT_DATABASE": None, "BOT_LANGUAGE": "fr"}
    finally:
        await worker.close()


def environment_of(names: tuple[str, ...]) -> dict[str, str | None]:
    """In the worker: the values of ``names`` in its environment."""
    return {name: os.environ.get(name) for name in names}


#: A bot that starts a drawing process, says its pid, and waits to be killed.
_STARTS_A_WORKER = """
import asyncio, os
from bot.workers.board_process import DrawingProcess

async def main():
    worker = DrawingProcess()
    print(await worker.run(os.getpid), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


def test_a_drawing_process_ends_with_a_killed_bot():
    assert_worker_ends_with_killed_bot(_STARTS_A_WORKER)


#: A bot that gives its drawing process a job of two seconds, says the worker's pid, and waits
#: to be killed; the worker's standard error is the bot's (as in production).
_KILLED_WHILE_ITS_WORKER_DRAWS = """
import asyncio, os, time
from bot.workers.board_process import DrawingProcess

async def main():
    worker = DrawingProcess()
    pid = await worker.run(os.getpid)
    job = asyncio.ensure_future(worker.run(time.sleep, 2))
    await asyncio.sleep(0.2)  # the job is on its way, or running
    print(pid, flush=True)
    await job

asyncio.run(main())
"""


def test_a_worker_whose_bot_was_killed_mid_job_exits_quietly(tmp_path):
    """kill -9 of the bot while its worker draws: the worker's answer has nowhere to go, and
    it ends without a word (no BrokenPipeError traceback in the bot's log)."""
    log = tmp_path / "stderr.log"
    with log.open("w") as stderr:
        bot = subprocess.Popen([sys.executable, "-c", _KILLED_WHILE_ITS_WORKER_DRAWS],
                               stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=PROJECT_ROOT)
        try:
            worker = int(bot.stdout.readline())
            bot.send_signal(signal.SIGKILL)
            bot.wait(30)
            deadline = time.monotonic() + 30
            while running(worker):
                assert time.monotonic() < deadline, "the worker outlived the bot"
                time.sleep(0.05)
        finally:
            bot.kill()
            bot.wait(30)
    written = log.read_text()
    assert written == "", written
