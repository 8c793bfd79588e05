"""One bot process of the races in ``test_processes``: the services on its own store (its own
connections to the shared PostgreSQL database), driven by the test through stdin and stdout.

    python -m tests.bot.services.race_worker postgresql://…

prints ``ready``, then reads one JSON command a line: ``{"at": unix time, "calls": [[op,
{args}], …]}``; waits until ``at`` (the test gives every process the same moment), runs the
calls at once in this process and answers one JSON line: per call ``{"ok": value}`` or
``{"error": "ExceptionClass"}``. An empty line ends it.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from datetime import timedelta
from typing import Any

from bot.core.models import utcnow
from bot.services import Services
from bot.services.clocks import ClockService
from bot.services.ratings import RatingService
from bot.services.tournaments import TournamentService
from bot.store import open_store


class Worker:
    def __init__(self, store: Any) -> None:
        #: Added to the real time: lets a claim find a deadline passed.
        self.ahead = timedelta(0)
        self.services = Services(store, clock=self.clock)
        self.ratings = RatingService(store, clock=self.clock)
        self.tournaments = TournamentService(self.services, self.ratings)
        self.clocks = ClockService(store, self.services, clock=self.clock)

    def clock(self):
        return utcnow() + self.ahead

    async def call(self, op: str, args: dict[str, Any]) -> Any:
        if op == "move":
            result = await self.services.play.move(args["game_id"], args["user"], args["text"],
                                                   expected_version=args.get("version"))
            return result.game.version
        if op == "resign":
            return (await self.services.play.resign(args["game_id"], args["user"])).version
        if op == "answer_undo":
            info = await self.services.play.answer_undo(args["game_id"], args["user"], True)
            return info.version
        if op == "claim":
            self.ahead = timedelta(days=args["days_ahead"])
            return (await self.clocks.claim(args["game_id"], args["user"])).version
        if op == "game_over":  # what the bot does when it delivers a ``game_over`` row
            rated = await self.ratings.on_game_over(args["game_id"])
            recorded = await self.tournaments.rounds.on_game_over(args["game_id"])
            return [rated, recorded]
        raise ValueError(f"unknown call {op}")

    async def sequence(self, calls: list) -> list[dict[str, Any]]:
        """Calls run one after the other (a resignation, then its game_over)."""
        answers = []
        for op, args in calls:
            answers.append(await self.answer(op, args))
        return answers

    async def answer(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return {"ok": await self.call(op, args)}
        except Exception as error:  # the test reads which refusal it was
            return {"error": type(error).__name__}


async def main(url: str) -> None:
    store = await open_store(url)
    worker = Worker(store)
    loop = asyncio.get_running_loop()
    print("ready", flush=True)
    try:
        while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
            command = json.loads(line)
            await asyncio.sleep(max(0.0, command["at"] - time.time()))
            # Each entry of "calls" runs at once; an entry that is a list of calls runs them
            # in order.
            results = await asyncio.gather(*(
                worker.sequence(call) if isinstance(call[0], list) else worker.answer(*call)
                for call in command["calls"]
            ))
            print(json.dumps(results), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
