"""The bot's event loop while AI players think (issue: AI opponents in Discord).

    python -m bench.ai_bot [--games 5] [--moves 6] [--level hard]

The real bot runs in its own process (``bench.e2e.BotProcess``, with its lag sampler) against
the local emulator. ``--games`` players each start ``/play <game> level:<level>`` (a different
game each: Polygo, Palago, Palam, Kolory, Alak, …) and answer every AI move at once with the
first move ``/move``'s autocomplete offers, so the AI players think all the time, several at
once, in the bot's worker processes. Measured:

- the bot's event-loop lag while the AI games run (target: p99 <= 20 ms): the AI must think
  in worker processes, never on the loop;
- how long each AI move takes, from the player's move being answered to the AI's board pinging
  them (thinking, waiting for a free worker, storing and posting).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import ai
from bench.e2e import BotProcess, percentile
from bot.config import Config
from emulator import Emulator, Message

GAMES = ("polygo", "palago", "palam", "kolory", "alak")
#: Seconds a bench waits for one answer (an AI move queued behind the others included).
PATIENCE = 120.0


async def play(emu: Emulator, user: str, game: str, level: str, moves: int,
               ai_seconds: list[float]) -> int:
    """Start a game against the AI and answer its moves; returns the player's moves."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="AI games played at once")
    parser.add_argument("--moves", type=int, default=6, help="the player's moves per game")
    parser.add_argument("--level", choices=ai.LEVELS, default="hard")
    args = parser.parse_args()
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
