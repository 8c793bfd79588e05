"""The benchmark scripts of ``bench/`` stay runnable: each module imports (one was left
importing names of an evaluation that never landed), and ``bench.evaluate_foreign`` draws its
table from positions ``bench.foreign`` wrote."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import bench
from bench import evaluate_foreign, foreign

MODULES = sorted(m.name for m in pkgutil.iter_modules(bench.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_each_bench_script_imports(name):
    assert importlib.import_module(f"bench.{name}")


def test_the_foreign_positions_table_is_drawn_from_written_positions(tmp_path, capsys):
    positions = tmp_path / "positions.jsonl"
    foreign.main(["--game", "alak", "--games", "1", "--out", str(positions)])
    assert len(positions.read_text().splitlines()) == len(foreign.PHASES)
    table = tmp_path / "table.md"
    values = tmp_path / "values.jsonl"
    evaluate_foreign.main(["--positions", str(positions), "--jobs", "1",
                           "--values", str(values), "--markdown", str(table)])
    text = table.read_text()
    assert "| alak | all | 3 | 1 |" in text and "| all | all |" in text
    kept = values.read_text().splitlines()
    assert len(kept) == 3
    # A second run reads the kept values rather than evaluating again: the same table.
    evaluate_foreign.main(["--positions", str(positions), "--values", str(values),
                           "--markdown", str(table)])
    assert table.read_text() == text and values.read_text().splitlines() == kept
