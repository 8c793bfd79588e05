"""The bot's event loop while AI players think (issue: AI opponents in Discord), and how fair
the AI is to others while one user floods it (issue 26).

    python -m bench.ai_bot [--games 5] [--moves 6] [--level hard]
    python -m bench.ai_bot --flood [--moves 30]

The real bot runs in its own process (``bench.e2e.BotProcess``, with its lag sampler) against
the local emulator. ``--games`` players each start ``/play <game> level:<level>`` (a different
game each: Polygo, Palago, Palam, Kolory, Alak, …) and answer every AI move at once with the
first move ``/move``'s autocomplete offers, so the AI players think all the time, several at
once, in the bot's worker processes. Measured:

- the bot's event-loop lag while the AI games run (target: p99 <= 20 ms): the AI must think
  in worker processes, never on the loop;
- how long each AI move takes, from the player's move being answered to the AI's board pinging
  them (thinking, waiting for a free worker, storing and posting).

``--flood``: one user (``flooder``) asks for 30 ``hard`` Polygo games at once, then plays every
game it got, asking three hints at once on each of its turns, without pause; meanwhile another
user (``other``) plays ``medium`` Alak games against the AI (a second to think before each
move, so that the flood runs through them). Measured: the other user's AI
reply times alone first (its normal think time), then during the flood (target: p95 <= the
normal p95 + 1 s), and what the flooder's games and hints got (started, refused, answered,
told to wait, unanswered).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import ai
from bench.e2e import BotProcess, percentile
from bot.core.settings import Config
from emulator import Emulator, Message

GAMES = ("polygo", "palago", "palam", "kolory", "alak")
#: Seconds a bench waits for one answer (an AI move queued behind the others included).
PATIENCE = 120.0


async def play(emu: Emulator, user: str, game: str, level: str, moves: int,
               ai_seconds: list[float], pause: float = 0.0) -> int:
    """Start a game against the AI and answer its moves (after ``pause`` seconds each: a
    player who thinks); returns the player's moves."""
    member = emu.user(user)
    mark = emu.mark()
    await (await emu.slash(user, f"play {game}", {"level": level})).reply(timeout=PATIENCE)
    first: Message = await emu.wait_for_message(
        lambda m: bool(m.files) and member.mention in m.content, since=mark, timeout=PATIENCE)
    thread = first.channel_id
    turn = f"{member.mention}, your turn"

    async def my_turn(since: int) -> bool:
        """Wait until this player is to move (True) or the game is over (False)."""
        message = await emu.wait_for_message(
            lambda m: m.channel_id == thread and (
                turn in m.content or m.content.startswith("Game over")),
            since=since, timeout=PATIENCE)
        return turn in message.content

    played = 0
    going = await my_turn(mark)
    while going and played < moves:
        await asyncio.sleep(pause)
        choices = await emu.autocomplete(user, "move", {"text": ""}, "text", channel=thread)
        mark = emu.mark()
        reply = await (await emu.slash(user, "move", {"text": choices[0]["value"]},
                                       channel=thread)).reply(timeout=PATIENCE)
        played += 1
        answered = time.perf_counter()
        going = await my_turn(mark)
        if going and turn not in reply.content:  # the AI moved in between
            ai_seconds.append(time.perf_counter() - answered)
    return played


async def bench(games: int, moves: int, level: str) -> dict[str, Any]:
    users = [f"player{i}" for i in range(games)]
    emu = Emulator(users=users)
    await emu.start()
    ai_seconds: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-ai-bot-") as workdir:
        config = Config(
            token=emu.token, api_base=emu.api_base, gateway_url=emu.gateway_url,
            database=str(Path(workdir) / "bench.db"), sync_on_start="global",
            log_level="WARNING",
        )
        bot = BotProcess(config, daemon=False)  # the AI thinks in the bot's own workers
        try:
            await bot.ready()
            await emu.wait_until_connected()
            bot.measure(True)
            started = time.perf_counter()
            played = await asyncio.gather(*(
                play(emu, user, GAMES[i % len(GAMES)], level, moves, ai_seconds)
                for i, user in enumerate(users)))
            elapsed = time.perf_counter() - started
            bot.measure(False)
            measured = await bot.stop()
        finally:
            bot.kill()
            await emu.close()
    lags = measured["lags"] or [0.0]
    return {
        "games": games,
        "player_moves": sum(played),
        "ai_moves": len(ai_seconds),
        "elapsed_s": elapsed,
        "lag_p50_ms": 1000 * statistics.median(lags),
        "lag_p99_ms": 1000 * percentile(lags, 0.99),
        "lag_max_ms": 1000 * max(lags),
        "ai_move_p50_s": statistics.median(ai_seconds) if ai_seconds else 0.0,
        "ai_move_p95_s": percentile(ai_seconds, 0.95) if ai_seconds else 0.0,
        "refusals": len(emu.refusals),
    }


#: The flood: games the flooder asks for at once, and hints it asks at once on each turn.
FLOOD_GAMES = 30
FLOOD_HINTS = 3
#: The other user thinks this long before each move, so the flood lasts through its game.
OTHER_PAUSE = 1.0


async def flood_game(emu: Emulator, user: str, thread: int, counts: dict[str, int]) -> None:
    """The flooder's play in one game: on each of its turns, hints at once, then a move; until
    the game ends or the task is cancelled."""
    member = emu.user(user)
    turn = f"{member.mention}, your turn"
    mark = 0
    while True:
        message = await emu.wait_for_message(
            lambda m: m.channel_id == thread and (
                turn in m.content or m.content.startswith("Game over")),
            since=mark, timeout=PATIENCE)
        if turn not in message.content:
            return
        asked = [await emu.slash(user, "hint", channel=thread) for _ in range(FLOOD_HINTS)]
        for answer in await asyncio.gather(*(a.reply(timeout=PATIENCE) for a in asked),
                                           return_exceptions=True):
            if isinstance(answer, BaseException):
                counts["hints_unanswered"] += 1
            elif answer.content.startswith("Hint"):
                counts["hints_answered"] += 1
            elif "try again" in answer.content:
                counts["hints_told_to_wait"] += 1
            else:
                counts["hints_refused_otherwise"] += 1
        choices = await emu.autocomplete(user, "move", {"text": ""}, "text", channel=thread)
        mark = emu.mark()
        await (await emu.slash(user, "move", {"text": choices[0]["value"]},
                               channel=thread)).reply(timeout=PATIENCE)
        counts["flooder_moves"] += 1


async def ai_replies(emu: Emulator, user: str, game: str, level: str, count: int,
                     ai_seconds: list[float]) -> None:
    """Games of ``user`` against the AI, one after the other, until ``count`` AI replies
    were timed."""
    while len(ai_seconds) < count:
        await play(emu, user, game, level, count - len(ai_seconds), ai_seconds,
                   pause=OTHER_PAUSE)


async def bench_flood(moves: int, games_cap: int | None = None) -> dict[str, Any]:
    """The flood (see the module); ``games_cap``: the bot's ``ai_games_per_user`` (None: its
    default), 30 to let the flooder have every game it asks for."""
    emu = Emulator(users=["flooder", "other"])
    await emu.start()
    alone: list[float] = []
    flooded: list[float] = []
    counts = dict.fromkeys(("games_started", "games_refused", "flooder_moves", "hints_answered",
                            "hints_told_to_wait", "hints_refused_otherwise",
                            "hints_unanswered", "other_waited_too_long"), 0)
    with tempfile.TemporaryDirectory(prefix="bench-ai-flood-") as workdir:
        config = Config(
            token=emu.token, api_base=emu.api_base, gateway_url=emu.gateway_url,
            database=str(Path(workdir) / "bench.db"), sync_on_start="global",
            log_level="WARNING",
        )
        if games_cap is not None:
            config = replace(config, ai_games_per_user=games_cap)
        bot = BotProcess(config, daemon=False)
        tasks: list[asyncio.Task] = []
        try:
            await bot.ready()
            await emu.wait_until_connected()
            # The other user's AI replies with nobody else around: its normal think time (after
            # a first game that starts the AI's worker processes).
            await play(emu, "other", "alak", "medium", 2, [])
            await ai_replies(emu, "other", "alak", "medium", moves, alone)
            started = time.perf_counter()
            mark = emu.mark()
            asked = await asyncio.gather(*(emu.slash("flooder", "play polygo",
                                                     {"level": "hard"})
                                           for _ in range(FLOOD_GAMES)))
            for answer in await asyncio.gather(*(a.reply(timeout=PATIENCE) for a in asked)):
                counts["games_refused" if answer.ephemeral else "games_started"] += 1
            flooder = emu.user("flooder").mention
            threads: set[int] = set()
            while len(threads) < counts["games_started"]:
                board = await emu.wait_for_message(
                    lambda m: bool(m.files) and flooder in m.content
                    and m.channel_id not in threads, since=mark, timeout=PATIENCE)
                threads.add(board.channel_id)
            tasks = [asyncio.create_task(flood_game(emu, "flooder", thread, counts))
                     for thread in threads]
            await asyncio.sleep(2.0)  # the flood under way
            try:
                await ai_replies(emu, "other", "alak", "medium", moves, flooded)
            except TimeoutError:  # counted as a reply of PATIENCE seconds, and the end
                flooded.append(PATIENCE)
                counts["other_waited_too_long"] = 1
            elapsed = time.perf_counter() - started
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            with contextlib.suppress(Exception):
                await bot.stop()
            bot.kill()
            await emu.close()
    return {
        **counts,
        "elapsed_s": elapsed,
        "alone": alone,
        "flooded": flooded,
        "alone_p50_s": statistics.median(alone) if alone else 0.0,
        "alone_p95_s": percentile(alone, 0.95) if alone else 0.0,
        "flood_p50_s": statistics.median(flooded) if flooded else 0.0,
        "flood_p95_s": percentile(flooded, 0.95) if flooded else 0.0,
        "flood_max_s": max(flooded) if flooded else 0.0,
        "refusals": len(emu.refusals),
    }


def report_flood(result: dict[str, Any]) -> None:
    print(f"flood: {result['games_started']} hard Polygo games started, "
          f"{result['games_refused']} refused; {result['flooder_moves']} flooder moves; hints "
          f"{result['hints_answered']} answered, {result['hints_told_to_wait']} told to wait, "
          f"{result['hints_refused_otherwise']} refused otherwise, "
          f"{result['hints_unanswered']} unanswered; {result['elapsed_s']:.0f} s")
    if result["other_waited_too_long"]:
        print(f"the other user waited more than {PATIENCE:.0f} s for an AI reply: the bench "
              f"stopped there (that reply counts as {PATIENCE:.0f} s)")
    target = result["alone_p95_s"] + 1.0
    print("| other user's medium Alak AI reply | p50 | p95 | max | n |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, key in (("alone", "alone"), ("during the flood", "flooded")):
        times = result[key] or [0.0]
        print(f"| {name} | {statistics.median(times):.2f} s | "
              f"{percentile(times, 0.95):.2f} s | {max(times):.2f} s | {len(result[key])} |")
    print(f"target: p95 during the flood <= {target:.2f} s (alone p95 + 1 s): "
          f"{'met' if result['flood_p95_s'] <= target else 'NOT met'}; "
          f"requests Discord would refuse: {result['refusals']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="AI games played at once")
    parser.add_argument("--moves", type=int, default=6, help="the player's moves per game")
    parser.add_argument("--level", choices=ai.LEVELS, default="hard")
    parser.add_argument("--flood", action="store_true",
                        help="one user floods the AI while another plays (issue 26); "
                             "--moves: the other user's AI replies timed (README: 30)")
    parser.add_argument("--games-cap", type=int, default=None,
                        help="with --flood: the bot's ai_games_per_user (default: its own)")
    args = parser.parse_args()
    if args.flood:
        report_flood(asyncio.run(bench_flood(args.moves, args.games_cap)))
        return
    result = asyncio.run(bench(args.games, args.moves, args.level))
    print(f"{result['games']} games against the AI ({args.level}) at once: "
          f"{result['player_moves']} player moves, {result['ai_moves']} AI moves answered in "
          f"{result['elapsed_s']:.0f} s")
    print("| what | measured | budget |")
    print("| --- | ---: | ---: |")
    print(f"| bot event-loop lag, p50 | {result['lag_p50_ms']:.1f} ms | |")
    print(f"| bot event-loop lag, p99 | {result['lag_p99_ms']:.1f} ms | ≤ 20 ms |")
    print(f"| bot event-loop lag, max | {result['lag_max_ms']:.1f} ms | |")
    print(f"| AI move, player's answer to AI's board, p50 | {result['ai_move_p50_s']:.2f} s | |")
    print(f"| AI move, player's answer to AI's board, p95 | {result['ai_move_p95_s']:.2f} s | |")
    print(f"| requests Discord would refuse | {result['refusals']} | 0 |")


if __name__ == "__main__":
    main()
