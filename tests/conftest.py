"""What every test shares: a bot's worker processes at the test's own priority; in a parallel
run, the slow tests first."""

import os
from itertools import islice

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a parallel run (``make test``), each process starts with its share of the tests marked
    ``slow``. pytest-xdist's worksteal hands each of the N processes a contiguous block of the
    collection, then moves tests from the back of a busy block to an idle process; a slow test
    at the back of a block would start last and keep the run waiting for it alone. So the slow
    tests are dealt out to the heads of the blocks, the longest first, each to the block with
    the least slow time so far (``slow(seconds)``). Every process collects the same order (it
    depends on the collection and N only), as xdist requires."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    slow = [item for item in items if item.get_closest_marker("slow")]
    if workers < 2 or not slow:
        return
    rest = iter([item for item in items if not item.get_closest_marker("slow")])
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for item in sorted(slow, key=lambda item: -_slow_seconds(item)):
        lightest = loads.index(min(loads))
        heads[lightest].append(item)
        loads[lightest] += _slow_seconds(item)
    ordered: list[pytest.Item] = []
    remaining = len(items)
    for block, head in enumerate(heads):
        size = remaining // (workers - block)  # xdist's split of the collection
        remaining -= size
        ordered += head + list(islice(rest, max(0, size - len(head))))
    ordered += list(rest)
    items[:] = ordered


def _slow_seconds(item: pytest.Item) -> float:
    marker = item.get_closest_marker("slow")
    return float(marker.args[0]) if marker and marker.args else 10.0
