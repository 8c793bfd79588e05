"""Engine speed (docs/architecture.md): the mean random playout of a whole game and the p99 of
one decision step (`legal_moves` + `play`) on late-game positions, per game, with budgets.

    python -m bench.engines [game ...] [--seconds S] [--runs R]

A random playout is what an AI runs thousands of times: list the legal moves, pick one at random
(``random.choice`` on the sequence, which may be lazy), play it, until the game ends. Times are
CPU time of this process, so other work on a shared machine disturbs them less than wall time;
each figure is the best of ``--runs`` runs (the least disturbed one).

Alak is also measured against a naive list-based implementation of the same rules (a plain list
copied at each move, no precomputation), the floor the engine must reach despite its immutable
states and move objects.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import engines

#: Per game, in milliseconds: the playout budget (docs/architecture.md), and the stricter target of
#: the speed work (a playout at least as fast as a naive implementation), which holds for the
#: smallest player count.
PLAYOUT_BUDGET_MS = {
    "alak": 2, "palam": 5, "kolory": 50, "palago": 100, "polygo": 200, "lppg": 300,
}
PLAYOUT_TARGET_MS = {
    "alak": 0.1, "palam": 5, "kolory": 50, "palago": 10, "polygo": 15, "lppg": 10,
}
#: Games also measured at their largest player count.
LARGEST_TOO = ("lppg", "kolory")
STEP_BUDGET_MS = {"palago": 5, "lppg": 5}
DEFAULT_STEP_BUDGET_MS = 1
LATE_POSITIONS = 2000

clock = time.process_time


def playout(game, players: int, seed: int) -> list:
    """Every state of one random game (the random choices are seeded by ``seed``)."""
    rng = random.Random(seed)
    state = game.new(players, seed=seed)
    states = [state]
    while state.to_move is not None:
        state = game.play(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    return states


def naive_alak_playout(length: int, rng: random.Random) -> list[int]:
    """Alak (RULES.md §1) the straightforward way: the board a list (0 empty, 1 Black, 2 White)
    copied at every move, the legal points recomputed at every move, captures found by walking
    from the new stone. Returns the final board."""
    board = [0] * length
    banned: list[int] = []
    player = 1
    while True:
        legal = [p for p in range(length) if board[p] == 0 and p not in banned]
        if not legal:
            return board
        p = rng.choice(legal)
        board = board.copy()
        board[p] = player
        enemy = 3 - player
        captured: list[int] = []
        for step in (-1, 1):
            run = []
            i = p + step
            while 0 <= i < length and board[i] == enemy:
                run.append(i)
                i += step
            if run and not (0 <= i < length and board[i] == 0):
                captured += run
        for i in captured:
            board[i] = 0
        banned = captured
        player = enemy


def _timed_runs(run_once: Callable[[int], object], seconds: float, runs: int) -> float:
    """The best, over ``runs`` runs of about ``seconds`` each, of the mean CPU time of one call
    of ``run_once(seed)`` in milliseconds."""
    best = float("inf")
    for _ in range(runs):
        count, seed = 0, 0
        start = clock()
        deadline = start + seconds
        while True:
            run_once(seed)
            seed += 1
            count += 1
            now = clock()
            if now >= deadline and count >= 5:
                break
        best = min(best, (now - start) / count * 1000)
    return best


def measure(name: str, players: int, seconds: float, runs: int) -> dict:
    game = engines.get(name)
    playout_ms = _timed_runs(lambda seed: playout(game, players, seed), seconds, runs)
    # Late game: the last quarter of each game, before its end.
    late: list = []
    seed = 10_000
    while len(late) < LATE_POSITIONS:
        states = playout(game, players, seed)
        if len(states) > 2:
            late.extend(states[max(0, len(states) * 3 // 4 - 1):-1])
        seed += 1
    rng = random.Random(0)
    best_p99 = float("inf")
    for _ in range(runs):
        steps = []
        for state in late[:LATE_POSITIONS]:
            # A fresh copy: a state may cache what it computed (Alak keeps its legal moves).
            state = game.load(game.dump(state))
            start = clock()
            moves = game.legal_moves(state)
            game.play(state, moves[rng.randrange(len(moves))])
            steps.append(clock() - start)
        steps.sort()
        best_p99 = min(best_p99, steps[int(len(steps) * 0.99) - 1] * 1000)
    return {
        "game": name,
        "players": players,
        "playout_ms": playout_ms,
        "playout_budget_ms": PLAYOUT_BUDGET_MS.get(name),
        "playout_target_ms": (
            PLAYOUT_TARGET_MS.get(name) if players == game.allowed_player_counts()[0] else None
        ),
        "step_p99_ms": best_p99,
        "step_budget_ms": STEP_BUDGET_MS.get(name, DEFAULT_STEP_BUDGET_MS),
    }


def _ms(value: float) -> str:
    digits = 3 if value < 1 else 2 if value < 10 else 1
    return f"{value:.{digits}f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=sorted(engines.GAMES))
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (the best counts)")
    args = parser.parse_args()
    print("| game | mean random playout | target | budget | late step p99 | budget |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in args.games:
        game = engines.get(name)
        counts = game.allowed_player_counts()
        for players in (counts[0], counts[-1]) if name in LARGEST_TOO else (counts[0],):
            r = measure(name, players, args.seconds, args.runs)
            label = name if game.max_players == 2 else f"{name} ({players} players)"
            target = "" if r["playout_target_ms"] is None else f"≤ {r['playout_target_ms']} ms"
            print(
                f"| {label} | {_ms(r['playout_ms'])} | {target} "
                f"| ≤ {r['playout_budget_ms']} ms | {_ms(r['step_p99_ms'])} "
                f"| ≤ {r['step_budget_ms']} ms |"
            )
        if name == "alak":
            naive = _timed_runs(
                lambda seed: naive_alak_playout(11, random.Random(seed)), args.seconds, args.runs
            )
            print(f"| alak, naive list-based reference | {_ms(naive)} | | | | |")


if __name__ == "__main__":
    main()
