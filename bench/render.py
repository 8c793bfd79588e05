"""Rendering speed and size (DESIGN.md §10): per game, the mean and p99 time of one board PNG
over positions from seeded random games, the largest PNG, and one replay GIF of a whole game.

    python -m bench.render [game ...] [--games N]

Budgets: a board ≤ 50 ms and ≤ 250 KB; a replay ≤ 2 s and ≤ 5 MB. Times are CPU time of this
(single-threaded) process, so other programs sharing the machine do not inflate them.
"""

from __future__ import annotations

import argparse
import statistics
import time

import render
from render.gallery import SAMPLE_NAMES, player_counts, playout

BOARD_BUDGET_MS = 50
PNG_BUDGET_KB = 250
REPLAY_BUDGET_S = 2
GIF_BUDGET_MB = 5


def measure(name: str, games: int) -> dict:
    count = player_counts(name)[-1]  # the most players: the busiest images
    names = SAMPLE_NAMES[:count]
    positions = []
    longest: list = []
    for seed in range(games):
        states = playout(name, count, seed)
        positions.extend(states)
        if len(states) > len(longest):
            longest = states
    render.board(name, positions[0], players=names)  # load fonts and the module first
    times, sizes = [], []
    for index, state in enumerate(positions):
        theme = "dark" if index % 2 == 0 else "light"
        start = time.process_time()
        data = render.board(name, state, players=names, theme=theme)
        times.append(time.process_time() - start)
        sizes.append(len(data))
    times.sort()
    start = time.process_time()
    gif = render.replay(name, longest, players=names)
    replay_s = time.process_time() - start
    return {
        "game": name,
        "players": count,
        "boards": len(times),
        "mean_ms": statistics.fmean(times) * 1000,
        "p99_ms": times[max(0, int(len(times) * 0.99) - 1)] * 1000,
        "mean_kb": statistics.fmean(sizes) / 1000,
        "max_kb": max(sizes) / 1000,
        "replay_states": len(longest),
        "replay_s": replay_s,
        "gif_mb": len(gif) / 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=None)
    parser.add_argument("--games", dest="count", type=int, default=4,
                        help="random games per game (every position is rendered)")
    args = parser.parse_args()
    names = args.games or render.supported_games()
    print(f"| game | players | boards | mean | p99 (≤ {BOARD_BUDGET_MS} ms) | mean PNG "
          f"| max PNG (≤ {PNG_BUDGET_KB} KB) | replay (states) | time (≤ {REPLAY_BUDGET_S} s) "
          f"| GIF (≤ {GIF_BUDGET_MB} MB) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        r = measure(name, args.count)
        print(
            f"| {r['game']} | {r['players']} | {r['boards']} | {r['mean_ms']:.1f} ms "
            f"| {r['p99_ms']:.1f} ms | {r['mean_kb']:.0f} KB | {r['max_kb']:.0f} KB "
            f"| {r['replay_states']} | {r['replay_s']:.2f} s | {r['gif_mb']:.2f} MB |"
        )


if __name__ == "__main__":
    main()
