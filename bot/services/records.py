"""Game records as text, and back: export for ``/record``, re-import to replay.

The format, PGN-like::

    [Game "alak"]
    [GameId "12"]
    [Seat0 "1234"]
    [Seat0Name "Alice"]
    [Options "{}"]
    [TimeControl "3d+1d"]
    [Status "finished"]
    [Result "Black resigned"]
    [Termination "resigned 1"]
    [Seed "987654321"]
    [Created "2026-01-01T12:00:00+00:00"]

    1. g
    2. i 4

Tag values are JSON string literals (quotes and backslashes escaped). Moves are one per line,
numbered by ply, in canonical notation (which may hold spaces: the rest of the line is the
move). A reviewed game's record has a comment under each move, the expected score of each
player after it (``; expected score: Alice 0.63 · Bob 0.37``, ``/review``).
``Termination`` is ``normal`` (played out or still running), ``resigned <seat>`` or
``time <seat>``, so a replay rebuilds the same final state. ``Seed`` is only written once the
game is over (it is secret while it runs), so only finished games replay.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engines
from bot.core.models import GameRecord
from bot.services.clockstate import timeout_outcome
from bot.services.gamestate import (
    apply_forced_outcome,
    rebuild,
    resignation_outcome,
    teams_of,
)
from engines.core import dump_outcome

_TAG = re.compile(r'^\[(\w+) (".*")\]$')
_MOVE = re.compile(r"^(\d+)\.\s+(\S.*)$")


class RecordError(ValueError):
    """The text is not a game record this module can read."""


@dataclass(frozen=True)
class ParsedRecord:
    tags: dict[str, str]
    game: str
    players: int
    options: dict[str, Any]
    seed: int | None
    moves: tuple[str, ...]
    termination: tuple[str, int] | None  # ("resigned" | "time", seat), None if normal


def _tag(name: str, value: object) -> str:
    return f"[{name} {json.dumps(str(value), ensure_ascii=False)}]"


def termination_of(record: GameRecord) -> str:
    info = record.game
    if info.resigned_seat is not None:
        return f"resigned {info.resigned_seat}"
    if info.timed_out_seat is not None:
        return f"time {info.timed_out_seat}"
    return "normal"


def format_record(
    record: GameRecord, *, time_control: str = "untimed", names: Mapping[int, str] | None = None,
    comments: Sequence[str] | None = None,
) -> str:
    """The record as text. ``names`` maps user ids to display names (optional); ``comments``,
    one per move, are written under each move as ``;`` lines (which ``parse_record`` skips):
    the review's expected scores after each move, when the game was reviewed."""
    info = record.game
    lines = [_tag("Game", info.game), _tag("GameId", info.id)]
    for seat, user in enumerate(info.seats):
        lines.append(_tag(f"Seat{seat}", user))
        if names and user in names:
            lines.append(_tag(f"Seat{seat}Name", names[user]))
    lines += [
        _tag("Options", json.dumps(info.options, sort_keys=True, separators=(",", ":"))),
        _tag("TimeControl", time_control),
        _tag("Status", info.status),
        _tag("Result", "*" if info.outcome is None else info.outcome.reason),
        _tag("Termination", termination_of(record)),
    ]
    if record.seed is not None:
        lines.append(_tag("Seed", record.seed))
    lines.append(_tag("Created", info.created_at.isoformat()))
    lines.append("")
    for index, move in enumerate(record.moves):
        lines.append(f"{move.ply}. {move.text}")
        if comments is not None and index < len(comments):
            lines.append(f"; {comments[index]}")
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> ParsedRecord:
    """Read a record written by ``format_record`` (blank lines and ``;`` comments ignored)."""
    tags: dict[str, str] = {}
    moves: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if match := _TAG.match(line):
            try:
                tags[match.group(1)] = json.loads(match.group(2))
            except json.JSONDecodeError:
                raise RecordError(f"line {number}: bad tag value") from None
            continue
        if match := _MOVE.match(line):
            if int(match.group(1)) != len(moves) + 1:
                raise RecordError(f"line {number}: expected move {len(moves) + 1}")
            moves.append(match.group(2).strip())
            continue
        raise RecordError(f"line {number}: neither a tag nor a numbered move")
    if "Game" not in tags:
        raise RecordError("the record names no game")
    seats = sorted(int(name[4:]) for name in tags if re.fullmatch(r"Seat\d+", name))
    if not seats or seats != list(range(len(seats))):
        raise RecordError("the record must list seats Seat0, Seat1, ...")
    try:
        options = json.loads(tags.get("Options", "{}"))
        seed = int(tags["Seed"]) if "Seed" in tags else None
    except (ValueError, json.JSONDecodeError):
        raise RecordError("bad Options or Seed") from None
    termination = None
    kind, _, seat = tags.get("Termination", "normal").partition(" ")
    if kind in ("resigned", "time"):
        if not seat.isdigit() or int(seat) >= len(seats):
            raise RecordError("bad Termination seat")
        termination = (kind, int(seat))
    elif kind != "normal":
        raise RecordError(f"unknown Termination {kind!r}")
    return ParsedRecord(tags, tags["Game"], len(seats), options, seed, tuple(moves),
                        termination)


def replay_record(parsed: ParsedRecord) -> Any:
    """The final state of a parsed record, replayed by its engine (``IllegalMove`` if a move
    does not play). Needs the seed, so only records of finished games replay."""
    if parsed.seed is None:
        raise RecordError("the record has no seed (the game was still running)")
    try:
        game = engines.get(parsed.game)
    except KeyError:
        raise RecordError(f"unknown game {parsed.game!r}") from None
    state = rebuild(parsed.game, parsed.players, parsed.seed, parsed.options, parsed.moves)
    if parsed.termination is None:
        return state
    kind, seat = parsed.termination
    if kind == "resigned":
        outcome = resignation_outcome(game, state, seat)
    else:
        outcome = timeout_outcome(game, state, seat, teams_of(game, parsed.players))
    return apply_forced_outcome(state, {"outcome": dump_outcome(outcome)})
