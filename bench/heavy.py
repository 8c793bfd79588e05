"""Heavy commands against moves (budgets: docs/architecture.md): 30 concurrent ``/replay``
while 20 games play.

    python -m bench.heavy [--games 20] [--replays 30] [--think 1.0] [--pools process,thread]
                          [--repeat 1]

The bot runs in its own process (``bench.e2e.BotProcess``) on a database prepared beforehand
with ``--replays`` finished games (a mix of Palago, Palam, LPPG, Kolory and Alak, played at
random through the services). Each scenario starts a fresh bot, then ``--games`` Alak games
play in parallel as in ``bench.e2e`` (players think ``--think`` seconds on average):

- ``none``: no replay, the reference;
- ``<pool>, 30 users``: when the games start, ``--replays`` different users each ask for the
  replay of a different finished game, at once, with the heavy pool made of processes or
  threads (``heavy_pool``);
- ``<pool>, 1 user``: one user asks for all of them at once (the per-user limit answers).

Measured, as in ``bench.e2e``, while replays are being drawn (from the moment they are asked
to the last answer; the whole round for ``none``): the interaction-to-board latency of the
moves, and the bot's event-loop lag; and each replay's time to its GIF. Scenarios run
``--repeat`` times, interleaved (a shared machine's load drifts), and the figures pool every
run. Targets: move p99 within 50 ms of ``none``'s, loop lag p99 <= 20 ms.

Before measuring, each bot draws one replay unmeasured: a bot that has been running a while has
its worker process started already (the first replay after a start also pays for starting it;
the last column shows that).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import multiprocessing
import random
import statistics
import tempfile
from pathlib import Path

from bench import percentile
from bench.e2e import BotProcess, bot_process, play_game, start_game
from bot.core.settings import Config
from bot.services import Services
from bot.store import open_store
from emulator import EPHEMERAL, Emulator, Event, Interaction

REPLAY_GAMES = ("palago", "palam", "lppg", "kolory", "alak")
MAX_PLIES = 300
#: Targets of issue 20 §3.
MOVE_P99_MARGIN_MS = 50.0
LAG_P99_MS = 20.0


class WorkingBotProcess(BotProcess):
    """``bench.e2e``'s bot process, but not a daemon: the bot starts worker processes of its
    own, which a daemonic process may not."""

    def __init__(self, config: Config) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child_conn = context.Pipe()
        self._process = context.Process(target=bot_process, args=(config, child_conn),
                                        name="bench-bot")
        self._process.start()
        child_conn.close()


class TimedLatencies(list):
    """What ``bench.e2e.play_game`` answers, kept as (when the reply came, its latency)."""

    def append(self, answered: tuple[Interaction, Event]) -> None:
        interaction, event = answered
        super().append((event.at, event.at - interaction.sent_at))


async def prepare(path: Path, emu: Emulator, count: int, players: list[str]) -> list[int]:
    """``count`` finished games of the emulator's server, their messages marked as sent (the
    bot starts with nothing to post)."""
    store = await open_store(str(path))
    service = Services(store)
    rng = random.Random(7)
    ids = []
    try:
        for index in range(count):
            seats = (emu.user(players[2 * index]).id, emu.user(players[2 * index + 1]).id)
            info = await service.challenges.create_game(
                REPLAY_GAMES[index % len(REPLAY_GAMES)], seats, guild_id=emu.guild_id,
                channel_id=emu.channel_id)
            for _ in range(MAX_PLIES):
                if info.status != "active":
                    break
                user = info.user_to_move()
                move = rng.choice(await service.games.legal_moves(info.id, user))
                info = (await service.play.move(info.id, user, move)).game
            if info.status == "active":
                await service.play.resign(info.id, info.user_to_move())
            ids.append(info.id)
        while pending := await service.outbox.pending_outbox(1000):
            for item in pending:
                await service.outbox.mark_delivered(item.id)
    finally:
        await store.close()
    return ids


async def ask_replay(emu: Emulator, user: str, game_id: int) -> tuple[float, float, bool]:
    """(when asked, when answered, whether a GIF came: otherwise a private "wait a moment")."""
    interaction = await emu.slash(user, "replay", {"game": game_id})
    event = await interaction.reply_event(timeout=600)
    drawn = bool(event.data.files) and not event.data.flags & EPHEMERAL
    return interaction.sent_at, event.at, drawn


@dataclasses.dataclass
class Measured:
    """What the runs of one scenario measured, pooled over ``--repeat``."""

    moves: list[float] = dataclasses.field(default_factory=list)  # seconds
    lags: list[float] = dataclasses.field(default_factory=list)
    replays: list[float] = dataclasses.field(default_factory=list)  # seconds to the GIF
    refused: int = 0
    first_replays: list[float] = dataclasses.field(default_factory=list)

    def row(self, name: str) -> str:
        replays = (f"{statistics.median(self.replays):.1f} s / {max(self.replays):.1f} s"
                   if self.replays else "-")
        first = f"{max(self.first_replays):.1f} s" if self.first_replays else "-"
        return (f"| {name} | {len(self.moves)} | {1000 * statistics.median(self.moves):.0f} ms "
                f"| {1000 * percentile(self.moves, 0.99):.0f} ms "
                f"| {1000 * percentile(self.lags, 0.99):.1f} ms "
                f"| {len(self.replays)} / {self.refused} | {replays} | {first} |")


async def scenario(
    emu: Emulator, config: Config, players: list[str], viewers: list[str], games: int,
    replay_ids: list[int], think: float, warm_up: int | None, into: Measured,
) -> None:
    """One fresh bot: the games, and the replays asked by ``viewers`` (one each, in turn);
    moves and loop lag count while replays are being drawn (the whole round without any).
    With ``warm_up`` (a game id), one replay is drawn first, unmeasured, as a bot that has been
    running a while has its worker started already."""
    bot = WorkingBotProcess(config)
    try:
        await bot.ready()
        await emu.wait_until_connected()
        if warm_up is not None:
            asked, answered, _ = await ask_replay(emu, players[0], warm_up)
            into.first_replays.append(answered - asked)
        pairs = [(players[2 * i], players[2 * i + 1]) for i in range(games)]
        threads = await asyncio.gather(*(start_game(emu, a, b) for a, b in pairs))
        latencies = TimedLatencies()
        bot.measure(True)
        replays = asyncio.gather(*(ask_replay(emu, viewers[i % len(viewers)], game_id)
                                   for i, game_id in enumerate(replay_ids)))
        if replay_ids:
            replays.add_done_callback(lambda _: bot.measure(False))
        rng = random.Random(1)
        while True:
            await asyncio.gather(*(play_game(emu, thread, pair, latencies, think, rng)
                                   for thread, pair in zip(threads, pairs, strict=True)))
            if not replay_ids or replays.done():
                break
            threads = await asyncio.gather(*(start_game(emu, a, b) for a, b in pairs))
        answers = await replays
        bot.measure(False)
        into.lags += (await bot.stop())["lags"]
    finally:
        bot.kill()
    finished = max((at for _, at, _ in answers), default=float("inf"))
    into.moves += [latency for at, latency in latencies if at <= finished]
    into.replays += [at - asked for asked, at, ok in answers if ok]
    into.refused += sum(1 for *_, ok in answers if not ok)


def _config(emu: Emulator, database: Path, pool: str) -> Config:
    config = Config(
        token=emu.token, api_base=emu.api_base, gateway_url=emu.gateway_url,
        database=str(database), sync_on_start="global", log_level="WARNING",
    )
    if pool and any(f.name == "heavy_pool" for f in dataclasses.fields(Config)):
        config = dataclasses.replace(config, heavy_pool=pool)
    return config


async def bench(games: int, replays: int, think: float, pools: list[str],
                repeat: int) -> dict[str, Measured]:
    """Every scenario ``repeat`` times, interleaved (the machine's load drifts), pooled."""
    players = [f"player{i}" for i in range(max(2 * games, 2 * replays + 2))]
    viewers = [f"viewer{i}" for i in range(replays)]
    emu = Emulator(users=players + viewers)
    await emu.start()
    results: dict[str, Measured] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="bench-heavy-") as workdir:
            database = Path(workdir) / "bench.db"
            *replay_ids, warm_up = await prepare(database, emu, replays + 1, players)
            runs: list[tuple[str, str, list[str], list[int]]] = [("none", "", viewers, [])]
            for pool in pools:
                runs.append((f"{pool}, {replays} users", pool, viewers, replay_ids))
                runs.append((f"{pool}, 1 user", pool, viewers[:1], replay_ids))
            for round_number in range(repeat):
                for name, pool, who, ids in runs:
                    measured = results.setdefault(name, Measured())
                    await scenario(emu, _config(emu, database, pool), players, who, games,
                                   ids, think, warm_up if ids else None, measured)
                    print(f"run {round_number + 1}/{repeat}: {measured.row(name)}", flush=True)
    finally:
        await emu.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="Alak games played in parallel")
    parser.add_argument("--replays", type=int, default=30, help="replays asked at once")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player thinks before moving")
    parser.add_argument("--pools", default="process,thread",
                        help="heavy pool kinds to compare (comma-separated)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of every scenario, interleaved and pooled")
    args = parser.parse_args()
    pools = [p for p in args.pools.split(",") if p]
    results = asyncio.run(bench(args.games, args.replays, args.think, pools, args.repeat))
    reference = 1000 * percentile(results["none"].moves, 0.99)
    print(f"\n{args.games} Alak games (think {args.think} s) and {args.replays} /replay at once, "
          f"{args.repeat} run(s) each")
    print("| scenario | moves | move p50 | move p99 | loop lag p99 | replays drawn / asked to "
          "wait | replay p50 / max | first replay after start |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, measured in results.items():
        print(measured.row(name))
    print(f"targets: move p99 ≤ {reference + MOVE_P99_MARGIN_MS:.0f} ms (none + "
          f"{MOVE_P99_MARGIN_MS:.0f}), loop lag p99 ≤ {LAG_P99_MS:.0f} ms")


if __name__ == "__main__":
    main()
