"""Notifications a player controls (issue 31 §3), as plain async calls:

* **Daily digest** by direct message: the user's games where it is their turn, at an hour of
  their choosing in their time zone (``bot.core.correspondence.digest``). Off by default. The
  scheduler asks ``next_digest_due`` and calls ``run_due_digests``; each digest is claimed in
  the database by moving the user's ``digest_next_at`` on (compare-and-set) in the transaction
  that writes its ``Digest`` event, so a restart or a second process never sends two. At most
  one a day: a digest that could not go out within ``STALE_AFTER`` of its hour (the bot was
  down) is skipped, and none is sent when no game waits for the user (a "nothing to do"
  message is noise).
* **Quiet mode** per game (``mute``/``unmute``): the game's turns do not ping the user, except
  the last reminder before a time-out (``Threshold.OVERDUE``: from then on the opponents may
  claim the win, or a tournament forfeits it).
* **Refused direct messages** (Discord error 50007, the user closed their DMs to the bot):
  ``dm_refused`` records it (the one place both reminders and digests use); from then on no
  DM is tried until the user changes a DM setting (``set_dm_reminders``/``set_digest`` clear
  it), and ``take_dm_refused_notice`` gives the next command of the user the private notice,
  once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import engines
from bot.core.correspondence.digest import is_stale, next_digest_time, zone_named
from bot.core.correspondence.reminders import Threshold
from bot.core.errors import NotAPlayer, NotFound, ServiceError
from bot.core.events import Digest
from bot.core.models import utcnow
from bot.core.sharding import Shards
from bot.services.base import retrying
from bot.store import Store
from bot.store.clocks import clock_reads, clock_writes
from bot.store.notify import NotifySettings, notify_reads, notify_writes

log = logging.getLogger(__name__)


class NotifyError(ServiceError):
    """A notification setting that is not allowed (keys under ``notify.errors.*`` in
    ``words/locales/<lang>/notify.toml``)."""

    key = "notify.errors.bad_zone"


@dataclass(frozen=True)
class DigestEntry:
    """One game of a digest: where it is the user's turn."""

    game_id: int
    game: str  # engine name ("alak")
    title: str  # the game's title ("Alak")
    guild_id: int | None
    thread_id: int | None
    channel_id: int | None
    deadline: datetime | None  # None for an untimed game

    @property
    def link(self) -> str | None:
        """The game's thread (or channel) as a Discord link; None when it has neither."""
        where = self.thread_id or self.channel_id
        if where is None:
            return None
        return f"https://discord.com/channels/{self.guild_id or '@me'}/{where}"


class NotifyService:
    """Digest, quiet mode and refused DMs (module docstring)."""

    def __init__(self, store: Store, *, clock: Callable[[], datetime] = utcnow,
                 shards: Shards | None = None) -> None:
        self._store = store
        #: Replaceable, like ``ClockService.clock`` (end-to-end tests move time on).
        self.clock = clock
        #: Digests are direct messages, which belong to shard 0 (``bot.core.sharding``): only the
        #: process running it writes them.
        self.shards = shards

    @property
    def _sends_digests(self) -> bool:
        return self.shards is None or self.shards.owns(None)

    # ----- settings ------------------------------------------------------------------------

    async def settings(self, user_id: int) -> NotifySettings:
        return await notify_reads(self._store).settings(user_id)

    @retrying
    async def set_dm_reminders(self, user_id: int, enabled: bool) -> NotifySettings:
        """Reminders by DM on or off; trying DMs again after a refusal."""
        now = self.clock()
        async with self._store.transaction(players=[user_id]) as tx:
            await tx.ensure_user(user_id, now)
            await clock_writes(tx).set_dm_reminders(user_id, enabled, now)
            await notify_writes(tx).clear_dm_refused(user_id)
        return await self.settings(user_id)

    @retrying
    async def set_digest(self, user_id: int, *, enabled: bool | None = None,
                         hour: int | None = None, time_zone: str | None = None
                         ) -> NotifySettings:
        """Change the daily digest: on/off, its hour (0–23, local) and the time zone (an IANA
        name; a wrong one is refused and nothing changes). Giving an hour or a zone alone keeps
        the digest as it is (on or off) and remembers them. Defaults when turned on: 8 o'clock,
        UTC. Any change tries DMs again after a refusal."""
        zone = None
        if time_zone is not None:
            zone = zone_named(time_zone)
            if zone is None:
                raise NotifyError("notify.errors.bad_zone", zone=time_zone.strip()[:60])
        if hour is not None and not 0 <= hour <= 23:
            raise NotifyError("notify.errors.bad_hour", hour=hour)
        now = self.clock()
        async with self._store.transaction(players=[user_id]) as tx:
            await tx.ensure_user(user_id, now)
            writes = notify_writes(tx)
            current = await writes.settings(user_id)
            on = current.digest if enabled is None else enabled
            new_zone = time_zone.strip() if time_zone is not None else current.time_zone
            new_hour = hour if hour is not None else current.digest_hour
            if on:
                new_hour = 8 if new_hour is None else new_hour
                new_zone = new_zone or "UTC"
                zone = zone or zone_named(new_zone)
                assert zone is not None  # stored names were checked when saved
                next_at = next_digest_time(new_hour, zone, now)
                await writes.set_digest(user_id, new_hour, new_zone, next_at, now)
            else:
                await writes.set_digest(user_id, None, new_zone, None, now)
            await writes.clear_dm_refused(user_id)
        return await self.settings(user_id)

    # ----- quiet mode ----------------------------------------------------------------------

    @retrying
    async def mute(self, user_id: int, game_id: int, muted: bool = True) -> bool:
        """Mute (or unmute) a game for one of its players; False when it already was so."""
        game = await self._store.get_game(game_id)
        if game is None:
            raise NotFound("errors.not_found", game_id=game_id)
        if user_id not in game.seats:
            raise NotAPlayer("errors.not_a_player", game_id=game_id)
        now = self.clock()
        async with self._store.transaction(players=[user_id]) as tx:
            writes = notify_writes(tx)
            if muted:
                return await writes.mute(user_id, game_id, now)
            return await writes.unmute(user_id, game_id)

    async def muted(self, user_id: int, game_id: int) -> bool:
        return await notify_reads(self._store).muted(user_id, game_id)

    async def turn_pings(self, user_id: int, game_id: int) -> bool:
        """Does the move notice of the user's turn in this game ping them?"""
        return not await self.muted(user_id, game_id)

    async def reminder_pings(self, user_id: int, game_id: int, threshold: str) -> bool:
        """Does this reminder ping the user (in the thread, and by DM if they asked)? In a
        muted game only the last one before a time-out does."""
        return threshold == Threshold.OVERDUE or not await self.muted(user_id, game_id)

    # ----- refused direct messages (50007) ---------------------------------------------------

    async def dm_refused(self, user_id: int) -> bool:
        """Discord refused a DM to the user (50007): stop trying until they change a DM
        setting, and tell them at their next command. True if it was news."""
        now = self.clock()
        async with self._store.transaction(players=[user_id]) as tx:
            await tx.ensure_user(user_id, now)
            news = await notify_writes(tx).mark_dm_refused(user_id, now)
        if news:
            log.info("direct messages to user %s are refused (50007): no more DMs", user_id)
        return news

    async def dms_refused(self, user_id: int) -> bool:
        """Are DMs to the user on hold after a refusal?"""
        return await notify_reads(self._store).dms_refused(user_id)

    async def take_dm_refused_notice(self, user_id: int) -> datetime | None:
        """When a refusal was not told to the user yet: when it happened (and it counts as
        told from now on); else None. A plain read when there is nothing to tell, so every
        command can ask."""
        if not await self.dms_refused(user_id):
            return None
        async with self._store.transaction(players=[user_id]) as tx:
            return await notify_writes(tx).take_dm_refused_notice(user_id)

    # ----- the digest ------------------------------------------------------------------------

    async def digest_entries(self, user_id: int) -> list[DigestEntry]:
        """The user's games where it is their turn: timed ones first, soonest deadline first,
        then by game number."""
        rows = await self._store.games_of(user_id, active_only=True, limit=1000)
        waiting = [row for row in rows if row.status == "active" and row.to_move is not None
                   and row.seats[row.to_move] == user_id]
        clocks = await clock_reads(self._store).clocks([row.id for row in waiting])
        entries = []
        for row in waiting:
            clock = clocks.get(row.id)
            deadline = clock.deadline if clock is not None else None
            entries.append(DigestEntry(row.id, row.game, engines.get(row.game).title,
                                       row.guild_id, row.thread_id, row.channel_id, deadline))
        entries.sort(key=lambda e: (e.deadline is None, e.deadline or datetime.min, e.game_id))
        return entries

    async def next_digest_due(self) -> datetime | None:
        if not self._sends_digests:
            return None
        return await notify_reads(self._store).next_digest_at()

    async def run_due_digests(self, now: datetime) -> int:
        """Claim the digests due at ``now`` and write their outbox rows; returns how many rows
        were written."""
        if not self._sends_digests:
            return 0
        written = 0
        for user_id, planned in await notify_reads(self._store).due_digests(now):
            if await self._claim_digest(user_id, planned, now):
                written += 1
        return written

    @retrying
    async def _claim_digest(self, user_id: int, planned: datetime, now: datetime) -> bool:
        settings = await self.settings(user_id)
        if settings.digest_hour is None:
            return False
        # A zone checked when saved that a later tz database dropped: UTC rather than a digest
        # that stays due for ever (the scheduler would wake for it again and again).
        zone = zone_named(settings.time_zone or "UTC") or zone_named("UTC")
        assert zone is not None
        following = next_digest_time(settings.digest_hour, zone, max(planned, now))
        send = not is_stale(planned, now) and bool(await self.digest_entries(user_id))
        async with self._store.transaction(players=[user_id]) as tx:
            if not await notify_writes(tx).claim_digest(user_id, planned, following):
                return False  # another process (or round) took it
            if send:
                await tx.insert_outbox(Digest(user_id=user_id, planned=planned), now)
        return send


__all__ = ["DigestEntry", "NotifyError", "NotifyService"]
