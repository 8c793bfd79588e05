"""Playing a game: moves, resignations and take-backs.

``PlayService`` (``Services.play``) owns them and calls no other service: what a move does to
the clock and to pending draw offers is written in the move's own transaction by
``clockstate`` and ``drawstate``.

How a change is written (docs/architecture.md): the game row is read (committed data, no lock), the
engine works outside any lock, then one short transaction about that game (it locks the game
only: ``store.transaction(games=[game_id])``) writes the new snapshot with
``version = version + 1`` only if the version is still the one read, together with the move row
and the outbox rows. Losing that race raises ``BoardChanged`` and writes nothing. Every check
that can fail runs before the first write, or inside the transaction (which then rolls back).
Each call is ``@retrying``: a transaction the database ended to break a deadlock runs again.

Rulings (not in RULES.md):

* Resigning: see ``bot.services.gamestate``.
* Undo: a player may ask to take back the last move only if it is their own (one ply, even
  inside a multi-move turn). Every other seated player must agree (any refusal cancels the
  request); a move, a resignation or another undo drops a pending request. The move leaves
  the ``moves`` table for ``undone_moves`` and the state is rebuilt by replay. Allowed in every
  game between people, since every opponent consents (an AI seat cannot: no take-backs in
  games with one); not once the game is over (a finished game stays
  finished, whether it ended by a move or a resignation).
* Engine work (load, parse, play, dump, view) runs on the event loop: ``bench.store`` measures
  it per move at a p99 of 0.1–0.5 ms for the engines so far (a few ms at worst on a busy
  machine), below a move's database cost, so a thread or process hop would not pay for itself.
"""

from __future__ import annotations

from typing import Any

from bot.core.errors import BoardChanged, GameOver, IllegalMoveError, NotYourTurn, UndoError
from bot.core.events import GameEnded, MovePlayed, Resigned, UndoDeclined, UndoDone, UndoRequested
from bot.core.models import GameInfo, MoveResult
from bot.core.seats import has_ai
from bot.services import clockstate
from bot.services.base import game_info, game_row, retrying, row_info, seat_of, written
from bot.services.context import ServiceContext
from bot.services.drawstate import lapse_draw_offers
from bot.services.gamestate import (
    ACTIVE,
    FINISHED,
    forced_end,
    rebuild,
    resignation_outcome,
    write_forced_end,
)
from bot.store import GameRow, GameUpdate, Reads
from engines import IllegalMove
from engines.core import dump_outcome

#: How often a resignation is retried when a move lands between its read and its write.
_RESIGN_ATTEMPTS = 5


class PlayService:
    """Moves, resignations and take-backs (see the module docstring)."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now

    @retrying
    async def move(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
        reply_token: str | None = None,
    ) -> MoveResult:
        """Play ``text`` for the user. ``expected_version`` (the version of the board the user
        saw) makes an outdated click fail with ``BoardChanged`` instead of playing.
        ``reply_token``: the interaction token that answers with the outbox rows (see
        ``pending_outbox``). A pending undo request is dropped: the ``move`` row names its
        requester (``undo_dropped_by``) so the message can say so."""
        row = await game_row(self._store, game_id)
        seat = seat_of(row, user_id)
        if row.status != ACTIVE:
            raise GameOver("errors.game_over", game_id=game_id)
        if expected_version is not None and expected_version != row.version:
            raise BoardChanged("errors.board_changed", game_id=game_id)
        game = self._ctx.engine(row.game)
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
            # The engine's phrase: the player reads why in their own language.
            raise IllegalMoveError("errors.illegal_move", reason=error.phrase) from None
        canonical = str(move)
        explanation = game.explain(state, move)
        # The engine names the mover as they were before the move; a post names them by their
        # seat's name after it, unless the move changed that name.
        named_before = game.seat_phrase(state, seat)
        renamed = named_before != game.seat_phrase(after, seat)
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
        async with self._store.transaction(games=[game_id]) as tx:
            if not await tx.update_game(game_id, row.version, update):
                fresh = await game_row(tx, game_id)
                if fresh.status != ACTIVE:  # a resignation or a claim got there first
                    raise GameOver("errors.game_over", game_id=game_id)
                raise BoardChanged("errors.board_changed", game_id=game_id)
            await tx.insert_move(game_id, ply, seat, canonical, now)
            played = MovePlayed(
                game_id=game_id, ply=ply, version=row.version + 1, move=canonical,
                # What the move did, as a phrase: each post says it in its own language.
                description=explanation, seat=seat, user_id=user_id,
                undo_dropped_by=None if row.undo_seat is None else row.seats[row.undo_seat],
                mover_named=named_before if renamed else None,
            )
            await tx.insert_outbox(played, now, reply_token)
            await lapse_draw_offers(tx, row, seat, finished, now)
            if finished:
                await tx.insert_outbox(GameEnded(game_id=game_id), now, reply_token)
            await clockstate.commit_turn(tx, clock, row.seats, ply, after.to_move, now)
        if clock is not None or finished or has_ai(row.seats):
            # A move of an untimed game that goes on moves no deadline (its clock is not kept
            # move by move): the scheduler is not woken for nothing. A game with an AI seat
            # always wakes them, as the AI runner listens there for its turn.
            self._ctx.notify_change()
        new_row = written(row, update)
        # The delivery of this move's rows starts from ``MoveResult.game`` instead of reading
        # the game again, and finds the new state here.
        self._ctx.held.hold(new_row, after)
        info = game_info(new_row, game, after)
        return MoveResult(game=info, move=canonical, description=str(explanation), seat=seat,
                          explanation=explanation)

    async def resignable(self, game_id: int, user_id: int) -> GameInfo:
        """The game as the user may resign it now (a player, the game going on); raises the
        refusal otherwise. ``GameInfo.version`` is what a confirmation must name."""
        row = await game_row(self._store, game_id)
        seat_of(row, user_id)
        if row.status != ACTIVE:
            raise GameOver("errors.game_over", game_id=game_id)
        return row_info(row)

    @retrying
    async def resign(
        self,
        game_id: int,
        user_id: int,
        *,
        expected_version: int | None = None,
        reply_token: str | None = None,
    ) -> GameInfo:
        """The user resigns (in or out of turn): the game ends (ruling in the module doc).
        A move landing meanwhile is not a reason to fail: the resignation is retried, unless
        ``expected_version`` (the board the user confirmed on) says the game must not have
        moved: then it raises ``BoardChanged`` ``errors.resign_stale``."""
        for _ in range(_RESIGN_ATTEMPTS):
            row = await game_row(self._store, game_id)
            seat = seat_of(row, user_id)
            if row.status != ACTIVE:
                raise GameOver("errors.game_over", game_id=game_id)
            if expected_version is not None and row.version != expected_version:
                raise BoardChanged("errors.resign_stale", game_id=game_id)
            game = self._ctx.engine(row.game)
            state = game.load(row.snapshot)
            outcome = resignation_outcome(game, state, seat)
            forced = {"kind": "resign", "seat": seat, "outcome": dump_outcome(outcome)}
            now = self._clock()
            after, update = forced_end(game, row, state, forced, now)
            async with self._store.transaction(games=[game_id]) as tx:
                if not await tx.update_game(game_id, row.version, update):
                    continue
                await write_forced_end(
                    tx, row, Resigned(game_id=game_id, seat=seat, user_id=user_id,
                                      version=row.version + 1),
                    now, reply_token,
                )
            self._ctx.notify_change()
            return game_info(written(row, update), game, after)
        raise BoardChanged("errors.board_changed", game_id=game_id)

    # ----- undo -----------------------------------------------------------------------------

    @retrying
    async def request_undo(
        self, game_id: int, user_id: int, *, reply_token: str | None = None
    ) -> GameInfo:
        """Ask to take back your last move; every other player must agree (``answer_undo``).
        The request is known by the id of its ``undo_requested`` outbox row."""
        now = self._clock()
        async with self._store.transaction(games=[game_id]) as tx:
            row = await game_row(tx, game_id)
            seat = seat_of(row, user_id)
            if row.status != ACTIVE:
                raise GameOver("errors.game_over", game_id=game_id)
            # First: against the AI no take-back is ever possible, whatever the last move.
            if has_ai(row.seats):
                raise UndoError("errors.undo_against_ai")
            last = await tx.last_move(game_id)
            if last is None:
                raise UndoError("errors.undo_nothing")
            if last.seat != seat:
                raise UndoError("errors.undo_not_your_move")
            if row.undo_seat is not None:
                raise UndoError("errors.undo_pending")
            await tx.set_undo_request(game_id, row.version, seat, (), now)
            await tx.insert_outbox(
                UndoRequested(game_id=game_id, by=user_id, seat=seat, ply=last.ply), now,
                reply_token,
            )
            row = await game_row(tx, game_id)
        return row_info(row)

    @retrying
    async def answer_undo(
        self,
        game_id: int,
        user_id: int,
        accept: bool,
        *,
        request: int | None = None,
        reply_token: str | None = None,
    ) -> GameInfo:
        """Agree to (or refuse) the pending undo. When the last player agrees the move is
        taken back; a refusal cancels the request. ``request``: the id of the
        ``undo_requested`` row the answer is for; an answer to an older request (a button left
        from before) raises ``UndoError`` ``errors.undo_stale`` and changes nothing."""
        row = await game_row(self._store, game_id)
        seat = seat_of(row, user_id)
        self._check_undo_answer(row, seat)
        await self._check_undo_request(self._store, game_id, request)
        needed = frozenset(range(len(row.seats))) - {row.undo_seat}
        rebuilt = None
        if accept and needed <= {*row.undo_consents, seat}:
            rebuilt = await self._rebuilt_without_last(row)  # engine work outside the lock
        now = self._clock()
        async with self._store.transaction(games=[game_id]) as tx:
            fresh = await game_row(tx, game_id)
            if fresh.version != row.version:
                raise BoardChanged("errors.board_changed", game_id=game_id)
            self._check_undo_answer(fresh, seat)
            await self._check_undo_request(tx, game_id, request)
            if not accept:
                await tx.set_undo_request(game_id, fresh.version, None, (), now)
                await tx.insert_outbox(
                    UndoDeclined(game_id=game_id, by=user_id,
                                 requester=fresh.seats[fresh.undo_seat]),
                    now, reply_token,
                )
                return row_info(await game_row(tx, game_id))
            consents = {*fresh.undo_consents, seat}
            if not needed <= consents:
                await tx.set_undo_request(game_id, fresh.version, fresh.undo_seat, consents, now)
                return row_info(await game_row(tx, game_id))
            if rebuilt is None:  # another answer landed since our read: replay now
                rebuilt = await self._rebuilt_without_last(fresh)
            state, last_text = rebuilt
            game = self._ctx.engine(fresh.game)
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
                UndoDone(game_id=game_id, ply=fresh.ply, seat=fresh.undo_seat,
                         version=fresh.version + 1, last_move=last_text, by=user_id),
                now, reply_token,
            )
            await clockstate.turn_changed(
                tx, game_id, fresh.seats, fresh.ply - 1, state.to_move, now, undone=True
            )
            info = row_info(await game_row(tx, game_id))
        self._ctx.notify_change()
        return info

    @staticmethod
    async def _check_undo_request(reads: Reads, game_id: int, request: int | None) -> None:
        """An answer names its request; only the newest one may be answered."""
        if request is not None and await reads.last_outbox_id(game_id, "undo_requested") != (
            request
        ):
            raise UndoError("errors.undo_stale")

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

