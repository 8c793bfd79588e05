"""Rendering speed and size (budgets: docs/architecture.md): per game at its largest player
count, the time of
one board PNG over every position of seeded random games, the largest PNG, and one replay GIF
of the longest game.

    python -m bench.render [game ...] [--games N]
    python -m bench.render --hits [game ...] [--games N]

Budgets: a board ≤ 8 ms p99 and ≤ 100 KB; a replay of up to 150 frames ≤ 1 s. A second table
compares ways of encoding a board (RGB or palette, zlib or ISA-L), which chose the one used.
With ``--hits``: what a board's hit map (its regions and their JSON, for the seat to move)
costs beside the board: ≤ 10 % of the board's time.

Times are CPU time of this single-threaded process (``time.process_time``), so other programs
sharing the machine do not add their time to ours (they can still slow ours a little by sharing
a core's caches). "warm" is what a running bot sees: the process has drawn other games of the
same kind before (other seeds), so board layers, pieces and common texts are cached, and every
measured position is drawn for the first time. "cold" is a fresh process's first game of that
kind: every cache starts empty (the palette is built before, as the bot's first board would).
"""

from __future__ import annotations

import argparse
import importlib
import io
import statistics
import time

from PIL import Image

import render
from render.gallery import SAMPLE_NAMES, player_counts, playout
from render.surface import encode_png, to_palette

BOARD_BUDGET_MS = 8
PNG_BUDGET_KB = 100
REPLAY_BUDGET_S = 1
WARM_SEEDS = range(1000, 1008)  # games drawn first so the caches hold what a bot has seen


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.99) - 1)]


def time_boards(name: str, positions: list, names: list[str]) -> tuple[list[float], list[int]]:
    times, sizes = [], []
    for index, state in enumerate(positions):
        theme = "dark" if index % 2 == 0 else "light"
        start = time.process_time()
        data = render.board(name, state, players=names, theme=theme)
        times.append(time.process_time() - start)
        sizes.append(len(data))
    return times, sizes


def measure(name: str, games: int) -> dict:
    count = player_counts(name)[-1]  # the most players: the busiest images
    names = list(SAMPLE_NAMES[:count])
    positions: list = []
    longest: list = []
    for seed in range(games):
        states = playout(name, count, seed)
        positions.extend(states)
        if len(states) > len(longest):
            longest = states
    for theme in ("dark", "light"):
        render.palette(name, theme)  # built once per process, before any board is sent
    cold, _ = time_boards(name, playout(name, count, 2000), names)
    for seed in WARM_SEEDS:
        time_boards(name, playout(name, count, seed), names)
    times, sizes = time_boards(name, positions, names)
    start = time.process_time()
    gif = render.replay(name, longest, players=names)
    replay_s = time.process_time() - start
    return {
        "game": name,
        "players": count,
        "boards": len(times),
        "mean_ms": statistics.fmean(times) * 1000,
        "p99_ms": p99(times) * 1000,
        "cold_p99_ms": p99(cold) * 1000,
        "mean_kb": statistics.fmean(sizes) / 1000,
        "max_kb": max(sizes) / 1000,
        "replay_states": len(longest),
        "replay_frames": min(len(longest), render.MAX_FRAMES),
        "replay_s": replay_s,
        "gif_mb": len(gif) / 1e6,
    }


HITS_BUDGET = 0.10  # a hit map adds at most this share of the board's time


def measure_hits(name: str, games: int) -> dict:
    """Each position of ``games`` seeded games with a seat to move, drawn for that seat with
    its hit map (``render.board_with_hits``), and the map written as the JSON the page is
    sent. What the map adds is timed where it is made: the game module's ``hit_regions``
    (wrapped with a timer for the run) and ``to_json``; the board is the rest of the call.
    ``hits`` alone (a map without its image: it finds the view and layout again) is timed too.

    Timing ``board_with_hits`` against ``board`` measured the memory allocator instead: on
    this machine a board took 3.4 or 4.4 ms depending on which allocations came before it, a
    swing larger than the whole map."""
    module = importlib.import_module(f"render.{name}")
    count = player_counts(name)[-1]
    names = list(SAMPLE_NAMES[:count])
    positions = [s for seed in range(games) for s in playout(name, count, seed)
                 if s.to_move is not None]
    for theme in ("dark", "light"):
        render.palette(name, theme)
    # A running bot has drawn boards and maps of this game before (other seeds).
    for seed in WARM_SEEDS:
        for index, state in enumerate(playout(name, count, seed)):
            if state.to_move is not None:
                render.board_with_hits(name, state, viewer=state.to_move, players=names,
                                       theme=("dark", "light")[index % 2])
    in_regions: list[float] = []
    original = module.hit_regions

    def timed_regions(*args):
        start = time.process_time()
        regions = original(*args)
        in_regions.append(time.process_time() - start)
        return regions

    boards, added, alone, regions, json_sizes = [], [], [], [], []
    module.hit_regions = timed_regions
    try:
        for index, state in enumerate(positions):
            theme = ("dark", "light")[index % 2]
            start = time.process_time()
            _, hit_map = render.board_with_hits(name, state, viewer=state.to_move,
                                                players=names, theme=theme)
            middle = time.process_time()
            text = hit_map.to_json()
            end = time.process_time()
            made = in_regions.pop()
            boards.append(middle - start - made)
            added.append(made + end - middle)
            regions.append(len(hit_map.regions))
            json_sizes.append(len(text))
            start = time.process_time()
            render.hits(name, state, viewer=state.to_move, players=names, theme=theme).to_json()
            alone.append(time.process_time() - start)
            in_regions.clear()
    finally:
        module.hit_regions = original
    return {
        "game": name,
        "players": count,
        "boards": len(positions),
        "board_ms": statistics.fmean(boards) * 1000,
        "board_p99": p99(boards) * 1000,
        "added_ms": statistics.fmean(added) * 1000,
        "added_p99": p99(added) * 1000,
        "share": statistics.fmean(added) / statistics.fmean(boards),
        "share_p99": p99([a / b for a, b in zip(added, boards, strict=True)]),
        "alone_ms": statistics.fmean(alone) * 1000,
        "alone_p99": p99(alone) * 1000,
        "regions": statistics.fmean(regions),
        "max_regions": max(regions),
        "json_kb": statistics.fmean(json_sizes) / 1000,
        "max_json_kb": max(json_sizes) / 1000,
    }


def print_hits(names: list[str], games: int) -> None:
    print(f"| game | players | boards | board mean / p99 | map added mean / p99 "
          f"| share of the board, mean (≤ {HITS_BUDGET:.0%}) / p99 | hits() alone mean / p99 "
          f"| regions mean / max | JSON mean / max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        r = measure_hits(name, games)
        print(
            f"| {r['game']} | {r['players']} | {r['boards']} "
            f"| {r['board_ms']:.2f} / {r['board_p99']:.2f} ms "
            f"| {r['added_ms']:.3f} / {r['added_p99']:.3f} ms "
            f"| {r['share']:.1%} / {r['share_p99']:.1%} "
            f"| {r['alone_ms']:.3f} / {r['alone_p99']:.3f} ms "
            f"| {r['regions']:.0f} / {r['max_regions']} "
            f"| {r['json_kb']:.1f} / {r['max_json_kb']:.1f} KB |"
        )


def cpu_ms(action, repeat: int = 20) -> float:
    """The median CPU time of ``action`` in milliseconds."""
    action()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def encodings(name: str) -> dict:
    """What turning one composed board into PNG bytes costs, by method: the RGB image as is,
    mapped to 256 colours of its own (fast octree) or to the game's fixed palette, written by
    Pillow (zlib) or by ``render.surface.encode_png`` (ISA-L)."""
    count = player_counts(name)[-1]
    states = playout(name, count, 0)
    image = render.board_image(name, states[len(states) // 2], players=SAMPLE_NAMES[:count])
    colours = render.palette(name)
    fixed = to_palette(image, colours)

    def pillow(picture: Image.Image, level: int) -> bytes:
        buffer = io.BytesIO()
        picture.save(buffer, "PNG", compress_level=level)
        return buffer.getvalue()

    return {
        "game": name,
        "rgb_zlib1": (cpu_ms(lambda: pillow(image, 1)), len(pillow(image, 1))),
        "octree": cpu_ms(lambda: image.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                                                dither=Image.Dither.NONE)),
        "fixed": cpu_ms(lambda: to_palette(image, colours)),
        "p_zlib1": (cpu_ms(lambda: pillow(fixed, 1)), len(pillow(fixed, 1))),
        "p_zlib6": (cpu_ms(lambda: pillow(fixed, 6)), len(pillow(fixed, 6))),
        "p_isal": (cpu_ms(lambda: encode_png(fixed)), len(encode_png(fixed))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=None)
    parser.add_argument("--games", dest="count", type=int, default=4,
                        help="random games per game (every position is rendered)")
    parser.add_argument("--hits", action="store_true",
                        help="what hit maps add to a board instead (the other tables skipped)")
    args = parser.parse_args()
    names = args.games or render.supported_games()
    if args.hits:
        print_hits(names, args.count)
        return
    print(f"| game | players | boards | mean | p99 warm (≤ {BOARD_BUDGET_MS} ms) | p99 cold "
          f"| mean PNG | max PNG (≤ {PNG_BUDGET_KB} KB) | replay frames "
          f"| replay (≤ {REPLAY_BUDGET_S} s) | GIF |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        r = measure(name, args.count)
        print(
            f"| {r['game']} | {r['players']} | {r['boards']} | {r['mean_ms']:.1f} ms "
            f"| {r['p99_ms']:.1f} ms | {r['cold_p99_ms']:.1f} ms | {r['mean_kb']:.0f} KB "
            f"| {r['max_kb']:.0f} KB | {r['replay_frames']} | {r['replay_s']:.2f} s "
            f"| {r['gif_mb']:.2f} MB |"
        )
    print()
    print("Encoding one board (median CPU time; size):")
    print("| game | RGB, zlib 1 | octree | fixed palette | P, zlib 1 | P, zlib 6 | P, ISA-L 1 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        e = encodings(name)

        def cell(pair: tuple[float, int]) -> str:
            return f"{pair[0]:.1f} ms, {pair[1] / 1000:.0f} KB"

        print(f"| {e['game']} | {cell(e['rgb_zlib1'])} | {e['octree']:.1f} ms "
              f"| {e['fixed']:.1f} ms | {cell(e['p_zlib1'])} | {cell(e['p_zlib6'])} "
              f"| {cell(e['p_isal'])} |")


if __name__ == "__main__":
    main()
