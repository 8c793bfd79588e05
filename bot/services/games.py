"""Reading games, and the outbox.

``GameReads`` (``Services.games``): a game by number, by thread, a user's games, the games to
suggest as a command's argument, legal moves, records and positions, and the thread a game
posts in. ``OutboxService`` (``Services.outbox``): the messages changes wrote, for
``bot.discord.delivery``. Both read the store and call no other service; what changes a game is
elsewhere (``play``, ``draws``, ``admin``; ``challenges`` creates games).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot.core.errors import BoardChanged, GameOver, NotAPlayer, NotFound
from bot.core.events import OutboxItem
from bot.core.models import GameInfo, GameRecord, Position, RecordedMove
from bot.core.seats import has_ai
from bot.core.sharding import Shards
from bot.services.base import game_info, game_row, row_info, seat_of
from bot.services.context import ServiceContext
from bot.services.gamestate import ACTIVE, FINISHED, normal_json, rebuild

__all__ = ["ACTIVE", "FINISHED", "GameReads", "OutboxService", "SeenGame"]

_RECORD_ATTEMPTS = 5
#: Delivered outbox rows deleted per transaction (short transactions keep the write lock free).
OUTBOX_PRUNE_BATCH = 500


@dataclass(frozen=True)
class SeenGame:
    """A game as one user may see it, from one read of its row (``GameReads.seen_by``)."""

    #: The game, with its public view.
    game: GameInfo
    #: The user's seat, None for someone who does not play in it.
    seat: int | None
    #: What that seat (or a spectator) may see: ``engine.view(state, seat)``.
    view: Any
    #: The user's legal moves in canonical text; empty unless it is their turn.
    moves: tuple[str, ...]


class GameReads:
    """Games as they stand, their records and positions (see the module docstring)."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context
        self._store = context.store

    # ----- games ----------------------------------------------------------------------------

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        async with self._store.single_write() as tx:  # one statement
            if not await tx.set_thread(game_id, thread_id):
                raise NotFound("errors.not_found", game_id=game_id)

    async def get_game(self, game_id: int) -> GameInfo:
        row = await game_row(self._store, game_id)
        engine = self._ctx.engine(row.game)
        state = engine.load(row.snapshot)
        self._ctx.held.hold(row, state)  # for ``position(..., game=)``
        return game_info(row, engine, state)

    async def game_seen_from(
        self, game_id: int, *, guild_id: int | None, user_id: int
    ) -> GameInfo:
        """The game a command names by number, if it may be seen where the command
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
        return row_info(row)

    async def game_to_watch(
        self, game_id: int, *, guild_id: int | None, user_id: int
    ) -> GameInfo:
        """The game a user asks to follow as a spectator (``game_seen_from``'s rules), if
        there is something to watch: not a game they play in (they follow it already), not a
        finished one (nothing will happen in it any more)."""
        info = await self.game_seen_from(game_id, guild_id=guild_id, user_id=user_id)
        if user_id in info.seats:
            raise NotAPlayer("errors.watch_own_game", game_id=game_id)
        if info.status != ACTIVE:
            raise GameOver("errors.watch_finished", game_id=game_id)
        return info

    async def game_for_thread(self, thread_id: int) -> GameInfo | None:
        row = await self._store.game_for_thread(thread_id)
        return None if row is None else row_info(row)

    async def games_of(
        self, user_id: int, *, active_only: bool = True, limit: int = 100
    ) -> list[GameInfo]:
        """The user's games, most recently active first (``user_to_move()`` says whose turn)."""
        rows = await self._store.games_of(user_id, active_only=active_only, limit=limit)
        return [row_info(row) for row in rows]

    async def games_to_suggest(
        self, *, guild_id: int | None, user_id: int, purpose: str, limit: int = 25
    ) -> list[GameInfo]:
        """The games worth suggesting as a user types a game number, most relevant first,
        under ``game_seen_from``'s rules (never another server's game; in a direct message,
        only the user's own). ``purpose``: ``"any"`` (``/board``, ``/record``, ``/replay``:
        the user's games on this server, then the server's others), ``"play"`` (``/claim``:
        the user's running games here), ``"hint"`` (``/hint``: those of them with an AI
        seat, the only games a hint is given in), ``"watch"`` (running games here the user
        does not play in), ``"abort"`` (``/admin abort``: this server's running games, the
        user's first)."""
        if purpose not in ("any", "play", "hint", "watch", "abort"):
            raise ValueError(f"unknown purpose {purpose!r}")
        running = purpose != "any"
        found: list[GameInfo] = []
        if purpose == "abort" and guild_id is None:
            return []
        if purpose != "watch":
            mine = await self.games_of(user_id, active_only=running, limit=100)
            found += [g for g in mine if (guild_id is None or g.guild_id == guild_id)
                      and (purpose != "hint" or has_ai(g.seats))]
        if guild_id is not None and purpose not in ("play", "hint"):
            rows = await self._store.guild_games(guild_id, active_only=running, limit=100)
            found += [row_info(row) for row in rows if user_id not in row.seats]
        return found[:limit]

    async def legal_moves(self, game_id: int, user_id: int) -> list[str]:
        """The user's legal moves in canonical text; [] if it is not their turn (or they are
        not playing, or the game is over)."""
        row = await game_row(self._store, game_id)
        if row.status != ACTIVE or user_id not in row.seats:
            return []
        game = self._ctx.engine(row.game)
        state = game.load(row.snapshot)
        if state.to_move is None or row.seats[state.to_move] != user_id:
            return []
        return [str(move) for move in game.legal_moves(state)]

    async def seen_by(self, game_id: int, user_id: int) -> SeenGame:
        """The game as ``user_id`` may see it, and their legal moves, all from one read (so a
        picture of the view and the moves offered on it always agree)."""
        row = await game_row(self._store, game_id)
        game = self._ctx.engine(row.game)
        state = game.load(row.snapshot)
        seat = row.seats.index(user_id) if user_id in row.seats else None
        to_play = (row.status == ACTIVE and seat is not None and state.to_move is not None
                   and row.seats[state.to_move] == user_id)
        # A player seated twice (a test against oneself) sees from the seat to move.
        if to_play:
            seat = state.to_move
        moves = tuple(str(move) for move in game.legal_moves(state)) if to_play else ()
        return SeenGame(game_info(row, game, state), seat, game.view(state, seat), moves)

    # ----- records and views ----------------------------------------------------------------

    async def record(self, game_id: int) -> GameRecord:
        """The game's header and moves with their times; the seed only once it is over."""
        for _ in range(_RECORD_ATTEMPTS):
            row = await game_row(self._store, game_id)
            # Read after the row: may hold later moves (dropped) or miss an undone one (retry).
            moves = [m for m in await self._store.moves(game_id) if m.ply <= row.ply]
            if len(moves) == row.ply and (not moves or moves[-1].text == row.last_move):
                break
        else:
            raise BoardChanged("errors.board_changed", game_id=game_id)
        info = row_info(row)
        return GameRecord(
            game=info,
            moves=tuple(RecordedMove(m.ply, m.seat, m.text, m.played_at) for m in moves),
            seed=row.seed if row.status == FINISHED else None,
        )

    async def player_view(self, game_id: int, user_id: int) -> object:
        """What the user's seat may see (their LPPG hand...); players only."""
        row = await game_row(self._store, game_id)
        seat = seat_of(row, user_id)
        game = self._ctx.engine(row.game)
        return game.view(game.load(row.snapshot), seat)

    async def position(
        self, game_id: int, *, ply: int, version: int | None, last_move: str | None,
        game: GameInfo | None = None,
    ) -> Position:
        """The game right after the change that wrote an outbox row: at ``ply``, at
        ``version``, ``last_move`` the move shown as last (a ``move`` row's own move). While
        the game is still at ``version`` this is its stored state; otherwise it is replayed
        from (seed, options, moves) on the server, with ``last_move`` as move ``ply`` (it may
        have been taken back since). Only public views leave; ``private_moves`` compares the
        public view with the mover's own. A row written before rows knew their version
        (``version`` None) is shown at the game's current position.

        ``game``: the game as ``get_game`` has just read it. While it is at ``version``, the
        position is the state that read found, and the row is not read again."""
        if game is not None and game.id == game_id and version == game.version:
            held = self._ctx.held.get(game_id)
            if held is not None and held[0] == version:
                _, held_ply, held_last, state = held
                return self._position_of(game.game, state, game_id=game_id, ply=held_ply,
                                         version=version, last_move=held_last, current=True)
        row = await game_row(self._store, game_id)
        engine = self._ctx.engine(row.game)
        current = version is None or version == row.version
        if current:
            state = engine.load(row.snapshot)
            ply, last_move = row.ply, row.last_move
        else:
            moves = [m.text for m in await self._store.moves(game_id) if m.ply <= ply]
            if last_move is not None and ply > 0:
                moves = [*moves[: ply - 1], last_move]
            if len(moves) == ply:
                state = rebuild(row.game, len(row.seats), row.seed, row.options, moves)
            else:  # history rewritten below that ply since: the newest position it is
                state, ply, last_move = engine.load(row.snapshot), row.ply, row.last_move
        return self._position_of(row.game, state, game_id=game_id, ply=ply,
                                 version=row.version if version is None else version,
                                 last_move=last_move, current=current)

    def _position_of(self, game_name: str, state: Any, *, game_id: int, ply: int,
                     version: int, last_move: str | None, current: bool) -> Position:
        """A position as it may leave the service: the public view of ``state``, and whether
        the moves of the player to move depend on what only they see."""
        game = self._ctx.engine(game_name)
        public = game.view(state, None)
        mover = state.to_move
        private = False
        if mover is not None and public != game.view(state, mover):
            # The mover sees more than the public: their moves may be shown publicly only if
            # they are the public view's (LPPG's second draw: pile a or b, whatever the first
            # card drawn) and leave a choice: a single forced move (LPPG's pass, where the
            # public view cannot place cards it does not see) would tell that the mover's
            # cards fit nowhere.
            mine = [str(m) for m in game.legal_moves(game.view(state, mover))]
            private = len(mine) < 2 or mine != [str(m) for m in game.legal_moves(public)]
        return Position(
            game_id=game_id, ply=ply, version=version, state=public, to_move=mover,
            last_move=last_move, private_moves=private, current=current,
        )

    async def replay_matches(self, game_id: int) -> bool:
        """Does the stored snapshot equal the replay of (seed, options, moves)?"""
        record_moves = None
        for _ in range(_RECORD_ATTEMPTS):
            row = await game_row(self._store, game_id)
            moves = [m for m in await self._store.moves(game_id) if m.ply <= row.ply]
            if len(moves) == row.ply:
                record_moves = moves
                break
        if record_moves is None:
            raise BoardChanged("errors.board_changed", game_id=game_id)
        game = self._ctx.engine(row.game)
        state = rebuild(row.game, len(row.seats), row.seed, row.options,
                        [m.text for m in record_moves], row.forced_outcome)
        return normal_json(game.dump(state)) == row.snapshot


class OutboxService:
    """The outbox: what is waiting to be delivered, marking it delivered, and pruning what
    was delivered long ago (see ``bot.services`` for its kinds and payloads)."""

    def __init__(self, context: ServiceContext) -> None:
        self._store = context.store
        self._clock = context.now

    async def pending_outbox(
        self, limit: int = 100, *, game_id: int | None = None, shards: Shards | None = None
    ) -> list[OutboxItem]:
        """Undelivered messages, oldest first; ``game_id`` keeps one game's only, ``shards``
        those of its servers only. ``OutboxItem.reply_token``: the token of the interaction
        that answers with the row (the ``reply_token`` given to the call that wrote it), until
        the row is delivered or the interaction has answered."""
        rows = await self._store.pending_outbox(limit, game_id, shards)
        return [OutboxItem.stored(r.id, r.game_id, r.kind, r.payload, r.created_at,
                                  r.reply_token, r.guild_id)
                for r in rows]

    async def mark_delivered(
        self, outbox_id: int, *, answered_token: str | None = None
    ) -> None:
        """The row was posted. ``answered_token``: it was the response of that
        interaction, which answers no other row (the token leaves them all)."""
        now = self._clock()
        async with self._store.single_write() as tx:  # one statement: see CoreWrites
            if not await tx.mark_delivered(outbox_id, now, answered_token):
                raise NotFound("errors.outbox_not_found", outbox_id=outbox_id)

    async def forget_reply(self, reply_token: str) -> None:
        """That interaction answers none of its rows (they are posted like the
        others)."""
        async with self._store.single_write() as tx:  # one statement
            await tx.forget_reply_token(reply_token)

    async def prune_outbox(
        self, history: timedelta, *, batch: int = OUTBOX_PRUNE_BATCH,
        shards: Shards | None = None,
    ) -> int:
        """Delete the outbox rows delivered more than ``history`` ago (of the servers of
        ``shards`` if given, so that each process prunes its own), a batch per transaction;
        returns how many went. Rows still pending are kept however old, and so are the
        requests of take-backs still waiting for an answer. The outbox would otherwise keep
        every message ever posted."""
        cutoff = self._clock() - history
        removed = 0
        while True:
            async with self._store.transaction() as tx:
                count = await tx.prune_outbox(cutoff, batch, shards)
            removed += count
            if count < batch:
                return removed
