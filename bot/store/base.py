"""The repository interface the services use (docs/architecture.md), independent of any database.

Rows are plain frozen dataclasses with decoded JSON and timezone-aware datetimes. A backend
implements ``Reads`` (committed data, no locking) on its ``Store`` and ``Writes`` inside
``Store.transaction()``: every write happens in a transaction that either commits as a whole or
leaves nothing behind. The SQL behind both is written once (``bot.store.sql``); the backends are
SQLite (``bot.store.sqlite``) and PostgreSQL (``bot.store.postgres``).

**What a transaction may rely on** (the same rule on both backends): a read made inside a
transaction stays true until it commits for everything in its *scope*. A transaction opened with
``transaction(games=…, tournaments=…, challenges=…, players=…)`` says what it is about, and
runs alone with respect to every other transaction about one of those games (its row, moves,
clock, seats, outbox rows), tournaments (entrants, pairings, results), challenges (their row
and players) or players (their rating rows, the challenges they send); one opened without a
scope runs alone, full stop. SQLite gives more than that (one writer for the
whole file); PostgreSQL runs transactions of different scopes at once (``bot.store.postgres``).
A transaction creating a game or tournament needs no lock on it: nobody else knows it yet.

A transaction that loses a deadlock or serialization race (PostgreSQL 40P01, 40001) raises
``TransactionConflict`` having written nothing; the services run it again a few times
(``bot.services.base.retrying``).
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.core.events import Event, EventStream
from bot.core.sharding import Shards

#: ``place`` of a game (or challenge) played where the bot is not a member: a DM, a group DM,
#: a server without the bot. None: a thread of a server with the bot.
CONVERSATION = "conversation"


def counts_for_ratings(place: str | None, asked: bool | None) -> bool:
    """Whether a game counts for ratings: as its challenger asked (``/play rated:``), else by
    its place: rated in a server with the bot, casual where nobody moderates (issue 28)."""
    return asked if asked is not None else place != CONVERSATION

log = logging.getLogger(__name__)


class TransactionConflict(RuntimeError):
    """The database ended a transaction to break a deadlock or a serialization failure; it
    wrote nothing, and running it again (from its reads) may well succeed."""


@dataclass(frozen=True)
class Scope:
    """What a write transaction is about (see the module docstring): the games, tournaments,
    challenges and players it reads and changes. Empty: it may touch anything, and runs
    alone."""

    games: tuple[int, ...] = ()
    tournaments: tuple[int, ...] = ()
    challenges: tuple[int, ...] = ()
    players: tuple[int, ...] = ()

    @classmethod
    def of(cls, games: Iterable[int] = (), tournaments: Iterable[int] = (),
           challenges: Iterable[int] = (), players: Iterable[int] = ()) -> Scope:
        """Each set sorted and without repeats (the order locks are taken in)."""
        return cls(*(tuple(sorted(set(ids))) for ids in (games, tournaments, challenges,
                                                          players)))

    @property
    def everything(self) -> bool:
        return not (self.games or self.tournaments or self.challenges or self.players)


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    game: str
    options: dict[str, Any]
    host_id: int
    opponent_id: int | None
    players: int
    joined: tuple[int, ...]  # in joining order, the host first
    status: str
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    game_id: int | None
    created_at: datetime
    updated_at: datetime
    #: The challenger's language ("en", "fr"), or None.
    locale: str | None = None
    #: Where its game will live: None (a server's thread) or "conversation".
    place: str | None = None
    #: Whether its game counts for ratings; None: its place's default.
    rated: bool | None = None


@dataclass(frozen=True)
class NewGame:
    """What a new game row holds (the store assigns id and version 0)."""

    game: str
    options: dict[str, Any]
    seed: int
    seats: tuple[int, ...]
    status: str
    to_move: int | None
    snapshot: dict[str, Any]
    challenge_id: int | None
    guild_id: int | None
    channel_id: int | None
    created_at: datetime
    #: The language of the game's public posts ("en", "fr"), or None for the bot's default.
    locale: str | None = None
    #: None: a thread of a server with the bot; "conversation": a DM, group DM or server
    #: without the bot, whose channel stands for the thread (``thread_id`` = ``channel_id``).
    place: str | None = None


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    options: dict[str, Any]
    seed: int
    seats: tuple[int, ...]
    status: str
    ply: int
    to_move: int | None
    version: int
    snapshot: dict[str, Any]
    last_move: str | None
    forced_outcome: dict[str, Any] | None
    undo_seat: int | None
    undo_consents: tuple[int, ...]
    challenge_id: int | None
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    created_at: datetime
    updated_at: datetime
    #: The language of the game's public posts ("en", "fr"), or None for the bot's default.
    locale: str | None = None
    #: Where it lives (``NewGame.place``).
    place: str | None = None


@dataclass(frozen=True)
class GameUpdate:
    """A new board for a game: written only if the version is still the expected one; the
    version then goes up by one and any pending undo request is dropped."""

    snapshot: dict[str, Any]
    ply: int
    to_move: int | None
    status: str
    last_move: str | None
    forced_outcome: dict[str, Any] | None
    updated_at: datetime


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    ply: int
    seat: int
    text: str
    played_at: datetime


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int | None
    kind: str
    payload: dict[str, Any]
    created_at: datetime
    delivered_at: datetime | None
    #: The interaction token of the command this row answers, until it is delivered.
    reply_token: str | None = None
    #: The server it is posted in (None: none, shard 0's): the process running its shard
    #: delivers it.
    guild_id: int | None = None


class Reads(abc.ABC):
    """Queries that only read committed data."""

    @abc.abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None: ...

    @abc.abstractmethod
    async def game_for_thread(self, thread_id: int) -> GameRow | None: ...

    @abc.abstractmethod
    async def games_of(self, user_id: int, *, active_only: bool, limit: int) -> list[GameRow]:
        """The user's games, most recently updated first."""

    @abc.abstractmethod
    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None: ...

    @abc.abstractmethod
    async def open_challenges(self, guild_id: int | None, limit: int) -> list[ChallengeRow]:
        """Challenges still open, oldest first (all guilds when ``guild_id`` is None)."""

    @abc.abstractmethod
    async def open_challenges_of(self, host_id: int, guild_id: int | None) -> list[ChallengeRow]:
        """The open challenges a user sent on a server (``guild_id`` None: in DMs), oldest
        first."""

    @abc.abstractmethod
    async def open_challenges_created_before(
        self, cutoff: datetime, limit: int
    ) -> list[ChallengeRow]:
        """Open challenges created before ``cutoff``, oldest first (those due to expire)."""

    @abc.abstractmethod
    async def oldest_open_challenge_time(self) -> datetime | None:
        """When the oldest challenge still open was created (None: none is open)."""

    @abc.abstractmethod
    async def guild_games(self, guild_id: int, *, active_only: bool, limit: int) -> list[GameRow]:
        """A server's games, most recently updated first."""

    @abc.abstractmethod
    async def moves(self, game_id: int) -> list[MoveRow]:
        """Every move of a game in ply order."""

    @abc.abstractmethod
    async def last_move(self, game_id: int) -> MoveRow | None: ...

    @abc.abstractmethod
    async def pending_outbox(
        self, limit: int, game_id: int | None = None, shards: Shards | None = None
    ) -> list[OutboxRow]:
        """Undelivered outbox rows, oldest first (only that game's if ``game_id`` is given,
        only those of the servers of ``shards`` if it is)."""

    @abc.abstractmethod
    async def last_outbox_id(self, game_id: int, kind: str) -> int | None:
        """The id of the game's newest outbox row of ``kind`` (delivered or not), if any."""

    @abc.abstractmethod
    async def guild_settings(self, guild_id: int) -> tuple[str | None, dict[str, Any]] | None:
        """(locale, settings) of a guild, or None if it never saved any."""

    @abc.abstractmethod
    async def user_locale(self, user_id: int) -> str | None: ...


class Writes(Reads):
    """Reads and writes inside one transaction (reads see the transaction's own writes)."""

    @abc.abstractmethod
    async def ensure_user(self, user_id: int, now: datetime) -> None: ...

    @abc.abstractmethod
    async def set_user_locale(self, user_id: int, locale: str | None, now: datetime) -> None: ...

    @abc.abstractmethod
    async def set_guild_settings(
        self, guild_id: int, locale: str | None, settings: dict[str, Any], now: datetime
    ) -> None: ...

    @abc.abstractmethod
    async def insert_challenge(
        self,
        *,
        game: str,
        options: dict[str, Any],
        host_id: int,
        opponent_id: int | None,
        players: int,
        guild_id: int | None,
        channel_id: int | None,
        now: datetime,
        locale: str | None = None,
        place: str | None = None,
        rated: bool | None = None,
    ) -> int:
        """A new open challenge with its host joined; returns its id. ``locale``: the
        challenger's language; ``place``: where its game will live (``NewGame.place``);
        ``rated``: whether its game counts for ratings (None: its place's default)."""

    @abc.abstractmethod
    async def add_challenge_player(self, challenge_id: int, user_id: int, now: datetime) -> None:
        """Append a user at the end of the joining order."""

    @abc.abstractmethod
    async def remove_challenge_player(self, challenge_id: int, user_id: int) -> None: ...

    @abc.abstractmethod
    async def set_challenge_status(
        self, challenge_id: int, status: str, now: datetime, *, game_id: int | None = None
    ) -> None: ...

    @abc.abstractmethod
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> bool: ...

    @abc.abstractmethod
    async def insert_game(self, game: NewGame) -> int: ...

    @abc.abstractmethod
    async def update_game(self, game_id: int, expected_version: int, update: GameUpdate) -> bool:
        """Compare-and-set on the version: False (and nothing written) if it moved on."""

    @abc.abstractmethod
    async def set_undo_request(
        self,
        game_id: int,
        expected_version: int,
        seat: int | None,
        consents: Sequence[int],
        now: datetime,
    ) -> bool:
        """Set (or clear, with ``seat=None``) the pending undo request without changing the
        version; False if the version moved on."""

    @abc.abstractmethod
    async def set_thread(self, game_id: int, thread_id: int | None) -> bool: ...

    @abc.abstractmethod
    async def insert_move(
        self, game_id: int, ply: int, seat: int, text: str, now: datetime
    ) -> None: ...

    @abc.abstractmethod
    async def remove_last_move(self, game_id: int, ply: int, now: datetime) -> bool:
        """Move the row of ``ply`` (which must be the last) to the undone moves."""

    @abc.abstractmethod
    async def insert_outbox(
        self,
        event: Event,
        now: datetime,
        reply_token: str | None = None,
        *,
        guild_id: int | None = None,
    ) -> int:
        """A pending row holding ``event`` (of its game when it is a ``GameEvent``), published
        on the store's ``events`` once the transaction commits. ``reply_token``: the
        interaction token that will answer it. ``guild_id``: the server it is posted in
        (default: its game's)."""

    @abc.abstractmethod
    async def forget_reply_token(self, reply_token: str) -> None:
        """Clear ``reply_token`` from every row that holds it."""

    @abc.abstractmethod
    async def mark_delivered(
        self, outbox_id: int, now: datetime, answered_token: str | None = None
    ) -> bool:
        """False if there is no such row (marking twice is harmless). Forgets its reply
        token; ``answered_token``: that token leaves every other row as well (the interaction
        has answered), in the same statement."""

    @abc.abstractmethod
    async def prune_outbox(
        self, delivered_before: datetime, limit: int, shards: Shards | None = None
    ) -> int:
        """Delete up to ``limit`` outbox rows delivered before ``delivered_before``, oldest
        first, of the servers of ``shards`` if given; returns how many went. Pending rows are
        never deleted, nor the take-back requests still waiting for an answer (an answer
        names its request's row)."""


class ShardClaim(abc.ABC):
    """A bot process's hold on its shards (``bot.core.sharding``) in the database the processes
    share: while it holds them, no other process delivers those servers' rows or runs their
    due work (reminders, forfeits, pruning).

    ``acquire()`` waits until no other live process holds any of them. The hold is a lock that
    the database server (PostgreSQL: advisory locks of one connection) or the operating system
    (the lock file of an SQLite database) releases the moment its process dies, so the restart
    of a killed process, or any process started for the same shards (a standby), takes over at
    once, and never while the holder lives.

    Wake-ups: when a transaction of another process that wrote outbox rows commits,
    ``on_wake(game_id)`` is called in the process holding the shard of their server
    (``game_id`` None: rows of no game), where the backend can tell other processes
    (PostgreSQL: LISTEN/NOTIFY); polling stays the fallback. A process delivers the rows it
    writes itself. ``on_lost()`` is called if the hold goes while the process runs (its connection
    closed): the process must stop.
    """

    #: Seconds between two attempts while another process holds a shard.
    RETRY_SECONDS = 1.0

    def __init__(self, shards: Shards) -> None:
        self.shards = shards
        self.on_wake: Callable[[int | None], None] | None = None
        #: Called with every wake-up, whichever server's it is (the web board's open pages
        #: follow games of any server).
        self.on_any_wake: Callable[[int | None], None] | None = None
        self.on_lost: Callable[[], None] | None = None

    async def acquire(self, *, retry_seconds: float | None = None) -> None:
        """Wait until this process holds all its shards (saying once why it waits)."""
        said = None
        while (reason := await self.try_acquire()) is not None:
            if reason != said:
                log.warning("waiting for %s: %s", self.shards, reason)
                said = reason
            await asyncio.sleep(self.RETRY_SECONDS if retry_seconds is None else retry_seconds)
        log.info("holding %s", self.shards)

    @abc.abstractmethod
    async def try_acquire(self) -> str | None:
        """Take every shard, or none: None when held, else why not (for the log)."""

    @property
    @abc.abstractmethod
    def held(self) -> bool: ...

    @abc.abstractmethod
    async def release(self) -> None: ...

    def _woken(self, guild_id: int | None, game_id: int | None) -> None:
        """Rows of ``guild_id`` (``game_id``'s) were written: call ``on_wake`` if ours (and
        ``on_any_wake`` whoever's)."""
        if self.held and self.on_any_wake is not None:
            self.on_any_wake(game_id)
        if self.held and self.shards.owns(guild_id) and self.on_wake is not None:
            self.on_wake(game_id)

    def _lost(self) -> None:
        log.error("lost the hold on %s", self.shards)
        if self.on_lost is not None:
            self.on_lost()


class Store(Reads):
    """A database: reads of committed data, and ``transaction()`` for writes. ``events``
    publishes the events each transaction wrote, once it has committed
    (``bot.core.events.stream``)."""

    events: EventStream

    @abc.abstractmethod
    def transaction(
        self,
        *,
        games: Iterable[int] = (),
        tournaments: Iterable[int] = (),
        challenges: Iterable[int] = (),
        players: Iterable[int] = (),
    ) -> AbstractAsyncContextManager[Writes]:
        """``async with store.transaction(games=[game_id]) as tx``: commit on success, roll
        back on error. It runs alone with respect to the other transactions about the same
        games, tournaments, challenges or players (all of them: none named), across processes
        too, so keep it short (no slow work inside). Raises ``TransactionConflict`` if the
        database broke a deadlock with it (nothing written)."""

    def single_write(self) -> AbstractAsyncContextManager[Writes]:
        """``async with store.single_write() as tx``: for ONE write statement, atomic on its
        own. A backend may run it without a transaction around it (SQLite: two round trips to
        the database's thread less; PostgreSQL: no lock, one round trip); by default it is a
        transaction. The statement must be correct whatever runs beside it."""
        return self.transaction()

    @abc.abstractmethod
    def claim_shards(self, shards: Shards) -> ShardClaim:
        """This process's claim on ``shards`` (not acquired yet)."""

    @abc.abstractmethod
    async def close(self) -> None: ...
