"""What the parts of the tournament service share, as plain functions: the one way to read a
tournament's row (refusing another server's), and the state of an LPPG match rebuilt from its
games. (Their shared state is the game services' ``ServiceContext``.)"""

from __future__ import annotations

from typing import Any

from bot.services.tournaments.models import (
    LPPG_TARGET,
    TournamentError,
    lppg_match_class,
    outcome_of,
    seed_order,
)
from bot.store import Reads, Writes
from bot.store.tournaments import (
    TournamentReads,
    TournamentRow,
    tournament_reads,
    tournament_writes,
)


async def tournament_row(
    reads: TournamentReads, tournament_id: int, guild_id: int | None = None
) -> TournamentRow:
    """The tournament's row (``reads``: a tournament reader of the store or of a transaction);
    with ``guild_id`` (the server a command was typed in), only if it is that server's."""
    row = await reads.get_tournament(tournament_id)
    if guild_id is not None and (row is None or row.guild_id != guild_id):
        raise TournamentError("errors.tournament.not_here", tournament_id=tournament_id)
    if row is None:
        raise TournamentError("errors.tournament.not_found", tournament_id=tournament_id)
    return row


async def lppg_state(reads: Reads, row: TournamentRow) -> tuple[Any, list[Any], bool]:
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
