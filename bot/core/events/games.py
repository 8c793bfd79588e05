"""What happens in a game and is posted in its thread with its board or its result: a game
starts, a move is played, a player resigns, a take-back is asked for, refused or done, the game
is over, an admin aborts it. ``version`` is the game's version after the change, so that a row
is drawn at its own position (``GameService.position``); rows written before rows knew their
version read as None (drawn at the game's current position)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.events.base import GameEvent, older_rows, optional
from engines import Phrase


@dataclass(frozen=True, kw_only=True)
class GameStarted(GameEvent):
    """A game began (from a challenge, a lobby, a rematch, a tournament's pairing)."""

    kind = "game_started"
    legacy = older_rows(ply=0, version=None)

    ply: int
    version: int | None
    #: What created it, when not a challenge (e.g. ``"tournament:3"``).
    source: str | None = optional(None)


@dataclass(frozen=True, kw_only=True)
class MovePlayed(GameEvent):
    """A move: ``ply`` its number, ``move`` its canonical text."""

    kind = "move"
    legacy = older_rows(version=None)

    ply: int
    version: int | None
    move: str
    #: What the move did, as the engine says it (rows written before phrases were stored
    #: hold its English text).
    description: Phrase | str | None
    seat: int
    user_id: int
    #: The player whose take-back request the move dropped.
    undo_dropped_by: int | None = optional(None)
    #: How ``description`` names the mover when the move itself changed their seat's name
    #: (Palam's camp choice: "Player 1" takes Isis); None: by their name after the move.
    mover_named: Phrase | None = optional(None)  # noqa: RUF009 (a dataclasses.field)


@dataclass(frozen=True, kw_only=True)
class GameEnded(GameEvent):
    """The game is over (after the row of what ended it): its result is posted."""

    kind = "game_over"


@dataclass(frozen=True, kw_only=True)
class Resigned(GameEvent):
    kind = "resigned"
    legacy = older_rows(version=None)

    seat: int
    user_id: int
    version: int | None


@dataclass(frozen=True, kw_only=True)
class UndoRequested(GameEvent):
    """``by`` (at ``seat``) asks to take back their move ``ply``; the request is known by
    this row's id."""

    kind = "undo_requested"

    by: int
    seat: int
    ply: int


@dataclass(frozen=True, kw_only=True)
class UndoDone(GameEvent):
    """Move ``ply`` (``seat``'s) was taken back, ``by`` giving the last agreement;
    ``last_move`` is the move then shown as last."""

    kind = "undo_done"
    legacy = older_rows(version=None, last_move=None, by=None)

    ply: int
    seat: int
    version: int | None
    last_move: str | None
    by: int | None


@dataclass(frozen=True, kw_only=True)
class UndoDeclined(GameEvent):
    """``by`` refused the take-back that ``requester`` asked for."""

    kind = "undo_declined"
    legacy = older_rows(requester=None)

    by: int
    requester: int | None


@dataclass(frozen=True, kw_only=True)
class AdminAborted(GameEvent):
    """A server admin (``by``) ended the game with no result (``/admin abort``)."""

    kind = "aborted"

    by: int
