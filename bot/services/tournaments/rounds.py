"""Rounds and results: recording finished games, pairing the next round, finishing.

Every finished game is recorded by ``on_game_over(game_id)`` (idempotent; the bot calls it when
it delivers a ``game_over`` outbox row, and ``sync_finished_games()`` at start-up catches
anything missed). When the last pairing of a round is decided the next round is paired at once,
in the same transaction, and its games created through ``ChallengeService.create_game_in``;
after the last round the tournament is ``finished``. ``Rounds`` (``TournamentService.rounds``)
owns this and calls ``ChallengeService`` (to create the games) only; sign-up calls ``advance``
and ``forfeit_withdrawn_games`` after a start or a withdrawal.

Outbox rows (``game_id`` NULL): ``tournament_round`` {tournament_id, round} when a round is
paired (before its games' ``game_started`` rows) and ``tournament_finished`` {tournament_id}.
Game rows carry ``source`` = "tournament:<id>" in their ``game_started`` payload.

Pairing rules:

* **round_robin**: the Berger schedule of ``bot.core.competition.round_robin`` over the entrants in
  seed order; with an odd number, one bye per round, worth ``BYE_SCORE`` like every bye (each
  player gets exactly one, so it changes no order). Games still scheduled against a withdrawn
  player are won by forfeit by the opponent (no game is created).
* **swiss**: ``swiss_rounds`` rounds (default ⌈log2 n⌉, at most n − 1), paired by
  ``bot.core.competition.swiss.pair_round`` on the current ranking (points and tie-breaks, then
  seed), withdrawn players left out.
* **elimination**: a seeded single-elimination bracket (byes to the top seeds). A drawn game is
  replayed with the seats swapped, as often as needed, until it is decisive.
* **lppg_match** (LPPG only, 2 or 4 entrants): the rule sheet's match to ``LPPG_TARGET`` points
  (``engines.lppg.LppgMatch``): one game per round, the seats rotating; a withdrawal ends the
  match and the other side wins.
* **Draws** (round robin, Swiss) score 0.5 each.

A player who leaves a running tournament loses their unfinished game by forfeit
(``forfeit_withdrawn_games``): it ends like a resignation (the other side wins, the game's
record says resigned) but is said as what happened, with the outcome ``outcome.withdrew`` or
``outcome.removed`` and a ``tournament_forfeit`` outbox row for the game's thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import engines
from bot.core.competition import elimination, round_robin, swiss
from bot.core.competition import standings as tables
from bot.core.competition.results import BYE_SCORE, Pairing
from bot.core.events import TournamentFinished, TournamentForfeit, TournamentRound
from bot.services import clockstate
from bot.services.base import retrying
from bot.services.challenges import ChallengeService
from bot.services.context import ServiceContext
from bot.services.gamestate import ACTIVE, forced_end, teams_of, write_forced_end
from bot.services.gamestate import FINISHED as GAME_FINISHED
from bot.services.tournaments.base import lppg_state, tournament_row
from bot.services.tournaments.models import (
    TOURNAMENT,
    first_score,
    outcome_of,
    results_of,
    seed_order,
)
from bot.store import GameRow, Writes
from bot.store.tournaments import (
    FINISHED,
    RUNNING,
    TournamentRow,
    TournamentWrites,
    tournament_reads,
    tournament_writes,
)
from engines import Outcome, Phrase
from engines.core import dump_outcome

#: Tries to end a forfeited game while moves keep changing it.
FORFEIT_ATTEMPTS = 5

class Rounds:
    """Results in, rounds out (see the module docstring)."""

    def __init__(self, context: ServiceContext, challenges: ChallengeService) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now
        self._challenges = challenges

    @retrying
    async def on_game_over(self, game_id: int) -> bool:
        """Record a finished tournament game (once; False if there was nothing to record) and
        start the next round when it was the last game of its round."""
        reads = tournament_reads(self._store)
        link = await reads.tournament_game(game_id)
        if link is None:
            return False
        game = await self._store.get_game(game_id)
        if game is None or game.status != GAME_FINISHED:
            return False
        outcome = outcome_of(game)
        if outcome is None:
            return False
        now = self._clock()
        # The tournament only: the games it creates are new, the finished one changes no more.
        async with self._store.transaction(tournaments=[link.tournament_id]) as tx:
            tw = tournament_writes(tx)
            row = await tournament_row(tw, link.tournament_id)
            if row.status != RUNNING:
                return False
            if not await tw.mark_processed(game_id, TOURNAMENT, now):
                return False
            if link.pairing_id is not None:
                await self._record(tx, tw, row, link.pairing_id, game, outcome, now)
            await self.advance(tx, tw, row)
        self._ctx.notify_change()  # the new games have deadlines
        return True

    async def _record(
        self, tx: Writes, tw: TournamentWrites, row: TournamentRow, pairing_id: int,
        game: GameRow, outcome: Outcome, now: datetime,
    ) -> None:
        pairing = await tw.pairing(pairing_id)
        if pairing is None or pairing.decided or pairing.game_id != game.id:
            return  # decided otherwise meanwhile, or an earlier game of a replayed pairing
        assert pairing.second_id is not None
        score = first_score(outcome, game.seats.index(pairing.first_id),
                             game.seats.index(pairing.second_id))
        if row.format == "elimination" and score == 0.5:
            withdrawn = {e.user_id for e in await tw.entrants(row.id) if e.withdrawn}
            if not withdrawn & {pairing.first_id, pairing.second_id}:
                # A drawn elimination game is replayed with the seats swapped.
                seats = tuple(reversed(game.seats))
                await self._new_game(tx, tw, row, pairing.round, pairing.id, seats,
                                     pairing.attempts + 1)
                return
            score = 0.0 if pairing.first_id in withdrawn else 1.0
        await tw.insert_result(pairing.id, score, "game", game.id, now)

    async def sync_finished_games(self) -> int:
        """Start-up catch-up: forfeit withdrawn players' games, then record every finished
        tournament game not recorded yet. Returns how many games were recorded."""
        reads = tournament_reads(self._store)
        for row in await reads.tournaments(None, (RUNNING,), 10_000):
            await self.forfeit_withdrawn_games(row.id)
        recorded = 0
        while True:
            pending = await reads.unprocessed_tournament_games(200)
            done = 0
            for game_id in pending:
                if await self.on_game_over(game_id):
                    done += 1
            recorded += done
            if not pending or not done:
                return recorded


    # ----- rounds -------------------------------------------------------------------------------

    async def _new_game(
        self, tx: Writes, tw: TournamentWrites, row: TournamentRow, round_number: int,
        pairing_id: int | None, seats: Sequence[int], attempt: int,
    ) -> int:
        info = await self._challenges.create_game_in(
            tx, row.game, seats, row.options,
            time_control=None if row.time_control == "untimed" else row.time_control,
            guild_id=row.guild_id, channel_id=row.channel_id, source=f"tournament:{row.id}",
        )
        await tw.link_game(info.id, row.id, round_number, pairing_id, attempt)
        return info.id

    async def advance(self, tx: Writes, tw: TournamentWrites, row: TournamentRow) -> None:
        """In ``tx`` (``tw`` its tournament writer): finish the current round if every board is
        decided, then pair the next round or finish the tournament; repeats while a new round
        is decided at once (byes, forfeits). The caller calls ``notify_change`` after its
        commit (games may have been created)."""
        while True:
            now = self._clock()
            if row.format == "lppg_match":
                boards = await self._lppg_next(tx, tw, row)
            else:
                boards = await self._pairing_next(tw, row)
            if boards is False:
                return  # the current round is still being played
            if row.current_round:
                await tw.finish_round(row.id, row.current_round, now)
            if boards is None:
                await tw.set_status(row.id, FINISHED, now)
                await tx.insert_outbox(TournamentFinished(tournament_id=row.id), now,
                                       guild_id=row.guild_id)
                return
            number = row.current_round + 1
            await tw.insert_round(row.id, number, now)
            await tx.insert_outbox(TournamentRound(tournament_id=row.id, round=number), now,
                                   guild_id=row.guild_id)
            withdrawn = {e.user_id for e in await tw.entrants(row.id) if e.withdrawn}
            pending = False
            if row.format == "lppg_match":
                await self._new_game(tx, tw, row, number, None, boards[0], 1)
                pending = True
            else:
                for index, pairing in enumerate(boards):
                    pid = await tw.insert_pairing(row.id, number, index, pairing.first,
                                                  pairing.second)
                    if pairing.second is None:
                        score = 0.0 if pairing.first in withdrawn else BYE_SCORE
                        await tw.insert_result(pid, score, "bye", None, now)
                    elif withdrawn & {pairing.first, pairing.second}:
                        score = 0.0 if pairing.first in withdrawn else 1.0
                        await tw.insert_result(pid, score, "forfeit", None, now)
                    else:
                        await self._new_game(tx, tw, row, number, pid,
                                             (pairing.first, pairing.second), 1)
                        pending = True
            row = await tournament_row(tw, row.id)
            if pending:
                return

    async def _pairing_next(self, tw: TournamentWrites, row: TournamentRow):
        """The next round's pairings; False while the current round runs; None when over."""
        if row.current_round and any(
            not p.decided for p in await tw.pairings(row.id, row.current_round)
        ):
            return False
        pairings = await tw.pairings(row.id, None)
        entrants = await tw.entrants(row.id)
        players = seed_order(entrants)
        results = results_of(pairings)
        if row.format == "round_robin":
            schedule = round_robin.schedule(players)
            return schedule[row.current_round] if row.current_round < len(schedule) else None
        if row.format == "swiss":
            active = [p for p in players if p not in {e.user_id for e in entrants if e.withdrawn}]
            if row.current_round >= (row.swiss_rounds or 0) or len(active) < 2:
                return None
            seed = {p: i for i, p in enumerate(players)}
            table = {s.player: s for s in tables.swiss(active, results)}
            ranking = sorted(
                active,
                key=lambda p: (-table[p].points, *(-t for t in table[p].tiebreaks), seed[p]),
            )
            return swiss.pair_round(row.current_round + 1, ranking, results)
        # elimination
        if row.current_round == 0:
            return elimination.first_round(players)
        previous = [p for p in pairings if p.round == row.current_round]
        if len(previous) == 1:
            return None
        winners = {}
        for p in previous:
            if p.second_id is not None:
                winners[(p.round, p.board)] = p.first_id if p.first_score > 0.5 else p.second_id
        return elimination.next_round(
            [Pairing(p.round, p.first_id, p.second_id) for p in previous], winners
        )


    async def _lppg_next(self, tx: Writes, tw: TournamentWrites, row: TournamentRow):
        """Seats of the next game as a one-item list; False while a game runs; None at the end
        (target reached, or a participant withdrew)."""
        match, links, running = await lppg_state(tx, row)
        current = [link for link in links if link.round == row.current_round]
        if running:
            return False
        for link in current:
            if not await tw.is_processed(link.game_id, TOURNAMENT):
                return False
        if match.finished or any(e.withdrawn for e in await tw.entrants(row.id)):
            return None
        return [match.seating()]

    # ----- forfeits -----------------------------------------------------------------------------

    async def forfeit_withdrawn_games(self, tournament_id: int,
                                       removed_by: int | None = None) -> tuple[int, ...]:
        """End the unfinished games of withdrawn players, lost by them, and record them;
        returns the games ended. Safe to repeat: finished games are skipped. ``removed_by``:
        the manager who removed the player, when known (the game's post names them)."""
        reads = tournament_reads(self._store)
        row = await tournament_row(reads, tournament_id)
        gone = {e.user_id: e for e in await reads.entrants(tournament_id) if e.withdrawn}
        forfeited = []
        for link in await reads.tournament_games(tournament_id):
            game = await self._store.get_game(link.game_id)
            if game is None or game.status != ACTIVE:
                continue
            for user_id in game.seats:
                if user_id in gone:
                    if await self._forfeit(game.id, user_id, row, gone[user_id].removed,
                                           removed_by):
                        forfeited.append(game.id)
                    await self.on_game_over(game.id)
                    break
        return tuple(forfeited)

    @retrying
    async def _forfeit(self, game_id: int, user_id: int, tournament: TournamentRow,
                       removed: bool, removed_by: int | None) -> bool:
        """End a game lost by a player who left the tournament, like a resignation (the other
        side wins; the record says ``resigned``) but said as what happened: the outcome is
        ``outcome.withdrew`` or ``outcome.removed``, and the ``tournament_forfeit`` outbox row
        {game_id, seat, user_id, tournament_id, removed, removed_by} comes before
        ``game_over``. False if the game ended meanwhile."""
        for _ in range(FORFEIT_ATTEMPTS):
            row = await self._store.get_game(game_id)
            if row is None or row.status != ACTIVE or user_id not in row.seats:
                return False
            seat = row.seats.index(user_id)
            game = engines.get(row.game)
            state = game.load(row.snapshot)
            reason = Phrase("outcome.removed" if removed else "outcome.withdrew",
                            seat=game.seat_phrase(state, seat))
            outcome = clockstate.side_loses(state, seat, teams_of(game, state.players), reason)
            forced = {"kind": "resign", "seat": seat, "outcome": dump_outcome(outcome)}
            now = self._clock()
            _, update = forced_end(game, row, state, forced, now)
            async with self._store.transaction(games=[game_id]) as tx:
                if not await tx.update_game(game_id, row.version, update):
                    continue  # a move landed meanwhile: look again
                await write_forced_end(tx, row, TournamentForfeit(
                    game_id=game_id, seat=seat, user_id=user_id, tournament_id=tournament.id,
                    removed=removed, removed_by=removed_by, version=row.version + 1,
                ), now)
            self._ctx.notify_change()  # the new games have deadlines
            return True
        return False
