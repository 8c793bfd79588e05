"""How well ``ai.evaluate`` predicts the results of games our AI did not play (``bench.foreign``'s
positions). Not a test: nothing here asserts.

    python -m bench.evaluate_foreign --positions held.jsonl [--jobs 2] [--values values.jsonl]
                                     [--markdown table.md]

For every position, ``ai.evaluate`` with its default budget (seed 0) is compared with the seat's
final result (``ai.result_score``: win 1, draw 0.5, loss 0), per game (Kolory by player count)
and phase (25, 50, 75 % of the game):

- Brier: the mean squared error of the evaluation, and of the best constant in hindsight (the
  mean result of the same positions); ratio = Brier / Brier of the constant (below 1: the
  evaluation knows more than the base rate);
- AUC: the chance that a position the seat went on to win (result above ½) is valued above one
  it went on to lose (below ½), ties counting half;
- sim AUC: the same for ``sim``, the mean result of a few uniformly random playouts from the
  position (a cheap simulation of the continuation, the reference);
- the share of draws, and the evaluation's CPU time per position (p50 and p95).

``--values`` keeps the evaluations (one JSON line per position, in the positions' order) and
reuses those already there, so a table can be redrawn without evaluating again.
"""

from __future__ import annotations

import argparse
import bisect
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor

import ai
import engines
from bench.foreign import PHASES, state_of


def group_name(row: dict) -> str:
    """The table's row name of a position: the game, and its player count when not two."""
    return row["game"] if row["players"] == 2 else f"{row['game']}-{row['players']}"


def brier(values: Sequence[float], results: Sequence[float]) -> float:
    return statistics.fmean((v - r) ** 2 for v, r in zip(values, results, strict=True))


def constant_brier(results: Sequence[float]) -> float:
    """The Brier score of the best constant in hindsight (the mean result)."""
    mean = statistics.fmean(results)
    return statistics.fmean((mean - r) ** 2 for r in results)


def auc(values: Sequence[float], results: Sequence[float]) -> float:
    """The chance that a won position (result above ½) is valued above a lost one (below ½),
    ties half; NaN without both."""
    won = sorted(v for v, r in zip(values, results, strict=True) if r > 0.5)
    lost = sorted(v for v, r in zip(values, results, strict=True) if r < 0.5)
    if not won or not lost:
        return float("nan")
    # For each won value, the lost values below it and those equal to it.
    total = 0.0
    for v in won:
        below = bisect.bisect_left(lost, v)
        equal = bisect.bisect_right(lost, v) - below
        total += below + 0.5 * equal
    return total / (len(won) * len(lost))


def evaluate_row(row: dict) -> dict:
    """``ai.evaluate``'s value of one stored position for its seat (default budget, seed 0),
    with its CPU time."""
    state = state_of(row)
    view = engines.get(row["game"]).view(state, row["seat"])
    start = time.process_time()
    value = ai.evaluate(row["game"], view, row["seat"], seed=0)
    return {"value": value, "seconds": time.process_time() - start}


def evaluations(rows: list[dict], jobs: int, cache: str | None) -> list[dict]:
    """Every row's evaluation, from ``cache`` where it holds them (extended with the rest)."""
    known: list[dict] = []
    if cache:
        try:
            with open(cache) as lines:
                known = [json.loads(line) for line in lines if line.strip()]
        except FileNotFoundError:
            pass
    todo = rows[len(known):]
    if todo:
        with ProcessPoolExecutor(jobs) as pool:
            for done, found in enumerate(pool.map(evaluate_row, todo, chunksize=4)):
                known.append(found)
                if cache:
                    with open(cache, "a") as out:
                        out.write(json.dumps(found) + "\n")
                if done % 20 == 0:
                    print(".", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    return known[:len(rows)]


def _fmt(x: float) -> str:
    return "–" if x != x else f"{x:.2f}"


def table(rows: list[dict], values: list[float], seconds: Iterable[float] | None = None) -> str:
    """The markdown table: per game and phase, then per game, then overall."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        name = group_name(row)
        groups[(name, f"{round(100 * row['phase'])} %")].append(i)
        groups[(name, "all")].append(i)
        groups[("all", "all")].append(i)
    names = sorted({group_name(r) for r in rows})
    phases = [f"{round(100 * p)} %" for p in PHASES]
    lines = ["| game | phase | positions | games | draws | Brier | Brier (constant) | ratio "
             "| AUC | sim AUC | sim Brier ratio |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in [*names, "all"]:
        for part in ([*phases, "all"] if name != "all" else ["all"]):
            index = groups.get((name, part))
            if not index:
                continue
            results = [rows[i]["result"] for i in index]
            mine = [values[i] for i in index]
            sims = [rows[i]["sim"] for i in index]
            ours, constant = brier(mine, results), constant_brier(results)
            if name == "all":
                # Overall: against each game's own constant (the base rates differ).
                constant = statistics.fmean(
                    constant_brier([rows[i]["result"] for i in groups[(g, "all")]])
                    for g in names for _ in groups[(g, "all")])
            games = len({(rows[i]["game"], rows[i]["seed"]) for i in index})
            draws = statistics.fmean(1.0 if rows[i]["draw"] else 0.0 for i in index)
            lines.append(
                f"| {name} | {part} | {len(index)} | {games} | {draws:.0%} | {ours:.3f} "
                f"| {constant:.3f} | {_fmt(ours / constant if constant else float('nan'))} "
                f"| {_fmt(auc(mine, results))} | {_fmt(auc(sims, results))} "
                f"| {_fmt(brier(sims, results) / constant if constant else float('nan'))} |")
    if seconds is not None:
        spent: dict[str, list[float]] = defaultdict(list)
        for row, s in zip(rows, seconds, strict=True):
            spent[group_name(row)].append(s)
        lines += ["", "| game | evaluations | CPU p50 | CPU p95 |", "| --- | ---: | ---: | ---: |"]
        for name in names:
            times = sorted(spent[name])
            lines.append(f"| {name} | {len(times)} | {times[len(times) // 2]:.3f} s "
                         f"| {times[min(len(times) - 1, int(len(times) * 0.95))]:.3f} s |")
    return "\n".join(lines)


def _read(paths: list[str], games: list[str] | None) -> list[dict]:
    rows = []
    for path in paths:
        with open(path) as lines:
            rows.extend(json.loads(line) for line in lines if line.strip())
    return [r for r in rows if not games or r["game"] in games]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", nargs="+", required=True)
    parser.add_argument("--game", action="append")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--values", help="JSON lines cache of the positions' evaluations")
    parser.add_argument("--markdown", help="write the table to this file too")
    args = parser.parse_args(argv)
    rows = _read(args.positions, args.game)
    found = evaluations(rows, args.jobs, args.values)
    text = table(rows, [f["value"] for f in found], [f["seconds"] for f in found])
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()
