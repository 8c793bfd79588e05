"""Sign-up and management: creating a tournament, joining and leaving, the organiser's
start, cancel and kick, and the withdrawals they cause.

Managing (start, cancel, kick) is for the organiser, or for a member who may manage the
tournament's own server (``manager_of``: the server where the Discord layer saw the Manage
Server permission; rights in one server give nothing in another). Joining and leaving are for
oneself.

Withdrawals (``leave`` or ``kick`` once running): the player stays in the standings with the
points they have (listed after the players still in, without a rank), is never paired again,
and their unfinished game is lost by forfeit (``Rounds.forfeit_withdrawn_games``: ended like a
resignation, said as a withdrawal or, after ``kick``, a removal by the organiser). Before the
start, ``leave``/``kick`` just removes the sign-up. Seeds are fixed at the start: by Glicko-2
rating in the tournament's game (when a rating service is given), then by joining order.

``SignUp`` (``TournamentService.signup``) owns all this; it calls ``ChallengeService`` (to
check a game and its options), ``RatingService`` (seeds), ``Rounds`` (pairing after a start
or a withdrawal, the forfeits) and ``Reading`` (the tournament it returns).

Settings are checked here whatever the Discord layer checked: a name is made safe to show
(``tournament_name``), must keep something to show and fit ``MAX_NAME``; ``rounds`` is for a
Swiss event only (1 to ``MAX_SWISS_ROUNDS``); the grace period runs from 0 to
``MAX_GRACE_HOURS``.
"""

from __future__ import annotations

import math

import engines
from bot.core.correspondence.timecontrol import TimeControl
from bot.services.aiseats import ai_user_id, check_level
from bot.services.base import retrying
from bot.services.challenges import ChallengeService
from bot.services.context import ServiceContext
from bot.services.ratings import RatingService
from bot.services.tournaments.base import tournament_row
from bot.services.tournaments.models import (
    DEFAULT_GRACE_HOURS,
    MAX_ENTRANTS,
    MAX_GRACE_HOURS,
    MAX_NAME,
    MAX_SWISS_ROUNDS,
    Tournament,
    TournamentError,
    Withdrawal,
    tournament_name,
    tournament_value,
)
from bot.services.tournaments.reading import Reading
from bot.services.tournaments.rounds import Rounds
from bot.store.tournaments import (
    CANCELLED,
    FORMATS,
    RUNNING,
    SIGNUP,
    TournamentRow,
    tournament_reads,
    tournament_writes,
)


class SignUp:
    """Creating, joining, leaving, starting, cancelling and kicking (``Rounds`` pairs round 1
    at the start and carries on after a withdrawal)."""

    def __init__(self, context: ServiceContext, challenges: ChallengeService,
                 ratings: RatingService | None, rounds: Rounds, reading: Reading) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now
        self._challenges = challenges
        self._ratings = ratings
        self._rounds = rounds
        self._reading = reading

    @retrying
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
        name_game, resolved = self._challenges.resolve_setup(game, players, options)
        if swiss_rounds is not None:
            if format != "swiss":
                raise TournamentError("errors.tournament.rounds_swiss_only")
            if not 1 <= swiss_rounds <= MAX_SWISS_ROUNDS:
                raise TournamentError("errors.tournament.bad_rounds", most=MAX_SWISS_ROUNDS)
        try:
            control = str(TimeControl.parse(time_control or "untimed"))
        except ValueError as error:
            raise TournamentError("errors.tournament.bad_time_control",
                                  reason=str(error)) from None
        if not 0 <= forfeit_grace_hours <= MAX_GRACE_HOURS:
            raise TournamentError("errors.tournament.bad_grace", most=MAX_GRACE_HOURS)
        title = engines.get(name_game).title if name is None else tournament_name(name)
        if not title:
            raise TournamentError("errors.tournament.empty_name")
        if len(title) > MAX_NAME:
            raise TournamentError("errors.tournament.long_name", most=MAX_NAME)
        now = self._clock()
        async with self._store.transaction(players=[organiser_id]) as tx:  # a new tournament
            await tx.ensure_user(organiser_id, now)
            tw = tournament_writes(tx)
            tournament_id = await tw.insert_tournament(
                name=title, guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id,
                game=name_game, options=resolved, format=format, swiss_rounds=swiss_rounds,
                time_control=control, forfeit_grace_hours=forfeit_grace_hours, now=now,
            )
            row = await tournament_row(tw, tournament_id)
        return tournament_value(row, ())

    @retrying
    async def join(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None
    ) -> Tournament:
        now = self._clock()
        async with self._store.transaction(tournaments=[tournament_id]) as tx:
            tw = tournament_writes(tx)
            row = await tournament_row(tw, tournament_id, guild_id)
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
            return tournament_value(row, await tw.entrants(tournament_id))

    @retrying
    async def add_ai(
        self, tournament_id: int, user_id: int, level: str, *, guild_id: int | None = None,
        manager_of: int | None = None,
    ) -> tuple[Tournament, int]:
        """The organiser (or a manager) enters an AI player of ``level`` during sign-up:
        (the tournament, the AI entrant's reserved id). Each AI entrant has its own seat id
        (``ai_user_id(level, slot)``), so several of one level may play; they are unrated
        (games with an AI seat never are) and the AI player plays their turns at once, as
        in any game against the AI."""
        check_level(level)
        now = self._clock()
        async with self._store.transaction() as tx:
            tw = tournament_writes(tx)
            row = await tournament_row(tw, tournament_id, guild_id)
            self._check_manager(row, user_id, manager_of)
            if row.status != SIGNUP:
                raise TournamentError("errors.tournament.signup_closed", name=row.name)
            entrants = await tw.entrants(tournament_id)
            if len(entrants) >= MAX_ENTRANTS:
                raise TournamentError("errors.tournament.full", name=row.name,
                                      most=MAX_ENTRANTS)
            taken = {e.user_id for e in entrants}
            ai_id = next(uid for uid in (ai_user_id(level, slot) for slot in range(100))
                         if uid not in taken)  # MAX_ENTRANTS < 100: one is always free
            await tx.ensure_user(ai_id, now)
            await tw.add_entrant(tournament_id, ai_id, now)
            return tournament_value(row, await tw.entrants(tournament_id)), ai_id

    async def leave(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None
    ) -> Withdrawal:
        """Leave before the start, or withdraw once running (see the withdrawal ruling)."""
        await tournament_row(tournament_reads(self._store), tournament_id, guild_id)
        return await self._remove(tournament_id, user_id, None)

    async def kick(
        self, tournament_id: int, user_id: int, target_id: int, *,
        guild_id: int | None = None, manager_of: int | None = None,
    ) -> Withdrawal:
        """A manager removes an entrant: from the sign-up, or once running from the event
        (a withdrawal that standings and the forfeited game call a removal)."""
        row = await tournament_row(tournament_reads(self._store), tournament_id, guild_id)
        self._check_manager(row, user_id, manager_of)
        return await self._remove(tournament_id, target_id, user_id)

    async def _remove(self, tournament_id: int, user_id: int, removed_by: int | None
                      ) -> Withdrawal:
        async with self._store.transaction(tournaments=[tournament_id]) as tx:
            tw = tournament_writes(tx)
            row = await tournament_row(tw, tournament_id)
            entrant = next((e for e in await tw.entrants(tournament_id) if e.user_id == user_id),
                           None)
            if entrant is None or entrant.withdrawn:
                raise TournamentError("errors.tournament.not_entered", name=row.name)
            if row.status == SIGNUP:
                await tw.remove_entrant(tournament_id, user_id)
            elif row.status == RUNNING:
                await tw.withdraw_entrant(tournament_id, user_id, row.current_round,
                                          removed=removed_by is not None)
            else:
                raise TournamentError("errors.tournament.over", name=row.name)
        forfeited: tuple[int, ...] = ()
        if row.status == RUNNING:
            forfeited = await self._rounds.forfeit_withdrawn_games(tournament_id, removed_by)
            # An LPPG match ends on withdrawal.
            async with self._store.transaction(tournaments=[tournament_id]) as tx:
                tw = tournament_writes(tx)
                fresh = await tournament_row(tw, tournament_id)
                if fresh.status == RUNNING:
                    await self._rounds.advance(tx, tw, fresh)
            self._ctx.notify_change()  # the new games have deadlines
        return Withdrawal(await self._reading.get(tournament_id), user_id, removed_by is not None,
                          forfeited)

    # ----- managing -----------------------------------------------------------------------------

    @staticmethod
    def _check_manager(row: TournamentRow, user_id: int, manager_of: int | None) -> None:
        """The organiser, or someone who may manage the tournament's own server."""
        manages = manager_of is not None and manager_of == row.guild_id
        if user_id != row.organiser_id and not manages:
            raise TournamentError("errors.tournament.not_manager", name=row.name)

    @retrying
    async def start(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None,
        manager_of: int | None = None,
    ) -> Tournament:
        """Close sign-up, fix the seeds and pair round 1 (its games are created)."""
        reads = tournament_reads(self._store)
        row = await tournament_row(reads, tournament_id, guild_id)
        self._check_manager(row, user_id, manager_of)
        entrants = await reads.entrants(tournament_id)
        ratings = (
            await self._ratings.glicko_of(row.game, [e.user_id for e in entrants])
            if self._ratings is not None and row.format != "lppg_match" else {}
        )
        now = self._clock()
        async with self._store.transaction(tournaments=[tournament_id]) as tx:
            tw = tournament_writes(tx)
            row = await tournament_row(tw, tournament_id)
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
            row = await tournament_row(tw, tournament_id)
            await self._rounds.advance(tx, tw, row)
        self._ctx.notify_change()  # the new games have deadlines
        return await self._reading.get(tournament_id)

    @retrying
    async def cancel(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None,
        manager_of: int | None = None,
    ) -> Tournament:
        now = self._clock()
        async with self._store.transaction(tournaments=[tournament_id]) as tx:
            tw = tournament_writes(tx)
            row = await tournament_row(tw, tournament_id, guild_id)
            self._check_manager(row, user_id, manager_of)
            if row.status not in (SIGNUP, RUNNING):
                raise TournamentError("errors.tournament.over", name=row.name)
            await tw.set_status(tournament_id, CANCELLED, now)
        return await self._reading.get(tournament_id)
