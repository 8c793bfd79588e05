"""End-to-end latency through the local Discord emulator (DESIGN.md §10).

    python -m bench.e2e [--games 20] [--rounds 1] [--think 1.0]

The real discord.py bot runs in its own thread and event loop (as it would in production, where
Discord is another machine); the emulator and the simulated players run in the main thread.
``--games`` Alak games are played to the end in parallel, the players alternating between
``/move`` and the move buttons. Before each move a player thinks for a random time (exponential,
mean ``--think`` seconds, as people in chat do); ``--think 0`` fires every move the moment the
previous reply arrives, which measures the machine saturated rather than a busy server.
Measured:

- latency: from the emulator sending INTERACTION_CREATE to the reply carrying the board image
  (targets: p50 <= 150 ms, p99 <= 500 ms);
- event-loop lag of the bot's loop while the games run (target: p99 <= 50 ms), sampled by a task
  that asks to wake every 5 ms and records how late it wakes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot.app import launch
from bot.config import Config
from bot.emulator import Emulator, Message

LAG_TICK = 0.005


@dataclass
class BotThread:
    """The bot on its own event loop, in a thread."""

    config: Config
    lags: list[float] = field(default_factory=list)
    measuring: bool = False
    ready: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    _stop: asyncio.Event | None = None
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._main, name="bot", daemon=True)
        self._thread.start()

    def _main(self) -> None:
        try:
            asyncio.run(self._run())
        except BaseException as exc:  # reported by the main thread
            self.error = exc
            self.ready.set()

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        running = await launch(self.config, guild_ready_timeout=0.05)
        monitor = asyncio.create_task(self._monitor_lag())
        self.ready.set()
        await self._stop.wait()
        monitor.cancel()
        await running.stop()

    async def _monitor_lag(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            late = time.perf_counter() - before - LAG_TICK
            if self.measuring:
                self.lags.append(max(0.0, late))

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout=30)


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
    latencies: list[float],
    think: float,
    rng: random.Random,
) -> int:
    """Play to the end; every move's interaction-to-image latency goes to ``latencies``."""
    board: Message = [m for m in emu.channel_messages(thread) if m.files][-1]
    plies = 0
    while board.buttons():
        if think > 0:
            await asyncio.sleep(rng.expovariate(1 / think))
        mover = emu.user(players[plies % 2])
        move = board.buttons()[0]
        if plies % 4 < 2:
            interaction = await emu.slash(mover, "move", {"text": move["label"]}, channel=thread)
        else:
            interaction = await emu.click(mover, board, move["custom_id"])
        event = await interaction.reply_event(lambda m: bool(m.files), timeout=60)
        latencies.append(event.at - interaction.sent_at)
        board = emu.messages[event.data.id]
        plies += 1
    return plies


async def bench(games: int, rounds: int, think: float) -> dict[str, float]:
    users = [f"player{i}" for i in range(2 * games)]
    emu = Emulator(users=users)
    await emu.start()
    workdir = Path(tempfile.mkdtemp(prefix="bench-e2e-"))
    config = Config(
        token=emu.token, api_base=emu.api_base, gateway_url=emu.gateway_url,
        database=str(workdir / "bench.db"), sync_on_start="global", log_level="WARNING",
    )
    bot = BotThread(config)
    bot.start()
    await asyncio.get_running_loop().run_in_executor(None, bot.ready.wait)
    if bot.error is not None:
        raise bot.error
    await emu.wait_until_connected()
    latencies: list[float] = []
    plies = 0
    started = time.perf_counter()
    try:
        for _ in range(rounds):
            pairs = [(users[2 * i], users[2 * i + 1]) for i in range(games)]
            threads = await asyncio.gather(*(start_game(emu, a, b) for a, b in pairs))
            bot.measuring = True
            rng = random.Random(1)
            played = await asyncio.gather(*(
                play_game(emu, thread, pair, latencies, think, rng)
                for thread, pair in zip(threads, pairs, strict=True)
            ))
            bot.measuring = False
            plies += sum(played)
    finally:
        bot.stop()
        await emu.close()
    elapsed = time.perf_counter() - started
    return {
        "games": games * rounds,
        "moves": plies,
        "moves_per_s": plies / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "max_ms": 1000 * max(latencies),
        "lag_p99_ms": 1000 * percentile(bot.lags, 0.99),
        "lag_max_ms": 1000 * max(bot.lags),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played in parallel")
    parser.add_argument("--rounds", type=int, default=1, help="how many times to do it")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player thinks before moving (0: none)")
    args = parser.parse_args()
    result = asyncio.run(bench(args.games, args.rounds, args.think))
    print(f"{result['games']} Alak games ({args.games} in parallel, think {args.think} s), "
          f"{result['moves']} moves, {result['moves_per_s']:.0f} moves/s")
    print("| what | measured | budget |")
    print("| --- | ---: | ---: |")
    print(f"| interaction to reply with image, p50 | {result['p50_ms']:.0f} ms | ≤ 150 ms |")
    print(f"| interaction to reply with image, p99 | {result['p99_ms']:.0f} ms | ≤ 500 ms |")
    print(f"| bot event-loop lag, p99 | {result['lag_p99_ms']:.1f} ms | ≤ 50 ms |")


if __name__ == "__main__":
    main()
