"""Think times of one AI level at every table size (issue 30: Kolory hard's p95 at default
settings). Not a test: nothing here asserts.

    python -m bench.think [--game kolory] [--level hard] [--players 2 3 4 5] [--games N]

Plays N games per table size, one seat (a different one in each game) at ``--level`` and the
others at ``medium``, with the default budget, and prints per table size the level's CPU
seconds per move (p50, p95, max). The search is sized by counts, not by the clock, so CPU time
is the figure to read on a busy machine; the load average at the start and the end is printed
too.
"""

from __future__ import annotations

import argparse
import os
import time

import ai
import engines


def think_times(name: str, level: str, players: int, games: int) -> list[float]:
    game = engines.get(name)
    times = []
    for index in range(games):
        seed = 7_777 * index + players
        state = game.new(players, seed=seed)
        while state.to_move is not None:
            seat = state.to_move
            view = game.view(state, seat)
            who = level if seat == index % players else "medium"
            start = time.process_time()
            move = ai.choose(name, view, seat, level=who, seed=seed)
            if who == level:
                times.append(time.process_time() - start)
            state = game.play(state, move)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kolory")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--players", type=int, nargs="+")
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    game = engines.get(args.game)
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print("| game | players | moves | think p50 | think p95 | max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for players in args.players or game.allowed_player_counts():
        times = sorted(think_times(args.game, args.level, players, args.games))
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(f"| {args.game} {args.level} | {players} | {len(times)} "
              f"| {times[len(times) // 2]:.3f} s | {p95:.3f} s | {times[-1]:.3f} s |", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
