"""The order of a parallel run (tests/conftest.py): the tests marked ``slow`` start first, one
share at the head of each process's block, longest first and balanced; the rest keep their
order; a run in one process is left alone."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import pytest_collection_modifyitems


@dataclass
class Item:
    name: str
    seconds: float | None = None

    def get_closest_marker(self, name: str):
        if name != "slow" or self.seconds is None:
            return None
        return pytest.mark.slow(self.seconds).mark


def ordered(items: list[Item], workers: int, monkeypatch) -> list[str]:
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", str(workers))
    pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    return [item.name for item in items]


def test_slow_tests_head_each_block_of_xdist_split(monkeypatch):
    items = [Item(f"t{i}") for i in range(10)]
    items[3] = Item("slow60", 60)
    items[7] = Item("slow50", 50)
    items[9] = Item("slow20", 20)
    names = ordered(items, 2, monkeypatch)
    # Two blocks of five (xdist splits the ten evenly): slow60 heads the first, slow50 the
    # second, slow20 joins the lighter block (the second: 50 < 60).
    assert len(names) == 10
    assert names[:5] == ["slow60", "t0", "t1", "t2", "t4"]
    assert names[5:7] == ["slow50", "slow20"]
    assert names[7:] == ["t5", "t6", "t8"]


def test_one_process_keeps_the_collection_order(monkeypatch):
    items = [Item("a"), Item("b", 30), Item("c")]
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [item.name for item in items] == ["a", "b", "c"]
