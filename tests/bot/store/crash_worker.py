"""Run by test_crash.py: plays moves in several games at once as fast as it can and prints
``ACK <game_id> <ply> <move>`` after each committed move, until it is killed.

    python -m tests.bot.store.crash_worker <database file or postgresql:// URL>
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.services import Services
from bot.store import open_store

GAMES = 6


async def play_forever(service: Services, index: int) -> None:
    rng = random.Random(index)
    host, guest = 2 * index + 1, 2 * index + 2
    while True:
        challenge = await service.challenges.challenge("alak", host, opponent_id=guest,
                                                       options={"length": 26})
        info = await service.challenges.accept(challenge.id, guest)
        while info.status == "active":
            user = info.user_to_move()
            legal = await service.games.legal_moves(info.id, user)
            result = await service.play.move(info.id, user, rng.choice(legal))
            info = result.game
            print(f"ACK {info.id} {info.ply} {result.move}", flush=True)


async def main(path: str) -> None:
    store = await open_store(path)
    service = Services(store)
    print("READY", flush=True)
    await asyncio.gather(*(play_forever(service, i) for i in range(GAMES)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
