"""Tournament speed: a whole Swiss event through the services on a temporary SQLite file.

    python -m bench.tournaments [--players 64] [--rounds 6] [--game alak]

Every game ends by a resignation (the engines' own speed is ``bench.engines``); the figures are
the service work a finished game costs: recording its result (``on_game_over``; the last game of
a round also pairs and creates the next round in the same transaction), rating it, and reading
the standings. Then ``--friendly`` more rated games between the same players, spread over ten
other servers, and the reads of ``/leaderboard`` (this server's, everyone's) and ``/profile``
(with both ranks) over all those games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench import percentile
from bot.services import Services
from bot.services.ratings import RatingService
from bot.services.tournaments import TournamentService
from bot.store import open_store


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


GUILD = 1


async def run(path: Path, players: int, rounds: int, game: str, friendly: int) -> dict:
    store = await open_store(str(path))
    try:
        services = Services(store)
        ratings = RatingService(store)
        tournaments = TournamentService(services, ratings)
        rng = random.Random(1)
        t = await tournaments.signup.create(1, game, "swiss", swiss_rounds=rounds, guild_id=GUILD)
        for user in range(100, 100 + players):
            await tournaments.signup.join(t.id, user)
        began = time.perf_counter()
        await tournaments.signup.start(t.id, 1)
        start_seconds = time.perf_counter() - began
        record, rate, pair, standings = [], [], [], []
        while (await tournaments.reading.get(t.id)).status == "running":
            boards = [b for b in await tournaments.reading.pairings(t.id) if not b.decided]
            for index, board in enumerate(boards):
                loser = rng.choice((board.first_id, board.second_id))
                await services.play.resign(board.game_id, loser)
                began = time.perf_counter()
                await tournaments.rounds.on_game_over(board.game_id)
                elapsed = time.perf_counter() - began
                (pair if index == len(boards) - 1 else record).append(elapsed)
                began = time.perf_counter()
                await ratings.on_game_over(board.game_id)
                rate.append(time.perf_counter() - began)
            began = time.perf_counter()
            await tournaments.reading.standings(t.id)
            standings.append(time.perf_counter() - began)
        users = list(range(100, 100 + players))
        for _ in range(friendly):
            first, second = rng.sample(users, 2)
            challenge = await services.challenges.challenge(game, first, opponent_id=second,
                                                         guild_id=GUILD + 1 + rng.randrange(10))
            played = await services.challenges.accept(challenge.id, second)
            await services.play.resign(played.id, rng.choice((first, second)))
            await ratings.on_game_over(played.id)
        here, everyone, profile = [], [], []
        for user in users[:20]:
            for scope, times in ((GUILD, here), (None, everyone)):
                began = time.perf_counter()
                await ratings.leaderboard(game, limit=15, guild_id=scope)
                times.append(time.perf_counter() - began)
            began = time.perf_counter()
            await ratings.profile(user, guild_id=GUILD)
            profile.append(time.perf_counter() - began)
        return {
            "players": players,
            "rounds": rounds,
            "games": len(record) + len(pair),
            "start_ms (pair round 1, create its games)": ms(start_seconds),
            "record_result_ms p50/p99": [ms(statistics.median(record)),
                                         ms(percentile(record, 0.99))],
            "last_result_and_next_round_ms p50/max": [ms(statistics.median(pair)),
                                                      ms(max(pair))],
            "rate_game_ms p50/p99": [ms(statistics.median(rate)), ms(percentile(rate, 0.99))],
            "standings_ms p50/max": [ms(statistics.median(standings)), ms(max(standings))],
            "rated_games": len(record) + len(pair) + friendly,
            "leaderboard_this_server_ms p50/max": [ms(statistics.median(here)), ms(max(here))],
            "leaderboard_everyone_ms p50/max": [ms(statistics.median(everyone)),
                                                ms(max(everyone))],
            "profile_with_ranks_ms p50/max": [ms(statistics.median(profile)), ms(max(profile))],
        }
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--game", default="alak")
    parser.add_argument("--friendly", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(Path(folder) / "bench.sqlite3", args.players, args.rounds,
                                  args.game, args.friendly))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
