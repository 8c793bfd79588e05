"""Ratings of finished games: Glicko-2 for two-player games, openskill for the others.

Every finished game is rated once (``processed_games``, purpose 'rating'): ``on_game_over`` is
idempotent and ``sync_finished_games`` catches up at start-up, in the order games ended.

Rulings:

* A game with exactly two sides of one player each (every Alak, Polygo, Palago, Palam game,
  two-player Kolory and LPPG) is rated with Glicko-2, one rating period per game
  (``bot.core.competition.ratings``): 1 for a win, 0.5 when both or neither seat won, 0 for a loss.
* Any other game (Kolory for 3–5, LPPG 4 players in two teams) is rated with openskill's
  Plackett–Luce model: winning sides rank first, the others by their best score (equal scores
  tie). Two systems, two tables: a player's two-player Kolory rating and multiplayer Kolory
  skill are separate numbers.
* Games with the same user in two seats (self-play) are not rated, nor games with an AI seat
  (``bot.services.aiseats``): a rating measures play between people; nor a game started from
  a seek its player posted unrated (``bot.services.seeks``).
* A rating is provisional while the player has few games (or, Glicko, a high deviation); the
  leaderboard and profile mark it (``RatingEntry.provisional``).
* Both systems are shown on the Glicko scale: an openskill skill as
  ``1500 + 42 (mu − 25) ± 42 sigma`` (``bot.core.competition.ratings.Skill.shown``), and both
  leaderboards are ordered by the value shown, then the smaller deviation.
* One rating per player and game, wherever it was earned. A server's leaderboard lists the
  players who finished a rated game of that game on that server; a profile gives each rating's
  rank on that server's leaderboard and on everyone's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import engines
from bot.core.competition.ratings import Glicko, Skill, rate_multiplayer_game, rate_two_player_game
from bot.core.models import utcnow
from bot.services.aiseats import has_ai
from bot.services.base import retrying
from bot.services.gamestate import FINISHED, teams_of
from bot.store import GameRow, Store
from bot.store.base import counts_for_ratings
from bot.store.ratings import rating_reads, rating_writes
from bot.store.seeks import seek_reads
from engines import Outcome

GLICKO = "glicko"
SKILL = "skill"


@dataclass(frozen=True)
class RatingEntry:
    """One user's rating in one game, on the Glicko scale: ``value`` and ``deviation`` are the
    Glicko rating and RD, or an openskill skill mapped onto them (see the module docstring).
    In a profile, ``rank`` is the place on everyone's leaderboard and ``server_rank`` on the
    server's (None when the player has finished no rated game of it there)."""

    user_id: int
    game: str
    system: str  # "glicko" | "skill"
    value: float
    deviation: float
    games: int
    provisional: bool
    rank: int | None = None
    server_rank: int | None = None


@dataclass(frozen=True)
class Leaderboard:
    game: str
    glicko: tuple[RatingEntry, ...]  # best first
    skill: tuple[RatingEntry, ...]
    guild_id: int | None = None  # the server whose players these are; None: everyone


@dataclass(frozen=True)
class Profile:
    user_id: int
    ratings: tuple[RatingEntry, ...]  # by game, Glicko first


def _glicko_entry(row) -> RatingEntry:
    value = Glicko(row.rating, row.rd, row.volatility, row.games)
    return RatingEntry(row.user_id, row.game, GLICKO, row.rating, row.rd, row.games,
                       value.provisional)


def _skill_entry(row) -> RatingEntry:
    value = Skill(row.mu, row.sigma, row.games)
    rating, deviation = value.shown
    return RatingEntry(row.user_id, row.game, SKILL, rating, deviation, row.games,
                       value.provisional)


def two_player_score(outcome: Outcome) -> float:
    """Seat 0's score: 1 win, 0 loss, 0.5 when both or neither won."""
    first, second = 0 in outcome.winners, 1 in outcome.winners
    if first == second:
        return 0.5
    return 1.0 if first else 0.0


def side_ranks(outcome: Outcome, sides: Sequence[Sequence[int]]) -> list[int]:
    """openskill ranks (0 best) of each side: winners 0, then by best score, ties equal."""
    winning = [any(seat in outcome.winners for seat in side) for side in sides]
    best = [max(outcome.scores[seat] for seat in side) for side in sides]
    others = sorted({best[i] for i, won in enumerate(winning) if not won}, reverse=True)
    return [0 if won else 1 + others.index(best[i]) for i, won in enumerate(winning)]


class RatingService:
    """Ratings per (user, game) from finished games (see the module docstring)."""

    def __init__(self, store: Store, *, clock: Callable[[], datetime] = utcnow) -> None:
        self._store = store
        self._clock = clock

    async def on_game_over(self, game_id: int) -> bool:
        """Rate a finished game; False if it is not finished, not rated or already rated."""
        row = await self._store.get_game(game_id)
        if row is None or row.status != FINISHED:
            return False
        return await self._rate(row)

    async def sync_finished_games(self, *, batch: int = 200) -> int:
        """Rate every finished game not rated yet (start-up catch-up); returns how many."""
        rated = 0
        reads = rating_reads(self._store)
        while True:
            pending = await reads.unrated_finished_games(batch)
            if not pending:
                return rated
            for game_id in pending:
                row = await self._store.get_game(game_id)
                if row is not None and await self._rate(row):
                    rated += 1
            if len(pending) < batch:
                return rated

    async def _counts(self, row: GameRow) -> bool:
        """Its place and its challenge's ``rated:`` allow rating it (``counts_for_ratings``)."""
        challenge = (None if row.challenge_id is None
                     else await self._store.get_challenge(row.challenge_id))
        return counts_for_ratings(row.place, None if challenge is None else challenge.rated)

    @retrying
    async def _rate(self, row: GameRow) -> bool:
        engine = engines.get(row.game)
        outcome = engine.load(row.snapshot).outcome
        seats = row.seats
        rated = (outcome is not None and len(set(seats)) == len(seats) >= 2
                 and not has_ai(seats)
                 and not await seek_reads(self._store).unrated_game(row.id)
                 and await self._counts(row))
        sides = teams_of(engine, len(seats))
        now = self._clock()
        # The game (rated once) and its players' rating rows, in the store's lock order.
        async with self._store.transaction(games=[row.id], players=seats) as tx:
            writes = rating_writes(tx)
            # Claimed even when not rated, so the catch-up does not look at it again.
            if not await writes.mark_rated(row.id, now) or not rated:
                return False
            if len(sides) == 2 and all(len(side) == 1 for side in sides):
                first, second = seats[sides[0][0]], seats[sides[1][0]]
                found = await writes.glicko(row.game, [first, second])
                old = [
                    Glicko(r.rating, r.rd, r.volatility, r.games) if r else Glicko()
                    for r in (found.get(first), found.get(second))
                ]
                score = two_player_score(outcome) if sides[0][0] == 0 else (
                    1.0 - two_player_score(outcome))
                new_first, new_second = rate_two_player_game(old[0], old[1], score)
                for user_id, before, value in ((first, old[0], new_first),
                                               (second, old[1], new_second)):
                    await writes.put_glicko(user_id, row.game, value.rating, value.rd,
                                            value.volatility, value.games, now)
                    await writes.add_history(user_id, row.game, GLICKO, row.id,
                                             (before.rating, before.rd),
                                             (value.rating, value.rd), now)
            else:
                found = await writes.skills(row.game, list(seats))
                teams = [
                    [
                        Skill(found[seats[s]].mu, found[seats[s]].sigma, found[seats[s]].games)
                        if seats[s] in found else Skill()
                        for s in side
                    ]
                    for side in sides
                ]
                new = rate_multiplayer_game(teams, side_ranks(outcome, sides))
                for side, before_side, values in zip(sides, teams, new, strict=True):
                    for seat, before, value in zip(side, before_side, values, strict=True):
                        await writes.put_skill(seats[seat], row.game, value.mu, value.sigma,
                                               value.games, now)
                        await writes.add_history(seats[seat], row.game, SKILL, row.id,
                                                 (before.mu, before.sigma),
                                                 (value.mu, value.sigma), now)
        return True

    async def glicko_of(self, game: str, user_ids: Sequence[int]) -> dict[int, Glicko]:
        """Current Glicko-2 ratings (a default rating for users without one)."""
        found = await rating_reads(self._store).glicko(game, list(user_ids))
        return {
            u: Glicko(r.rating, r.rd, r.volatility, r.games) if (r := found.get(u)) else Glicko()
            for u in user_ids
        }

    async def leaderboard(self, game: str, *, limit: int = 10,
                          guild_id: int | None = None) -> Leaderboard:
        """The best rated players of a game (both systems; provisional ratings included and
        marked); with ``guild_id``, only the players who finished a rated game of it on that
        server."""
        name = engines.get(game).name
        reads = rating_reads(self._store)
        glicko = await reads.glicko_leaderboard(name, limit, guild_id)
        skill = await reads.skill_leaderboard(name, limit, guild_id)
        return Leaderboard(name, tuple(map(_glicko_entry, glicko)),
                           tuple(map(_skill_entry, skill)), guild_id)

    async def profile(self, user_id: int, *, guild_id: int | None = None) -> Profile:
        """Every rating of a user, with its rank among everyone and (``guild_id``) on that
        server's leaderboard."""
        reads = rating_reads(self._store)
        glicko, skill = await reads.ratings_of(user_id)
        entries = []
        for rows, entry, rank in ((glicko, _glicko_entry, reads.glicko_rank),
                                  (skill, _skill_entry, reads.skill_rank)):
            for row in rows:
                here = None if guild_id is None else await rank(row, guild_id)
                entries.append(dataclasses.replace(entry(row), rank=await rank(row),
                                                   server_rank=here))
        entries.sort(key=lambda e: (e.game, e.system != GLICKO))
        return Profile(user_id, tuple(entries))
