"""A player's record: their finished games page by page (``/history``) and what the
``/profile`` picture shows (rating steps and games per month of the last twelve months).

Rulings:

* ``/history`` in a server lists the games finished on that server; in a direct message, the
  games the asker played in (their own, or those shared with the player asked about): a
  server's games are never listed elsewhere.
* A game's result for the player: **won** when their side is among the winners and not every
  side is, **drawn** when nobody or everybody won, else **lost**. Opponents are the players of
  the other sides; partners (LPPG teams) are listed apart.
* A finished game ended when its row last changed (``updated_at``): a finished game's row
  changes no more. Games per month count every finished game (rated or not); aborted games are
  no games played.
* The rating change of a game is known from the rating history (migration 0013) only: games
  rated before it show none. Ratings are on the Glicko scale (an openskill skill as
  ``bot.core.competition.ratings.Skill.shown``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

import engines
from bot.core.competition.ratings import SKILL_SCALE
from bot.core.models import utcnow
from bot.services.gamestate import teams_of
from bot.store import GameRow, Store
from bot.store.history import history_reads
from bot.store.ratings import HistoryRow, rating_reads

WON, DRAWN, LOST = "won", "drawn", "lost"
#: Games per /history page: 8 of the longest lines (five players, 19-digit ids, French) fit
#: one message (2,000 characters) with room to spare.
PAGE_SIZE = 8
#: Pages a /history may go back (a page is a query with an offset: keep it cheap).
MAX_PAGES = 100


def shown(system: str, value: float, deviation: float) -> tuple[float, float]:
    """(rating, deviation) on the Glicko scale (see ``Skill.shown``)."""
    if system == "skill":
        return 1500.0 + SKILL_SCALE * (value - 25.0), SKILL_SCALE * deviation
    return value, deviation


@dataclass(frozen=True)
class RatingChange:
    system: str
    before: float  # on the Glicko scale
    after: float


@dataclass(frozen=True)
class FinishedGame:
    """One game of a /history page, from the player's side."""

    game_id: int
    game: str
    players: int
    result: str  # WON | DRAWN | LOST
    opponents: tuple[int, ...]  # user ids (AI seats have their reserved ids)
    partners: tuple[int, ...]
    ended_at: datetime
    guild_id: int | None
    thread_id: int | None
    rating: RatingChange | None


@dataclass(frozen=True)
class HistoryPage:
    user_id: int
    game: str | None
    page: int  # from 0
    games: tuple[FinishedGame, ...]
    has_next: bool


@dataclass(frozen=True)
class RatingStep:
    """A rated game of the player for the chart: when, and the rating after it (Glicko scale),
    with the rating before it (the start of a line)."""

    game: str
    system: str
    at: datetime
    before: tuple[float, float]
    after: tuple[float, float]


@dataclass(frozen=True)
class ChartData:
    user_id: int
    version: int  # the player's rating version: the chart is redrawn when it changes
    steps: tuple[RatingStep, ...]  # oldest first
    ended: tuple[tuple[str, datetime], ...]  # (game, when) of each game finished in the window

    @property
    def empty(self) -> bool:
        return not self.steps and not self.ended


def result_of(row: GameRow, user_id: int) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """(result, opponents, partners) of a finished game for ``user_id`` (see the module)."""
    engine = engines.get(row.game)
    outcome = engine.load(row.snapshot).outcome
    seat = row.seats.index(user_id)
    sides = teams_of(engine, len(row.seats))
    mine = next(side for side in sides if seat in side)
    winners = set(outcome.winners) if outcome is not None else set()
    winning = [side for side in sides if winners & set(side)]
    if not winning or len(winning) == len(sides):
        result = DRAWN
    else:
        result = WON if mine in winning else LOST
    opponents = tuple(row.seats[s] for side in sides if side != mine for s in side)
    partners = tuple(row.seats[s] for s in mine if s != seat)
    return result, opponents, partners


def _change(row: HistoryRow | None) -> RatingChange | None:
    if row is None:
        return None
    before = shown(row.system, row.value_before, row.deviation_before)[0]
    return RatingChange(row.system, before, shown(row.system, row.value, row.deviation)[0])


class HistoryService:
    """A player's finished games and rating history (see the module)."""

    def __init__(self, store: Store, *, clock: Callable[[], datetime] = utcnow) -> None:
        self._store = store
        self._clock = clock

    async def page(self, user_id: int, *, game: str | None = None, page: int = 0,
                   guild_id: int | None, asker_id: int) -> HistoryPage:
        """One page of the user's finished games, the last ended first (``guild_id``: the
        server asked from, None in a direct message)."""
        page = max(0, min(page, MAX_PAGES - 1))
        name = engines.get(game).name if game is not None else None
        rows = await history_reads(self._store).finished_games(
            user_id, game=name, guild_id=guild_id,
            seen_by=asker_id if guild_id is None else None,
            limit=PAGE_SIZE + 1, offset=page * PAGE_SIZE)
        shown_rows = rows[:PAGE_SIZE]
        ratings = await rating_reads(self._store).history_of_games(
            user_id, [row.id for row in shown_rows])
        games = []
        for row in shown_rows:
            result, opponents, partners = result_of(row, user_id)
            games.append(FinishedGame(
                row.id, row.game, len(row.seats), result, opponents, partners, row.updated_at,
                row.guild_id, row.thread_id, _change(ratings.get(row.id))))
        return HistoryPage(user_id, name, page, tuple(games),
                           len(rows) > PAGE_SIZE and page + 1 < MAX_PAGES)

    async def rating_version(self, user_id: int) -> int:
        return await rating_reads(self._store).rating_version(user_id)

    async def chart(self, user_id: int, since: date) -> ChartData:
        """What the /profile picture shows from ``since`` (the window's first day) on."""
        start = datetime.combine(since, datetime.min.time(), tzinfo=self._clock().tzinfo)
        reads = rating_reads(self._store)
        version = await reads.rating_version(user_id)
        steps = tuple(
            RatingStep(row.game, row.system, row.rated_at,
                       shown(row.system, row.value_before, row.deviation_before),
                       shown(row.system, row.value, row.deviation))
            for row in await reads.history_of(user_id, start))
        ended = tuple(await history_reads(self._store).finished_since(user_id, start))
        return ChartData(user_id, version, steps, ended)


def games_per_month(ended: Sequence[tuple[str, datetime]], months: Sequence[date]
                    ) -> dict[str, list[int]]:
    """Per game, how many games ended in each of ``months`` (first days, oldest first)."""
    index = {(m.year, m.month): i for i, m in enumerate(months)}
    counts: dict[str, list[int]] = {}
    for game, when in ended:
        slot = index.get((when.year, when.month))
        if slot is not None:
            counts.setdefault(game, [0] * len(months))[slot] += 1
    return counts
