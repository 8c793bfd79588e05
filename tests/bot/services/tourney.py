"""Helpers for the tournament and rating tests: services on one store, and ways to end games."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.services import Services
from bot.services.ratings import RatingService
from bot.services.tournaments import TournamentService
from bot.store import Store
from bot.store.tournaments import tournament_reads


@dataclass
class Tourney:
    store: Store
    services: Services
    ratings: RatingService
    tournaments: TournamentService


def services(store: Store, clock, *, seeds=None) -> Tourney:
    counter = iter(range(1, 10**9))
    game_services = Services(store, clock=clock, seeds=seeds or (lambda: next(counter) * 7919))
    ratings = RatingService(store, clock=clock)
    return Tourney(store, game_services, ratings, TournamentService(game_services, ratings))


async def decide(s: Tourney, game_id: int, winner: int | None, *, notify: bool = True) -> None:
    """End a Verdict game with ``winner`` (a user id) or a draw (None), then tell the
    tournament service as the bot would."""
    info = await s.services.games.get_game(game_id)
    first = info.seats[0]
    verdict = "draw" if winner is None else ("win" if winner == first else "loss")
    await s.services.play.move(game_id, first, verdict)
    if notify:
        await s.tournaments.rounds.on_game_over(game_id)


async def play_randomly(s: Tourney, game_id: int, rng: random.Random, *,
                        notify: bool = True) -> None:
    """Play a game to its end with random legal moves (the engines decide the result)."""
    while True:
        info = await s.services.games.get_game(game_id)
        if info.status != "active":
            break
        user = info.user_to_move()
        moves = await s.services.games.legal_moves(game_id, user)
        await s.services.play.move(game_id, user, rng.choice(moves))
    if notify:
        await s.tournaments.rounds.on_game_over(game_id)


async def outbox_kinds(s: Tourney) -> list[tuple[str, dict]]:
    return [(item.kind, item.payload) for item in await s.services.outbox.pending_outbox(10_000)]


async def round_games(s: Tourney, tournament_id: int) -> list[int]:
    """Games of the current round still being played."""
    boards = await s.tournaments.reading.pairings(tournament_id)
    return [b.game_id for b in boards if b.game_id is not None and not b.decided]


async def processed(s: Tourney, purpose: str) -> int:
    reads = tournament_reads(s.store)
    rows = await reads._all("SELECT COUNT(*) FROM processed_games WHERE purpose = ?", (purpose,))
    return rows[0][0]
