"""What the tournament service hands to the bot layer (plain frozen values), its limits, its
error, tournament names, and the conversions from store rows that every part of the service
shares."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import engines
from bot.core.competition import elimination
from bot.core.competition.results import Result
from bot.core.errors import ServiceError
from bot.store import GameRow
from bot.store.tournaments import EntrantRow, PairingRow, TournamentRow
from engines import Outcome

TOURNAMENT = "tournament"  # processed_games purpose
DEFAULT_GRACE_HOURS = 24
MAX_GRACE_HOURS = 24 * 14
MAX_SWISS_ROUNDS = 20
#: Sign-ups per tournament: a round robin of 64 already lasts 63 rounds, and a bracket of 64
#: is the largest image that stays readable in Discord.
MAX_ENTRANTS = 64
#: Characters in a tournament's name: it must fit the lines that show it (and an autocomplete
#: choice, 100 characters with the number, game and status).
MAX_NAME = 60
LPPG_TARGET = 10

TIEBREAKS = {
    "swiss": ("buchholz", "sonneborn_berger"),
    "round_robin": ("head_to_head", "sonneborn_berger"),
    "elimination": (),
    "lppg_match": (),
}


class TournamentError(ServiceError):
    """A tournament action that is not allowed; keys under ``errors.tournament.*``
    (``words/locales/<lang>/tournaments.toml``)."""

    key = "errors.tournament.not_found"


#: Discord's markup that names someone or something (user, role, channel, command, custom
#: emoji, timestamp, guild navigation): dropped from names.
_DISCORD_TOKEN = re.compile(
    r"<(?:@[!&]?\d+|#\d+|/[^<>:]+:\d+|a?:\w+:\d+|t:-?\d+(?::[tTdDfFR])?|id:\w+)>"
)
#: ``@everyone`` and ``@here`` lose their ``@``; a URL its scheme (so it is not a link).
_MASS_MENTION = re.compile(r"@(everyone|here)\b", re.IGNORECASE)
_SCHEME = re.compile(r"\b[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def tournament_name(text: str) -> str:
    """A name as typed, made safe to show anywhere: mentions of users, roles, channels and
    commands, custom emoji and timestamps removed; ``@everyone``/``@here`` without their
    ``@``; links without their scheme; invisible and control characters (a right-to-left
    override could disguise a name) removed; whitespace collapsed. Markdown stays in the name
    and is escaped where a message shows it. The result may be empty or too long: the caller
    decides."""
    text = unicodedata.normalize("NFC", text)
    text = _DISCORD_TOKEN.sub(" ", text)
    text = _MASS_MENTION.sub(r"\1", text)
    text = _SCHEME.sub("", text)
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp") or char.isspace():
            kept.append(" ")
        elif category not in ("Cf", "Co", "Cs", "Cn"):
            kept.append(char)
    return " ".join("".join(kept).split())


@dataclass(frozen=True)
class Entrant:
    user_id: int
    seed: int | None
    withdrawn: bool
    withdrawn_round: int | None
    removed: bool = False  # withdrawn by the organiser or a manager, not by the player


@dataclass(frozen=True)
class Tournament:
    id: int
    name: str
    guild_id: int | None
    channel_id: int | None
    organiser_id: int
    game: str
    options: dict[str, Any]
    format: str
    swiss_rounds: int | None
    time_control: str
    forfeit_grace_hours: int
    status: str  # signup | running | finished | cancelled
    current_round: int  # the last round paired (0 in sign-up)
    entrants: tuple[Entrant, ...]  # joining order
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    completed_rounds: int = 0  # the last round whose every board is decided

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(e.user_id for e in self.entrants)

    @property
    def active_players(self) -> tuple[int, ...]:
        return tuple(e.user_id for e in self.entrants if not e.withdrawn)

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def total_rounds(self) -> int | None:
        """Rounds the event will have, when known (None for an LPPG match or before start)."""
        n = len(self.entrants)
        if self.format == "swiss":
            return self.swiss_rounds
        if self.format == "round_robin" and n >= 2:
            return n - 1 if n % 2 == 0 else n
        if self.format == "elimination" and n >= 2:
            return elimination.rounds_needed(n)
        return None


@dataclass(frozen=True)
class Board:
    """One board of a round (``second_id`` None: a bye; LPPG match: ``seats`` of the game)."""

    round: int
    board: int
    first_id: int | None
    second_id: int | None
    game_id: int | None
    first_score: float | None
    method: str | None  # game | bye | forfeit once decided
    attempts: int
    seats: tuple[int, ...] = ()

    @property
    def decided(self) -> bool:
        return self.first_score is not None

    @property
    def winner(self) -> int | None:
        if self.first_score is None or self.first_score == 0.5:
            return None
        return self.first_id if self.first_score > 0.5 else self.second_id


@dataclass(frozen=True)
class StandingRow:
    """A player's line. Byes count among ``wins``/``draws``/``losses`` by the score they gave
    (not among ``played``, the games); withdrawn players have no ``rank`` and come last."""

    rank: int | None
    user_id: int
    points: float
    tiebreaks: tuple[float, ...]
    played: int
    wins: int
    draws: int
    losses: int
    withdrawn: bool
    removed: bool = False


@dataclass(frozen=True)
class Withdrawal:
    """What ``leave`` or ``kick`` did: the tournament after it, who left, whether a manager
    removed them, and the games of theirs that were forfeited (a withdrawal once running)."""

    tournament: Tournament
    user_id: int
    removed: bool
    forfeited: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standings:
    tournament: Tournament
    rows: tuple[StandingRow, ...]
    tiebreaks: tuple[str, ...]  # names of the tie-break columns, in order


def tournament_value(row: TournamentRow, entrants: Sequence[EntrantRow]) -> Tournament:
    return Tournament(
        id=row.id,
        name=row.name,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        organiser_id=row.organiser_id,
        game=row.game,
        options=row.options,
        format=row.format,
        swiss_rounds=row.swiss_rounds,
        time_control=row.time_control,
        forfeit_grace_hours=row.forfeit_grace_hours,
        status=row.status,
        current_round=row.current_round,
        entrants=tuple(Entrant(e.user_id, e.seed, e.withdrawn, e.withdrawn_round, e.removed)
                       for e in entrants),
        created_at=row.created_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        completed_rounds=row.completed_rounds,
    )


def board_value(p: PairingRow) -> Board:
    return Board(p.round, p.board, p.first_id, p.second_id, p.game_id, p.first_score, p.method,
                 p.attempts)


def results_of(pairings: Sequence[PairingRow]) -> list[Result]:
    return [Result(p.round, p.first_id, p.second_id, p.first_score)
            for p in pairings if p.first_score is not None]


def seed_order(entrants: Sequence[EntrantRow]) -> list[int]:
    return [e.user_id for e in sorted(entrants, key=lambda e: (e.seed or 0, e.position))]


def outcome_of(row: GameRow) -> Outcome | None:
    return engines.get(row.game).load(row.snapshot).outcome


def first_score(outcome: Outcome, first_seat: int, second_seat: int) -> float:
    first, second = first_seat in outcome.winners, second_seat in outcome.winners
    if first == second:
        return 0.5
    return 1.0 if first else 0.0


def lppg_match_class():
    """``engines.lppg.LppgMatch`` (imported late: the tournament code works without LPPG)."""
    from engines.lppg import LppgMatch

    return LppgMatch
