"""End-to-end latency through the local Discord emulator (docs/architecture.md).

    python -m bench.e2e [--games 20] [--rounds 1] [--think 1.0] [--rtt-ms 0]
                        [--board-pool process|thread]

The real discord.py bot runs in its own process (spawned fresh, as in production, where Discord
is another machine: the bot shares no interpreter lock with the emulator or the players); the
emulator and the simulated players run in the bench's process. ``--games`` Alak games are played
to the end in parallel, the players alternating between ``/move`` and the move buttons. Before
each move a player thinks for a random time (exponential, mean ``--think`` seconds, as people in
chat do); ``--think 0`` fires every move the moment the previous reply arrives, which measures
the bot saturated rather than a busy server: ``--games`` moves always wait on one event loop, so
latency is about ``--games`` times the bot's time per move (Little's law). Measured:

- latency, in the emulator's process (one clock): from the emulator sending INTERACTION_CREATE
  to the reply carrying the board image (targets: p50 <= 150 ms, p99 <= 500 ms; with
  ``--think 0``, p50 <= 100 ms, p99 <= 250 ms);
- event-loop lag of the bot's loop while the games run (target: p99 <= 20 ms), sampled inside
  the bot's process by a task that asks to wake every 5 ms and records how late it wakes; the
  samples come back through a pipe when the bot stops;
- REST requests before the board is visible: the bot's requests for a move (its interaction's
  callback and webhook calls, and calls in the game's thread) from the moment the interaction is
  sent to the moment its board appears (target: 1);
- the bot's CPU per move: the CPU seconds of the bot's process and of its worker processes
  (the board workers, ``bot.workers.boards``) while the games run, divided by the moves (target: <=
4
  ms), and how it splits between them and the bot's threads (the event loop, the database
  connections' threads, board threads with ``--board-pool thread``); the bench's own process (the
  emulator and the players) is measured apart, since with ``--think 0`` the latency is the
  sum of both per move times the games;
- turn pings: of the messages saying "@player, your turn", how many notified that player (a
  mention that arrives by an edit notifies nobody).

``--rtt-ms`` adds a network round trip to every REST answer (the emulator's ``rest_delay``), as
Discord is 50-150 ms away from a real bot.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import cProfile
import multiprocessing
import os
import random
import re
import statistics
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bot.core.settings import Config
from bot.runtime import runner
from emulator import Emulator, Event, Interaction, Message

LAG_TICK = 0.005
#: Seconds allowed for the bot process to connect, and to stop and report.
START_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0

# ----- the bot's process --------------------------------------------------------------------------
#
# Parent -> child: "measure", "pause", "stop". Child -> parent: ("ready", None) once connected,
# ("measured", {"lags": [seconds, ...], "cpu": seconds, "threads": {group: seconds}}) after
# "stop", or ("error", text) if it could not run.

#: Where the bot's CPU goes, by thread: the names of the threads of each group.
THREAD_GROUPS = (
    ("event loop", "MainThread"),
    ("database", "_connection_worker_thread"),  # aiosqlite: one thread per connection
    ("boards", "boards-worker"),  # bot.boards in threads (board_pool = "thread")
)
#: The CPU of the bot's worker processes (bot.boards in processes, the default).
WORKER_PROCESSES = "board processes"


def thread_group(name: str) -> str:
    return next((group for group, part in THREAD_GROUPS if part in name), "other")


def threads_cpu() -> dict[str, float]:
    """CPU seconds of each live thread group of this process so far (a thread that ended is
    not counted: the total stays ``time.process_time``)."""
    spent: dict[str, float] = {}
    for thread in threading.enumerate():
        if thread.ident is None:
            continue
        try:
            seconds = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except (OSError, AttributeError):  # ended meanwhile, or not POSIX
            continue
        group = thread_group(thread.name)
        spent[group] = spent.get(group, 0.0) + seconds
    return spent


def children_cpu() -> float:
    """CPU seconds so far of this process's live child processes (the bot's board workers),
    read from Linux's /proc: a child that ended is not counted, and elsewhere nothing is."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    me = str(os.getpid())
    spent = 0.0
    with contextlib.suppress(OSError):
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    # After the command's closing parenthesis: state, ppid, ... utime and
                    # stime are the 12th and 13th fields.
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me:
                spent += (int(fields[11]) + int(fields[12])) / ticks
    return spent


def bot_process(config: Config, conn: Connection, profile: str | None = None) -> None:
    """Entry point of the bot's process: the bot as ``python -m bot`` would run it, plus a
    lag sampler, driven by the bench through ``conn``. With ``profile`` (a file name), the
    event loop's thread is profiled (CPU time) while measuring, and the stats written there."""
    from bot.runtime.logs import setup_logging

    setup_logging(config.log_level, secrets=[config.token])
    try:
        measured = runner.run(_run_bot(config, conn, profile))
    except BaseException as exc:  # reported to the bench, which raises it there
        with contextlib.suppress(OSError):  # unless the bench is gone
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
        raise
    with contextlib.suppress(OSError):
        conn.send(("measured", measured))
    conn.close()


async def _run_bot(config: Config, conn: Connection, profile: str | None) -> dict[str, Any]:
    from bot.runtime.app import launch

    loop = asyncio.get_running_loop()
    running = await launch(config, guild_ready_timeout=0.05)
    # Not measured: the bot's first seconds, while it builds each game's pieces in a thread.
    await asyncio.wait_for(running.bot.delivery.background.warmed_up(), START_TIMEOUT)
    lags: list[float] = []
    measuring = False
    cpu = 0.0
    cpu_since = 0.0
    threads: dict[str, float] = {}
    threads_since: dict[str, float] = {}
    children_since = 0.0
    profiler = cProfile.Profile(time.thread_time) if profile else None

    async def sample_lag() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            late = time.perf_counter() - before - LAG_TICK
            if measuring:
                lags.append(max(0.0, late))

    sampler = asyncio.create_task(sample_lag())
    conn.send(("ready", None))
    try:
        while True:
            # recv blocks in a worker thread (without the interpreter lock), not in the loop.
            command = await loop.run_in_executor(None, conn.recv)
            if command == "measure":
                measuring = True
                cpu_since = time.process_time()
                threads_since = threads_cpu()
                children_since = children_cpu()
                if profiler is not None:
                    profiler.enable()
            elif command == "pause":
                if profiler is not None:
                    profiler.disable()
                measuring = False
                cpu += time.process_time() - cpu_since
                workers = children_cpu() - children_since
                if workers or WORKER_PROCESSES in threads:
                    cpu += workers
                    threads[WORKER_PROCESSES] = threads.get(WORKER_PROCESSES, 0.0) + workers
                for group, seconds in threads_cpu().items():
                    threads[group] = (threads.get(group, 0.0) + seconds
                                      - threads_since.get(group, 0.0))
            else:  # "stop"
                break
    except EOFError:  # the bench went away: stop all the same
        pass
    finally:
        sampler.cancel()
        await running.stop()
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    return {"lags": lags, "cpu": cpu, "threads": threads}


class BotProcess:
    """The bot in a spawned process; ``stop`` always leaves no process behind."""

    def __init__(self, config: Config, profile: str | None = None, *, daemon: bool = True) -> None:
        """``profile``: a file for a cProfile of the bot's event loop. ``daemon=False`` lets the
        bot start worker processes of its own (a daemonic process may not); ``stop`` and
        ``kill`` still end it."""
        context = multiprocessing.get_context("spawn")
        self._conn, child_conn = context.Pipe()
        self._process = context.Process(
            target=bot_process, args=(config, child_conn, profile), name="bench-bot",
            daemon=daemon,
        )
        self._process.start()
        child_conn.close()  # ours is closed: recv sees EOF if the child dies

    async def _receive(self, timeout: float) -> tuple[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        # Short polls, so a child that died without a word is noticed at once.
        while time.monotonic() < deadline:
            if await loop.run_in_executor(None, self._conn.poll, 0.2):
                try:
                    return self._conn.recv()
                except EOFError:
                    break
            if not self._process.is_alive() and not self._conn.poll():
                break
        raise RuntimeError(
            f"the bot process did not answer (exit code {self._process.exitcode})"
        )

    async def ready(self) -> None:
        kind, data = await self._receive(START_TIMEOUT)
        if kind != "ready":
            raise RuntimeError(f"the bot process failed to start: {data}")

    def measure(self, on: bool) -> None:
        self._conn.send("measure" if on else "pause")

    async def stop(self) -> dict[str, Any]:
        """Stop the bot; what it measured (lag samples, CPU seconds). The process is killed if
        it does not exit."""
        try:
            self._conn.send("stop")
            kind, data = await self._receive(STOP_TIMEOUT)
            if kind != "measured":
                raise RuntimeError(f"the bot process failed: {data}")
            return data
        finally:
            self._conn.close()
            self._process.join(timeout=10)
            if self._process.is_alive():
                self._process.kill()
                self._process.join(timeout=10)

    def kill(self) -> None:
        """Last resort (the bench failed before ``stop``): closing our end of the pipe asks the
        bot to stop (it reads EOF); if it has not exited in 10 s, it is killed."""
        self._conn.close()
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=10)


# ----- the players (the bench's process) ----------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


async def start_game(emu: Emulator, host: str, guest: str) -> int:
    """A challenge accepted with its button; returns the game's thread id."""
    challenge = await (await emu.slash(host, "play alak", {"opponent": guest})).reply()
    await emu.click(guest, challenge, label="Accept")
    # The game's thread is started from the challenge message, so it has the message's id.
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=challenge.id,
                                       timeout=60)
    return board.channel_id


async def play_game(
    emu: Emulator,
    thread: int,
    players: tuple[str, str],
    answered: list[tuple[Interaction, Event]],
    think: float,
    rng: random.Random,
) -> int:
    """Play to the end; every move's interaction and the event of its board go to
    ``answered``."""
    board: Message = [m for m in emu.channel_messages(thread) if m.files][-1]
    plies = 0
    def moves(message: Message) -> list[dict]:  # not Abort, on the first boards
        return [b for b in message.buttons() if b["custom_id"].startswith("bg:mv:")]

    while moves(board):
        if think > 0:
            await asyncio.sleep(rng.expovariate(1 / think))
        mover = emu.user(players[plies % 2])
        move = moves(board)[0]
        if plies % 4 < 2:
            interaction = await emu.slash(mover, "move", {"text": move["label"]}, channel=thread)
        else:
            interaction = await emu.click(mover, board, move["custom_id"])
        event = await interaction.reply_event(lambda m: bool(m.files), timeout=60)
        answered.append((interaction, event))
        board = emu.messages[event.data.id]
        plies += 1
    return plies


def requests_before_visible(emu: Emulator, interaction: Interaction, event: Event) -> int:
    """The bot's REST requests for this move until its board was visible: those answering the
    interaction, and messages posted in its channel (each game has its own thread); the edit
    that takes the buttons off the previous board is background work, not counted."""
    times = [r.at for r in emu.requests]
    first = bisect.bisect_left(times, interaction.sent_at)
    last = bisect.bisect_right(times, event.at)
    return sum(
        1 for r in emu.requests[first:last]
        if r.interaction_id == interaction.id
        or (r.channel_id == interaction.channel_id and r.method == "POST")
    )


TURN = re.compile(r"<@(\d+)>, your turn")


def turn_pings(emu: Emulator, threads: set[int]) -> tuple[int, int]:
    """(turn mentions that notified the player named, all turn mentions) in the games'
    threads: created messages notify, edits never do. Each message counts once, when its turn
    mention first appears (later edits that take buttons away keep the text)."""
    notified = total = 0
    counted: set[int] = set()
    for event in emu.events:
        if event.kind not in ("message", "edit") or event.data.channel_id not in threads:
            continue
        found = TURN.search(event.data.content)
        if found is None or event.data.id in counted:
            continue
        counted.add(event.data.id)
        total += 1
        notified += event.kind == "message" and int(found.group(1)) in event.notified
    return notified, total


async def bench(
    games: int, rounds: int, think: float, rtt_ms: float = 0.0, profile: str | None = None,
    board_pool: str = "process",
) -> dict[str, Any]:
    users = [f"player{i}" for i in range(2 * games)]
    emu = Emulator(users=users, rest_delay=rtt_ms / 1000)
    await emu.start()
    answered: list[tuple[Interaction, Event]] = []
    measured: dict[str, Any] = {"lags": [0.0], "cpu": 0.0, "threads": {}}
    all_threads: set[int] = set()
    plies = 0
    emulator_cpu = 0.0
    with tempfile.TemporaryDirectory(prefix="bench-e2e-") as workdir:
        config = Config(
            token=emu.token, api_base=emu.api_base, gateway_url=emu.gateway_url,
            database=str(Path(workdir) / "bench.db"), sync_on_start="global",
            log_level="WARNING", board_pool=board_pool,
        )
        bot = BotProcess(config, profile)
        try:
            await bot.ready()
            await emu.wait_until_connected()
            started = time.perf_counter()
            for _ in range(rounds):
                pairs = [(users[2 * i], users[2 * i + 1]) for i in range(games)]
                threads = await asyncio.gather(*(start_game(emu, a, b) for a, b in pairs))
                all_threads.update(threads)
                bot.measure(True)
                cpu_since = time.process_time()
                rng = random.Random(1)
                played = await asyncio.gather(*(
                    play_game(emu, thread, pair, answered, think, rng)
                    for thread, pair in zip(threads, pairs, strict=True)
                ))
                emulator_cpu += time.process_time() - cpu_since
                bot.measure(False)
                plies += sum(played)
            elapsed = time.perf_counter() - started
            measured = await bot.stop()
        finally:
            bot.kill()
            await emu.close()
    latencies = [event.at - interaction.sent_at for interaction, event in answered]
    requests = [requests_before_visible(emu, i, e) for i, e in answered]
    lags = measured["lags"] or [0.0]
    notified, mentions = turn_pings(emu, all_threads)
    return {
        "games": games * rounds,
        "moves": plies,
        "moves_per_s": plies / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "max_ms": 1000 * max(latencies),
        "lag_p99_ms": 1000 * percentile(lags, 0.99),
        "lag_max_ms": 1000 * max(lags),
        "requests_mean": statistics.mean(requests),
        "requests_max": max(requests),
        "cpu_ms_per_move": 1000 * measured["cpu"] / max(1, plies),
        "threads_ms_per_move": {
            group: 1000 * seconds / max(1, plies)
            for group, seconds in sorted(measured["threads"].items(), key=lambda g: -g[1])
        },
        "emulator_cpu_ms_per_move": 1000 * emulator_cpu / max(1, plies),
        "turn_pings": notified,
        "turn_mentions": mentions,
        "refusals": len(emu.refusals),
        "refusal_codes": sorted({(r.code, r.path.split("/")[1]) for r in emu.refusals}),
    }


def machine_reference_ms(draws: int = 200) -> float:
    """How fast this machine is right now: the median CPU time of drawing one fixed Alak board
    (what a move costs the bot in large part). The shared machine's speed drifts by a factor
    of up to two from one hour to the next, so a figure is only comparable with this beside it."""
    import engines
    import render

    game = engines.get("alak")
    state, rng, move = game.new(2, seed=1), random.Random(1), None
    for _ in range(12):
        move = rng.choice(list(game.legal_moves(state)))
        state = game.play(state, move)
    times = []
    for _ in range(draws):
        started = time.thread_time()
        render.board("alak", state, last_move=str(move), players=["Ann", "Bob"])
        times.append(time.thread_time() - started)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played in parallel")
    parser.add_argument("--rounds", type=int, default=1, help="how many times to do it")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player thinks before moving (0: none)")
    parser.add_argument("--rtt-ms", type=float, default=0.0,
                        help="a network round trip added to every REST answer, in ms")
    parser.add_argument("--profile", metavar="FILE",
                        help="profile the bot's event loop (CPU time) into FILE (pstats)")
    parser.add_argument("--board-pool", choices=("process", "thread"), default="process",
                        help="where the bot draws move boards (its board_pool setting)")
    args = parser.parse_args()
    reference = machine_reference_ms()
    result = asyncio.run(bench(args.games, args.rounds, args.think, args.rtt_ms, args.profile,
                                 args.board_pool))
    print(f"{result['games']} Alak games ({args.games} in parallel, think {args.think} s, "
          f"round trip {args.rtt_ms:g} ms, boards in {args.board_pool} workers), "
          f"{result['moves']} moves, "
          f"{result['moves_per_s']:.0f} moves/s")
    # docs/architecture.md: saturated (no think time) p50 <= 100 ms and p99 <= 250 ms; players who
    # think (a real server), with or without a round trip to Discord: p50 <= 150 ms.
    p50_budget, p99_budget = (100, 250) if args.think == 0 else (150, 500)
    print("| what | measured | budget |")
    print("| --- | ---: | ---: |")
    print(f"| interaction to reply with image, p50 | {result['p50_ms']:.0f} ms "
          f"| ≤ {p50_budget} ms |")
    print(f"| interaction to reply with image, p99 | {result['p99_ms']:.0f} ms "
          f"| ≤ {p99_budget} ms |")
    print(f"| bot event-loop lag, p99 | {result['lag_p99_ms']:.1f} ms | ≤ 20 ms |")
    print(f"| REST requests before the board is visible | {result['requests_mean']:.2f} "
          f"(max {result['requests_max']}) | 1 |")
    split = ", ".join(f"{group} {ms:.1f}" for group, ms in result["threads_ms_per_move"].items())
    print(f"| bot CPU per move | {result['cpu_ms_per_move']:.1f} ms ({split}) | ≤ 4 ms |")
    print(f"| the emulator's and players' CPU per move (the bench's process) | "
          f"{result['emulator_cpu_ms_per_move']:.1f} ms | |")
    print(f"| turn mentions that notify | {result['turn_pings']} of "
          f"{result['turn_mentions']} | all |")
    print(f"| requests Discord would refuse | {result['refusals']} | 0 |")
    print(f"| machine reference: one fixed Alak board drawn (CPU, p50, before the run) "
          f"| {reference:.2f} ms | |")
    if result["refusals"]:
        print(f"refused: {result['refusal_codes']}")


if __name__ == "__main__":
    main()
