"""Engine speed (DESIGN.md §10): random playouts per second and the p99 of one
`legal_moves` + `play` on late-game positions, per game.

    python -m bench.engines [game ...] [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engines

PLAYOUT_BUDGET_MS = {
    "alak": 2, "palam": 5, "kolory": 50, "palago": 100, "polygo": 200, "lppg": 300,
}
STEP_BUDGET_MS = {"palago": 5, "lppg": 5}
DEFAULT_STEP_BUDGET_MS = 1


def playout(game, players: int, seed: int) -> list:
    rng = random.Random(seed)
    state = game.new(players, seed=seed)
    states = [state]
    while state.to_move is not None:
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
        states.append(state)
    return states


def measure(name: str, seconds: float) -> dict:
    game = engines.get(name)
    players = game.allowed_player_counts()[0]
    # Playouts: as many as fit in the time given.
    times, seed, late_positions = [], 0, []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(times) < 5:
        start = time.perf_counter()
        states = playout(game, players, seed)
        times.append(time.perf_counter() - start)
        # The last quarter of the game, before the end, is "late game".
        if len(states) > 2:
            cut = max(0, len(states) * 3 // 4 - 1)
            late_positions.extend(states[cut:-1])
        seed += 1
    # One decision step on late positions: list the moves, play one of them.
    rng = random.Random(0)
    steps = []
    for state in late_positions[:2000]:
        start = time.perf_counter()
        moves = game.legal_moves(state)
        game.play(state, moves[rng.randrange(len(moves))])
        steps.append(time.perf_counter() - start)
    steps.sort()
    mean_playout_ms = statistics.fmean(times) * 1000
    return {
        "game": name,
        "playouts_per_s": len(times) / sum(times),
        "playout_ms": mean_playout_ms,
        "playout_budget_ms": PLAYOUT_BUDGET_MS.get(name),
        "step_p99_ms": steps[int(len(steps) * 0.99) - 1] * 1000 if steps else float("nan"),
        "step_budget_ms": STEP_BUDGET_MS.get(name, DEFAULT_STEP_BUDGET_MS),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=sorted(engines.GAMES))
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print("| game | playouts/s | mean playout | budget | late step p99 | budget |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in args.games:
        r = measure(name, args.seconds)
        print(
            f"| {r['game']} | {r['playouts_per_s']:.0f} | {r['playout_ms']:.2f} ms "
            f"| ≤ {r['playout_budget_ms']} ms | {r['step_p99_ms']:.3f} ms "
            f"| ≤ {r['step_budget_ms']} ms |"
        )


if __name__ == "__main__":
    main()
