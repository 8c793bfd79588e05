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
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor

import engines
from ai.evaluate import CALIBRATION, calibration_group, estimate, features
from bench.foreign import PHASES, state_of

#: The ridge penalty of the calibration's fit (the weights stay small where data say little).
RIDGE = 1.0


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


def estimate_row(row: dict) -> dict:
    """The estimate behind ``ai.evaluate``'s value of one stored position (before calibration,
    which costs nothing), with its CPU time."""
    state = state_of(row)
    view = engines.get(row["game"]).view(state, row["seat"])
    start = time.process_time()
    raw = estimate(row["game"], view, row["seat"], seed=0)
    return {"estimate": raw, "seconds": time.process_time() - start}


def estimates(rows: list[dict], jobs: int, cache: str | None) -> list[dict]:
    """Every row's estimate, from ``cache`` where it holds them (extended with the rest)."""
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
            for done, found in enumerate(pool.map(estimate_row, todo, chunksize=4)):
                known.append(found)
                if cache:
                    with open(cache, "a") as out:
                        out.write(json.dumps(found) + "\n")
                if done % 20 == 0:
                    print(".", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    return known[:len(rows)]


def feature_rows(rows: list[dict], found: list[dict]) -> list[tuple[float, ...]]:
    """Each position's calibration features (``ai.evaluate.features``) from its estimate."""
    game_views = []
    for row, f in zip(rows, found, strict=True):
        view = engines.get(row["game"]).view(state_of(row), row["seat"])
        game_views.append(features(row["game"], view, row["seat"], f["estimate"]))
    return game_views


def values(rows: list[dict], xs: list[tuple[float, ...]],
           weights: dict[str, tuple[float, ...]]) -> list[float]:
    """``ai.evaluate``'s values with the calibration ``weights``."""
    found = []
    for row, x in zip(rows, xs, strict=True):
        w = weights[calibration_group(row["game"], row["players"])]
        found.append(1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True)))))
    return found


def fit(xs: list[tuple[float, ...]], results: list[float], ridge: float = RIDGE,
        steps: int = 30) -> tuple[float, ...]:
    """Logistic regression of the results (0, ½, 1: the log-loss with fractional targets) on
    the features, without intercept, with a ridge penalty: Newton steps."""
    size = len(xs[0])
    w = [0.0] * size
    for _ in range(steps):
        grad = [ridge * wi for wi in w]
        hess = [[ridge if i == j else 0.0 for j in range(size)] for i in range(size)]
        for x, y in zip(xs, results, strict=True):
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
            for i in range(size):
                grad[i] += (p - y) * x[i]
                for j in range(size):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return tuple(round(wi, 3) for wi in w)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def fitted(rows: list[dict], xs: list[tuple[float, ...]]) -> dict[str, tuple[float, ...]]:
    """The calibration of every group, fitted on ``rows``."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        groups[calibration_group(row["game"], row["players"])].append(i)
    return {name: fit([xs[i] for i in index], [rows[i]["result"] for i in index])
            for name, index in sorted(groups.items())}


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
    parser.add_argument("--estimates", help="JSON lines cache of the positions' estimates")
    parser.add_argument("--fit", nargs="+", help="fit the calibration on these positions and "
                        "measure it (instead of ai.evaluate's own CALIBRATION)")
    parser.add_argument("--fit-estimates", help="JSON lines cache of the --fit estimates")
    parser.add_argument("--markdown", help="write the table to this file too")
    args = parser.parse_args(argv)
    weights = CALIBRATION
    if args.fit:
        train = _read(args.fit, args.game)
        train_xs = feature_rows(train, estimates(train, args.jobs, args.fit_estimates))
        weights = {**CALIBRATION, **fitted(train, train_xs)}
        print("CALIBRATION = {")
        for name, w in weights.items():
            print(f'    "{name}": {w},')
        print("}")
    rows = _read(args.positions, args.game)
    found = estimates(rows, args.jobs, args.estimates)
    text = table(rows, values(rows, feature_rows(rows, found), weights),
                 [f["seconds"] for f in found])
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()
