"""LPPG matches: an AI level against a greedy player, on fixed deals with the seats alternating.
Not a test: nothing here asserts.

    python -m bench.lppg_match [--opponent oneply|greedy ...] [--players 2|4 ...] [--games N]
                               [--first I] [--level hard] [--jobs J] [--out FILE.jsonl]
    python -m bench.lppg_match --report FILE.jsonl ...

Opponents: ``oneply`` (``bench/lppg_oneply.py``, written apart from the AI) and ``greedy``
(``bench/lppg_greedy.py``, the first benchmark player). Game ``i`` is dealt from seed
``DEAL_SEED + i // 2``: games ``2k`` and ``2k + 1`` share a deal and swap the seats (the AI
sits in seat 0 in even games, seat 1 in odd ones; with four players it takes seats 0 and 2 or 1
and 3, a team against a team of two greedy players). Every player sees only its view.

A game scores 1 for the AI's side winning, 0 for losing, 1/2 when nobody wins. The think time
of the AI is the CPU time of its process per decision (the search is sized by counts, not by
the clock, so CPU seconds are the figure to read on a busy machine); placements are reported
apart from all decisions (draws, marks and keeps are quick). The load average is recorded at
the start and the end of every game. One JSON line per game goes to ``--out``, so runs can be
split, resumed (``--resume``) and merged by ``--report``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

import ai
import engines
from bench import lppg_greedy, lppg_oneply

DEAL_SEED = 50_000
OPPONENTS = {"oneply": lppg_oneply.choose, "greedy": lppg_greedy.choose}


def deal_seed(index: int) -> int:
    return DEAL_SEED + index // 2


def play_game(task: tuple[str, str, int, int, float | None]) -> dict:
    """Game ``index`` of ``level`` against ``opponent`` at a table of ``players``."""
    level, opponent, players, index, budget_s = task
    game = engines.get("lppg")
    seed = deal_seed(index)
    ai_side = index % 2
    state = game.new(players, seed=seed)
    rng = random.Random(f"lppg-match:{opponent}:{players}:{index}")
    think: list[tuple[str, float]] = []
    moves: list[str] = []
    load_start = os.getloadavg()[0]
    while state.to_move is not None:
        seat = state.to_move
        view = game.view(state, seat)
        if seat % 2 == ai_side:
            start = time.process_time()
            move = ai.choose("lppg", view, seat, level=level, seed=f"{seed}:{state.ply}",
                             budget_s=budget_s)
            think.append((view.pending, time.process_time() - start))
        else:
            move = OPPONENTS[opponent](view, seat, rng)
        moves.append(str(move))
        state = game.play(state, move)
    winners = state.outcome.winners
    score = 0.5 if not winners else float(any(s % 2 == ai_side for s in winners))
    return {
        "level": level, "opponent": opponent, "players": players, "index": index,
        "deal": seed, "ai_side": ai_side, "score": score, "plies": state.ply,
        "budget_s": budget_s, "think": think,
        "load": [round(load_start, 2), round(os.getloadavg()[0], 2)], "moves": moves,
    }


def _percentile(values: list[float], share: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * share))]


def report(results: list[dict]) -> str:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        groups[(r["level"], r["opponent"], r["players"])].append(r)
    lines = ["| AI | opponent | players | games | score | ± 95% | placements p50 / p95 / max "
             "| all decisions p50 / p95 / max | load average |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (level, opponent, players), rows in sorted(groups.items()):
        scores = [r["score"] for r in rows]
        spread = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) \
            if len(scores) > 1 else float("nan")
        every = [t for r in rows for _, t in r["think"]]
        placing = [t for r in rows for pending, t in r["think"] if pending == "play"]
        loads = [v for r in rows for v in r["load"]]

        def times(values: list[float]) -> str:
            if not values:
                return "–"
            return (f"{_percentile(values, 0.5):.2f} / {_percentile(values, 0.95):.2f} / "
                    f"{max(values):.2f} s")

        lines.append(
            f"| {level} | {opponent} | {players} | {len(rows)} | {statistics.fmean(scores):.2f} "
            f"| {spread:.2f} | {times(placing)} | {times(every)} "
            f"| {min(loads):.1f}–{max(loads):.1f} |")
    return "\n".join(lines)


def _load(paths: list[str]) -> list[dict]:
    games = {}
    for path in paths:
        try:
            with open(path) as f:
                for row in map(json.loads, filter(str.strip, f)):
                    games[(row["level"], row["opponent"], row["players"], row["index"],
                           row.get("budget_s"))] = row
        except FileNotFoundError:
            pass
    return list(games.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponent", action="append", choices=sorted(OPPONENTS))
    parser.add_argument("--players", type=int, action="append", choices=(2, 4))
    parser.add_argument("--games", type=int, default=10, help="games per opponent and table")
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--level", default="hard", choices=ai.LEVELS)
    parser.add_argument("--budget", type=float, default=None, help="budget_s given to the AI")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", help="append one JSON line per game to this file")
    parser.add_argument("--resume", action="store_true",
                        help="with --out: skip the games already in that file")
    parser.add_argument("--report", nargs="+", help="print the table from these files")
    args = parser.parse_args()
    if args.report:
        print(report(_load(args.report)))
        return
    tasks = [(args.level, opponent, players, index, args.budget)
             for opponent in args.opponent or ["oneply"]
             for players in args.players or [2]
             for index in range(args.first, args.first + args.games)]
    if args.out and args.resume:
        done = {(r["level"], r["opponent"], r["players"], r["index"], r.get("budget_s"))
                for r in _load([args.out])}
        tasks = [task for task in tasks if task not in done]
    # Game 0 of every table first, then game 1...: a run stopped early still covers them all.
    tasks.sort(key=lambda task: task[3])
    results = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115 - closed below
    try:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for result in pool.map(play_game, tasks, chunksize=1):
                results.append(result)
                if out:
                    out.write(json.dumps(result) + "\n")
                    out.flush()
                slowest = max((t for _, t in result["think"]), default=0.0)
                print(f"{result['opponent']} {result['players']}p #{result['index']}: "
                      f"{result['score']} (slowest {slowest:.2f} s)", file=sys.stderr, flush=True)
    finally:
        if out:
            out.close()
    print(report(results))


if __name__ == "__main__":
    main()
