"""Reading tournaments: the tournaments of a server, a round's boards, the whole bracket, the
standings of each format, and what the clock scheduler and the bot ask about tournament games.
``Reading`` (``TournamentService.reading``) owns these reads and calls no other service.

Standings: Swiss by points, Buchholz, Sonneborn–Berger; round robin by points, head-to-head,
Sonneborn–Berger (``bot.core.competition.standings``); elimination by how far each player went; an
LPPG match by the match's points (``engines.lppg.LppgMatch``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import timedelta

from bot.core.competition import standings as tables
from bot.services.context import ServiceContext
from bot.services.tournaments.base import lppg_state, tournament_row
from bot.services.tournaments.models import (
    TIEBREAKS,
    Board,
    StandingRow,
    Standings,
    Tournament,
    TournamentError,
    board_value,
    outcome_of,
    results_of,
    seed_order,
    tournament_value,
)
from bot.store.tournaments import (
    CANCELLED,
    FINISHED,
    RUNNING,
    SIGNUP,
    EntrantRow,
    PairingRow,
    TournamentRow,
    tournament_reads,
)


class Reading:
    """The read-only side of the tournaments (see the module docstring)."""

    def __init__(self, context: ServiceContext) -> None:
        self._store = context.store

    async def get(self, tournament_id: int, *, guild_id: int | None = None) -> Tournament:
        """The tournament; ``guild_id``: only if it is that server's (see the module)."""
        reads = tournament_reads(self._store)
        row = await tournament_row(reads, tournament_id, guild_id)
        return tournament_value(row, await reads.entrants(tournament_id))

    async def tournaments(
        self, guild_id: int | None = None, *, active_only: bool = True, limit: int = 25,
        statuses: tuple[str, ...] | None = None,
    ) -> list[Tournament]:
        """Tournaments of a guild (all guilds if None), newest first; ``active_only`` keeps
        those in sign-up or running; ``statuses``, if given, says which."""
        if statuses is None:
            statuses = ((SIGNUP, RUNNING) if active_only
                        else (SIGNUP, RUNNING, FINISHED, CANCELLED))
        reads = tournament_reads(self._store)
        rows = await reads.tournaments(guild_id, statuses, limit)
        return [tournament_value(row, await reads.entrants(row.id)) for row in rows]

    async def open_tournaments(
        self, guild_id: int | None, user_id: int, action: str = "read", *, limit: int = 25
    ) -> list[Tournament]:
        """This server's tournaments in sign-up or running that ``action`` can apply to, the
        user's own first (those they organise or play in), then the newest:
        ``join`` those in sign-up the user has not joined; ``leave`` those the user is still in;
        ``start`` those in sign-up; ``manage`` (cancel, kick) and ``read`` all of them;
        ``history`` (what ``standings`` and ``pairings`` suggest) all of them, then the
        finished ones, newest first."""
        found = await self.tournaments(guild_id, active_only=True, limit=100)
        if action == "history":
            finished = await self.tournaments(guild_id, statuses=(FINISHED,), limit=limit)
            mine = sorted(found, key=lambda t: not (t.organiser_id == user_id
                                                    or t.entrant(user_id) is not None))
            return [*mine, *finished][:limit]

        def fits(t: Tournament) -> bool:
            entrant = t.entrant(user_id)
            if action == "join":
                return t.status == SIGNUP and entrant is None
            if action == "leave":
                return entrant is not None and not entrant.withdrawn
            if action == "start":
                return t.status == SIGNUP
            return True

        def yours(t: Tournament) -> bool:
            return t.organiser_id == user_id or t.entrant(user_id) is not None

        # ``found`` is newest first; a stable sort keeps that order within each group.
        return sorted((t for t in found if fits(t)), key=lambda t: not yours(t))[:limit]

    async def pairings(
        self, tournament_id: int, round_number: int | None = None, *,
        guild_id: int | None = None,
    ) -> list[Board]:
        """The boards of a round (the current one by default). A round asked for by number
        must exist: from 1 to the last round paired (``errors.tournament.no_round``,
        ``round_not_paired`` or, in sign-up, ``not_started``)."""
        reads = tournament_reads(self._store)
        row = await tournament_row(reads, tournament_id, guild_id)
        number = row.current_round if round_number is None else round_number
        if round_number is not None and not 1 <= round_number <= row.current_round:
            await self._refuse_round(reads, row, round_number)
        if row.format == "lppg_match":
            return [b for b in await self._lppg_boards(row) if b.round == number]
        return [board_value(p) for p in await reads.pairings(tournament_id, number)]

    async def _refuse_round(self, reads, row: TournamentRow, number: int) -> None:
        """Why round ``number`` of the tournament has no pairings to show."""
        if row.status == SIGNUP:
            raise TournamentError("errors.tournament.not_started", name=row.name)
        # A running event's planned length (unknown for an LPPG match); an event that is over
        # has the rounds it played.
        total = (tournament_value(row, await reads.entrants(row.id)).total_rounds
                 if row.status == RUNNING else row.current_round)
        if number >= 1 and (total is None or number <= total):
            raise TournamentError("errors.tournament.round_not_paired", name=row.name,
                                  round=number, current=row.current_round)
        raise TournamentError("errors.tournament.no_round", name=row.name, round=number,
                              total=total or row.current_round)

    async def bracket(self, tournament_id: int) -> list[list[Board]]:
        """Every round's boards so far, in board order (for the elimination bracket image)."""
        reads = tournament_reads(self._store)
        row = await tournament_row(reads, tournament_id)
        if row.format == "lppg_match":
            boards = await self._lppg_boards(row)
        else:
            boards = [board_value(p) for p in await reads.pairings(tournament_id)]
        rounds: dict[int, list[Board]] = {}
        for board in boards:
            rounds.setdefault(board.round, []).append(board)
        return [rounds[n] for n in sorted(rounds)]

    async def standings(self, tournament_id: int, *, guild_id: int | None = None) -> Standings:
        """The table: players still in, ranked by the format's order; then the withdrawn ones,
        unranked, in that same order. A withdrawn player's results stay in the table (their
        opponents keep the points and tie-breaks those games gave)."""
        reads = tournament_reads(self._store)
        row = await tournament_row(reads, tournament_id, guild_id)
        entrants = await reads.entrants(tournament_id)
        info = tournament_value(row, entrants)
        if row.format == "lppg_match":
            rows = await self._lppg_standings(row, entrants)
        else:
            pairings = await reads.pairings(tournament_id)
            players = seed_order(entrants)
            if row.format == "elimination":
                rows = self._elimination_standings(players, pairings)
            else:
                table = (tables.swiss if row.format == "swiss" else tables.round_robin)(
                    players, results_of(pairings))
                rows = [
                    StandingRow(s.rank, s.player, s.points, s.tiebreaks, s.played, s.wins,
                                s.draws, s.losses, False)
                    for s in table
                ]
        return Standings(info, _withdrawn_last(rows, info), TIEBREAKS[row.format])

    @staticmethod
    def _elimination_standings(
        players: Sequence[int], pairings: Sequence[PairingRow]
    ) -> list[StandingRow]:
        """Ranked by how far each player went (the champion first), then by seed; points are
        wins, a bye counting as one."""
        reached = {p: 0 for p in players}
        alive = set(players)
        wins = {p: 0 for p in players}
        losses = {p: 0 for p in players}
        played = {p: 0 for p in players}
        for p in pairings:
            for user in (p.first_id, p.second_id):
                if user is not None:
                    reached[user] = max(reached[user], p.round)
            if p.first_score is None:
                continue
            if p.second_id is None:
                # A bye is a win (as in Swiss): the player goes through as if they had won
                # that round's game, and the table says so.
                if p.first_id is not None:  # among the wins, not the games (StandingRow)
                    wins[p.first_id] += 1
                continue
            winner = p.first_id if p.first_score > 0.5 else p.second_id
            loser = p.second_id if winner == p.first_id else p.first_id
            alive.discard(loser)
            wins[winner] += 1
            losses[loser] += 1
            for user in (p.first_id, p.second_id):
                played[user] += 1
        seed = {p: i for i, p in enumerate(players)}

        def key(p: int) -> tuple:
            return (-reached[p], p not in alive, seed[p])

        rows: list[StandingRow] = []
        previous = None
        for index, player in enumerate(sorted(players, key=key)):
            group = key(player)[:2]
            rank = rows[-1].rank if previous == group else index + 1
            previous = group
            rows.append(StandingRow(rank, player, float(wins[player]), (), played[player],
                                    wins[player], 0, losses[player], False))
        return rows

    async def forfeit_grace(self, game_id: int) -> timedelta | None:
        """The grace period after a tournament game's deadline (None: not a running
        tournament's game), for the correspondence scheduler."""
        reads = tournament_reads(self._store)
        link = await reads.tournament_game(game_id)
        if link is None:
            return None
        row = await reads.get_tournament(link.tournament_id)
        if row is None or row.status != RUNNING:
            return None
        return timedelta(hours=row.forfeit_grace_hours)

    async def tournament_of_game(self, game_id: int) -> tuple[int, int] | None:
        """(tournament id, round) of a tournament game, else None."""
        link = await tournament_reads(self._store).tournament_game(game_id)
        return None if link is None else (link.tournament_id, link.round)


    # ----- LPPG match ---------------------------------------------------------------------------

    async def _lppg_boards(self, row: TournamentRow) -> list[Board]:
        if row.status == SIGNUP:
            return []
        reads = tournament_reads(self._store)
        boards = []
        for link in await reads.tournament_games(row.id):
            game = await self._store.get_game(link.game_id)
            outcome = outcome_of(game)
            boards.append(Board(link.round, 0, None, None, link.game_id,
                                None if outcome is None else 1.0, None if outcome is None
                                else "game", 1, game.seats))
        return boards

    async def _lppg_standings(
        self, row: TournamentRow, entrants: Sequence[EntrantRow]
    ) -> list[StandingRow]:
        players = seed_order(entrants)
        if row.status == SIGNUP:
            return [StandingRow(1, p, 0.0, (), 0, 0, 0, 0, False) for p in players]
        match, _, _ = await lppg_state(self._store, row)
        points = match.points()
        played = len(match.rounds)
        wins = {p: 0 for p in players}
        for r, outcome in enumerate(match.rounds):
            seating = match.seating(r)
            for seat in outcome.winners:
                wins[seating[seat]] += 1
        order = sorted(players, key=lambda p: (-points[p], players.index(p)))
        rows: list[StandingRow] = []
        for index, player in enumerate(order):
            same = rows and rows[-1].points == points[player]
            rank = rows[-1].rank if same else index + 1
            rows.append(StandingRow(rank, player, float(points[player]), (), played,
                                    wins[player], 0, played - wins[player], False))
        return rows


def _withdrawn_last(rows: Sequence[StandingRow], tournament: Tournament) -> tuple[StandingRow, ...]:
    """The players still in, ranked again among themselves (ties keep sharing a rank), then
    the withdrawn ones without a rank."""
    entrants = {e.user_id: e for e in tournament.entrants}
    active: list[StandingRow] = []
    gone: list[StandingRow] = []
    previous = None
    for row in rows:
        entrant = entrants[row.user_id]
        if entrant.withdrawn:
            gone.append(dataclasses.replace(row, rank=None, withdrawn=True,
                                            removed=entrant.removed))
            continue
        # Rows of one rank are tied: they keep sharing the new rank.
        rank = active[-1].rank if active and row.rank == previous else len(active) + 1
        previous = row.rank
        active.append(dataclasses.replace(row, rank=rank, withdrawn=False))
    return (*active, *gone)
