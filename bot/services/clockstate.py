"""Clock bookkeeping that runs inside the game services' transactions (a game's clock starts in
the transaction that creates it and moves on in the one that records each move), plus the
outcome of a loss on time. Used by the game services (``challenges``, ``play``, ``draws``,
``admin``…) and ``ClockService``.

Rulings:

* **Vacations pause the whole game**: while any seated player is on vacation, nobody's clock
  runs in that game (nobody is pressed while a partner in the game is away; everyone may still
  move). Deadlines include every vacation already declared.
* **Per-move controls** (``3d``): every turn gets the full number of days, from the end of the
  previous move. **Fischer** (``3d+1d``): time spent comes off the mover's bank, then the
  increment is added, capped at the starting bank.
* **Undo** restarts the turn of the player whose move was taken back at the moment of the undo,
  with the bank they have (an undo is agreed by everyone); that turn's reminders start afresh.
* A late move is still accepted until someone claims (as on Board Game Arena).

An untimed game's clock row keeps its time control only: its moves skip the clock (no deadline
to keep), so ``to_move``/``ply`` there are not kept current.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from weakref import WeakKeyDictionary

from bot.core.correspondence.timecontrol import (
    Clock,
    Interval,
    TimeControl,
    paused_between,
    paused_until_spent,
)
from bot.store import Reads, Writes
from bot.store.clocks import ClockReads, ClockRow, clock_reads, clock_writes
from engines import Game, Outcome, Phrase


def parse_time_control(text: str | None) -> TimeControl:
    """``None`` means untimed; raises ``ValueError`` with a readable reason otherwise."""
    return TimeControl() if text is None else TimeControl.parse(text)


async def game_pauses(
    reads: ClockReads, seats: tuple[int, ...], since: datetime
) -> list[Interval]:
    """The vacations that pause a game's clock (any seated player's), ending after ``since``."""
    return [(v.starts_at, v.ends_at)
            for v in await reads.vacations(seats, ending_after=since)]


def clock_value(row: ClockRow) -> Clock:
    return Clock(TimeControl.parse(row.time_control), row.banks, row.turn_started, row.to_move)


def deadline_of(clock: Clock, pauses: list[Interval]) -> datetime | None:
    """The deadline of the player to move, pushed back by the pauses during their turn."""
    if clock.control.untimed or clock.to_move is None:
        return None
    bank = clock.banks[clock.to_move]
    return clock.deadline(paused_until_spent(pauses, clock.turn_started, bank))


async def start_clock(
    tx: Writes,
    game_id: int,
    seats: tuple[int, ...],
    to_move: int | None,
    control: TimeControl,
    now: datetime,
) -> None:
    """Write the clock of a new game (in the transaction that creates it)."""
    writes = clock_writes(tx)
    clock = Clock.start(control, len(seats), now, 0 if to_move is None else to_move)
    clock = replace(clock, to_move=to_move)
    pauses = await game_pauses(writes, seats, now)
    await writes.put_clock(ClockRow(game_id, str(control), clock.banks, now, to_move, 0,
                                    deadline_of(clock, pauses), now))


def _next_turn(row: ClockRow, pauses: list[Interval], ply: int, to_move: int | None,
               now: datetime, *, undone: bool) -> ClockRow:
    clock = clock_value(row)
    if undone:
        clock = replace(clock, turn_started=now, to_move=to_move)
    else:
        clock = clock.after_move(now, to_move, paused_between(pauses, row.turn_started, now))
    return ClockRow(row.game_id, row.time_control, clock.banks, now, to_move, ply,
                    deadline_of(clock, pauses), now)


async def turn_changed(
    tx: Writes,
    game_id: int,
    seats: tuple[int, ...],
    ply: int,
    to_move: int | None,
    now: datetime,
    *,
    undone: bool = False,
) -> None:
    """Move the clock on after a move (``to_move`` None: the game is over), a resignation or
    an undo, in the same transaction. Games older than the clocks have none: nothing to do."""
    writes = clock_writes(tx)
    row = await writes.clock(game_id)
    if row is None:
        return
    pauses = await game_pauses(writes, seats, row.turn_started)
    if undone:
        await writes.forget_reminders_from(game_id, ply)
    await writes.put_clock(_next_turn(row, pauses, ply, to_move, now, undone=undone))


@dataclass(frozen=True)
class PreparedTurn:
    """A move's new clock, computed from committed data before the write transaction (which
    then only writes it, keeping the serialised part of a move short)."""

    row: ClockRow
    read_at: datetime  # ``updated_at`` of the clock it was computed from


#: Games known to be untimed, per store. A game's time control never changes, and an untimed
#: clock has nothing to keep up to date during play, so their moves skip the clock entirely.
_UNTIMED: WeakKeyDictionary[Any, set[int]] = WeakKeyDictionary()


def _untimed_games(store: Any) -> set[int]:
    try:
        return _UNTIMED.setdefault(store, set())
    except TypeError:  # a store that cannot be weakly referenced: no memory
        return set()


def known_untimed(store: Any, game_id: int) -> bool:
    """Whether a move of the game already found it untimed (then it never has a deadline)."""
    return game_id in _untimed_games(store)


async def prepare_turn(reads: Reads, game_id: int, seats: tuple[int, ...], ply: int,
                       to_move: int | None, now: datetime) -> PreparedTurn | None:
    """The clock after a move (None: nothing to write, the game is untimed or older than
    the clocks). ``reads`` is the store: committed data, no lock."""
    untimed = _untimed_games(reads)
    if game_id in untimed:
        return None
    row, pauses = await clock_reads(reads).clock_and_pauses(game_id)
    if row is None:
        return None
    if TimeControl.parse(row.time_control).untimed:
        untimed.add(game_id)
        return None
    return PreparedTurn(_next_turn(row, pauses, ply, to_move, now, undone=False),
                        row.updated_at)


async def commit_turn(tx: Writes, prepared: PreparedTurn | None, seats: tuple[int, ...],
                      ply: int, to_move: int | None, now: datetime) -> None:
    """Write a prepared clock if the clock is still the one it was computed from (every
    change of a clock or of a seated player's vacations bumps ``updated_at``); else compute
    it again inside the transaction. Nothing to do for untimed games."""
    if prepared is None:
        return
    if not await clock_writes(tx).put_clock_if(prepared.row, prepared.read_at):
        await turn_changed(tx, prepared.row.game_id, seats, ply, to_move, now)


async def refresh_deadline(tx: Writes, game_id: int, seats: tuple[int, ...],
                           now: datetime) -> ClockRow | None:
    """Recompute a running clock's deadline after a vacation changed (the turn goes on)."""
    writes = clock_writes(tx)
    row = await writes.clock(game_id)
    if row is None or row.to_move is None:
        return row
    pauses = await game_pauses(writes, seats, row.turn_started)
    fresh = replace(row, deadline=deadline_of(clock_value(row), pauses), updated_at=now)
    # Written even when the deadline stays: the new updated_at tells a move prepared before
    # this vacation change to compute its clock again (the pauses changed).
    await writes.put_clock(fresh)
    return fresh


def side_of(teams: tuple[tuple[int, ...], ...], seat: int) -> tuple[int, ...]:
    return next(team for team in teams if seat in team)


def side_loses(state: Any, seat: int, teams: tuple[tuple[int, ...], ...], reason: Phrase
               ) -> Outcome:
    """The game ends with ``seat``'s side losing: every other seat wins (score 1, else 0)."""
    side = side_of(teams, seat)
    winners = frozenset(s for s in range(state.players) if s not in side)
    scores = tuple(1.0 if s in winners else 0.0 for s in range(state.players))
    return Outcome.said(winners, scores, reason)


def timeout_outcome(game: Game, state: Any, seat: int,
                    teams: tuple[tuple[int, ...], ...]) -> Outcome:
    """``seat`` lost on time: as for a resignation, every seat not on its side wins (with more
    than two players the game ends for everybody: engines cannot drop a player mid-game)."""
    return side_loses(
        state, seat, teams, Phrase("outcome.timeout", seat=game.seat_phrase(state, seat))
    )

