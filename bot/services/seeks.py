"""Seeks: open offers to play, listed with the server's other open challenges and tables in
``/lobby``.

``SeekService`` (``Services.seeks``) owns posting, listing and withdrawing them; it calls
``ChallengeService`` (a seek's challenge: checking the game, reading it, withdrawing it) and
``SettingsService`` (the server's default time control).

A seek is an open two-player challenge (``challenges``: its status, message, time control and
the game it becomes, started by ``accept`` like any challenge) with a ``seeks`` row beside it
(``bot.store.seeks``): rated or not, the rating range a joiner must be in, and its expiry.

Rulings (the issue is silent on these):

* A player has at most ``MAX_OPEN_SEEKS`` open seeks on a server; a fourth is refused, naming
  the open ones.
* A seek expires ``seek_expiry`` after it was posted (the bot's ``seek_expiry_days``, fixed
  when posted); its message then says so (``seek_expired`` outbox row). Plain challenges keep
  their own ``challenge_expiry``.
* The rating a seek shows and its range checks is the player's Glicko rating in that game
  (1500 before any rated game): the bot keeps one rating per player and game
  (``bot.services.ratings``), the one this server's leaderboard shows.
* A joiner outside the range is refused privately, with the range; a player who asked for an
  unrated seek gets an unrated game (``bot.services.ratings`` skips it).
* Seeks are for two players (every game can be played by two); a game's options are its
  defaults — whoever wants other options sends an open challenge with ``/play``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from bot.core.errors import ChallengeError, NotFound
from bot.core.i18n import Text, language_code
from bot.core.models import Challenge
from bot.services.base import challenge_of, retrying, time_control_of
from bot.services.challenges import ChallengeService, rating_of
from bot.services.context import ServiceContext
from bot.services.settings import SettingsService
from bot.store.clocks import clock_reads, clock_writes
from bot.store.seeks import SeekRow, seek_reads, seek_writes

#: How many seeks one player may have open on one server at a time.
MAX_OPEN_SEEKS = 3
#: How many entries of each kind ``/lobby`` lists (Discord: at most 25 buttons a message).
LOBBY_LIMIT = 8
#: The lowest and highest rating a range may name.
RATING_BOUNDS = (0, 4000)


@dataclass(frozen=True)
class Seek:
    """An open offer to play: its challenge, and what only a seek has."""

    challenge: Challenge
    rated: bool
    min_rating: int | None
    max_rating: int | None
    expires_at: datetime
    host_rating: int  # the host's Glicko rating in the game, rounded
    time_control: str | None  # None: untimed

    @property
    def id(self) -> int:
        return self.challenge.id


@dataclass(frozen=True)
class Lobby:
    """What a player may join on a server, oldest first."""

    seeks: tuple[Seek, ...]
    challenges: tuple[Challenge, ...]  # open to anyone, two players, not seeks
    tables: tuple[Challenge, ...]  # lobbies for more than two players with a free place
    #: The open challenges' time controls (None: untimed).
    time_controls: Mapping[int, str | None] = field(default_factory=dict)


class SeekService:
    """Posting, listing and withdrawing seeks; joining one is ``ChallengeService.accept``."""

    def __init__(self, context: ServiceContext, challenges: ChallengeService,
                 settings: SettingsService) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now
        self._challenges = challenges
        self._settings = settings

    @retrying
    async def seek(
        self,
        game: str,
        host_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        time_control: str | None = None,
        rated: bool = True,
        min_rating: int | None = None,
        max_rating: int | None = None,
        locale: str | None = None,
    ) -> Seek:
        """Post a seek for ``game`` on a server. ``time_control`` as for ``challenge`` (the
        server's default when None)."""
        if guild_id is None:
            raise ChallengeError("seeks.errors.server_only")
        if min_rating is not None and max_rating is not None and min_rating > max_rating:
            raise ChallengeError("seeks.errors.bad_range", min=min_rating, max=max_rating)
        name, resolved = self._challenges.resolve_setup(game, 2, None)
        time_control = await self._settings.server_time_control(guild_id, time_control)
        control = time_control_of(time_control)
        now = self._clock()
        async with self._store.transaction(players=[host_id]) as tx:
            seeks = seek_writes(tx)
            mine = [s for s in await seeks.open_seeks_of(host_id, guild_id)
                    if s.expires_at > now]
            if len(mine) >= MAX_OPEN_SEEKS:
                raise ChallengeError(
                    "seeks.errors.too_many", count=MAX_OPEN_SEEKS,
                    ids=tuple(Text("seeks.number", id=s.challenge_id) for s in mine))
            await tx.ensure_user(host_id, now)
            challenge_id = await tx.insert_challenge(
                game=name, options=resolved, host_id=host_id, opponent_id=None, players=2,
                guild_id=guild_id, channel_id=channel_id, now=now,
                locale=None if locale is None else language_code(locale),
            )
            if time_control is not None:
                await clock_writes(tx).set_challenge_time_control(challenge_id, str(control))
            expires_at = now + self._challenges.seek_expiry
            await seeks.put_seek(challenge_id, rated=rated, min_rating=min_rating,
                                 max_rating=max_rating, expires_at=expires_at)
        self._ctx.notify_change()  # the scheduler learns when it expires
        return await self.get_seek(challenge_id)

    async def get_seek(self, challenge_id: int) -> Seek:
        """A seek by its number (its challenge's)."""
        found = await seek_reads(self._store).seek(challenge_id)
        if found is None:
            raise NotFound("seeks.errors.not_found", id=challenge_id)
        return await self._seek(found)

    async def find_seek(self, challenge_id: int) -> Seek | None:
        """The seek of a challenge, or None when the challenge is not a seek."""
        found = await seek_reads(self._store).seek(challenge_id)
        return None if found is None else await self._seek(found)

    async def _seek(self, row: SeekRow) -> Seek:
        challenge = await self._challenges.get_challenge(row.challenge_id)
        return Seek(
            challenge=challenge, rated=row.rated, min_rating=row.min_rating,
            max_rating=row.max_rating, expires_at=row.expires_at,
            host_rating=await rating_of(self._store, challenge.game, challenge.host_id),
            time_control=await clock_reads(self._store).challenge_time_control(row.challenge_id),
        )

    async def open_seeks_of(self, user_id: int, guild_id: int | None) -> list[Seek]:
        """A player's seeks still open on a server, oldest first."""
        now = self._clock()
        rows = await seek_reads(self._store).open_seeks_of(user_id, guild_id)
        return [await self._seek(row) for row in rows if row.expires_at > now]

    async def lobby(self, guild_id: int, *, limit: int = LOBBY_LIMIT) -> Lobby:
        """The server's open seeks, open challenges to anyone and tables with a free place
        (none that expired, even if the scheduler has not closed it yet)."""
        now = self._clock()
        rows = await seek_reads(self._store).open_seeks(guild_id, 200)
        seek_ids = {row.challenge_id for row in rows}
        seeks = [await self._seek(row) for row in rows if row.expires_at > now][:limit]
        challenges, tables = [], []
        for row in await self._store.open_challenges(guild_id, 200):
            if (row.id in seek_ids or self._challenges.is_expired(row, now)
                    or row.opponent_id is not None):
                continue
            if row.players == 2:
                challenges.append(challenge_of(row))
            elif len(row.joined) < row.players:
                tables.append(challenge_of(row))
        challenges = challenges[:limit]
        reads = clock_reads(self._store)
        controls = {c.id: await reads.challenge_time_control(c.id) for c in challenges}
        return Lobby(tuple(seeks), tuple(challenges), tuple(tables[:limit]), controls)

    async def withdraw_seeks(self, user_id: int, guild_id: int | None) -> list[Challenge]:
        """Withdraw every open seek of a player on a server; returns them, withdrawn."""
        return [await self._challenges.cancel(seek.id, user_id)
                for seek in await self.open_seeks_of(user_id, guild_id)]
