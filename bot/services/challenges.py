"""Challenges, lobbies and the games they start; games started without a challenge (a
tournament's pairings, a game against the AI, a rematch).

``ChallengeService`` (``Services.challenges``) owns them, and every way a new game is written
(``create_game_in``: the AI seats, rematches and tournaments call it). It calls
``SettingsService`` for a server's language and default time control. A seek is a challenge
too: accepting and expiring one are here, the rest in ``bot.services.seeks``.

Challenges and lobbies are rare: their checks run inside the transaction on fresh rows, so a
refusal (``ChallengeError``…) never leaves a change behind.

Rulings (not in RULES.md):

* Seats follow the joining order: the host is seat 0 (moves first in every game), then the
  accepting or joining players in the order they joined.
* A challenge, open challenge or lobby expires ``challenge_expiry`` after it was sent (7 days
  unless the bot's configuration says otherwise): nobody can accept, join or start it any
  more, and its message says so (``expire_challenges``, run by the correspondence scheduler).
* Sending the same challenge twice (same game, same opponent or again open to anyone, on the
  same server) while the first is still open is refused, naming the first: the sender
  withdraws it to send another. Options do not make it a different challenge.
* A lobby starts with the players present when the game is played by that many (Kolory with
  2 to 5, LPPG with 2 or 4): the host does not have to wait for the table to fill.
* Without a time control, ``/play`` uses the server's default (``/admin settings``), and
  untimed when the server chose none.
* A game's public posts (its thread: boards, moves, results, reminders) are in one language,
  fixed when the game starts and stored with it: the server's language setting if it has one,
  else the language of the challenger's Discord client when they challenged (a tournament's
  games: the server's, else the bot's default). Whoever acts later does not change it; answers
  only one user sees stay in that user's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import engines
from bot.core.competition.ratings import Glicko
from bot.core.correspondence.timecontrol import TimeControl
from bot.core.errors import ChallengeError, NotFound
from bot.core.events import ChallengeExpired, GameStarted, SeekExpired
from bot.core.i18n import language_code
from bot.core.models import Challenge, GameInfo
from bot.services import clockstate
from bot.services.base import (
    challenge_of,
    challenge_row,
    game_info,
    game_row,
    resolve_options,
    retrying,
    time_control_of,
)
from bot.services.context import ServiceContext
from bot.services.gamestate import ACTIVE, FINISHED
from bot.services.settings import SettingsService
from bot.store import ChallengeRow, NewGame, Reads, Writes
from bot.store.clocks import clock_reads, clock_writes
from bot.store.ratings import rating_reads
from bot.store.seeks import SeekRow, seek_reads, seek_writes
from engines import Game


async def rating_of(reads: Reads, game: str, user_id: int) -> int:
    """A player's Glicko rating in ``game``, rounded (the default before any rated game):
    what a seek shows and its rating range checks."""
    found = (await rating_reads(reads).glicko(game, [user_id])).get(user_id)
    return round(found.rating if found is not None else Glicko().rating)


class ChallengeService:
    """Challenges and lobbies, and creating games (see the module docstring).

    Longer than 300 lines on purpose: every way a game comes to exist (a challenge accepted, a
    lobby started, a tournament's pairing, a game against the AI, a rematch) ends in
    ``_insert_game``, whose one transaction writes the game, its clock and its first outbox
    row; one class keeps that one path."""

    def __init__(self, context: ServiceContext, settings: SettingsService) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now
        self._settings = settings
        #: How long a challenge stays open (the bot sets it from its configuration).
        self.challenge_expiry = timedelta(days=7)
        #: How long a seek stays open (``bot.services.seeks``; from the configuration too).
        self.seek_expiry = timedelta(days=7)

    # ----- challenges and lobbies -----------------------------------------------------------

    @retrying
    async def challenge(
        self,
        game: str,
        host_id: int,
        *,
        opponent_id: int | None = None,
        players: int = 2,
        options: dict | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        time_control: str | None = None,
        locale: str | None = None,
        place: str | None = None,
        rated: bool | None = None,
    ) -> Challenge:
        """A challenge to ``opponent_id`` (2 players), an open challenge (no opponent) or a
        lobby (more than 2 players; filled with ``join`` and started by the host).
        ``time_control``: ``untimed`` (the default), ``3d`` or ``3d+1d``. ``locale``: the
        challenger's language (Discord locale or "en"/"fr"), the language of the game's posts
        unless the server has one."""
        name, resolved = self.resolve_setup(game, players, options)
        if opponent_id is not None:
            if opponent_id == host_id:
                raise ChallengeError("errors.challenge_self")
            if players != 2:
                raise ChallengeError("errors.invite_needs_two")
        time_control = await self._settings.server_time_control(guild_id, time_control)
        control = time_control_of(time_control)
        now = self._clock()
        # The host: two challenges they send at once are not the same one twice.
        async with self._store.transaction(players=[host_id]) as tx:
            for sent in await tx.open_challenges_of(host_id, guild_id):
                if (sent.game, sent.opponent_id) == (name, opponent_id) and not self.is_expired(
                    sent, now
                ):
                    raise ChallengeError("errors.challenge_twice", challenge_id=sent.id,
                                         game=self._ctx.engine(name).title)
            await tx.ensure_user(host_id, now)
            if opponent_id is not None:
                await tx.ensure_user(opponent_id, now)
            challenge_id = await tx.insert_challenge(
                game=name,
                options=resolved,
                host_id=host_id,
                opponent_id=opponent_id,
                players=players,
                guild_id=guild_id,
                channel_id=channel_id,
                now=now,
                locale=None if locale is None else language_code(locale),
                place=place,
                rated=rated,
            )
            if time_control is not None:
                await clock_writes(tx).set_challenge_time_control(challenge_id, str(control))
            row = await challenge_row(tx, challenge_id)
        self._ctx.notify_change()  # the scheduler learns when it expires
        return challenge_of(row)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id."""
        row = await self._store.get_challenge(challenge_id)
        if row is None:
            raise NotFound("errors.challenge_not_found", challenge_id=challenge_id)
        return challenge_of(row)

    async def challenge_time_control(self, challenge_id: int) -> str | None:
        """The time control chosen for a challenge (None when none was given)."""
        return await clock_reads(self._store).challenge_time_control(challenge_id)

    async def open_challenges(
        self, guild_id: int | None = None, *, limit: int = 25
    ) -> list[Challenge]:
        """Challenges and lobbies still open, oldest first."""
        return [challenge_of(r) for r in await self._store.open_challenges(guild_id, limit)]

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self._store.single_write() as tx:  # one statement
            if not await tx.set_challenge_message(challenge_id, message_id):
                raise NotFound("errors.challenge_not_found", challenge_id=challenge_id)

    def is_expired(self, row: ChallengeRow, now: datetime) -> bool:
        """Whether the challenge was sent ``challenge_expiry`` or more before ``now`` (its
        status may still say open until the scheduler closes it)."""
        return row.created_at + self.challenge_expiry <= now

    def check_open(self, row: ChallengeRow, now: datetime, seek: SeekRow | None = None
                   ) -> None:
        """Refuse a challenge that is not open (closed, or expired by ``now``); a seek
        (``seek``) expires on its own date."""
        if seek is not None and (row.status == "expired"
                                 or (row.status == "open" and seek.expires_at <= now)):
            raise ChallengeError("seeks.errors.expired", id=row.id,
                                 count=self.seek_expiry.days, days=self.seek_expiry.days)
        if row.status == "expired" or (row.status == "open" and seek is None
                                       and self.is_expired(row, now)):
            raise ChallengeError("errors.challenge_expired", challenge_id=row.id,
                                 count=self.challenge_expiry.days,
                                 days=self.challenge_expiry.days)
        if row.status != "open":
            raise ChallengeError(
                "errors.challenge_closed", challenge_id=row.id, status=row.status
            )

    async def next_challenge_expiry(self) -> datetime | None:
        """When the next open challenge or seek expires (None: none is open)."""
        oldest = await self._store.oldest_open_challenge_time()
        seek = await seek_reads(self._store).next_seek_expiry()
        due = [d for d in (None if oldest is None else oldest + self.challenge_expiry, seek)
               if d is not None]
        return min(due, default=None)

    async def expire_challenges(self, now: datetime, *, batch: int = 100) -> list[Challenge]:
        """Close the challenges sent ``challenge_expiry`` or more before ``now``; each gets a
        ``ChallengeExpired`` event (its message is changed to say so), written in the same
        transaction; so do the seeks whose expiry is ``now`` or before (``SeekExpired``).
        Returns them."""
        expired = await self._expire_seeks(now, batch)
        while True:
            async with self._store.transaction() as tx:
                rows = await tx.open_challenges_created_before(
                    now - self.challenge_expiry + timedelta(microseconds=1), batch)
                for row in rows:
                    await tx.set_challenge_status(row.id, "expired", now)
                    # Posted by the process holding the challenge's server (bot.sharding);
                    # any process's scheduler may find it expired first.
                    await tx.insert_outbox(ChallengeExpired(challenge_id=row.id), now,
                                           guild_id=row.guild_id)
                    expired.append(challenge_of(
                        await challenge_row(tx, row.id)))
            if len(rows) < batch:
                return expired

    async def _expire_seeks(self, now: datetime, batch: int) -> list[Challenge]:
        expired: list[Challenge] = []
        while True:
            async with self._store.transaction() as tx:
                rows = await seek_writes(tx).open_seeks_expiring_by(now, batch)
                for seek in rows:
                    row = await challenge_row(tx, seek.challenge_id)
                    await tx.set_challenge_status(row.id, "expired", now)
                    await tx.insert_outbox(SeekExpired(challenge_id=row.id), now,
                                           guild_id=row.guild_id)
                    expired.append(challenge_of(await challenge_row(tx, row.id)))
            if len(rows) < batch:
                return expired

    async def _check_rating_range(self, tx: Writes, row: ChallengeRow, seek: SeekRow,
                                  user_id: int) -> None:
        """Refuse a joiner whose rating in the game is outside the seek's range."""
        if seek.min_rating is None and seek.max_rating is None:
            return
        rating = await rating_of(tx, row.game, user_id)
        low, high = seek.min_rating, seek.max_rating
        if (low is not None and rating < low) or (high is not None and rating > high):
            key = ("seeks.errors.out_of_range" if low is not None and high is not None
                   else "seeks.errors.below_range" if low is not None
                   else "seeks.errors.above_range")
            raise ChallengeError(key, min=low, max=high, rating=rating,
                                 game=self._ctx.engine(row.game).title)

    @staticmethod
    async def add_player(
        tx: Writes, row: ChallengeRow, user_id: int, now: datetime
    ) -> tuple[int, ...]:
        """In ``tx``: put the user at the end of the joining order of the challenge ``row``
        (unless it is full); returns the new order."""
        if len(row.joined) >= row.players:
            raise ChallengeError("errors.lobby_full", players=row.players)
        await tx.ensure_user(user_id, now)
        await tx.add_challenge_player(row.id, user_id, now)
        return (*row.joined, user_id)

    @retrying
    async def accept(self, challenge_id: int, user_id: int) -> GameInfo:
        """Accept a two-player challenge (yours, or an open one): the game starts."""
        now = self._clock()
        async with self._store.transaction(challenges=[challenge_id]) as tx:
            row = await challenge_row(tx, challenge_id)
            seek = await seek_writes(tx).seek(challenge_id)
            self.check_open(row, now, seek)
            if row.players != 2:
                raise ChallengeError("errors.challenge_is_lobby", challenge_id=row.id)
            if user_id == row.host_id:
                raise ChallengeError("seeks.errors.own" if seek else "errors.challenge_own")
            if row.opponent_id is not None and user_id != row.opponent_id:
                raise ChallengeError("errors.challenge_not_for_you")
            if seek is not None:
                await self._check_rating_range(tx, row, seek, user_id)
            seats = row.joined
            if user_id not in seats:
                seats = await self.add_player(tx, row, user_id, now)
            info = await self._create_game(tx, row, seats, "accepted", now)
        self._ctx.notify_change()
        return info

    @retrying
    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player says no (open challenges and lobbies cannot be declined)."""
        now = self._clock()
        async with self._store.transaction(challenges=[challenge_id]) as tx:
            row = await challenge_row(tx, challenge_id)
            self.check_open(row, now)
            if row.opponent_id is None:
                raise ChallengeError("errors.decline_open")
            if user_id != row.opponent_id:
                raise ChallengeError("errors.challenge_not_for_you")
            await tx.set_challenge_status(row.id, "declined", now)
            row = await challenge_row(tx, challenge_id)
        return challenge_of(row)

    @retrying
    async def cancel(self, challenge_id: int, user_id: int) -> Challenge:
        """The host withdraws a challenge or closes a lobby."""
        now = self._clock()
        async with self._store.transaction(challenges=[challenge_id]) as tx:
            row = await challenge_row(tx, challenge_id)
            if user_id != row.host_id:
                raise ChallengeError("errors.not_the_host")
            self.check_open(row, now, await seek_writes(tx).seek(challenge_id))
            await tx.set_challenge_status(row.id, "cancelled", now)
            row = await challenge_row(tx, challenge_id)
        return challenge_of(row)

    @retrying
    async def join(self, challenge_id: int, user_id: int) -> Challenge:
        """Take a place in a lobby (or an open challenge); the host then starts the game."""
        now = self._clock()
        async with self._store.transaction(challenges=[challenge_id]) as tx:
            row = await challenge_row(tx, challenge_id)
            self.check_open(row, now)
            if user_id in row.joined:
                raise ChallengeError("errors.already_joined")
            if row.opponent_id is not None and user_id != row.opponent_id:
                raise ChallengeError("errors.challenge_not_for_you")
            await self.add_player(tx, row, user_id, now)
            row = await challenge_row(tx, challenge_id)
        return challenge_of(row)

    @retrying
    async def leave(self, challenge_id: int, user_id: int) -> Challenge:
        """Leave a lobby before it starts (the host cancels instead)."""
        now = self._clock()
        async with self._store.transaction(challenges=[challenge_id]) as tx:
            row = await challenge_row(tx, challenge_id)
            self.check_open(row, now)
            if user_id == row.host_id:
                raise ChallengeError("errors.host_cannot_leave")
            if user_id not in row.joined:
                raise ChallengeError("errors.not_joined")
            await tx.remove_challenge_player(row.id, user_id)
            row = await challenge_row(tx, challenge_id)
        return challenge_of(row)

    @retrying
    async def start(self, challenge_id: int, user_id: int) -> GameInfo:
        """The host starts a full lobby; seats follow the joining order."""
        now = self._clock()
        async with self._store.transaction(challenges=[challenge_id]) as tx:
            row = await challenge_row(tx, challenge_id)
            if user_id != row.host_id:
                raise ChallengeError("errors.not_the_host")
            self.check_open(row, now)
            engine = self._ctx.engine(row.game)
            allowed = engine.allowed_player_counts()
            if len(row.joined) not in allowed or len(row.joined) < 2:
                raise ChallengeError(
                    "errors.lobby_too_few", joined=len(row.joined), game=engine.title,
                    allowed=", ".join(str(n) for n in allowed if n >= 2),
                )
            self.resolve_setup(row.game, len(row.joined), row.options)  # still go together
            info = await self._create_game(tx, row, row.joined, "started", now)
        self._ctx.notify_change()
        return info

    async def _create_game(
        self, tx: Writes, row: ChallengeRow, seats: tuple[int, ...], status: str, now: datetime
    ) -> GameInfo:
        control = TimeControl.parse(
            await clock_writes(tx).challenge_time_control(row.id) or "untimed"
        )
        # The language of the game's thread is fixed now: the server's, else the challenger's.
        locale = await self._settings.public_language(row.guild_id, row.locale, tx)
        info = await self._insert_game(
            tx, self._ctx.engine(row.game), row.options, tuple(seats), control, now,
            challenge_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id,
            locale=locale, place=row.place,
        )
        await tx.set_challenge_status(row.id, status, now, game_id=info.id)
        return info

    async def _insert_game(
        self,
        tx: Writes,
        game: Game,
        options: dict[str, Any],
        seats: tuple[int, ...],
        control: TimeControl,
        now: datetime,
        *,
        challenge_id: int | None,
        guild_id: int | None,
        channel_id: int | None,
        source: str | None = None,
        locale: str | None = None,
        place: str | None = None,
    ) -> GameInfo:
        """The game row, its seats, its clock and the ``game_started`` outbox row."""
        seed = self._ctx.seed()
        state = game.new(len(seats), seed=seed, options=options)
        game_id = await tx.insert_game(
            NewGame(
                game=game.name,
                options=options,
                seed=seed,
                seats=seats,
                status=ACTIVE if state.outcome is None else FINISHED,
                to_move=state.to_move,
                snapshot=game.dump(state),
                challenge_id=challenge_id,
                guild_id=guild_id,
                channel_id=channel_id,
                created_at=now,
                locale=locale,
                place=place,
            )
        )
        await clockstate.start_clock(tx, game_id, seats, state.to_move, control, now)
        await tx.insert_outbox(GameStarted(game_id=game_id, ply=0, version=0, source=source),
                               now)
        return game_info(await game_row(tx, game_id), game, state)

    # ----- games created directly (tournaments) -------------------------------------------

    def resolve_setup(
        self, game: str, players: int, options: Mapping[str, Any] | None
    ) -> tuple[str, dict[str, Any]]:
        """Check a game name, player count and options as ``challenge`` does;
        returns (engine name, resolved options) or raises ``ChallengeError``."""
        try:
            engine = self._ctx.engine(game)
        except KeyError:
            raise ChallengeError(
                "errors.unknown_game", game=game, games=", ".join(sorted(engines.GAMES))
            ) from None
        allowed = engine.allowed_player_counts()
        if players not in allowed:
            raise ChallengeError(
                "errors.bad_player_count",
                game=engine.title,
                count=players,
                players=players,
                allowed=", ".join(str(n) for n in allowed),
            )
        resolved = resolve_options(engine, options)
        try:  # options valid one by one may still clash together: let the engine say so now
            engine.new(players, seed=0, options=resolved)
        except ValueError as error:
            raise ChallengeError("errors.bad_options", reason=str(error)) from None
        return engine.name, resolved

    @retrying
    async def create_game(
        self,
        game: str,
        seats: Sequence[int],
        options: Mapping[str, Any] | None = None,
        *,
        time_control: str | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        source: str | None = None,
        locale: str | None = None,
        place: str | None = None,
    ) -> GameInfo:
        """Start a game between ``seats`` (user ids in
        seat order) without a challenge, in its own transaction, with its clock."""
        # A new game needs no lock of its own: its players' (the users it creates) will do.
        async with self._store.transaction(players=seats) as tx:
            info = await self.create_game_in(
                tx, game, seats, options, time_control=time_control, guild_id=guild_id,
                channel_id=channel_id, source=source, locale=locale, place=place,
            )
        self._ctx.notify_change()
        return info

    async def create_game_in(
        self,
        tx: Writes,
        game: str,
        seats: Sequence[int],
        options: Mapping[str, Any] | None = None,
        *,
        time_control: str | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        source: str | None = None,
        locale: str | None = None,
        place: str | None = None,
    ) -> GameInfo:
        """``create_game`` inside the caller's transaction, so a tournament records
        its pairing and the game together. ``source`` (e.g. "tournament:3") is copied into
        the ``game_started`` payload. ``time_control`` is the contract's text notation
        (``ChallengeError`` ``errors.bad_time_control`` if it is not one); the clock starts
        in ``tx``. The game's posts are in the server's language if it has one, else in
        ``locale`` (None: the bot's default). After the caller's commit, call
        ``notify_change()`` so the correspondence scheduler sees the new deadline."""
        name, resolved = self.resolve_setup(game, len(seats), options)
        seats = tuple(seats)
        control = time_control_of(time_control)
        now = self._clock()
        for user_id in seats:
            await tx.ensure_user(user_id, now)
        language = await self._settings.public_language(
            guild_id, None if locale is None else language_code(locale), tx)
        return await self._insert_game(
            tx, self._ctx.engine(name), resolved, seats, control, now,
            challenge_id=None, guild_id=guild_id, channel_id=channel_id, source=source,
            locale=language, place=place,
        )

