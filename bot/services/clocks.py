"""Correspondence play as plain async calls: deadlines, reminders, claims on time, automatic
tournament forfeits, vacations, reminder settings and game records.

Usage (the bot wires it once)::

    services = Services(store)
    clocks = ClockService(store, services, grace_for=tournaments.reading.forfeit_grace,
                          vacation_days_per_year=30)
    scheduler = clocks.scheduler()          # one asyncio task (bot.correspondence.scheduler)
    services.context.on_change = clocks.on_change = scheduler.poke
    scheduler.start()                       # its first round catches up after a restart

``ClockService`` owns the clocks and calls ``GameReads`` (a game and its record, through
``services.games``) and ``ChallengeService`` (expiring challenges, which the same scheduler
does). Time controls are chosen with ``ChallengeService.challenge(..., time_control="3d+1d")``
or ``ChallengeService.create_game(..., time_control=...)``; the clock starts in the
transaction that creates the game and moves on in the one that records each move
(``bot.services.clockstate``, which also holds the rulings on vacations, Fischer banks and
undo).

Events written here (``bot.core.events.clocks``; same transaction as their cause, like the game
service's):

* ``Reminder``: written in the transaction that records the reminder as sent, so it exists
  exactly once per (game, turn, threshold);
* ``TimedOut`` (``claimed_by`` None for an automatic tournament forfeit), followed by
  ``GameEnded``;
* ``Vacation``: one per active timed game of the user, so each game's thread shows it to the
  opponents.

Rulings:

* Reminders: "due in 24 hours" and "overdue", once per turn (the turn is keyed by its ply). A
  turn of 24 hours or less gets no "due in 24 hours" (the move notice said as much), and after
  downtime past both thresholds only "overdue" goes out. A vacation declared after a reminder
  moves the deadline but does not repeat the reminder.
* Claiming: once the deadline has passed, any seated player not on the side of the player to
  move may claim; the game ends at once for everybody, every seat not on the loser's side
  winning (the resignation ruling of ``bot.services.gamestate``: engines cannot drop one player
  of a 3–5 player game). Until someone claims, the late player may still move.
* Tournament games (``grace_for(game_id)`` returns a grace period) end automatically as a loss
  on time for the player to move once deadline + grace has passed.
* Vacation allowance: ``vacation_days_per_year`` per calendar year (UTC) of the vacation's
  start. A vacation takes the time it lasts from the allowance, counted in started hours:
  ending it early with ``vacation(user, 0)`` gives the rest back, so a vacation ended after a
  few seconds costs one hour, not a day (and pausing every clock for free, a few minutes at a
  time, is not possible). A new vacation may last as many whole days as are left. One
  vacation at a time, starting now.
* Vacations matter only where a clock runs: games without a time control are not paused, and
  their threads are told nothing.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import engines
from bot.core.correspondence.clockinfo import DAY, ClockInfo, VacationInfo, days_left_text
from bot.core.correspondence.reminders import (
    DUE_SOON_BEFORE,
    Threshold,
    due_thresholds,
    next_threshold_time,
)
from bot.core.errors import GameOver, NotAPlayer, NotFound, ServiceError
from bot.core.events import Reminder, TimedOut, Vacation
from bot.core.models import GameInfo, utcnow
from bot.core.sharding import Shards
from bot.services import clockstate, records
from bot.services.base import retrying
from bot.services.gamestate import (
    ACTIVE,
    apply_forced_outcome,
    forced_end,
    teams_of,
    write_forced_end,
)
from bot.services.scheduler import Scheduler
from bot.services.wiring import Services
from bot.store import Store
from bot.store.clocks import ClockReads, ClockRow, VacationRow, clock_reads, clock_writes
from engines.core import dump_outcome

log = logging.getLogger(__name__)

HOUR = timedelta(hours=1)
#: How long a game whose due work failed (a database or engine error) waits before a retry.
RETRY_AFTER = timedelta(minutes=5)
_ATTEMPTS = 5

GraceFor = Callable[[int], Awaitable[timedelta | None]]


class ClockError(ServiceError):
    """A claim, vacation or setting that is not allowed (keys under ``errors.*`` in
    ``words/locales/<lang>/clocks.toml``)."""

    key = "errors.claim_too_early"


def charged(vacation: VacationRow) -> timedelta:
    """What a vacation takes from the allowance: the time it lasts, a started hour counting
    as a whole one (a vacation still running counts until its planned end)."""
    return math.ceil((vacation.ends_at - vacation.starts_at) / HOUR) * HOUR


def charged_in(vacations: Iterable[VacationRow]) -> timedelta:
    return sum(map(charged, vacations), timedelta(0))


def _year_bounds(now: datetime) -> tuple[datetime, datetime]:
    year = now.astimezone(UTC).year
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def _already_sent(clock: ClockRow, sent: Mapping[tuple[int, int], set[str]]) -> set[Threshold]:
    """The thresholds of the clock's turn that are done. "Due in 24 hours" counts as done when
    the whole turn is shorter than that (a 1-day control): the move notice just said so."""
    done = {Threshold(t) for t in sent.get((clock.game_id, clock.ply), ())}
    if clock.deadline is not None and clock.deadline - DUE_SOON_BEFORE <= clock.turn_started:
        done.add(Threshold.DUE_SOON)
    return done


def _timed(clock: ClockRow | None) -> bool:
    """Whether a game has a clock that runs (games older than the clocks have none)."""
    return clock is not None and clock.time_control != "untimed"


async def _away(reads: ClockReads, users: Iterable[int], now: datetime) -> dict[int, datetime]:
    """Those of ``users`` on vacation at ``now``, with the end of their vacation."""
    away: dict[int, datetime] = {}
    for vacation in await reads.vacations(users, ending_after=now):
        if vacation.starts_at <= now:
            away[vacation.user_id] = max(vacation.ends_at, away.get(vacation.user_id, now))
    return away


def _unix(moment: datetime) -> int:
    return int(moment.timestamp())



@dataclass(frozen=True)
class ReplaySource:
    """Everything that rebuilds a game's positions: plain data, so it can go to a worker
    process. It holds the secret seed, so it stays inside the bot's own processes; only
    ``public_states`` (spectator views) leave, and ``repr`` leaves the seed out."""

    game_id: int
    version: int  # with ``game_id``, names this exact position (a replay's cache key)
    game: str
    players: int
    seed: int = field(repr=False)
    options: dict[str, Any]
    moves: tuple[str, ...]
    forced_outcome: dict[str, Any] | None

    def public_states(self) -> list[Any]:
        """Every position from the start, as a spectator sees it (``view(s, None)``: no seed,
        no hidden hand), ending on the stored result (a resignation, a loss on time)."""
        game = engines.get(self.game)
        states = game.replay(self.players, self.seed, self.options, list(self.moves))
        states[-1] = apply_forced_outcome(states[-1], self.forced_outcome)
        return [game.view(state, None) for state in states]

class ClockService:
    """Deadlines, reminders, claims, forfeits, vacations and settings (module docstring).

    Longer than 300 lines on purpose: one service over the clocks' tables and their rulings;
    each section (deadlines, claims, the scheduler's calls, vacations, settings, records) is a
    few methods sharing the store, the game reads and the clock, which a split would have
    to pass around."""

    def __init__(
        self,
        store: Store,
        services: Services,
        *,
        clock: Callable[[], datetime] = utcnow,
        grace_for: GraceFor | None = None,
        vacation_days_per_year: int = 30,
        on_change: Callable[[], None] | None = None,
        shards: Shards | None = None,
    ) -> None:
        self._store = store
        self._games = services.games
        self._challenges = services.challenges
        #: The service's clock (replaceable, e.g. to move time forward in end-to-end tests).
        self.clock = clock
        #: Tournament games' grace period before an automatic forfeit (the tournaments service
        #: may set it after construction: ``bot.clocks.grace_for = tournaments.forfeit_grace``).
        self.grace_for = grace_for
        self.vacation_days_per_year = vacation_days_per_year
        #: Called after a committed change that moves deadlines (a vacation, a claim).
        self.on_change = on_change
        #: The scheduler's calls look after the games of these servers only (None: all):
        #: each bot process those of the shards it runs, so that each reminder and forfeit is
        #: written by one process.
        self.shards = shards
        self._not_tournament: set[int] = set()  # games for which grace_for said None
        #: Games whose due work failed, and when to try again: without this, a game that keeps
        #: failing would stay due in the past and the scheduler would spin on it.
        self._retry_at: dict[int, datetime] = {}

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def scheduler(self, **kwargs: float) -> Scheduler:
        """The one task that sends reminders and forfeits when due (start it on bot start)."""
        return Scheduler(self.next_due, self.run_due, now=self.now, **kwargs)

    def now(self) -> datetime:
        """The time by this service's clock (the scheduler reads it through here, so that a
        clock replaced later is still the one used)."""
        return self.clock()

    # ----- deadlines --------------------------------------------------------------------------

    async def clock_info(self, game_id: int) -> ClockInfo:
        """The time control and deadline of a game (untimed for games older than clocks)."""
        infos = await self.clock_infos([game_id])
        if game_id not in infos:
            raise NotFound("errors.not_found", game_id=game_id)
        return infos[game_id]

    async def due_info(self, game_id: int) -> ClockInfo | None:
        """``clock_info`` for the line under a board, or None for a game a move already found
        untimed: it has no deadline to tell, so a move's board costs no clock reads."""
        if clockstate.known_untimed(self._store, game_id):
            return None
        return await self.clock_info(game_id)

    async def deadline(self, game_id: int) -> datetime | None:
        return (await self.clock_info(game_id)).deadline

    async def clock_infos(self, game_ids: Iterable[int]) -> dict[int, ClockInfo]:
        """Clock information of several games at once (``/games``); unknown ids are left out."""
        ids = sorted(set(game_ids))
        reads = clock_reads(self._store)
        rows = await reads.clocks(ids)
        games = {}
        for game_id in ids:
            game = await self._store.get_game(game_id)
            if game is not None:
                games[game_id] = game
        users = {user for game in games.values() for user in game.seats}
        now = self.clock()
        away = await _away(reads, users, now)
        infos = {}
        for game_id, game in games.items():
            row = rows.get(game_id)
            seats = game.seats
            paused = tuple((user, away[user]) for user in seats if user in away)
            if row is None:
                infos[game_id] = ClockInfo(game_id, "untimed", None, None, (), paused)
                continue
            # From the game: an untimed game's clock is not kept up to date move by move.
            to_move_user = None if game.to_move is None else seats[game.to_move]
            infos[game_id] = ClockInfo(game_id, row.time_control, row.deadline, to_move_user,
                                       row.banks, paused if game.to_move is not None else ())
        return infos

    # ----- claims and forfeits ------------------------------------------------------------------

    async def claim(
        self, game_id: int, user_id: int, *, reply_token: str | None = None
    ) -> GameInfo:
        """An opponent of the player to move claims the win once the deadline has passed.
        ``reply_token``: the interaction token that answers with the outbox rows."""
        return await self._end_on_time(game_id, claimed_by=user_id, grace=timedelta(0),
                                       reply_token=reply_token)

    @retrying
    async def _end_on_time(
        self,
        game_id: int,
        *,
        claimed_by: int | None,
        grace: timedelta,
        reply_token: str | None = None,
    ) -> GameInfo:
        for _ in range(_ATTEMPTS):
            row = await self._store.get_game(game_id)
            if row is None:
                raise NotFound("errors.not_found", game_id=game_id)
            claimer_seat = None
            if claimed_by is not None:
                if claimed_by not in row.seats:
                    raise NotAPlayer("errors.not_a_player", game_id=game_id)
                claimer_seat = row.seats.index(claimed_by)
            if row.status != ACTIVE:
                raise GameOver("errors.game_over", game_id=game_id)
            clock = await clock_reads(self._store).clock(game_id)
            if clock is None or clock.deadline is None or clock.to_move is None:
                # The game may have ended between the two reads (a resignation racing this
                # claim stops its clock): say that, not "untimed".
                again = await self._store.get_game(game_id)
                if again is not None and again.status != ACTIVE:
                    raise GameOver("errors.game_over", game_id=game_id)
                raise ClockError("errors.claim_untimed", game_id=game_id)
            game = engines.get(row.game)
            teams = teams_of(game, len(row.seats))
            loser = clock.to_move
            if claimer_seat is not None and claimer_seat in clockstate.side_of(teams, loser):
                raise ClockError("errors.claim_own_turn", game_id=game_id)
            now = self.clock()
            if now < clock.deadline + grace:
                raise ClockError(
                    "errors.claim_too_early", game_id=game_id, deadline=_unix(clock.deadline)
                )
            state = game.load(row.snapshot)
            outcome = clockstate.timeout_outcome(game, state, loser, teams)
            forced = {"kind": "timeout", "seat": loser, "outcome": dump_outcome(outcome)}
            if claimer_seat is not None:
                forced["claimed_by"] = claimer_seat
            _, update = forced_end(game, row, state, forced, now)
            async with self._store.transaction(games=[game_id]) as tx:
                fresh = await clock_writes(tx).clock(game_id)
                if fresh != clock:  # a move or a vacation changed the clock: look again
                    continue
                if not await tx.update_game(game_id, row.version, update):
                    continue
                await write_forced_end(
                    tx,
                    row,
                    TimedOut(game_id=game_id, seat=loser, user_id=row.seats[loser],
                             claimed_by=claimed_by, version=row.version + 1),
                    now, reply_token,
                )
            self._changed()
            return await self._games.get_game(game_id)
        raise ClockError("errors.claim_retry", game_id=game_id)

    async def _grace(self, game_id: int) -> timedelta | None:
        if self.grace_for is None or game_id in self._not_tournament:
            return None
        grace = await self.grace_for(game_id)
        if grace is None:  # a game never becomes a tournament game later
            self._not_tournament.add(game_id)
        return grace

    # ----- the scheduler's two calls --------------------------------------------------------

    async def next_due(self) -> datetime | None:
        """The earliest time something is due: a reminder threshold, deadline + grace of an
        overdue tournament game, or a challenge's expiry. None when nothing is pending."""
        reads = clock_reads(self._store)
        clocks = await reads.running_clocks(self.shards)
        sent = await reads.sent_for_running(self.shards)
        now = self.clock()
        due: list[datetime] = []
        expiry = await self._challenges.next_challenge_expiry()
        if expiry is not None:
            due.append(expiry)
        for clock in clocks:
            game_due: list[datetime] = []
            already = _already_sent(clock, sent)
            threshold_time = next_threshold_time(clock.deadline, already)
            if threshold_time is not None:
                game_due.append(threshold_time)
            if clock.deadline <= now or Threshold.OVERDUE in already:
                grace = await self._grace(clock.game_id)
                if grace is not None:
                    game_due.append(clock.deadline + grace)
            retry_at = self._retry_at.get(clock.game_id)
            due.extend(game_due if retry_at is None else (max(d, retry_at) for d in game_due))
        return min(due, default=None)

    async def run_due(self, now: datetime) -> int:
        """Write what is due at ``now``: reminder outbox rows (each recorded as sent in the
        same transaction), automatic forfeits of tournament games, and challenges that
        expired (``ChallengeService.expire_challenges``). Returns how many rows of work were
        written. One failing game does not stop the others."""
        written = len(await self._challenges.expire_challenges(now))
        reads = clock_reads(self._store)
        clocks = await reads.running_clocks(self.shards)
        sent = await reads.sent_for_running(self.shards)
        for clock in clocks:
            if self._retry_at.get(clock.game_id, now) > now:
                continue
            already = _already_sent(clock, sent)
            try:
                for threshold in due_thresholds(clock.deadline, now, already):
                    written += await self._send_reminder(clock, threshold, now)
                if clock.deadline <= now:
                    grace = await self._grace(clock.game_id)
                    if grace is not None and clock.deadline + grace <= now:
                        await self._end_on_time(clock.game_id, claimed_by=None, grace=grace)
                        written += 1
            except (GameOver, ClockError):
                pass  # the game moved on meanwhile (a move, a claim): nothing is due any more
            except Exception:
                log.exception("correspondence work for game %s failed; retrying in %s",
                              clock.game_id, RETRY_AFTER)
                self._retry_at[clock.game_id] = now + RETRY_AFTER
            else:
                self._retry_at.pop(clock.game_id, None)
        return written

    async def _send_reminder(self, clock: ClockRow, threshold: Threshold, now: datetime) -> int:
        async with self._store.transaction(games=[clock.game_id]) as tx:
            writes = clock_writes(tx)
            fresh = await writes.clock(clock.game_id)
            if fresh != clock:  # the turn or the deadline changed since the read
                return 0
            game = await tx.get_game(clock.game_id)
            if game is None or game.status != ACTIVE:
                return 0
            if not await writes.mark_reminder_sent(
                clock.game_id, clock.ply, str(threshold), clock.deadline, now
            ):
                return 0
            user = game.seats[clock.to_move]
            await tx.insert_outbox(
                Reminder(game_id=clock.game_id, user_id=user, seat=clock.to_move,
                         threshold=threshold.value, deadline=clock.deadline, ply=clock.ply,
                         dm=await writes.dm_reminders(user)),
                now,
            )
        return 1

    # ----- vacations ----------------------------------------------------------------------------

    async def vacation_status(self, user_id: int) -> VacationInfo:
        now = self.clock()
        reads = clock_reads(self._store)
        current = [v for v in await reads.vacations([user_id], ending_after=now)
                   if v.starts_at <= now]
        start, end = _year_bounds(now)
        used = charged_in(await reads.vacations_starting_between(user_id, start, end))
        until = max((v.ends_at for v in current), default=None)
        games = await self._store.games_of(user_id, active_only=True, limit=1000)
        clocks = await reads.clocks([game.id for game in games])
        timed = [game for game in games if _timed(clocks.get(game.id))]
        if until is not None:
            return VacationInfo(user_id, until, used, self.vacation_days_per_year,
                                tuple(game.id for game in timed), len(games))
        # Back: a game's clock still waits for any other of its players who is away.
        away = await _away(reads, {u for game in timed for u in game.seats} - {user_id}, now)
        held = tuple(game.id for game in timed if away.keys() & set(game.seats))
        return VacationInfo(
            user_id, None, used, self.vacation_days_per_year,
            resumed_games=tuple(game.id for game in timed if game.id not in held),
            held_games=held,
        )

    @retrying
    async def vacation(self, user_id: int, days: int) -> VacationInfo:
        """Start a vacation of ``days`` days now (0 ends the current one): the clocks of all
        the user's games stop meanwhile, and their opponents are told (``vacation`` rows).
        With no timed game in progress there is nothing to pause: no vacation starts and no
        day of the allowance is spent (``VacationInfo.not_started``)."""
        if days < 0 or days > self.vacation_days_per_year:
            raise ClockError("errors.vacation_days", count=self.vacation_days_per_year,
                             allowance=self.vacation_days_per_year)
        now = self.clock()
        start, end = _year_bounds(now)
        # No scope: it changes the clocks of every game of the user, found inside.
        async with self._store.transaction() as tx:
            writes = clock_writes(tx)
            current = [v for v in await writes.vacations([user_id], ending_after=now)
                       if v.starts_at <= now]
            if days == 0:
                if not current:
                    raise ClockError("errors.vacation_none")
                for vacation in current:
                    await writes.set_vacation_end(vacation.id, now)
                until = None
            else:
                if current:
                    raise ClockError(
                        "errors.vacation_active",
                        until=_unix(max(v.ends_at for v in current)),
                    )
                taken = await writes.vacations_starting_between(user_id, start, end)
                status = VacationInfo(user_id, None, charged_in(taken),
                                      self.vacation_days_per_year)
                if days > status.left_days:
                    raise ClockError(
                        "errors.vacation_allowance", left=status.whole_days_left,
                        allowance=self.vacation_days_per_year,
                        days_left=days_left_text(status.left_days, self.vacation_days_per_year),
                    )
                games = await tx.games_of(user_id, active_only=True, limit=1000)
                clocks = await writes.clocks([game.id for game in games])
                if not any(_timed(clocks.get(game.id)) for game in games):
                    # Nothing to pause: no vacation, no day spent.
                    return replace(status, running_games=len(games), not_started=True)
                await tx.ensure_user(user_id, now)
                until = now + days * DAY
                await writes.insert_vacation(user_id, now, until, now)
            games = await tx.games_of(user_id, active_only=True, limit=1000)
            # Back: a game whose other player is away too keeps its clock paused.
            away = {} if until is not None else await _away(
                writes, {u for game in games for u in game.seats} - {user_id}, now)
            for game in games:
                clock = await clockstate.refresh_deadline(tx, game.id, game.seats, now)
                if not _timed(clock):
                    continue  # no clock to pause: nothing to tell the opponents
                notice = Vacation(game_id=game.id, user_id=user_id, until=until,
                                  held=bool(away.keys() & set(game.seats)))
                await tx.insert_outbox(notice, now)
        self._changed()
        return await self.vacation_status(user_id)

    # ----- settings -----------------------------------------------------------------------------

    async def dm_reminders(self, user_id: int) -> bool:
        """Does the user want reminders by direct message too (``/settings``)? Off by default."""
        return await clock_reads(self._store).dm_reminders(user_id)

    @retrying
    async def set_dm_reminders(self, user_id: int, enabled: bool) -> None:
        now = self.clock()
        async with self._store.transaction(players=[user_id]) as tx:
            await tx.ensure_user(user_id, now)
            await clock_writes(tx).set_dm_reminders(user_id, enabled, now)

    # ----- records ------------------------------------------------------------------------------

    async def replay_source(self, game_id: int) -> ReplaySource:
        """What rebuilds every position of the game (for ``/replay``, drawn in a worker)."""
        for _ in range(_ATTEMPTS):
            row = await self._store.get_game(game_id)
            if row is None:
                raise NotFound("errors.not_found", game_id=game_id)
            moves = [m.text for m in await self._store.moves(game_id) if m.ply <= row.ply]
            if len(moves) == row.ply:
                break
        else:
            raise ClockError("errors.claim_retry", game_id=game_id)
        return ReplaySource(row.id, row.version, row.game, len(row.seats), row.seed,
                            row.options, tuple(moves), row.forced_outcome)

    async def public_states(self, game_id: int) -> list[Any]:
        """Every position of a game from the start, as a spectator sees it (see
        ``ReplaySource.public_states``)."""
        return (await self.replay_source(game_id)).public_states()

    async def record_text(self, game_id: int, names: Mapping[int, str] | None = None,
                          comments: Sequence[str] | None = None) -> str:
        """The game record as text (``bot.services.records``): header, then numbered moves
        (each followed by its comment, if ``comments`` are given)."""
        record = await self._games.record(game_id)
        info = await self.clock_info(game_id)
        return records.format_record(record, time_control=info.time_control, names=names,
                                     comments=comments)
