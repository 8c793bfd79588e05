"""Tournaments: sign-up, rounds of normal games, results, standings (issue 10).

Plain async Python over the store (``bot.store.tournaments``), the game service (each pairing
becomes a normal game through ``GameService.create_game_in``, in the same transaction as the
pairing) and the pure mathematics of ``bot.competition``.

Life of a tournament: ``create`` (status ``signup``) → ``join``/``leave`` → ``start`` by the
organiser or a manager (``running``: seeds fixed, round 1 paired and its games created) → every
finished game is recorded by ``on_game_over(game_id)`` (idempotent; the bot calls it when it
delivers a ``game_over`` outbox row, and ``sync_finished_games()`` at start-up catches anything
missed) → when the last pairing of a round is decided the next round is paired at once, in the
same transaction → ``finished``. ``cancel`` stops it at any time before the end.

Outbox rows (``game_id`` NULL): ``tournament_round`` {tournament_id, round} when a round is
paired (before its games' ``game_started`` rows) and ``tournament_finished`` {tournament_id}.
Game rows carry ``source`` = "tournament:<id>" in their ``game_started`` payload.

Servers are kept apart: the methods a command reaches with a tournament number take
``guild_id``, the server the command was typed in, and refuse a tournament of another server
exactly like a number that does not exist (``errors.tournament.not_here``). Managing (start,
cancel, kick) is for the organiser, or for a member who may manage the tournament's own server
(``manager_of``: the server where the Discord layer saw the Manage Server permission; rights in
one server give nothing in another). Joining and leaving are for oneself.

Formats and rulings:

* **round_robin**: the Berger schedule of ``bot.competition.round_robin`` over the entrants in
  seed order (with an odd number, one bye per round, worth ``BYE_SCORE`` like every bye: each
  player gets exactly one, so it changes no order). Standings: points, head-to-head,
  Sonneborn–Berger.
* **swiss**: ``swiss_rounds`` rounds (default ⌈log2 n⌉, at most n − 1), paired by
  ``bot.competition.swiss.pair_round`` on the current ranking (points and tie-breaks, then seed).
  Standings: points, Buchholz, Sonneborn–Berger.
* **elimination**: a seeded single-elimination bracket (byes to the top seeds). A drawn game is
  replayed with the seats swapped, as often as needed, until it is decisive.
* **lppg_match** (LPPG only, 2 or 4 entrants): the rule sheet's match to ``target`` (10)
  points, ``engines.lppg.LppgMatch``: one game per round, the seats rotating.
* **Seeds**: by Glicko-2 rating in the tournament's game (when a rating service is given),
  then by joining order.
* **Draws** (round robin, Swiss) score 0.5 each.
* **Withdrawals** (``leave`` or ``kick`` once running): the player stays in the standings with
  the points they have, is never paired again, and their unfinished game is forfeited (resigned
  on their behalf, so it ends like any resignation). Round robin games still scheduled against
  them are won by forfeit by the opponent (no game is created). A withdrawal from an LPPG match
  ends the match: the other side wins. Before the start, ``leave``/``kick`` just removes the
  sign-up.
* **Cancel**: no more rounds or results; games already running stay playable as friendly
  (still rated) games.
* **Forfeit grace** (``forfeit_grace``): the organiser's grace period for tournament games that
  run out of time, for the correspondence scheduler.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import engines
from bot.competition import elimination, round_robin, standings, swiss
from bot.competition.results import BYE_SCORE, Pairing, Result
from bot.correspondence.timecontrol import TimeControl
from bot.services.errors import GameOver, NotAPlayer, ServiceError
from bot.services.games import ACTIVE, GameService
from bot.services.games import FINISHED as GAME_FINISHED
from bot.services.models import utcnow
from bot.services.ratings import RatingService
from bot.store import GameRow, Store, Writes
from bot.store.tournaments import (
    CANCELLED,
    FINISHED,
    FORMATS,
    RUNNING,
    SIGNUP,
    EntrantRow,
    PairingRow,
    TournamentRow,
    TournamentWrites,
    tournament_reads,
    tournament_writes,
)
from engines import Outcome

TOURNAMENT = "tournament"  # processed_games purpose
DEFAULT_GRACE_HOURS = 24
MAX_GRACE_HOURS = 24 * 14
MAX_SWISS_ROUNDS = 20
#: Sign-ups per tournament: a round robin of 64 already lasts 63 rounds, and a bracket of 64
#: is the largest image that stays readable in Discord.
MAX_ENTRANTS = 64
MAX_NAME = 80
LPPG_TARGET = 10

TIEBREAKS = {
    "swiss": ("buchholz", "sonneborn_berger"),
    "round_robin": ("head_to_head", "sonneborn_berger"),
    "elimination": (),
    "lppg_match": (),
}


class TournamentError(ServiceError):
    """A tournament action that is not allowed; keys under ``errors.tournament.*``
    (``bot/i18n/locales/<lang>/tournaments.toml``)."""

    key = "errors.tournament.not_found"


# ----- values returned to the bot layer ---------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    user_id: int
    seed: int | None
    withdrawn: bool
    withdrawn_round: int | None


@dataclass(frozen=True)
class Tournament:
    id: int
    name: str
    guild_id: int | None
    channel_id: int | None
    organiser_id: int
    game: str
    options: dict[str, Any]
    format: str
    swiss_rounds: int | None
    time_control: str
    forfeit_grace_hours: int
    status: str  # signup | running | finished | cancelled
    current_round: int
    entrants: tuple[Entrant, ...]  # joining order
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(e.user_id for e in self.entrants)

    @property
    def active_players(self) -> tuple[int, ...]:
        return tuple(e.user_id for e in self.entrants if not e.withdrawn)

    @property
    def total_rounds(self) -> int | None:
        """Rounds the event will have, when known (None for an LPPG match or before start)."""
        n = len(self.entrants)
        if self.format == "swiss":
            return self.swiss_rounds
        if self.format == "round_robin" and n >= 2:
            return n - 1 if n % 2 == 0 else n
        if self.format == "elimination" and n >= 2:
            return elimination.rounds_needed(n)
        return None


@dataclass(frozen=True)
class Board:
    """One board of a round (``second_id`` None: a bye; LPPG match: ``seats`` of the game)."""

    round: int
    board: int
    first_id: int | None
    second_id: int | None
    game_id: int | None
    first_score: float | None
    method: str | None  # game | bye | forfeit once decided
    attempts: int
    seats: tuple[int, ...] = ()

    @property
    def decided(self) -> bool:
        return self.first_score is not None

    @property
    def winner(self) -> int | None:
        if self.first_score is None or self.first_score == 0.5:
            return None
        return self.first_id if self.first_score > 0.5 else self.second_id


@dataclass(frozen=True)
class StandingRow:
    rank: int
    user_id: int
    points: float
    tiebreaks: tuple[float, ...]
    played: int
    wins: int
    draws: int
    losses: int
    withdrawn: bool


@dataclass(frozen=True)
class Standings:
    tournament: Tournament
    rows: tuple[StandingRow, ...]
    tiebreaks: tuple[str, ...]  # names of the tie-break columns, in order


def _tournament(row: TournamentRow, entrants: Sequence[EntrantRow]) -> Tournament:
    return Tournament(
        id=row.id,
        name=row.name,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        organiser_id=row.organiser_id,
        game=row.game,
        options=row.options,
        format=row.format,
        swiss_rounds=row.swiss_rounds,
        time_control=row.time_control,
        forfeit_grace_hours=row.forfeit_grace_hours,
        status=row.status,
        current_round=row.current_round,
        entrants=tuple(Entrant(e.user_id, e.seed, e.withdrawn, e.withdrawn_round)
                       for e in entrants),
        created_at=row.created_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
    )


def _board(p: PairingRow) -> Board:
    return Board(p.round, p.board, p.first_id, p.second_id, p.game_id, p.first_score, p.method,
                 p.attempts)


def _results(pairings: Sequence[PairingRow]) -> list[Result]:
    return [Result(p.round, p.first_id, p.second_id, p.first_score)
            for p in pairings if p.first_score is not None]


def _seed_order(entrants: Sequence[EntrantRow]) -> list[int]:
    return [e.user_id for e in sorted(entrants, key=lambda e: (e.seed or 0, e.position))]


def _outcome(row: GameRow) -> Outcome | None:
    return engines.get(row.game).load(row.snapshot).outcome


def _first_score(outcome: Outcome, first_seat: int, second_seat: int) -> float:
    first, second = first_seat in outcome.winners, second_seat in outcome.winners
    if first == second:
        return 0.5
    return 1.0 if first else 0.0


def _lppg_match_class():
    """``engines.lppg.LppgMatch`` (imported late: the tournament code works without LPPG)."""
    from engines.lppg import LppgMatch

    return LppgMatch


class TournamentService:
    """Tournaments as plain async calls (see the module docstring)."""

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
        """After a commit that may have created games: tell the game service (the
        correspondence branch's ``notify_change`` wakes its clock scheduler; absent before)."""
        notify = getattr(self._games, "notify_change", None)
        if notify is not None:
            notify()

    # ----- reading ------------------------------------------------------------------------------

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

    async def get(self, tournament_id: int, *, guild_id: int | None = None) -> Tournament:
        """The tournament; ``guild_id``: only if it is that server's (see the module)."""
        reads = tournament_reads(self._store)
        row = await self._row(reads, tournament_id, guild_id)
        return _tournament(row, await reads.entrants(tournament_id))

    async def tournaments(
        self, guild_id: int | None = None, *, active_only: bool = True, limit: int = 25
    ) -> list[Tournament]:
        """Tournaments of a guild (all guilds if None), newest first; ``active_only`` keeps
        those in sign-up or running."""
        statuses = (SIGNUP, RUNNING) if active_only else (SIGNUP, RUNNING, FINISHED, CANCELLED)
        reads = tournament_reads(self._store)
        rows = await reads.tournaments(guild_id, statuses, limit)
        return [_tournament(row, await reads.entrants(row.id)) for row in rows]

    async def pairings(
        self, tournament_id: int, round_number: int | None = None, *,
        guild_id: int | None = None,
    ) -> list[Board]:
        """The boards of a round (the current one by default)."""
        reads = tournament_reads(self._store)
        row = await self._row(reads, tournament_id, guild_id)
        number = row.current_round if round_number is None else round_number
        if row.format == "lppg_match":
            return [b for b in await self._lppg_boards(row) if b.round == number]
        return [_board(p) for p in await reads.pairings(tournament_id, number)]

    async def bracket(self, tournament_id: int) -> list[list[Board]]:
        """Every round's boards so far, in board order (for the elimination bracket image)."""
        reads = tournament_reads(self._store)
        row = await self._row(reads, tournament_id)
        if row.format == "lppg_match":
            boards = await self._lppg_boards(row)
        else:
            boards = [_board(p) for p in await reads.pairings(tournament_id)]
        rounds: dict[int, list[Board]] = {}
        for board in boards:
            rounds.setdefault(board.round, []).append(board)
        return [rounds[n] for n in sorted(rounds)]

    async def standings(self, tournament_id: int, *, guild_id: int | None = None) -> Standings:
        reads = tournament_reads(self._store)
        row = await self._row(reads, tournament_id, guild_id)
        entrants = await reads.entrants(tournament_id)
        info = _tournament(row, entrants)
        withdrawn = {e.user_id for e in entrants if e.withdrawn}
        if row.format == "lppg_match":
            rows = await self._lppg_standings(row, entrants)
        else:
            pairings = await reads.pairings(tournament_id)
            players = _seed_order(entrants)
            if row.format == "elimination":
                rows = self._elimination_standings(players, pairings)
            else:
                table = (standings.swiss if row.format == "swiss" else standings.round_robin)(
                    players, _results(pairings))
                rows = [
                    StandingRow(s.rank, s.player, s.points, s.tiebreaks, s.played, s.wins,
                                s.draws, s.losses, False)
                    for s in table
                ]
        rows = [dataclasses.replace(r, withdrawn=r.user_id in withdrawn) for r in rows]
        return Standings(info, tuple(rows), TIEBREAKS[row.format])

    @staticmethod
    def _elimination_standings(
        players: Sequence[int], pairings: Sequence[PairingRow]
    ) -> list[StandingRow]:
        """Ranked by how far each player went (the champion first), then by seed."""
        reached = {p: 0 for p in players}
        alive = set(players)
        wins = {p: 0 for p in players}
        played = {p: 0 for p in players}
        for p in pairings:
            for user in (p.first_id, p.second_id):
                if user is not None:
                    reached[user] = max(reached[user], p.round)
            if p.first_score is None:
                continue
            if p.second_id is None:
                continue
            winner = p.first_id if p.first_score > 0.5 else p.second_id
            loser = p.second_id if winner == p.first_id else p.first_id
            alive.discard(loser)
            wins[winner] += 1
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
                                    wins[player], 0, played[player] - wins[player], False))
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

    # ----- sign-up ------------------------------------------------------------------------------

    async def create(
        self,
        organiser_id: int,
        game: str,
        format: str,
        *,
        name: str | None = None,
        options: dict | None = None,
        swiss_rounds: int | None = None,
        time_control: str = "untimed",
        forfeit_grace_hours: int = DEFAULT_GRACE_HOURS,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Tournament:
        """A new tournament in sign-up; the organiser does not join automatically."""
        if format not in FORMATS:
            raise TournamentError("errors.tournament.bad_format", format=format,
                                  formats=", ".join(FORMATS))
        players = 2
        if format == "lppg_match":
            if game.strip().lower() != "lppg":
                raise TournamentError("errors.tournament.lppg_only")
        else:
            try:
                engine = engines.get(game)
            except KeyError:
                engine = None
            if engine is not None and 2 not in engine.allowed_player_counts():
                raise TournamentError("errors.tournament.two_player_game", game=engine.title)
        name_game, resolved = self._games.resolve_setup(game, players, options)
        if format == "swiss":
            if swiss_rounds is not None and not 1 <= swiss_rounds <= MAX_SWISS_ROUNDS:
                raise TournamentError("errors.tournament.bad_rounds", most=MAX_SWISS_ROUNDS)
        else:
            swiss_rounds = None
        try:
            control = str(TimeControl.parse(time_control or "untimed"))
        except ValueError as error:
            raise TournamentError("errors.tournament.bad_time_control",
                                  reason=str(error)) from None
        if not 0 <= forfeit_grace_hours <= MAX_GRACE_HOURS:
            raise TournamentError("errors.tournament.bad_grace", most=MAX_GRACE_HOURS)
        title = (name or "").strip()[:MAX_NAME] or engines.get(name_game).title
        now = self._clock()
        async with self._store.transaction() as tx:
            await tx.ensure_user(organiser_id, now)
            tw = tournament_writes(tx)
            tournament_id = await tw.insert_tournament(
                name=title, guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id,
                game=name_game, options=resolved, format=format, swiss_rounds=swiss_rounds,
                time_control=control, forfeit_grace_hours=forfeit_grace_hours, now=now,
            )
            row = await self._row(tw, tournament_id)
        return _tournament(row, ())

    async def join(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None
    ) -> Tournament:
        now = self._clock()
        async with self._store.transaction() as tx:
            tw = tournament_writes(tx)
            row = await self._row(tw, tournament_id, guild_id)
            if row.status != SIGNUP:
                raise TournamentError("errors.tournament.signup_closed", name=row.name)
            entrants = await tw.entrants(tournament_id)
            if any(e.user_id == user_id for e in entrants):
                raise TournamentError("errors.tournament.already_joined", name=row.name)
            if len(entrants) >= MAX_ENTRANTS:
                raise TournamentError("errors.tournament.full", name=row.name,
                                      most=MAX_ENTRANTS)
            await tx.ensure_user(user_id, now)
            await tw.add_entrant(tournament_id, user_id, now)
            return _tournament(row, await tw.entrants(tournament_id))

    async def leave(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None
    ) -> Tournament:
        """Leave before the start, or withdraw once running (see the withdrawal ruling)."""
        await self._row(tournament_reads(self._store), tournament_id, guild_id)
        return await self._remove(tournament_id, user_id)

    async def kick(
        self, tournament_id: int, user_id: int, target_id: int, *,
        guild_id: int | None = None, manager_of: int | None = None,
    ) -> Tournament:
        """A manager removes (or, once running, withdraws) an entrant."""
        row = await self._row(tournament_reads(self._store), tournament_id, guild_id)
        self._check_manager(row, user_id, manager_of)
        return await self._remove(tournament_id, target_id)

    async def _remove(self, tournament_id: int, user_id: int) -> Tournament:
        async with self._store.transaction() as tx:
            tw = tournament_writes(tx)
            row = await self._row(tw, tournament_id)
            entrant = next((e for e in await tw.entrants(tournament_id) if e.user_id == user_id),
                           None)
            if entrant is None or entrant.withdrawn:
                raise TournamentError("errors.tournament.not_entered", name=row.name)
            if row.status == SIGNUP:
                await tw.remove_entrant(tournament_id, user_id)
            elif row.status == RUNNING:
                await tw.withdraw_entrant(tournament_id, user_id, row.current_round)
            else:
                raise TournamentError("errors.tournament.over", name=row.name)
        if row.status == RUNNING:
            await self._forfeit_withdrawn_games(tournament_id)
            async with self._store.transaction() as tx:  # an LPPG match ends on withdrawal
                tw = tournament_writes(tx)
                fresh = await self._row(tw, tournament_id)
                if fresh.status == RUNNING:
                    await self._advance(tx, tw, fresh)
            self._games_created()
        return await self.get(tournament_id)

    async def _forfeit_withdrawn_games(self, tournament_id: int) -> int:
        """Resign the unfinished games of withdrawn players (on their behalf) and record them.
        Safe to repeat: finished games are skipped."""
        reads = tournament_reads(self._store)
        withdrawn = {e.user_id for e in await reads.entrants(tournament_id) if e.withdrawn}
        forfeited = 0
        for link in await reads.tournament_games(tournament_id):
            row = await self._store.get_game(link.game_id)
            if row is None or row.status != ACTIVE:
                continue
            for user_id in row.seats:
                if user_id in withdrawn:
                    try:
                        await self._games.resign(row.id, user_id)
                        forfeited += 1
                    except (GameOver, NotAPlayer):
                        pass  # it ended meanwhile
                    await self.on_game_over(row.id)
                    break
        return forfeited

    # ----- managing -----------------------------------------------------------------------------

    @staticmethod
    def _check_manager(row: TournamentRow, user_id: int, manager_of: int | None) -> None:
        """The organiser, or someone who may manage the tournament's own server."""
        manages = manager_of is not None and manager_of == row.guild_id
        if user_id != row.organiser_id and not manages:
            raise TournamentError("errors.tournament.not_manager", name=row.name)

    async def start(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None,
        manager_of: int | None = None,
    ) -> Tournament:
        """Close sign-up, fix the seeds and pair round 1 (its games are created)."""
        reads = tournament_reads(self._store)
        row = await self._row(reads, tournament_id, guild_id)
        self._check_manager(row, user_id, manager_of)
        entrants = await reads.entrants(tournament_id)
        ratings = (
            await self._ratings.glicko_of(row.game, [e.user_id for e in entrants])
            if self._ratings is not None and row.format != "lppg_match" else {}
        )
        now = self._clock()
        async with self._store.transaction() as tx:
            tw = tournament_writes(tx)
            row = await self._row(tw, tournament_id)
            if row.status != SIGNUP:
                raise TournamentError("errors.tournament.already_started", name=row.name)
            entrants = await tw.entrants(tournament_id)
            count = len(entrants)
            if row.format == "lppg_match":
                if count not in (2, 4):
                    raise TournamentError("errors.tournament.lppg_players", count=count)
            elif count < 2:
                raise TournamentError("errors.tournament.too_few", count=count, least=2)
            order = sorted(
                entrants,
                key=lambda e: (-ratings[e.user_id].rating if e.user_id in ratings else 0.0,
                               e.position),
            )
            for seed, entrant in enumerate(order, start=1):
                await tw.set_seed(tournament_id, entrant.user_id, seed)
            if row.format == "swiss":
                rounds = row.swiss_rounds or max(1, math.ceil(math.log2(count)))
                await tw.set_swiss_rounds(tournament_id, min(rounds, max(1, count - 1)))
            await tw.set_status(tournament_id, RUNNING, now)
            row = await self._row(tw, tournament_id)
            await self._advance(tx, tw, row)
        self._games_created()
        return await self.get(tournament_id)

    async def cancel(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None,
        manager_of: int | None = None,
    ) -> Tournament:
        now = self._clock()
        async with self._store.transaction() as tx:
            tw = tournament_writes(tx)
            row = await self._row(tw, tournament_id, guild_id)
            self._check_manager(row, user_id, manager_of)
            if row.status not in (SIGNUP, RUNNING):
                raise TournamentError("errors.tournament.over", name=row.name)
            await tw.set_status(tournament_id, CANCELLED, now)
        return await self.get(tournament_id)

    # ----- results ------------------------------------------------------------------------------

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
        outcome = _outcome(game)
        if outcome is None:
            return False
        now = self._clock()
        async with self._store.transaction() as tx:
            tw = tournament_writes(tx)
            row = await self._row(tw, link.tournament_id)
            if row.status != RUNNING:
                return False
            if not await tw.mark_processed(game_id, TOURNAMENT, now):
                return False
            if link.pairing_id is not None:
                await self._record(tx, tw, row, link.pairing_id, game, outcome, now)
            await self._advance(tx, tw, row)
        self._games_created()
        return True

    async def _record(
        self, tx: Writes, tw: TournamentWrites, row: TournamentRow, pairing_id: int,
        game: GameRow, outcome: Outcome, now: datetime,
    ) -> None:
        pairing = await tw.pairing(pairing_id)
        if pairing is None or pairing.decided or pairing.game_id != game.id:
            return  # decided otherwise meanwhile, or an earlier game of a replayed pairing
        assert pairing.second_id is not None
        score = _first_score(outcome, game.seats.index(pairing.first_id),
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
            await self._forfeit_withdrawn_games(row.id)
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
        info = await self._games.create_game_in(
            tx, row.game, seats, row.options,
            time_control=None if row.time_control == "untimed" else row.time_control,
            guild_id=row.guild_id, channel_id=row.channel_id, source=f"tournament:{row.id}",
        )
        await tw.link_game(info.id, row.id, round_number, pairing_id, attempt)
        return info.id

    async def _advance(self, tx: Writes, tw: TournamentWrites, row: TournamentRow) -> None:
        """Finish the current round if every board is decided, then pair the next round or
        finish the tournament; repeats while a new round is decided at once (byes, forfeits)."""
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
                await tx.insert_outbox(None, "tournament_finished", {"tournament_id": row.id},
                                       now)
                return
            number = row.current_round + 1
            await tw.insert_round(row.id, number, now)
            await tx.insert_outbox(None, "tournament_round",
                                   {"tournament_id": row.id, "round": number}, now)
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
            row = await self._row(tw, row.id)
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
        players = _seed_order(entrants)
        results = _results(pairings)
        if row.format == "round_robin":
            schedule = round_robin.schedule(players)
            return schedule[row.current_round] if row.current_round < len(schedule) else None
        if row.format == "swiss":
            active = [p for p in players if p not in {e.user_id for e in entrants if e.withdrawn}]
            if row.current_round >= (row.swiss_rounds or 0) or len(active) < 2:
                return None
            seed = {p: i for i, p in enumerate(players)}
            table = {s.player: s for s in standings.swiss(active, results)}
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

    # ----- LPPG match ---------------------------------------------------------------------------

    async def _lppg_state(self, reads, row: TournamentRow):
        """(match so far, links of its games, whether a game is still running). ``reads`` is a
        transaction or the store (both read games); tournament rows come from the matching
        tournament reader."""
        tr = tournament_writes(reads) if isinstance(reads, Writes) else tournament_reads(reads)
        entrants = await tr.entrants(row.id)
        match = _lppg_match_class()(tuple(_seed_order(entrants)), LPPG_TARGET)
        links = await tr.tournament_games(row.id)
        running = False
        for link in links:
            game = await reads.get_game(link.game_id)
            outcome = _outcome(game) if game is not None else None
            if outcome is None:
                running = True
            elif not match.finished:
                match = match.record(outcome)
        return match, links, running

    async def _lppg_next(self, tx: Writes, tw: TournamentWrites, row: TournamentRow):
        """Seats of the next game as a one-item list; False while a game runs; None at the end
        (target reached, or a participant withdrew)."""
        match, links, running = await self._lppg_state(tx, row)
        current = [link for link in links if link.round == row.current_round]
        if running:
            return False
        for link in current:
            if not await tw.is_processed(link.game_id, TOURNAMENT):
                return False
        if match.finished or any(e.withdrawn for e in await tw.entrants(row.id)):
            return None
        return [match.seating()]

    async def _lppg_boards(self, row: TournamentRow) -> list[Board]:
        if row.status == SIGNUP:
            return []
        reads = tournament_reads(self._store)
        boards = []
        for link in await reads.tournament_games(row.id):
            game = await self._store.get_game(link.game_id)
            outcome = _outcome(game)
            boards.append(Board(link.round, 0, None, None, link.game_id,
                                None if outcome is None else 1.0, None if outcome is None
                                else "game", 1, game.seats))
        return boards

    async def _lppg_standings(
        self, row: TournamentRow, entrants: Sequence[EntrantRow]
    ) -> list[StandingRow]:
        players = _seed_order(entrants)
        if row.status == SIGNUP:
            return [StandingRow(1, p, 0.0, (), 0, 0, 0, 0, False) for p in players]
        match, _, _ = await self._lppg_state(self._store, row)
        points = match.points()
        played = len(match.rounds)
        wins = {p: 0 for p in players}
        for r, outcome in enumerate(match.rounds):
            seating = match.seating(r)
            for seat in outcome.winners:
                wins[seating[seat]] += 1
        withdrawn = {e.user_id for e in entrants if e.withdrawn}
        order = sorted(players, key=lambda p: (p in withdrawn, -points[p], players.index(p)))
        rows: list[StandingRow] = []
        for index, player in enumerate(order):
            key = (player in withdrawn, points[player])
            same = rows and (rows[-1].withdrawn, rows[-1].points) == key
            rank = rows[-1].rank if same else index + 1
            rows.append(StandingRow(rank, player, float(points[player]), (), played,
                                    wins[player], 0, played - wins[player], player in withdrawn))
        return rows
