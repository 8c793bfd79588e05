"""How long a post-game review takes (issue 30 §2): the CPU of its jobs, per game.

    python -m bench.review [--games alak,polygo,...] [--wall]

Each game is played by the AI (``easy`` against ``medium``, or ``easy`` against ``easy`` for a
longer game, fixed seeds) up to a number of plies (``GAMES``: a 40-ply Alak game on a
21-point line, one on the default 11-point line (judged by the solved game) and a 100-ply
Polygo game are the budgets' cases; the others are typical
lengths), then reviewed as the bot does
(``bot.services.review``): every position evaluated (``evaluate_positions``), the AI asked
for its move where the largest mistakes were made, and that move's position evaluated
(``better_moves_kept``), the picture drawn
(``review_png``). The CPU of each step is measured in this process, one job after another
(``time.process_time``): the CPU a review costs, whatever the number of workers.

``--wall`` also runs the whole review through ``bot.workers.review.ReviewWork`` on the AI's queue of
two worker processes (the 2-core target; a review holds one of them, the other is kept for the AI's
replies; the picture is not part of it), and prints its wall time and the CPU its workers used
(starting them included). The workers run at a lower priority (``nice``): on a machine busy
with other work the wall time says more about that work. ``bench.review_fairness`` measures
reviews beside the AI's replies and beside other users' reviews.

Budget: a 40-ply Alak game and a 100-ply Polygo game within 60 s of CPU each.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import time
from pathlib import Path

import ai
import engines
from bot.core.review import analyse, plies_to_ask
from bot.discord.cogs._review import captions, review_texts
from bot.services.review import ReviewSource, better_moves_kept, evaluate_positions
from bot.workers.fair_queue import FairQueue
from bot.workers.pool import WorkerPool
from bot.workers.review import ReviewWork, review_png

#: (game, players, options, plies) per row.
GAMES: dict[str, tuple[str, int, dict, int]] = {
    "alak": ("alak", 2, {"length": 21}, 40),
    # The default line, judged by the solved game (solved once per process, included).
    "alak-11": ("alak", 2, {"length": 11}, 40),
    "polygo": ("polygo", 2, {}, 100),
    "palago": ("palago", 2, {}, 40),
    "palam": ("palam", 2, {}, 60),
    "lppg": ("lppg", 2, {}, 60),
    "lppg-4": ("lppg", 4, {}, 60),
    "kolory": ("kolory", 3, {}, 60),
}
BUDGET_S = {"alak": 60.0, "alak-11": 60.0, "polygo": 60.0}


def played(name: str, players: int, options: dict, plies: int) -> ReviewSource:
    """A game the AI plays, cut at ``plies``: seat 0 ``easy`` and the others ``medium``, else
    every seat ``easy`` (longer games), on the first of a few fixed seeds whose game lasts
    that long (else the longest found)."""
    longest = None
    for others in ("medium", "easy"):
        for seed in range(7, 17):
            source = _played(name, players, options, plies, seed, others)
            if longest is None or len(source.moves) > len(longest.moves):
                longest = source
            if len(source.moves) >= plies:
                return source
    assert longest is not None
    return longest


def _played(name: str, players: int, options: dict, plies: int, seed: int,
            others: str) -> ReviewSource:
    game = engines.get(name)
    state = game.new(players=players, seed=seed, options=options)
    moves: list[str] = []
    while state.outcome is None and len(moves) < plies:
        seat = state.to_move
        level = "easy" if seat == 0 else others
        move = ai.choose(name, game.view(state, seat), seat, level=level, seed=len(moves),
                         budget_s=0.05)
        state = game.play(state, move)
        moves.append(move)
    return ReviewSource(0, len(moves), name, players, seed, dict(options), tuple(moves), None)


class Forget:
    """Stores nothing (the bench measures making a review)."""

    async def save(self, source, review) -> None:
        return None


def measure(label: str, save: str | None = None) -> dict[str, float]:
    name, players, options, plies = GAMES[label]
    source = played(name, players, options, plies)
    start = time.process_time()
    part = evaluate_positions(source, 0, source.positions)
    evaluated = time.process_time()
    asked = plies_to_ask(part.scores, part.movers, source.moves, part.forced)
    found = better_moves_kept(source, asked) if asked else {}
    asked_at = time.process_time()
    review = analyse(name, players, source.moves, part.movers, part.forced, part.scores,
                     better={ply: move for ply, (move, _) in found.items()},
                     kept={ply: value for ply, (_, value) in found.items()})
    names = [f"Player {s + 1}" for s in range(players)]
    png = review_png(source, review, names, review_texts(review, source, name, names, "en"),
                     captions(review, names, "en"))
    drawn = time.process_time()
    if save:
        Path(save, f"review-{label}.png").write_bytes(png)
    return {"plies": len(source.moves), "positions": source.positions,
            "evaluate": evaluated - start, "asked": len(asked), "better": asked_at - evaluated,
            "draw": drawn - asked_at, "total": drawn - start}


async def wall(label: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the worker processes) of the whole review through
    ``ReviewWork`` on two worker processes."""
    name, players, options, plies = GAMES[label]
    source = played(name, players, options, plies)
    pool = WorkerPool("ai", workers=2, kind="process")
    work = ReviewWork(FairQueue(pool), Forget())  # type: ignore[arg-type]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begin = time.perf_counter()
    await work.job(source, 1).task
    took = time.perf_counter() - begin
    executor = pool._executor
    if executor is not None:
        executor.shutdown(wait=True)  # the workers' CPU counts once they are waited for
    pool.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--wall", action="store_true")
    parser.add_argument("--save", help="write each review's picture to this folder")
    args = parser.parse_args()
    print("| game | plies | evaluate (CPU s) | AI's moves (n, CPU s) | picture (CPU s) | "
          "total CPU s | budget |" + (" 2 workers: wall s, CPU s |" if args.wall else ""))
    print("| --- | --- | --- | --- | --- | --- | --- |" + (" --- |" if args.wall else ""))
    for name in args.games.split(","):
        got = measure(name, args.save)
        budget = BUDGET_S.get(name)
        verdict = "—" if budget is None else ("≤ 60 ✓" if got["total"] <= budget else "≤ 60 ✗")
        row = (f"| {name} | {got['plies']} | {got['evaluate']:.1f} | {got['asked']}, "
               f"{got['better']:.1f} | {got['draw']:.2f} | {got['total']:.1f} | {verdict} |")
        if args.wall:
            took, cpu = asyncio.run(wall(name))
            row += f" {took:.1f}, {cpu:.1f} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
