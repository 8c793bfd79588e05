"""AI strength and think times (issue 15; README "AI" table). Not a test: nothing here asserts.

    python -m bench.ai [--game NAME ...] [--pairing A-B ...] [--games N] [--jobs J]
                       [--out results.jsonl] [--report results.jsonl ...]

A pairing ``A-B`` plays N games of A against B with alternating seats (A is seat 0 in even
games). Players: the AI levels ``easy``, ``medium``, ``hard``, and the baselines ``random``
(uniform over the legal moves), ``flatmc`` (flat Monte Carlo: each legal move, at most
``FLAT_MOVES`` of them drawn at random, gets ``FLAT_PLAYOUTS`` random playouts; best mean) and
``greedy`` (LPPG: the rules-aware greedy player below). Every player sees only its view.

A result line per game is appended to ``--out`` (JSON lines), so long runs can be split and
merged; ``--report`` prints the tables from such files: the score of A per pairing with its game
count and a 95% interval, think times per level (CPU seconds of the worker, p50/p95), and an
Elo rating per player fitted to all the games of a game (``random`` anchored at 0).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

import ai
import engines

GAMES = ("alak", "palam", "palago", "polygo", "kolory", "lppg")
PERFECT_INFORMATION = ("alak", "palam", "palago", "polygo", "kolory")
DEFAULT_PAIRINGS = {
    name: ("hard-random", "hard-flatmc" if name in PERFECT_INFORMATION else "hard-greedy",
           "hard-medium", "medium-easy")
    for name in GAMES
}
FLAT_MOVES = 40
FLAT_PLAYOUTS = 4
#: Polygo's random games last hundreds of plies (40 ms each with the engine): its flat Monte
#: Carlo playouts stop after this many plies and are scored by area (stones and surrounded
#: cells), which keeps a flat Monte Carlo move near 6 s.
FLAT_PLIES = {"polygo": 60}
#: A game that runs this long is stopped and scored as a draw (reported as "stopped").
MAX_PLIES = 1500


# ----- baseline players ---------------------------------------------------------------------


def random_player(game, view, seat: int, rng: random.Random) -> str:
    moves = game.legal_moves(view)
    return str(moves[rng.randrange(len(moves))])


def _with_fresh_seed(view, rng: random.Random):
    """The view with a random seed where the real one was removed, so chance (Kolory's next
    first player) is drawn afresh in playouts instead of read from a stand-in seed."""
    if getattr(view, "seed", 0) is None:
        return dataclasses.replace(view, seed=rng.randrange(2**62))
    return view


def _random_playout(game, state, seat: int, rng: random.Random) -> float:
    plies = FLAT_PLIES.get(game.name, MAX_PLIES)
    while state.to_move is not None and plies > 0:
        moves = game.legal_moves(state)
        state = game.play(state, moves[rng.randrange(len(moves))])
        plies -= 1
    if state.outcome is None:
        from ai.polygo import Board

        area = Board.from_view(state).area()
        return 1.0 if area[seat] > area[1 - seat] else 0.5 if area[0] == area[1] else 0.0
    return ai.core.outcome_rewards(state.outcome.winners, state.players)[seat]


def flatmc_player(game, view, seat: int, rng: random.Random) -> str:
    moves = list(game.legal_moves(view))
    if len(moves) > FLAT_MOVES:
        moves = rng.sample(moves, FLAT_MOVES)
    best, best_mean = moves[0], -1.0
    for move in moves:
        total = 0.0
        for _ in range(FLAT_PLAYOUTS):
            start = game.play(_with_fresh_seed(view, rng), move)
            total += _random_playout(game, start, seat, rng)
        if total / FLAT_PLAYOUTS > best_mean:
            best, best_mean = move, total / FLAT_PLAYOUTS
    return str(best)


def greedy_player(game, view, seat: int, rng: random.Random) -> str:
    from bench.lppg_greedy import choose

    return choose(view, seat, rng)


BASELINES = {"random": random_player, "flatmc": flatmc_player, "greedy": greedy_player}


# ----- one game -----------------------------------------------------------------------------


def play_game(task: tuple) -> dict:
    """One game of ``a`` against ``b``; ``a`` sits in seat ``index % 2`` (with more players,
    ``a`` takes every other seat from there: LPPG's four players are two teams)."""
    name, a, b, index = task[:4]
    table = task[4] if len(task) > 4 else 2
    game = engines.get(name)
    seed = 1_000_003 * index + 17
    a_seat = index % 2
    players = {seat: a if seat % 2 == a_seat else b for seat in range(table)}
    state = game.new(table, seed=seed)
    rng = random.Random(f"bench:{name}:{a}:{b}:{index}")
    think: dict[str, list[float]] = defaultdict(list)
    plies = 0
    while state.to_move is not None and plies < MAX_PLIES:
        seat = state.to_move
        who = players[seat]
        view = game.view(state, seat)
        start = time.process_time()
        if who in BASELINES:
            move = BASELINES[who](game, view, seat, rng)
        else:
            move = ai.choose(name, view, seat, level=who, seed=seed)
            think[who].append(time.process_time() - start)
        state = game.play(state, move)
        plies += 1
    if state.outcome is None:
        score_a = 0.5
    elif table == 2:
        score_a = ai.core.outcome_rewards(state.outcome.winners, 2)[a_seat]
    else:
        score_a = ai.result_score(name, state.outcome, table, a_seat)
    return {
        "game": name if table == 2 else f"{name} ({table} players)", "a": a, "b": b,
        "index": index, "a_seat": a_seat, "players": table,
        "score_a": score_a, "plies": plies, "stopped": state.outcome is None,
        "think": think,
    }


# ----- reports ------------------------------------------------------------------------------


def _order(name: str) -> int:
    """Where a result's game (``lppg`` or ``lppg (4 players)``) comes in the tables."""
    return GAMES.index(name.split(" ")[0])


def _interval(scores: list[float]) -> float:
    """Half-width of a 95% normal interval of the mean score."""
    if len(scores) < 2:
        return float("nan")
    return 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))


def elo(results: list[dict]) -> dict[str, float]:
    """Elo ratings fitted to every game (logistic model, maximum likelihood by gradient
    ascent), ``random`` at 0 when it played, otherwise the weakest player at 0."""
    players = sorted({r["a"] for r in results} | {r["b"] for r in results})
    rating = dict.fromkeys(players, 0.0)
    scale = math.log(10) / 400
    for _ in range(2000):
        grad = dict.fromkeys(players, 0.0)
        for r in results:
            expected = 1 / (1 + math.exp(-scale * (rating[r["a"]] - rating[r["b"]])))
            grad[r["a"]] += r["score_a"] - expected
            grad[r["b"]] -= r["score_a"] - expected
        for p in players:
            # A small pull towards 0 keeps a player who won every game finite.
            rating[p] += 40 * (grad[p] - 0.001 * rating[p]) / max(1, len(results)) * 10
    anchor = rating.get("random", min(rating.values()))
    return {p: round(v - anchor) for p, v in rating.items()}


def report(results: list[dict]) -> str:
    lines = ["| game | pairing | games | score of the first | ± 95% | stopped |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    by_pairing: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for r in results:
        by_pairing[(r["game"], r["a"], r["b"])].append(r)
    for (name, a, b), rows in sorted(by_pairing.items(), key=lambda kv: (
            _order(kv[0][0]), kv[0][1], kv[0][2])):
        scores = [r["score_a"] for r in rows]
        lines.append(
            f"| {name} | {a} vs {b} | {len(rows)} | {statistics.fmean(scores):.2f} "
            f"| {_interval(scores):.2f} | {sum(r['stopped'] for r in rows)} |"
        )
    lines += ["", "| game | level | moves | think p50 | think p95 | max |",
              "| --- | --- | ---: | ---: | ---: | ---: |"]
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in results:
        for level, values in r["think"].items():
            times[(r["game"], level)].extend(values)
    for (name, level), values in sorted(times.items(), key=lambda kv: (
            _order(kv[0][0]), ai.LEVELS.index(kv[0][1]))):
        values.sort()
        p50 = values[len(values) // 2]
        p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
        lines.append(f"| {name} | {level} | {len(values)} | {p50:.3f} s | {p95:.3f} s "
                     f"| {values[-1]:.3f} s |")
    lines += ["", "| game | Elo per player (random = 0) | games |", "| --- | --- | ---: |"]
    by_game: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        by_game[r["game"]].append(r)
    for name in GAMES:
        if by_game[name]:
            ratings = elo(by_game[name])
            text = ", ".join(f"{p} {v:+d}" for p, v in sorted(ratings.items(),
                                                                 key=lambda kv: kv[1]))
            lines.append(f"| {name} | {text} | {len(by_game[name])} |")
    return "\n".join(lines)


def summary(results: list[dict]) -> str:
    """The README's compact tables: per game, each pairing's score with its game count, the
    think times per level, and the Elo ratings."""
    by_pairing: dict[tuple[str, str], list[float]] = defaultdict(list)
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_game: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        by_pairing[(r["game"], f"{r['a']}-{r['b']}")].append(r["score_a"])
        by_game[r["game"]].append(r)
        for level, values in r["think"].items():
            times[(r["game"], level)].extend(values)

    def cell(name: str, *pairings: str) -> str:
        for pairing in pairings:
            scores = by_pairing.get((name, pairing))
            if scores:
                return f"{statistics.fmean(scores):.2f} ({len(scores)})"
        return "not run"

    lines = ["| game | hard vs random | hard vs flat MC / greedy | hard vs medium "
             "| medium vs easy |", "| --- | ---: | ---: | ---: | ---: |"]
    for name in GAMES:
        if by_game[name]:
            lines.append(f"| {name} | {cell(name, 'hard-random')} "
                         f"| {cell(name, 'hard-flatmc', 'hard-greedy')} "
                         f"| {cell(name, 'hard-medium')} | {cell(name, 'medium-easy')} |")
    lines += ["", "| game | easy p50 / p95 | medium p50 / p95 | hard p50 / p95 | hard max |",
              "| --- | ---: | ---: | ---: | ---: |"]
    for name in GAMES:
        if not by_game[name]:
            continue
        row = [name]
        for level in ai.LEVELS:
            values = sorted(times.get((name, level), []))
            if values:
                p50 = values[len(values) // 2]
                p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
                row.append(f"{p50:.3f} / {p95:.3f} s")
            else:
                row.append("–")
        hard = times.get((name, "hard"))
        row.append(f"{max(hard):.2f} s" if hard else "–")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "| game | random | easy | medium | hard | flat MC / greedy | games |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in GAMES:
        if not by_game[name]:
            continue
        ratings = elo(by_game[name])
        other = ratings.get("flatmc", ratings.get("greedy"))
        cells = [f"{ratings[p]:+d}" if p in ratings else "–"
                 for p in ("random", "easy", "medium", "hard")]
        cells.append("–" if other is None else f"{other:+d}")
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {len(by_game[name])} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--pairing", action="append",
                        help="A-B, e.g. hard-random (default: the four of the issue)")
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--players", type=int, default=2,
                        help="seats at the table (the first player of the pairing takes every "
                             "other seat; LPPG's four players are two teams)")
    parser.add_argument("--out", help="append one JSON line per game to this file")
    parser.add_argument("--resume", action="store_true",
                        help="with --out: skip the games already in that file")
    parser.add_argument("--report", nargs="+", help="print the tables from these files")
    parser.add_argument("--summary", action="store_true",
                        help="with --report: the README's compact tables")
    args = parser.parse_args()
    if args.report:
        # A game is determined by (game, players, index): one line per game, whatever the
        # number of files (or runs) that played it.
        games = {}
        for path in args.report:
            with open(path) as f:
                for row in map(json.loads, filter(str.strip, f)):
                    games[(row["game"], row["a"], row["b"], row["index"])] = row
        results = list(games.values())
        print(summary(results) if args.summary else report(results))
        return
    tasks = []
    for name in args.game or GAMES:
        for pairing in args.pairing or DEFAULT_PAIRINGS[name]:
            a, b = pairing.split("-")
            tasks += [(name, a, b, i, args.players)
                      for i in range(args.first, args.first + args.games)]
    # Game 0 of every pairing, then game 1...: a run stopped early still covers them all.
    tasks.sort(key=lambda task: task[3])
    if args.out and args.resume:
        try:
            with open(args.out) as f:
                done = {(r["game"], r["a"], r["b"], r["index"])
                        for r in map(json.loads, filter(str.strip, f))}
        except FileNotFoundError:
            done = set()
        tasks = [task for task in tasks if (
            task[0] if task[4] == 2 else f"{task[0]} ({task[4]} players)", *task[1:4]) not in done]
    results = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115 - closed below
    try:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for result in pool.map(play_game, tasks, chunksize=1):
                results.append(result)
                if out:
                    out.write(json.dumps(result) + "\n")
                    out.flush()
                print(f"{result['game']} {result['a']}-{result['b']} #{result['index']}: "
                      f"{result['score_a']}", file=sys.stderr)
    finally:
        if out:
            out.close()
    print(report(results))


if __name__ == "__main__":
    main()
