"""The game service: challenges, lobbies, moves, resignations, undo, records, the outbox.

Plain async Python over the repository interface (``bot.store``) and the engine API
(``engines``): no discord.py, no SQL, and no per-game code (a new engine plugs in as is).

How a change is written (DESIGN.md §6):

* **Moves, resignations, undo** are optimistic: the game row is read (committed data, no lock),
  the engine works outside the write lock, then one short transaction writes the new snapshot
  with ``version = version + 1`` only if the version is still the one read, together with the
  move row and the outbox rows. Losing that race raises ``BoardChanged`` and writes nothing.
* **Challenges and lobbies** are rare: their checks run inside the transaction on fresh rows.
* Every check that can fail runs before the first write, or inside the transaction (which then
  rolls back): a ``ServiceError`` never leaves a change behind.

Rulings (not in RULES.md):

* Seats follow the joining order: the host is seat 0 (moves first in every game), then the
  accepting or joining players in the order they joined.
* Resigning ends the game at once, in any turn. Winners: every seat that is not on the
  resigning player's side. A side is the seat alone, except in team games: a game may declare
  ``teams(players) -> tuple[tuple[int, ...], ...]``; LPPG with 4 players falls back to the teams
  of RULES.md §5 (seats 0+2 against 1+3). So with 3–5 players in Kolory, all the others share
  the win. ``scores`` are 1 for a winner and 0 otherwise; the reason names the resigning seat.
  The resignation is stored with the game (``forced_outcome``) so replay rebuilds it.
* Undo: a player may ask to take back the last move only if it is their own (one ply, even
  inside a multi-move turn). Every other seated player must agree (any refusal cancels the
  request); a move, a resignation or another undo drops a pending request. The move leaves
  the ``moves`` table for ``undone_moves`` and the state is rebuilt by replay. Allowed in every
  game, since every opponent consents; not once the game is over (a finished game stays
  finished, whether it ended by a move or a resignation).
* Engine work (load, parse, play, dump, view) runs on the event loop: ``bench.store`` measures
  it per move at a p99 of 0.1–0.5 ms for the engines so far (a few ms at worst on a busy
  machine), below a move's database cost, so a thread or process hop would not pay for itself.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import engines
from bot.correspondence.timecontrol import TimeControl
from bot.services import clockstate
from bot.services.errors import (
    BoardChanged,
    ChallengeError,
    GameOver,
    IllegalMoveError,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    UndoError,
)
from bot.services.models import (
    Challenge,
    GameInfo,
    GameRecord,
    MoveResult,
    OutboxItem,
    RecordedMove,
    utcnow,
)
from bot.store import ChallengeRow, GameRow, GameUpdate, NewGame, Reads, Store, Writes
from bot.store.clocks import clock_reads, clock_writes
from engines import Game, IllegalMove, Outcome, Phrase
from engines.core import dump_outcome, load_outcome

ACTIVE = "active"
FINISHED = "finished"

#: Teams for games whose engine does not declare ``teams(players)`` (RULES.md §5: LPPG with 4
#: players is seats 0+2 against 1+3).
FALLBACK_TEAMS: dict[str, dict[int, tuple[tuple[int, ...], ...]]] = {
    "lppg": {4: ((0, 2), (1, 3))},
}

#: How often a resignation is retried when a move lands between its read and its write.
_RESIGN_ATTEMPTS = 5
_RECORD_ATTEMPTS = 5
#: Delivered outbox rows deleted per transaction (short transactions keep the write lock free).
OUTBOX_PRUNE_BATCH = 500


def secret_seed() -> int:
    """A fresh game seed from the OS's secure generator (fits a signed 64-bit column)."""
    return secrets.randbits(63)


def teams_of(game: Game, players: int) -> tuple[tuple[int, ...], ...]:
    """The sides of a game: each seat alone unless the game (or the fallback) has teams."""
    declared = getattr(game, "teams", None)
    if callable(declared):
        teams = declared(players)
        if teams:
            return tuple(tuple(team) for team in teams)
    fallback = FALLBACK_TEAMS.get(game.name, {}).get(players)
    if fallback:
        return fallback
    return tuple((seat,) for seat in range(players))


def resignation_outcome(game: Game, state: Any, seat: int) -> Outcome:
    """The outcome when ``seat`` resigns (see the module docstring for the ruling)."""
    return clockstate.side_loses(
        state, seat, teams_of(game, state.players),
        Phrase("outcome.resigned", seat=game.seat_phrase(state, seat)),
    )


def apply_forced_outcome(state: Any, forced: Mapping[str, Any] | None) -> Any:
    """The state with a stored resignation applied (nothing to do for a played-out game)."""
    if not forced:
        return state
    return dataclasses.replace(state, to_move=None, outcome=load_outcome(forced["outcome"]))


def forced_end(
    game: Game, row: GameRow, state: Any, forced: dict[str, Any], now: datetime
) -> tuple[Any, GameUpdate]:
    """The finished state and the row update of a game ended without a move (a resignation,
    a loss on time): the ply and the last move stay, nobody is to move."""
    after = apply_forced_outcome(state, forced)
    update = GameUpdate(
        snapshot=game.dump(after),
        ply=row.ply,
        to_move=None,
        status=FINISHED,
        last_move=row.last_move,
        forced_outcome=forced,
        updated_at=now,
    )
    return after, update


async def write_forced_end(
    tx: Writes, row: GameRow, kind: str, payload: dict[str, Any], now: datetime
) -> None:
    """In the transaction that wrote ``forced_end``'s update: the ``kind`` outbox row, then
    ``game_over``, and the clock stopped."""
    await tx.insert_outbox(row.id, kind, payload, now)
    await tx.insert_outbox(row.id, "game_over", {"game_id": row.id}, now)
    await clockstate.turn_changed(tx, row.id, row.seats, row.ply, None, now)


def rebuild(
    game_name: str,
    players: int,
    seed: int,
    options: Mapping[str, Any],
    moves: Sequence[str],
    forced_outcome: Mapping[str, Any] | None = None,
) -> Any:
    """The state of a game rebuilt from its truth: (seed, options, moves) plus a resignation."""
    game = engines.get(game_name)
    state = game.replay(players, seed, options, moves)[-1]
    return apply_forced_outcome(state, forced_outcome)


def _normal_json(value: Any) -> Any:
    """A value as it comes back from the database (tuples become lists, and so on)."""
    return json.loads(json.dumps(value))


class GameService:
    """Everything the bot does with games, as plain async calls (see ``bot.services``)."""

    #: (Added.) Called after each committed change that may move a deadline (a game created, a
    #: move, a resignation, an undo): the bot points it at the correspondence scheduler's poke.
    on_change: Callable[[], None] | None = None

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], datetime] = utcnow,
        seeds: Callable[[], int] = secret_seed,
    ) -> None:
        self._store = store
        self._clock = clock
        self._seeds = seeds

    @property
    def store(self) -> Store:
        """(Added.) The store, for services built on the same database (tournaments)."""
        return self._store

    # ----- helpers --------------------------------------------------------------------------

    @staticmethod
    def _engine(name: str) -> Game:
        return engines.get(name)

    async def _game_row(self, game_id: int, reads: Reads | None = None) -> GameRow:
        row = await (reads or self._store).get_game(game_id)
        if row is None:
            raise NotFound("errors.not_found", game_id=game_id)
        return row

    async def _challenge_row(self, tx: Writes, challenge_id: int) -> ChallengeRow:
        row = await tx.get_challenge(challenge_id)
        if row is None:
            raise NotFound("errors.challenge_not_found", challenge_id=challenge_id)
        return row

    @staticmethod
    def _seat_of(row: GameRow, user_id: int) -> int:
        try:
            return row.seats.index(user_id)
        except ValueError:
            raise NotAPlayer("errors.not_a_player", game_id=row.id) from None

    @staticmethod
    def _info(row: GameRow, game: Game, state: Any) -> GameInfo:
        """The public description of a game (``state`` is the full state of ``row``)."""
        forced = row.forced_outcome
        return GameInfo(
            id=row.id,
            game=row.game,
            options=row.options,
            seats=row.seats,
            status=row.status,
            to_move=state.to_move,
            ply=row.ply,
            version=row.version,
            state=game.view(state, None),
            outcome=state.outcome,
            last_move=row.last_move,
            thread_id=row.thread_id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            created_at=row.created_at,
            updated_at=row.updated_at,
            undo_requested_by=None if row.undo_seat is None else row.seats[row.undo_seat],
            undo_accepted_by=tuple(row.seats[s] for s in row.undo_consents),
            resigned_seat=forced.get("seat") if forced and forced.get("kind") == "resign"
            else None,
            timed_out_seat=forced.get("seat") if forced and forced.get("kind") == "timeout"
            else None,
        )

    @staticmethod
    def _written(row: GameRow, update: GameUpdate) -> GameRow:
        """The row as ``update_game`` left it (saves reading it back)."""
        return dataclasses.replace(
            row,
            snapshot=update.snapshot,
            ply=update.ply,
            to_move=update.to_move,
            status=update.status,
            last_move=update.last_move,
            forced_outcome=update.forced_outcome,
            updated_at=update.updated_at,
            version=row.version + 1,
            undo_seat=None,
            undo_consents=(),
        )

    def _row_info(self, row: GameRow) -> GameInfo:
        game = self._engine(row.game)
        return self._info(row, game, game.load(row.snapshot))

    @staticmethod
    def _challenge(row: ChallengeRow) -> Challenge:
        return Challenge(
            id=row.id,
            game=row.game,
            options=row.options,
            host_id=row.host_id,
            opponent_id=row.opponent_id,
            players=row.players,
            joined=row.joined,
            status=row.status,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            created_at=row.created_at,
            game_id=row.game_id,
        )

    @staticmethod
    def _resolve_options(game: Game, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Options checked one by one so each refusal names the option (translatable)."""
        options = dict(options or {})
        known = {option.name: option for option in game.options}
        for name in options:
            if name not in known:
                raise ChallengeError(
                    "errors.unknown_option",
                    option=name,
                    game=game.title,
                    known=", ".join(known) or "-",
                )
        resolved = {}
        for name, option in known.items():
            try:
                resolved[name] = option.validate(options.get(name, option.default))
            except ValueError as error:
                raise ChallengeError("errors.bad_option", option=name, reason=str(error)) from None
        return _normal_json(resolved)

    # ----- challenges and lobbies -----------------------------------------------------------

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
    ) -> Challenge:
        """A challenge to ``opponent_id`` (2 players), an open challenge (no opponent) or a
        lobby (more than 2 players; filled with ``join`` and started by the host).
        ``time_control``: ``untimed`` (the default), ``3d`` or ``3d+1d``."""
        name, resolved = self.resolve_setup(game, players, options)
        if opponent_id is not None:
            if opponent_id == host_id:
                raise ChallengeError("errors.challenge_self")
            if players != 2:
                raise ChallengeError("errors.invite_needs_two")
        control = self._time_control(time_control)
        now = self._clock()
        async with self._store.transaction() as tx:
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
            )
            if time_control is not None:
                await clock_writes(tx).set_challenge_time_control(challenge_id, str(control))
            row = await self._challenge_row(tx, challenge_id)
        return self._challenge(row)

    @staticmethod
    def _time_control(text: str | None) -> TimeControl:
        try:
            return clockstate.parse_time_control(text)
        except ValueError as error:
            raise ChallengeError("errors.bad_time_control", reason=str(error)) from None

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """(Added.) A challenge by id."""
        row = await self._store.get_challenge(challenge_id)
        if row is None:
            raise NotFound("errors.challenge_not_found", challenge_id=challenge_id)
        return self._challenge(row)

    async def challenge_time_control(self, challenge_id: int) -> str | None:
        """(Added.) The time control chosen for a challenge (None when none was given)."""
        return await clock_reads(self._store).challenge_time_control(challenge_id)

    async def open_challenges(
        self, guild_id: int | None = None, *, limit: int = 25
    ) -> list[Challenge]:
        """(Added.) Challenges and lobbies still open, oldest first."""
        return [self._challenge(r) for r in await self._store.open_challenges(guild_id, limit)]

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self._store.transaction() as tx:
            if not await tx.set_challenge_message(challenge_id, message_id):
                raise NotFound("errors.challenge_not_found", challenge_id=challenge_id)

    @staticmethod
    def _check_open(row: ChallengeRow) -> None:
        if row.status != "open":
            raise ChallengeError(
                "errors.challenge_closed", challenge_id=row.id, status=row.status
            )

    @staticmethod
    async def _add_player(
        tx: Writes, row: ChallengeRow, user_id: int, now: datetime
    ) -> tuple[int, ...]:
        """Put the user at the end of the joining order (unless it is full); returns it."""
        if len(row.joined) >= row.players:
            raise ChallengeError("errors.lobby_full", players=row.players)
        await tx.ensure_user(user_id, now)
        await tx.add_challenge_player(row.id, user_id, now)
        return (*row.joined, user_id)

    async def accept(self, challenge_id: int, user_id: int) -> GameInfo:
        """Accept a two-player challenge (yours, or an open one): the game starts."""
        now = self._clock()
        async with self._store.transaction() as tx:
            row = await self._challenge_row(tx, challenge_id)
            self._check_open(row)
            if row.players != 2:
                raise ChallengeError("errors.challenge_is_lobby", challenge_id=row.id)
            if user_id == row.host_id:
                raise ChallengeError("errors.challenge_own")
            if row.opponent_id is not None and user_id != row.opponent_id:
                raise ChallengeError("errors.challenge_not_for_you")
            seats = row.joined
            if user_id not in seats:
                seats = await self._add_player(tx, row, user_id, now)
            info = await self._create_game(tx, row, seats, "accepted", now)
        self.notify_change()
        return info

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player says no (open challenges and lobbies cannot be declined)."""
        now = self._clock()
        async with self._store.transaction() as tx:
            row = await self._challenge_row(tx, challenge_id)
            self._check_open(row)
            if row.opponent_id is None:
                raise ChallengeError("errors.decline_open")
            if user_id != row.opponent_id:
                raise ChallengeError("errors.challenge_not_for_you")
            await tx.set_challenge_status(row.id, "declined", now)
            row = await self._challenge_row(tx, challenge_id)
        return self._challenge(row)

    async def cancel(self, challenge_id: int, user_id: int) -> Challenge:
        """The host withdraws a challenge or closes a lobby."""
        now = self._clock()
        async with self._store.transaction() as tx:
            row = await self._challenge_row(tx, challenge_id)
            if user_id != row.host_id:
                raise ChallengeError("errors.not_the_host")
            self._check_open(row)
            await tx.set_challenge_status(row.id, "cancelled", now)
            row = await self._challenge_row(tx, challenge_id)
        return self._challenge(row)

    async def join(self, challenge_id: int, user_id: int) -> Challenge:
        """Take a place in a lobby (or an open challenge); the host then starts the game."""
        now = self._clock()
        async with self._store.transaction() as tx:
            row = await self._challenge_row(tx, challenge_id)
            self._check_open(row)
            if user_id in row.joined:
                raise ChallengeError("errors.already_joined")
            if row.opponent_id is not None and user_id != row.opponent_id:
                raise ChallengeError("errors.challenge_not_for_you")
            await self._add_player(tx, row, user_id, now)
            row = await self._challenge_row(tx, challenge_id)
        return self._challenge(row)

    async def leave(self, challenge_id: int, user_id: int) -> Challenge:
        """Leave a lobby before it starts (the host cancels instead)."""
        async with self._store.transaction() as tx:
            row = await self._challenge_row(tx, challenge_id)
            self._check_open(row)
            if user_id == row.host_id:
                raise ChallengeError("errors.host_cannot_leave")
            if user_id not in row.joined:
                raise ChallengeError("errors.not_joined")
            await tx.remove_challenge_player(row.id, user_id)
            row = await self._challenge_row(tx, challenge_id)
        return self._challenge(row)

    async def start(self, challenge_id: int, user_id: int) -> GameInfo:
        """The host starts a full lobby; seats follow the joining order."""
        now = self._clock()
        async with self._store.transaction() as tx:
            row = await self._challenge_row(tx, challenge_id)
            if user_id != row.host_id:
                raise ChallengeError("errors.not_the_host")
            self._check_open(row)
            if len(row.joined) != row.players:
                raise ChallengeError(
                    "errors.lobby_not_full", joined=len(row.joined), players=row.players
                )
            info = await self._create_game(tx, row, row.joined, "started", now)
        self.notify_change()
        return info

    async def _create_game(
        self, tx: Writes, row: ChallengeRow, seats: tuple[int, ...], status: str, now: datetime
    ) -> GameInfo:
        control = TimeControl.parse(
            await clock_writes(tx).challenge_time_control(row.id) or "untimed"
        )
        info = await self._insert_game(
            tx, self._engine(row.game), row.options, tuple(seats), control, now,
            challenge_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id,
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
    ) -> GameInfo:
        """The game row, its seats, its clock and the ``game_started`` outbox row."""
        seed = self._seeds()
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
            )
        )
        await clockstate.start_clock(tx, game_id, seats, state.to_move, control, now)
        payload: dict[str, Any] = {"game_id": game_id}
        if source is not None:
            payload["source"] = source
        await tx.insert_outbox(game_id, "game_started", payload, now)
        return self._info(await self._game_row(game_id, tx), game, state)

    # ----- games created directly (tournaments) -------------------------------------------

    def resolve_setup(
        self, game: str, players: int, options: Mapping[str, Any] | None
    ) -> tuple[str, dict[str, Any]]:
        """(Added.) Check a game name, player count and options as ``challenge`` does;
        returns (engine name, resolved options) or raises ``ChallengeError``."""
        try:
            engine = self._engine(game)
        except KeyError:
            raise ChallengeError(
                "errors.unknown_game", game=game, games=", ".join(sorted(engines.GAMES))
            ) from None
        allowed = engine.allowed_player_counts()
        if players not in allowed:
            raise ChallengeError(
                "errors.bad_player_count",
                game=engine.title,
                players=players,
                allowed=", ".join(str(n) for n in allowed),
            )
        resolved = self._resolve_options(engine, options)
        try:  # options valid one by one may still clash together: let the engine say so now
            engine.new(players, seed=0, options=resolved)
        except ValueError as error:
            raise ChallengeError("errors.bad_options", reason=str(error)) from None
        return engine.name, resolved

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
    ) -> GameInfo:
        """(Added, TOURNAMENT_CLOCK_CONTRACT.md.) Start a game between ``seats`` (user ids in
        seat order) without a challenge, in its own transaction, with its clock."""
        async with self._store.transaction() as tx:
            info = await self.create_game_in(
                tx, game, seats, options, time_control=time_control, guild_id=guild_id,
                channel_id=channel_id, source=source,
            )
        self.notify_change()
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
    ) -> GameInfo:
        """(Added.) ``create_game`` inside the caller's transaction, so a tournament records
        its pairing and the game together. ``source`` (e.g. "tournament:3") is copied into
        the ``game_started`` payload. ``time_control`` is the contract's text notation
        (``ChallengeError`` ``errors.bad_time_control`` if it is not one); the clock starts
        in ``tx``. After the caller's commit, call ``notify_change()`` so the correspondence
        scheduler sees the new deadline."""
        name, resolved = self.resolve_setup(game, len(seats), options)
        seats = tuple(seats)
        control = self._time_control(time_control)
        now = self._clock()
        for user_id in seats:
            await tx.ensure_user(user_id, now)
        return await self._insert_game(
            tx, self._engine(name), resolved, seats, control, now,
            challenge_id=None, guild_id=guild_id, channel_id=channel_id, source=source,
        )

    # ----- games ----------------------------------------------------------------------------

    def notify_change(self) -> None:
        """(Added.) Tell ``on_change`` that deadlines may have moved (done by every method
        here; callers of ``create_game_in`` call it after their own commit)."""
        if self.on_change is not None:
            self.on_change()

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        async with self._store.transaction() as tx:
            if not await tx.set_thread(game_id, thread_id):
                raise NotFound("errors.not_found", game_id=game_id)

    async def get_game(self, game_id: int) -> GameInfo:
        return self._row_info(await self._game_row(game_id))

    async def game_seen_from(
        self, game_id: int, *, guild_id: int | None, user_id: int
    ) -> GameInfo:
        """(Added.) The game a command names by number, if it may be seen where the command
        was typed: in a server (or one of its threads), only that server's games; in a direct
        message (``guild_id`` None), only the user's own games, which the answer shows to them
        alone. Anything else is refused exactly like a number that does not exist, so a server
        learns nothing about another server's games."""
        row = await self._store.get_game(game_id)
        if guild_id is None:
            if row is None or user_id not in row.seats:
                raise NotFound("errors.game_not_yours", game_id=game_id)
        elif row is None or row.guild_id != guild_id:
            raise NotFound("errors.game_not_here", game_id=game_id)
        return self._row_info(row)

    async def game_for_thread(self, thread_id: int) -> GameInfo | None:
        row = await self._store.game_for_thread(thread_id)
        return None if row is None else self._row_info(row)

    async def games_of(
        self, user_id: int, *, active_only: bool = True, limit: int = 100
    ) -> list[GameInfo]:
        """The user's games, most recently active first (``user_to_move()`` says whose turn)."""
        rows = await self._store.games_of(user_id, active_only=active_only, limit=limit)
        return [self._row_info(row) for row in rows]

    async def legal_moves(self, game_id: int, user_id: int) -> list[str]:
        """The user's legal moves in canonical text; [] if it is not their turn (or they are
        not playing, or the game is over)."""
        row = await self._game_row(game_id)
        if row.status != ACTIVE or user_id not in row.seats:
            return []
        game = self._engine(row.game)
        state = game.load(row.snapshot)
        if state.to_move is None or row.seats[state.to_move] != user_id:
            return []
        return [str(move) for move in game.legal_moves(state)]

    async def move(
        self, game_id: int, user_id: int, text: str, *, expected_version: int | None = None
    ) -> MoveResult:
        """Play ``text`` for the user. ``expected_version`` (the version of the board the user
        saw) makes an outdated click fail with ``BoardChanged`` instead of playing."""
        row = await self._game_row(game_id)
        seat = self._seat_of(row, user_id)
        if row.status != ACTIVE:
            raise GameOver("errors.game_over", game_id=game_id)
        if expected_version is not None and expected_version != row.version:
            raise BoardChanged("errors.board_changed", game_id=game_id)
        game = self._engine(row.game)
        state = game.load(row.snapshot)
        if state.to_move != seat:
            raise NotYourTurn(
                "errors.not_your_turn",
                game_id=game_id,
                to_move=None if state.to_move is None else row.seats[state.to_move],
            )
        try:
            move = game.parse_move(text, state)
            after = game.play(state, move)
        except IllegalMove as error:
            raise IllegalMoveError("errors.illegal_move", reason=error.reason) from None
        canonical = str(move)
        description = game.describe(state, move)
        finished = after.outcome is not None
        now = self._clock()
        ply = row.ply + 1
        clock = await clockstate.prepare_turn(self._store, game_id, row.seats, ply,
                                              after.to_move, now)
        status = FINISHED if finished else ACTIVE
        update = GameUpdate(
            snapshot=game.dump(after),
            ply=ply,
            to_move=after.to_move,
            status=status,
            last_move=canonical,
            forced_outcome=None,
            updated_at=now,
        )
        async with self._store.transaction() as tx:
            if not await tx.update_game(game_id, row.version, update):
                fresh = await self._game_row(game_id, tx)
                if fresh.status != ACTIVE:  # a resignation or a claim got there first
                    raise GameOver("errors.game_over", game_id=game_id)
                raise BoardChanged("errors.board_changed", game_id=game_id)
            await tx.insert_move(game_id, ply, seat, canonical, now)
            await tx.insert_outbox(
                game_id,
                "move",
                {
                    "game_id": game_id,
                    "ply": ply,
                    "move": canonical,
                    "description": description,
                    "seat": seat,
                    "user_id": user_id,
                },
                now,
            )
            if finished:
                await tx.insert_outbox(game_id, "game_over", {"game_id": game_id}, now)
            await clockstate.commit_turn(tx, clock, row.seats, ply, after.to_move, now)
        self.notify_change()
        info = self._info(self._written(row, update), game, after)
        return MoveResult(game=info, move=canonical, description=description, seat=seat)

    async def resign(self, game_id: int, user_id: int) -> GameInfo:
        """The user resigns (in or out of turn): the game ends (ruling in the module doc).
        A move landing meanwhile is not a reason to fail: the resignation is retried."""
        for _ in range(_RESIGN_ATTEMPTS):
            row = await self._game_row(game_id)
            seat = self._seat_of(row, user_id)
            if row.status != ACTIVE:
                raise GameOver("errors.game_over", game_id=game_id)
            game = self._engine(row.game)
            state = game.load(row.snapshot)
            outcome = resignation_outcome(game, state, seat)
            forced = {"kind": "resign", "seat": seat, "outcome": dump_outcome(outcome)}
            now = self._clock()
            after, update = forced_end(game, row, state, forced, now)
            async with self._store.transaction() as tx:
                if not await tx.update_game(game_id, row.version, update):
                    continue
                await write_forced_end(
                    tx, row, "resigned", {"game_id": game_id, "seat": seat, "user_id": user_id},
                    now,
                )
            self.notify_change()
            return self._info(self._written(row, update), game, after)
        raise BoardChanged("errors.board_changed", game_id=game_id)

    # ----- undo -----------------------------------------------------------------------------

    async def request_undo(self, game_id: int, user_id: int) -> GameInfo:
        """Ask to take back your last move; every other player must agree (``answer_undo``)."""
        now = self._clock()
        async with self._store.transaction() as tx:
            row = await self._game_row(game_id, tx)
            seat = self._seat_of(row, user_id)
            if row.status != ACTIVE:
                raise GameOver("errors.game_over", game_id=game_id)
            last = await tx.last_move(game_id)
            if last is None:
                raise UndoError("errors.undo_nothing")
            if last.seat != seat:
                raise UndoError("errors.undo_not_your_move")
            if row.undo_seat is not None:
                raise UndoError("errors.undo_pending")
            await tx.set_undo_request(game_id, row.version, seat, (), now)
            await tx.insert_outbox(
                game_id, "undo_requested",
                {"game_id": game_id, "by": user_id, "seat": seat, "ply": last.ply}, now,
            )
            row = await self._game_row(game_id, tx)
        return self._row_info(row)

    async def answer_undo(self, game_id: int, user_id: int, accept: bool) -> GameInfo:
        """Agree to (or refuse) the pending undo. When the last player agrees the move is
        taken back; a refusal cancels the request."""
        row = await self._game_row(game_id)
        seat = self._seat_of(row, user_id)
        self._check_undo_answer(row, seat)
        needed = frozenset(range(len(row.seats))) - {row.undo_seat}
        rebuilt = None
        if accept and needed <= {*row.undo_consents, seat}:
            rebuilt = await self._rebuilt_without_last(row)  # engine work outside the lock
        now = self._clock()
        async with self._store.transaction() as tx:
            fresh = await self._game_row(game_id, tx)
            if fresh.version != row.version:
                raise BoardChanged("errors.board_changed", game_id=game_id)
            self._check_undo_answer(fresh, seat)
            if not accept:
                await tx.set_undo_request(game_id, fresh.version, None, (), now)
                await tx.insert_outbox(
                    game_id, "undo_declined", {"game_id": game_id, "by": user_id}, now
                )
                return self._row_info(await self._game_row(game_id, tx))
            consents = {*fresh.undo_consents, seat}
            if not needed <= consents:
                await tx.set_undo_request(game_id, fresh.version, fresh.undo_seat, consents, now)
                return self._row_info(await self._game_row(game_id, tx))
            if rebuilt is None:  # another answer landed since our read: replay now
                rebuilt = await self._rebuilt_without_last(fresh)
            state, last_text = rebuilt
            game = self._engine(fresh.game)
            update = GameUpdate(
                snapshot=game.dump(state),
                ply=fresh.ply - 1,
                to_move=state.to_move,
                status=ACTIVE,
                last_move=last_text,
                forced_outcome=None,
                updated_at=now,
            )
            if not await tx.update_game(game_id, fresh.version, update):
                raise BoardChanged("errors.board_changed", game_id=game_id)
            if not await tx.remove_last_move(game_id, fresh.ply, now):
                raise BoardChanged("errors.board_changed", game_id=game_id)
            await tx.insert_outbox(
                game_id, "undo_done",
                {"game_id": game_id, "ply": fresh.ply, "seat": fresh.undo_seat}, now,
            )
            await clockstate.turn_changed(
                tx, game_id, fresh.seats, fresh.ply - 1, state.to_move, now, undone=True
            )
            info = self._row_info(await self._game_row(game_id, tx))
        self.notify_change()
        return info

    @staticmethod
    def _check_undo_answer(row: GameRow, seat: int) -> None:
        if row.status != ACTIVE:
            raise GameOver("errors.game_over", game_id=row.id)
        if row.undo_seat is None:
            raise UndoError("errors.undo_none_pending")
        if row.undo_seat == seat:
            raise UndoError("errors.undo_own_request")
        if seat in row.undo_consents:
            raise UndoError("errors.undo_already_answered")

    async def _rebuilt_without_last(self, row: GameRow) -> tuple[Any, str | None]:
        """The state before the last move, by replay, and the move before it."""
        moves = [m for m in await self._store.moves(row.id) if m.ply <= row.ply]
        if len(moves) != row.ply:  # the moves changed after the row was read
            raise BoardChanged("errors.board_changed", game_id=row.id)
        texts = [m.text for m in moves[:-1]]
        state = rebuild(row.game, len(row.seats), row.seed, row.options, texts)
        return state, (texts[-1] if texts else None)

    # ----- records and views ----------------------------------------------------------------

    async def record(self, game_id: int) -> GameRecord:
        """The game's header and moves with their times; the seed only once it is over."""
        for _ in range(_RECORD_ATTEMPTS):
            row = await self._game_row(game_id)
            # Read after the row: may hold later moves (dropped) or miss an undone one (retry).
            moves = [m for m in await self._store.moves(game_id) if m.ply <= row.ply]
            if len(moves) == row.ply and (not moves or moves[-1].text == row.last_move):
                break
        else:
            raise BoardChanged("errors.board_changed", game_id=game_id)
        info = self._row_info(row)
        return GameRecord(
            game=info,
            moves=tuple(RecordedMove(m.ply, m.seat, m.text, m.played_at) for m in moves),
            seed=row.seed if row.status == FINISHED else None,
        )

    async def player_view(self, game_id: int, user_id: int) -> object:
        """What the user's seat may see (their LPPG hand...); players only."""
        row = await self._game_row(game_id)
        seat = self._seat_of(row, user_id)
        game = self._engine(row.game)
        return game.view(game.load(row.snapshot), seat)

    async def replay_matches(self, game_id: int) -> bool:
        """(Added.) Does the stored snapshot equal the replay of (seed, options, moves)?"""
        record_moves = None
        for _ in range(_RECORD_ATTEMPTS):
            row = await self._game_row(game_id)
            moves = [m for m in await self._store.moves(game_id) if m.ply <= row.ply]
            if len(moves) == row.ply:
                record_moves = moves
                break
        if record_moves is None:
            raise BoardChanged("errors.board_changed", game_id=game_id)
        game = self._engine(row.game)
        state = rebuild(row.game, len(row.seats), row.seed, row.options,
                        [m.text for m in record_moves], row.forced_outcome)
        return _normal_json(game.dump(state)) == row.snapshot

    # ----- outbox ---------------------------------------------------------------------------

    async def pending_outbox(
        self, limit: int = 100, *, game_id: int | None = None
    ) -> list[OutboxItem]:
        """Undelivered messages, oldest first; ``game_id`` (added) keeps one game's only."""
        rows = await self._store.pending_outbox(limit, game_id)
        return [OutboxItem(r.id, r.game_id, r.kind, r.payload, r.created_at) for r in rows]

    async def mark_delivered(self, outbox_id: int) -> None:
        now = self._clock()
        async with self._store.transaction() as tx:
            if not await tx.mark_delivered(outbox_id, now):
                raise NotFound("errors.outbox_not_found", outbox_id=outbox_id)

    async def prune_outbox(self, history: timedelta, *, batch: int = OUTBOX_PRUNE_BATCH) -> int:
        """(Added.) Delete the outbox rows delivered more than ``history`` ago (rows still
        pending are kept however old), a batch per transaction; returns how many went. The
        outbox would otherwise keep every message ever posted."""
        cutoff = self._clock() - history
        removed = 0
        while True:
            async with self._store.transaction() as tx:
                count = await tx.prune_outbox(cutoff, batch)
            removed += count
            if count < batch:
                return removed

    # ----- settings (added) -----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> tuple[str | None, dict[str, Any]]:
        """(Added.) (locale, settings) of a guild; (None, {}) if it never saved any."""
        found = await self._store.guild_settings(guild_id)
        return found if found is not None else (None, {})

    async def set_guild_settings(
        self, guild_id: int, *, locale: str | None = None, settings: dict | None = None
    ) -> None:
        """(Added.) Replace a guild's locale and settings (a JSON-safe dict)."""
        async with self._store.transaction() as tx:
            await tx.set_guild_settings(guild_id, locale, _normal_json(settings or {}),
                                        self._clock())

    async def user_locale(self, user_id: int) -> str | None:
        """(Added.)"""
        return await self._store.user_locale(user_id)

    async def set_user_locale(self, user_id: int, locale: str | None) -> None:
        """(Added.)"""
        async with self._store.transaction() as tx:
            await tx.set_user_locale(user_id, locale, self._clock())
