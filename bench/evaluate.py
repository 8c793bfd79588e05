"""Calibration of ``ai.evaluate`` (issue 30; README "AI" section). Not a test: nothing here asserts.

    python -m bench.evaluate [--game NAME ...] [--games N] [--jobs J] [--every K]
                             [--out positions.jsonl] [--report positions.jsonl ...]

Plays N games per game between the AI levels (easy, medium and hard in turn against each
other, each move with ``--think`` seconds at most), evaluates every K-th position for one seat
(the seats in turn) with the default evaluation budget, and compares the values with the final
results: the Brier score (mean squared error) of the evaluation against that of the best
constant in hindsight (the mean result of those positions) and of 0.5, at the start, middle and
end of the games (thirds of each game's plies). Skill = 1 - Brier / Brier of the best constant:
above 0 means the evaluation predicts better than any constant. Also reported: the evaluation's
CPU time per position (p50, p95).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

import ai
import engines
from ai.evaluate import result_score

GAMES = ("alak", "palam", "palago", "polygo", "kolory", "lppg")
PAIRINGS = (("easy", "medium"), ("medium", "hard"), ("easy", "hard"))
PLAYERS = {"kolory": 3}
OPTIONS = {"alak": {"length": 11}}
PHASES = ("start", "middle", "end")


def play_and_evaluate(task: tuple[str, int, float, int]) -> list[dict]:
    """One game between two levels, then the evaluation of every ``every``-th position."""
    name, index, think, every = task
    game = engines.get(name)
    players = PLAYERS.get(name, 2)
    a, b = PAIRINGS[index % len(PAIRINGS)]
    levels = [a if (seat + index) % 2 == 0 else b for seat in range(players)]
    seed = 7919 * index + 3
    state = game.new(players, seed=seed, options=OPTIONS.get(name))
    states = [state]
    while state.to_move is not None and len(states) < 1500:
        seat = state.to_move
        move = ai.choose(name, game.view(state, seat), seat, level=levels[seat], seed=seed,
                         budget_s=think)
        state = game.play(state, move)
        states.append(state)
    if state.outcome is None:
        return []
    total = len(states) - 1
    rows = []
    for ply in range(0, total, every):
        seat = (ply // every) % players
        view = game.view(states[ply], seat)
        start = time.process_time()
        value = ai.evaluate(name, view, seat, seed=index)
        spent = time.process_time() - start
        rows.append({
            "game": name, "index": index, "ply": ply, "plies": total, "seat": seat,
            "levels": levels, "value": value, "seconds": spent,
            "result": result_score(name, state.outcome, players, seat),
        })
    return rows


def phase(row: dict) -> str:
    return PHASES[min(2, 3 * row["ply"] // max(1, row["plies"]))]


def brier(pairs: list[tuple[float, float]]) -> float:
    return statistics.fmean((v - r) ** 2 for v, r in pairs)


def report(rows: list[dict]) -> str:
    lines = ["| game | phase | positions | Brier (evaluation) | Brier (best constant) "
             "| Brier (0.5) | skill |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["game"], phase(row))].append(row)
        groups[(row["game"], "all")].append(row)
    for name in GAMES:
        for part in (*PHASES, "all"):
            group = groups.get((name, part))
            if not group:
                continue
            results = [r["result"] for r in group]
            mean = statistics.fmean(results)
            ours = brier([(r["value"], r["result"]) for r in group])
            constant = brier([(mean, x) for x in results])
            half = brier([(0.5, x) for x in results])
            skill = 1 - ours / constant if constant else float("nan")
            lines.append(f"| {name} | {part} | {len(group)} | {ours:.3f} | {constant:.3f} "
                         f"| {half:.3f} | {skill:+.2f} |")
    lines += ["", "| game | evaluations | p50 | p95 | max |", "| --- | ---: | ---: | ---: | ---: |"]
    for name in GAMES:
        times = sorted(r["seconds"] for r in rows if r["game"] == name)
        if times:
            lines.append(f"| {name} | {len(times)} | {times[len(times) // 2]:.3f} s "
                         f"| {times[min(len(times) - 1, int(len(times) * 0.95))]:.3f} s "
                         f"| {times[-1]:.3f} s |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--think", type=float, default=0.2,
                        help="seconds per move at most for the players (default 0.2)")
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out")
    parser.add_argument("--report", nargs="*")
    args = parser.parse_args(argv)
    if args.report:
        rows = []
        for path in args.report:
            with open(path) as lines:
                rows.extend(json.loads(line) for line in lines if line.strip())
        print(report(rows))
        return
    tasks = [(name, i, args.think, args.every) for name in (args.game or GAMES)
             for i in range(args.games)]
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_rows in pool.map(play_and_evaluate, tasks):
            rows.extend(game_rows)
            if args.out:
                with open(args.out, "a") as out:
                    out.writelines(json.dumps(r) + "\n" for r in game_rows)
            print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(report(rows))


if __name__ == "__main__":
    main()
