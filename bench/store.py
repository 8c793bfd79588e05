"""Storage speed (budgets: docs/architecture.md): committed moves per second with many games
played in parallel,
and the latency of one move commit (``Services.move``), on SQLite (one file) and on
PostgreSQL (a throwaway server started for the run, or ``--database`` for one of yours).

    python -m bench.store [--backend both|sqlite|postgresql] [--database postgresql://...]
                          [--games 50] [--moves 5000] [--game alak] [--synchronous NORMAL]
                          [--time-control 3d+1d] [--processes 1,2,4] [--latency-ms 1]
                          [--pool-size 10]

``--processes N[,M…]`` (PostgreSQL) plays the parallel games from N processes at once on the
one database (then from M…), each with its own connections and a share of the games, as N bot
processes would: the figures are the moves of all of them over the longest one's time.

``--latency-ms D`` (PostgreSQL) puts the database D ms away each way, as a managed database in
the same region is (about 1 ms): every connection goes through a delaying proxy
(``bench.dbproxy``), so each round trip to the server costs 2·D ms more. ``--pool-size``:
PostgreSQL's connections per process (default: the bot's, ``[database] pool_size``).

``--synchronous`` sets the durability on both: FULL flushes every commit to disk (PostgreSQL's
default, synchronous_commit=on); NORMAL (SQLite's default) lets a crash of the machine lose the
last commits, never a crash of the bot (PostgreSQL: synchronous_commit=off, which a crash of
the database server may also cut short). ``--database``
must name a database of its own (the benchmark fills it with games) and keeps its server's
setting.

Each game is a loop "list my legal moves, play one" for whoever is to move; a finished game is
replaced by a new one (challenge + accept), so the figures include that work too. Last, the
engine work inside one move (load, play, dump...) per registered game, which runs on the event
loop: it decides whether that work should move to a thread or a process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import engines
from bench import percentile
from bot.core.database_url import is_postgres
from bot.services import Services
from bot.store import open_store

TARGET_MOVES_PER_SECOND = 500


async def run(database: str, games: int, moves: int, game: str, synchronous: str,
              options: dict, time_control: str | None = None, first: int = 0,
              pool_size: int | None = None) -> dict:
    """``games`` games (players numbered from game ``first`` on) playing ``moves`` in all."""
    store = await open_store(database, synchronous=synchronous, pool_size=pool_size)
    service = Services(store)
    players = engines.get(game).allowed_player_counts()[0]
    latencies: list[float] = []
    remaining = moves

    async def new_game(index: int):
        users = [index * 10 + seat + 1 for seat in range(players)]
        if players == 2:
            challenge = await service.challenges.challenge(
                game, users[0], opponent_id=users[1], options=options, time_control=time_control)
            return await service.challenges.accept(challenge.id, users[1])
        challenge = await service.challenges.challenge(
            game, users[0], players=players, options=options, time_control=time_control)
        for user in users[1:]:
            await service.challenges.join(challenge.id, user)
        return await service.challenges.start(challenge.id, users[0])

    async def player(index: int) -> None:
        nonlocal remaining
        rng = random.Random(index)
        info = await new_game(index)
        while remaining > 0:
            remaining -= 1  # claimed before any await, so exactly ``moves`` are played
            while info.status != "active":
                info = await new_game(index)
            user = info.user_to_move()
            legal = await service.games.legal_moves(info.id, user)
            start = time.perf_counter()
            result = await service.play.move(info.id, user, rng.choice(legal),
                                             expected_version=info.version)
            latencies.append(time.perf_counter() - start)
            info = result.game

    began = time.perf_counter()
    await asyncio.gather(*(player(i) for i in range(first, first + games)))
    elapsed = time.perf_counter() - began
    await store.close()
    return figures_of(latencies, elapsed)


def figures_of(latencies: list[float], elapsed: float) -> dict:
    return {
        "latencies": latencies,
        "moves": len(latencies),
        "seconds": elapsed,
        "per_second": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "max_ms": 1000 * max(latencies),
    }


def engine_work(name: str, games: int = 10) -> tuple[float, float]:
    """p50 and p99 (ms) of the engine work inside one ``move`` call (load the snapshot, parse,
    play, dump, public view, describe): what would move off the event loop if it had to."""
    game = engines.get(name)
    rng = random.Random(0)
    times = []
    for seed in range(games):
        state = game.new(game.allowed_player_counts()[0], seed=seed)
        while state.to_move is not None:
            text = str(rng.choice(list(game.legal_moves(state))))
            snapshot = json.dumps(game.dump(state))
            start = time.perf_counter()
            loaded = game.load(json.loads(snapshot))
            move = game.parse_move(text, loaded)
            after = game.play(loaded, move)
            json.dumps(game.dump(after))
            game.view(after, None)
            game.describe(loaded, move)
            times.append(time.perf_counter() - start)
            state = after
    return 1000 * statistics.median(times), 1000 * percentile(times, 0.99)


def databases(backend: str, folder: str, url: str | None, synchronous: str
              ) -> Iterator[tuple[str, Callable]]:
    """(label, make_database) per backend measured; ``make_database(name)`` gives a new
    database's address (a file in ``folder``, or a database on the PostgreSQL server). On the
    throwaway server, ``synchronous`` NORMAL turns PostgreSQL's synchronous_commit off, close
    to SQLite's NORMAL: a crash of the bot loses nothing, a crash of the machine (or of the
    database server) may lose the last commits."""
    if backend in ("both", "sqlite"):
        yield "SQLite", lambda name: str(Path(folder) / f"{name}.sqlite3")
    if backend in ("both", "postgresql"):
        if url is not None:
            yield "PostgreSQL", lambda name: url
            return
        from tests.pgcluster import PostgresCluster, PostgresUnavailable

        try:
            cluster = PostgresCluster.start()
        except PostgresUnavailable as error:
            print(f"PostgreSQL skipped: {error}")
            return
        def make_database(name: str) -> str:
            url = cluster.create_database(name)
            mode = "off" if synchronous == "NORMAL" else "on"  # as the printed label says
            cluster.admin(f'ALTER DATABASE "{urlsplit(url).path[1:]}" '
                          f"SET synchronous_commit = {mode}")
            return url

        try:
            yield "PostgreSQL", make_database
        finally:
            cluster.stop()


class DelayingProxy:
    """``bench.dbproxy`` in a process of its own (its work stays off the measured event
    loops), in front of one PostgreSQL server."""

    def __init__(self, url: str, delay_ms: float) -> None:
        parts = urlsplit(url)
        self._parts = parts
        self._process = subprocess.Popen(
            [sys.executable, "-m", "bench.dbproxy", "--target",
             f"{parts.hostname}:{parts.port or 5432}", "--delay-ms", str(delay_ms)],
            stdout=subprocess.PIPE, text=True,
        )
        assert self._process.stdout is not None
        self.port = int(self._process.stdout.readline().split()[-1])

    def url(self, url: str) -> str:
        """``url`` (on the proxied server) through the proxy."""
        parts = urlsplit(url)
        credentials, _, _ = parts.netloc.rpartition("@")
        return urlunsplit(parts._replace(netloc=f"{credentials}@127.0.0.1:{self.port}"))

    def stop(self) -> None:
        self._process.terminate()
        self._process.wait()


def several_processes(database: str, processes: int, games: int, moves: int,
                      args: argparse.Namespace) -> dict:
    """The parallel run split between ``processes`` processes on one database."""
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "bench.store", "--worker", str(index * games),
             "--database", database, "--games", str(games), "--moves", str(moves),
             "--game", args.game, "--synchronous", args.synchronous,
             *(["--time-control", args.time_control] if args.time_control else []),
             *(["--pool-size", str(args.pool_size)] if args.pool_size else [])],
            stdout=subprocess.PIPE, text=True,
        )
        for index in range(processes)
    ]
    results = [json.loads(worker.communicate()[0]) for worker in workers]
    if any(worker.returncode for worker in workers):
        raise RuntimeError("a benchmark process failed")
    latencies = [x for result in results for x in result["latencies"]]
    return figures_of(latencies, max(result["seconds"] for result in results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="both", choices=["both", "sqlite", "postgresql"])
    parser.add_argument("--database", default=None,
                        help="a PostgreSQL database of its own for the run (default: start one)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--game", default="alak")
    parser.add_argument("--synchronous", default="NORMAL", choices=["NORMAL", "FULL"],
                        help="SQLite's durability (PostgreSQL: the server's synchronous_commit)")
    parser.add_argument("--dir", default=None, help="where to put SQLite files (default: tmp)")
    parser.add_argument("--time-control", default=None,
                        help="games with a clock, e.g. 3d+1d (default: untimed)")
    parser.add_argument("--processes", default="1",
                        help="PostgreSQL: play the parallel games from this many processes "
                             "(a list such as 1,2,4: one run each)")
    parser.add_argument("--latency-ms", type=float, default=0.0,
                        help="PostgreSQL: the database this many ms away each way (a proxy)")
    parser.add_argument("--pool-size", type=int, default=None,
                        help="PostgreSQL: connections per process (default: the bot's)")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.database is not None and not is_postgres(args.database):
        parser.error("--database takes a postgresql:// URL")
    process_counts = [int(count) for count in str(args.processes).split(",")]
    if max(process_counts) > 1 and args.backend != "postgresql":
        parser.error("--processes needs --backend postgresql (an SQLite file serves one)")
    if args.latency_ms and args.backend != "postgresql":
        parser.error("--latency-ms needs --backend postgresql")
    options = {"length": 26} if args.game == "alak" else {}  # longer games, fewer restarts
    if args.worker is not None:  # one of the --processes: its figures as JSON
        print(json.dumps(asyncio.run(run(args.database, args.games, args.moves, args.game,
                                         args.synchronous, options, args.time_control,
                                         first=args.worker, pool_size=args.pool_size))))
        return
    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        for backend, make_database in databases(args.backend, directory, args.database,
                                                args.synchronous):
            durability = f"synchronous={args.synchronous}"
            if backend == "PostgreSQL":
                mode = "off" if args.synchronous == "NORMAL" else "on"
                durability = ("the server's synchronous_commit" if args.database
                              else f"synchronous_commit={mode}")
            if args.latency_ms:
                durability += f", database {args.latency_ms:g} ms away each way"
            runs = [("1 game, sequential", 1, 1)] + [
                (f"{args.games} games" + (f" from {count} processes" if count > 1 else ""),
                 args.games, count)
                for count in process_counts
            ]
            for label, games, processes in runs:
                database = make_database(f"bench-{games}-{processes}")
                proxy = DelayingProxy(database, args.latency_ms) if args.latency_ms else None
                try:
                    through = proxy.url(database) if proxy else database
                    if processes > 1:
                        figures = several_processes(through, processes, games // processes,
                                                    args.moves // processes, args)
                    else:
                        figures = asyncio.run(run(through, games,
                                                  args.moves if games > 1 else args.moves // 5,
                                                  args.game, args.synchronous, options,
                                                  args.time_control,
                                                  pool_size=args.pool_size))
                finally:
                    if proxy is not None:
                        proxy.stop()
                print_figures(backend, label, durability, figures, args)
    for name in sorted(engines.GAMES):
        p50, p99 = engine_work(name)
        print(f"engine work per move, {name}: p50 {p50:.3f} ms, p99 {p99:.3f} ms")


def print_figures(backend: str, label: str, durability: str, figures: dict,
                  args: argparse.Namespace) -> None:
    verdict = ""
    if "games" in label:
        ok = figures["per_second"] >= TARGET_MOVES_PER_SECOND
        verdict = f"  [{'ok' if ok else 'BELOW'} target {TARGET_MOVES_PER_SECOND}/s]"
    print(
        f"{backend}, {args.game} {label}, {args.time_control or 'untimed'}, {durability}: "
        f"{figures['moves']} moves in {figures['seconds']:.2f} s = "
        f"{figures['per_second']:.0f} moves/s; move latency p50 "
        f"{figures['p50_ms']:.2f} ms, p99 {figures['p99_ms']:.2f} ms, "
        f"max {figures['max_ms']:.2f} ms{verdict}"
    )


if __name__ == "__main__":
    main()
