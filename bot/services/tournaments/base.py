"""What every part of the tournament service shares: its collaborators, the one way to read a
tournament's row (refusing another server's), and the state of an LPPG match rebuilt from its
games."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.services.games import GameService
from bot.services.models import utcnow
from bot.services.ratings import RatingService
from bot.services.tournaments.models import (
    LPPG_TARGET,
    TournamentError,
    lppg_match_class,
    outcome_of,
    seed_order,
)
from bot.store import Store, Writes
from bot.store.tournaments import TournamentRow, tournament_reads, tournament_writes


class TournamentBase:
    """The store, the game service (tournament games are normal games), the rating service
    (for seeds) and the clock."""

    def __init__(
        self,
        store: Store,
        games: GameService,
        ratings: RatingService | None = None,
        *,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self._store = store
        self._games = games
        self._ratings = ratings
        self._clock = clock

    def _games_created(self) -> None:
        """After a commit that may have created games: tell the game service, whose
        ``notify_change`` wakes the clock scheduler."""
        notify = getattr(self._games, "notify_change", None)
        if notify is not None:
            notify()

    async def _row(
        self, reads, tournament_id: int, guild_id: int | None = None
    ) -> TournamentRow:
        """The tournament's row; with ``guild_id`` (the server a command was typed in), only
        if it is that server's."""
        row = await reads.get_tournament(tournament_id)
        if guild_id is not None and (row is None or row.guild_id != guild_id):
            raise TournamentError("errors.tournament.not_here", tournament_id=tournament_id)
        if row is None:
            raise TournamentError("errors.tournament.not_found", tournament_id=tournament_id)
        return row

    async def _lppg_state(self, reads, row: TournamentRow):
        """(match so far, links of its games, whether a game is still running). ``reads`` is a
        transaction or the store (both read games); tournament rows come from the matching
        tournament reader."""
        tr = tournament_writes(reads) if isinstance(reads, Writes) else tournament_reads(reads)
        entrants = await tr.entrants(row.id)
        match = lppg_match_class()(tuple(seed_order(entrants)), LPPG_TARGET)
        links = await tr.tournament_games(row.id)
        running = False
        for link in links:
            game = await reads.get_game(link.game_id)
            outcome = outcome_of(game) if game is not None else None
            if outcome is None:
                running = True
            elif not match.finished:
                match = match.record(outcome)
        return match, links, running
