"""What every test shares: a bot's worker processes at the test's own priority."""

import pytest

from bot.workers import pool as workers

#: How much lower a bot's worker processes run in production (``bot.workers.pool``).
PRODUCTION_WORKER_NICENESS = workers.WORKER_NICENESS


@pytest.fixture(autouse=True)
def worker_processes_at_the_tests_priority(monkeypatch):
    """A bot's worker processes (AI moves and hints, pictures, reviews) run at the priority of
    the test that started them. In production they run below the bot, so that its own process
    goes first; in a parallel run that would also put them behind every other test's process,
    and a test waiting for one waited for the whole run (hints and pictures took minutes).
    ``tests/bot/workers/test_pool.py`` checks the production priority."""
    monkeypatch.setattr(workers, "WORKER_NICENESS", 0)
