"""Exactly-once delivery across crashes: the bot killed with SIGKILL again and again.

    python -m bench.crash [--cycles 100] [--rtt-ms 20] [--seed 1]

The real bot runs as ``python -m bot`` in its own process against the local emulator. Each
cycle, users act (a challenge accepted, a move by ``/move`` or by a button), the bot is killed
at a random moment while it answers (``kill -9``), and started again on the same database,
where it first delivers what the killed one left. At the end every game's thread is checked:
one thread per game, each board (one per ply, named by its ply) posted exactly once, none
missing, one "Game over" per finished game. Target: no duplicate and nothing lost in 100
cycles.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import signal
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.services import Services
from bot.store import open_store
from emulator import Emulator, Interaction
from emulator.botprocess import BotProcess

#: How long after its last action the bot may live before the kill (seconds, uniform).
KILL_WITHIN = 0.12


@dataclass
class Report:
    cycles: int = 0
    games: int = 0
    moves: int = 0
    duplicates: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extra_threads: list[int] = field(default_factory=list)
    seconds: float = 0.0


async def act(emu: Emulator, service: Services, rng: random.Random) -> Interaction:
    """One user action: start a game when none is running, otherwise the player to move
    plays (by /move or by a button of the newest board)."""
    running = [g for g in await service.games.games_of(emu.user("alice").id) if g.thread_id]
    if not running:
        waiting = {c.message_id for c in await service.challenges.open_challenges()}
        challenges = [m for m in emu.channel_messages(emu.channel_id) if m.id in waiting]
        if challenges:
            return await emu.click("bob", challenges[-1], label="Accept")
        return await emu.slash("alice", "play alak", {"opponent": "bob"})
    game = running[0]
    mover = next(u for u in emu.users.values() if u.id == game.user_to_move())
    boards = [m for m in emu.channel_messages(game.thread_id) if m.buttons()]
    current = [b for b in (boards[-1].buttons() if boards else [])
               if b["custom_id"].startswith("bg:mv:")  # not Abort
               and b["custom_id"].split(":")[3] == str(game.version)]
    if current and rng.random() < 0.5:
        return await emu.click(mover, boards[-1], rng.choice(current)["custom_id"])
    moves = await service.games.legal_moves(game.id, mover.id)
    return await emu.slash(mover, "move", {"text": rng.choice(moves)}, channel=game.thread_id)


async def settle(service: Services, timeout: float = 60.0) -> None:
    """Wait until the bot has delivered every pending row."""
    deadline = time.monotonic() + timeout
    while await service.outbox.pending_outbox():
        if time.monotonic() > deadline:
            raise TimeoutError("the bot left rows undelivered")
        await asyncio.sleep(0.1)


def check(emu: Emulator, games: list, report: Report) -> None:
    """One thread per game; every board exactly once; one result per finished game."""
    threads = Counter(str(t["name"]).split(":")[0] for t in emu.threads())
    for game in games:
        prefix = f"Alak #{game.id}"
        if threads[prefix] != 1:
            report.extra_threads.append(game.id)
        posted = Counter(
            f.filename for m in emu.messages.values() if m.channel_id == game.thread_id
            for f in m.files
        )
        for ply in range(game.ply + 1):
            name = f"alak-{game.id}-{ply}.png"
            if posted[name] > 1:
                report.duplicates.append(f"{name} posted {posted[name]} times")
            elif posted[name] == 0:
                report.missing.append(name)
        results = [m for m in emu.messages.values()
                   if m.channel_id == game.thread_id and m.content.startswith("Game over")]
        if len(results) > 1:
            report.duplicates.append(f"game {game.id}: {len(results)} results")
        if game.status == "finished" and not results:
            report.missing.append(f"game {game.id}: its result")


async def drill(cycles: int, workdir: Path, *, seed: int = 1, rtt_ms: float = 20.0) -> Report:
    """``cycles`` kills of the bot while users play; the report of what reached Discord."""
    rng = random.Random(seed)
    report = Report()
    started = time.perf_counter()
    database = workdir / "crash.db"
    emu = Emulator(rest_delay=rtt_ms / 1000)
    await emu.start()
    bot = BotProcess(emu, database, workdir / "crash-bot.log")
    store = None
    try:
        await bot.start()
        store = await open_store(str(database))
        service = Services(store)
        for _ in range(cycles):
            await settle(service)  # the restarted bot catches up first, as it would
            for _ in range(rng.randint(1, 3)):  # the game goes on...
                with contextlib.suppress(TimeoutError):
                    await (await act(emu, service, rng)).acknowledged(timeout=5)
            await act(emu, service, rng)  # ...and the bot dies while it answers this one
            await asyncio.sleep(rng.uniform(0, KILL_WITHIN))
            await bot.kill()
            report.cycles += 1
            await bot.start()
        await settle(service)
        await bot.signal(signal.SIGTERM)
        games = await service.games.games_of(emu.user("alice").id, active_only=False)
        report.games = len(games)
        report.moves = sum(g.ply for g in games)
        check(emu, games, report)
    finally:
        await bot.stop()
        if store is not None:
            await store.close()
        await emu.close()
    report.seconds = time.perf_counter() - started
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--rtt-ms", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-crash-") as workdir:
        report = asyncio.run(drill(args.cycles, Path(workdir), seed=args.seed,
                                   rtt_ms=args.rtt_ms))
    print(f"{report.cycles} kill -9 cycles in {report.seconds:.0f} s: {report.games} games, "
          f"{report.moves} moves")
    print(f"duplicates: {len(report.duplicates)} {report.duplicates[:5]}")
    print(f"lost: {len(report.missing)} {report.missing[:5]}")
    print(f"games with more than one thread: {len(report.extra_threads)}")


if __name__ == "__main__":
    main()
