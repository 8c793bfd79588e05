"""The worker pool: jobs run elsewhere (a process at a lower priority, or a thread), the pool
is bounded, and a job is counted until it really ends."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.workers import pool as workers
from bot.workers.pool import PoolBusy, WorkerPool
from tests.conftest import PRODUCTION_WORKER_NICENESS

#: Where the ``bot`` package is, for the scripts run as bots.
PROJECT_ROOT = str(Path(__file__).resolve().parents[3])


def own_priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)


async def test_a_process_pool_runs_jobs_in_another_process_at_a_lower_priority(monkeypatch):
    # As in production (the tests' bots keep their workers at their own priority).
    monkeypatch.setattr(workers, "WORKER_NICENESS", PRODUCTION_WORKER_NICENESS)
    pool = WorkerPool("test", workers=1)
    try:
        assert await pool.run(math.factorial, 20) == math.factorial(20)
        worker = await pool.run(os.getpid)
        assert worker != os.getpid()
        niceness = await pool.run(own_priority)
        assert niceness == min(19, own_priority() + PRODUCTION_WORKER_NICENESS)
        with pytest.raises(ValueError):
            await pool.run(math.factorial, -1)  # a job's error reaches the caller
        assert pool.jobs == 0
    finally:
        pool.close()


async def test_a_worker_process_forgets_the_bots_secrets(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "not-for-workers")
    monkeypatch.setenv("BOT_LANGUAGE", "fr")
    pool = WorkerPool("test", workers=1)
    try:
        assert await pool.run(os.getenv, "DISCORD_TOKEN") is None
        assert await pool.run(os.getenv, "BOT_LANGUAGE") == "fr"
    finally:
        pool.close()


async def test_a_full_pool_refuses_at_once_and_counts_jobs_until_they_end():
    pool = WorkerPool("test", workers=1, kind="thread", max_jobs=2)
    release = threading.Event()
    try:
        first = pool.submit(release.wait, 30)
        second = pool.submit(release.wait, 30)
        assert pool.jobs == 2 and not pool.has_room()
        with pytest.raises(PoolBusy):
            pool.submit(release.wait, 30)
        # Whoever awaited the running job gives up: the job still holds its place until it
        # ends; the waiting one is cancelled and frees its place.
        first.cancel()
        second.cancel()
        for _ in range(5):  # the cancellation and the count go through the loop
            await asyncio.sleep(0)
        assert pool.jobs == 1
        release.set()
        while pool.jobs:  # the running job ends in its thread, then tells the loop
            await asyncio.sleep(0.01)
        assert pool.has_room()
        assert await pool.run(threading.current_thread) is not threading.current_thread()
    finally:
        release.set()
        pool.close()


async def test_a_closed_pool_takes_no_more_jobs():
    pool = WorkerPool("test", kind="thread")
    assert await pool.run(abs, -3) == 3
    pool.close()
    with pytest.raises(RuntimeError):
        pool.submit(abs, -3)


#: A bot that starts a worker, says its pid, and waits to be killed.
_STARTS_A_WORKER = """
import asyncio, os
from bot.workers.pool import WorkerPool

async def main():
    pool = WorkerPool("test")
    print(await pool.run(os.getpid), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


def running(pid: int) -> bool:
    """Is ``pid`` a live process (not gone, not a zombie waiting to be reaped)? Linux's /proc."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return not stat.read().rsplit(") ", 1)[1].startswith("Z")
    except (FileNotFoundError, ProcessLookupError):
        return False


def test_a_worker_process_ends_with_a_killed_bot():
    assert_worker_ends_with_killed_bot(_STARTS_A_WORKER)


def assert_worker_ends_with_killed_bot(script: str) -> None:
    """Run ``script`` (a bot that starts a worker, prints its pid and waits), SIGKILL it, and
    check that the worker does not outlive it."""
    bot = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                           cwd=PROJECT_ROOT)
    try:
        worker = int(bot.stdout.readline())
        assert running(worker)
        bot.send_signal(signal.SIGKILL)
        bot.wait(30)
        deadline = time.monotonic() + 30
        while running(worker):
            assert time.monotonic() < deadline, "the worker outlived the bot"
            time.sleep(0.1)
    finally:
        bot.kill()
        bot.wait(30)


def test_a_pool_is_processes_or_threads_with_at_least_one_worker():
    with pytest.raises(ValueError):
        WorkerPool("test", kind="fiber")
    with pytest.raises(ValueError):
        WorkerPool("test", workers=0)
