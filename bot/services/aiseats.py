"""AI players at the table: how their seats are stored, games against them, lobbies filled
with them, their turns, hints, and a player's record against each level.

``AiSeatService`` (``Services.aiseats``) owns them. It calls ``ChallengeService`` (a game
against the AI is created like any game; a lobby's places are a challenge's) and
``SettingsService`` (the server's default time control).

How an AI seat is stored (the ids: ``bot.core.seats``). A seat holds a user id; an AI seat holds a
reserved id that says its level: ``ai_user_id(level, slot)`` is ``−(100 × level number +
slot)`` (easy −100 to −199, medium −200 to −299, hard −300 to −399), ``slot`` telling apart
several AI seats of one level at a table. Discord ids are positive snowflakes, so a reserved id
never names a person; it has a ``users`` row like anyone seated. So the game tables need
nothing new: ratings and tournaments tell AI seats by their id (``is_ai``), several sit at one
table, and "whose turn is an AI's" is a query of the game rows themselves (``ai_turns``), which
is what makes the AI restart-safe and shared by several processes: there is no queue in memory
to lose, each process lists the turns of its shards' servers only (``bot.core.sharding``, as for the
outbox), and the game's optimistic version makes an AI move land once (a second attempt of the
same turn loses with ``BoardChanged``).

Rulings (not in RULES.md):

* A game against the AI starts at once (no challenge to accept); the player who asks is seat 0,
  so they move first in every game, as the host of a challenge does.
* In a lobby only the host adds AI players; each takes the next free place, like a player who
  joins. Until the game starts the host may also take one off the table again (a place freed
  for a person, or a level changed). AI players count as present: the host may start early
  with them when the game is played by that many (Kolory 2–5, LPPG 2 or 4), seats in the
  joining order. A lobby with AI players is still a challenge: it is withdrawn, or expires,
  with them.
* ``/play level:`` writes no challenge, so a challenge's rules (withdrawing, expiry, "the same
  challenge twice") neither apply to it nor are touched by it; it takes the server's default
  time control like any ``/play``.
* ``hint`` suggests the ``hard`` level's move, only to a player of a game with at least one AI
  seat (a hint in a game between people would be help from outside the game) whose opponents
  are all AI players, never in a tournament game (the AI's help would weigh on a result that
  decides the standings), and only when it is their turn.
* The AI's decision is seeded by the game and its ply, so a retried turn (a restart, a second
  process) chooses the same move.
* A person plays at most ``ai_games_per_user`` games against the AI at once (the setting of
  that name): ``/play level:`` beyond it, and adding an AI to a lobby they host, are refused
  until one of those games ends. (Counted in the new game's transaction: exact on SQLite, whose
  transactions take turns; on PostgreSQL starts racing in the same instant may pass together.)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import ai
from bot.core.errors import ChallengeError, GameOver, NotYourTurn, ServiceError
from bot.core.models import Challenge, GameInfo
from bot.core.seats import (
    HIGHEST_AI_ID,
    LOWEST_AI_ID,
    SLOTS_PER_LEVEL,
    ai_level,
    ai_user_id,
    has_ai,
    is_ai,
)
from bot.core.sharding import Shards
from bot.services.base import challenge_of, challenge_row, game_row, retrying, row_info
from bot.services.challenges import ChallengeService
from bot.services.context import ServiceContext
from bot.services.gamestate import ACTIVE
from bot.services.settings import SettingsService
from bot.store import ChallengeRow, Reads, Writes
from bot.store.aiseats import AiTurn, ai_seat_reads
from bot.store.tournaments import tournament_reads

#: How many finished games against the AI a profile counts (the newest).
RECORD_GAMES = 1000


class AiGamesLimit(ServiceError):
    """The player already plays ``ai_games_per_user`` games against the AI."""

    key = "errors.ai_games_limit"


class HintRefused(ServiceError):
    """A hint asked for in a game between people, by someone not playing, or in a table where
    a person is among the asker's opponents."""

    key = "errors.hint_people"


def check_level(level: str) -> str:
    """``level`` if it is an AI level, else the refusal that lists them."""
    if level not in ai.LEVELS:
        raise ChallengeError("errors.unknown_level", level=level, levels=", ".join(ai.LEVELS))
    return level


@dataclass(frozen=True)
class AiJob:
    """What a worker needs to choose a move: plain data only (it crosses a process)."""

    game_id: int
    version: int
    user_id: int
    game: str
    view: dict[str, Any]  # game.dump(game.view(state, seat))
    seat: int
    level: str
    seed: str


@dataclass(frozen=True)
class Record:
    """A player's results against one AI level."""

    level: str
    won: int = 0
    drawn: int = 0
    lost: int = 0


class AiSeatService:
    """Games against AI players (see the module docstring)."""

    def __init__(self, context: ServiceContext, challenges: ChallengeService,
                 settings: SettingsService) -> None:
        self._ctx = context
        self._store = context.store
        self._clock = context.now
        self._challenges = challenges
        self._settings = settings
        #: How many games against the AI one person may play at once (``Config``'s setting).
        self.ai_games_per_user = 5

    async def _check_ai_games(self, reads: Reads, user_id: int) -> None:
        """Refuse (``AiGamesLimit``) a new game against the AI to someone at the limit."""
        running = await ai_seat_reads(reads).active_games_against(
            user_id, LOWEST_AI_ID, HIGHEST_AI_ID)
        if running >= self.ai_games_per_user:
            raise AiGamesLimit(count=self.ai_games_per_user)

    @retrying
    async def play_ai(
        self,
        game: str,
        user_id: int,
        level: str,
        *,
        players: int = 2,
        options: dict | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        time_control: str | None = None,
        locale: str | None = None,
        place: str | None = None,
    ) -> GameInfo:
        """Start a game of ``user_id`` (seat 0) against ``players − 1`` AI players of
        ``level``, at once. ``locale``: the player's language, the game's unless the server
        has one (as for a challenge); ``time_control``: the server's default when not given,
        as for any ``/play``. No challenge is written, so none of a challenge's rules apply
        (withdrawing, expiry, "sent twice"), and the player's open challenges are left as
        they are."""
        check_level(level)
        seats = (user_id, *(ai_user_id(level, slot) for slot in range(players - 1)))
        if is_ai(user_id):
            raise ChallengeError("errors.challenge_self")
        time_control = await self._settings.server_time_control(guild_id, time_control)
        async with self._store.transaction() as tx:
            # Counted in the game's own transaction: starts that race see each other's games.
            await self._check_ai_games(tx, user_id)
            info = await self._challenges.create_game_in(
                tx, game, seats, options, time_control=time_control, guild_id=guild_id,
                channel_id=channel_id, source="ai", locale=locale, place=place,
            )
        self._ctx.notify_change()
        return info

    @retrying
    async def add_ai(self, challenge_id: int, user_id: int, level: str, *,
                     seated: int | None = None) -> Challenge:
        """The host of a lobby gives its next free place to an AI player of ``level`` (the
        first reserved id of that level not seated: one taken off the table frees its id).
        ``seated``: how many places the host saw taken; if the table has changed since (a
        double click's second press, an old copy of the message) nothing is done."""
        check_level(level)
        now = self._clock()
        async with self._store.transaction(challenges=[challenge_id]) as tx:
            row = await self._hosted_lobby(tx, challenge_id, user_id, now)
            if seated is not None and seated != len(row.joined):
                raise ChallengeError("errors.lobby_changed")
            await self._check_ai_games(tx, user_id)
            slot = next(slot for slot in range(SLOTS_PER_LEVEL)
                        if ai_user_id(level, slot) not in row.joined)
            await self._challenges.add_player(tx, row, ai_user_id(level, slot), now)
            row = await challenge_row(tx, challenge_id)
        return challenge_of(row)

    @retrying
    async def remove_ai(self, challenge_id: int, user_id: int, ai_id: int | None) -> Challenge:
        """The host of a lobby takes the AI player ``ai_id`` off the table before the game
        starts, which frees its place. A press naming an AI that is no longer seated (a double
        click, an old copy of the lobby's message) is refused and changes nothing, as is any
        id that is not an AI seat's: people leave a table themselves."""
        now = self._clock()
        async with self._store.transaction(challenges=[challenge_id]) as tx:
            row = await self._hosted_lobby(tx, challenge_id, user_id, now)
            if not is_ai(ai_id) or ai_id not in row.joined:
                raise ChallengeError("errors.ai_not_seated")
            await tx.remove_challenge_player(row.id, ai_id)
            row = await challenge_row(tx, challenge_id)
        return challenge_of(row)

    async def _hosted_lobby(
        self, tx: Writes, challenge_id: int, user_id: int, now: datetime
    ) -> ChallengeRow:
        """The lobby's fresh row, read in ``tx``, if ``user_id`` hosts it and it is still open
        (AI seats are the host's to change, in tables for more than two only)."""
        row = await challenge_row(tx, challenge_id)
        if user_id != row.host_id:
            raise ChallengeError("errors.not_the_host")
        self._challenges.check_open(row, now)
        if not row.players > 2:
            raise ChallengeError("errors.ai_only_lobbies")
        return row

    # ----- the AI's turns -------------------------------------------------------------------

    async def ai_turns(self, limit: int = 100, *, shards: Shards | None = None) -> list[AiTurn]:
        """Active games where an AI seat is to move, the longest waiting first; with
        ``shards``, only those of its servers (the process holding them plays their turns)."""
        return await ai_seat_reads(self._store).ai_turns(LOWEST_AI_ID, HIGHEST_AI_ID, limit,
                                                         shards)

    async def ai_job(self, game_id: int) -> AiJob | None:
        """What the AI to move in the game must think about, or None when no AI is to move
        (the game went on or ended since it was listed)."""
        row = await game_row(self._store, game_id)
        if row.status != ACTIVE or row.to_move is None:
            return None
        user_id = row.seats[row.to_move]
        level = ai_level(user_id)
        if level is None:
            return None
        game = self._ctx.engine(row.game)
        view = game.view(game.load(row.snapshot), row.to_move)
        return AiJob(
            game_id=game_id, version=row.version, user_id=user_id, game=row.game,
            view=game.dump(view), seat=row.to_move, level=level,
            seed=f"{game_id}:{row.ply}:{row.seed}",
        )

    async def _check_hint_allowed(self, game: str, seats: tuple[int, ...], game_id: int,
                                  user_id: int) -> None:
        """Refuse (``HintRefused``) a hint to ``user_id`` in this game whatever its position:
        not a player, no AI seat, a person among their opponents, a tournament game."""
        if user_id not in seats or not has_ai(seats):
            raise HintRefused("errors.hint_people")
        # A hint would help one person against another: only when every opponent is an AI
        # (LPPG's partner, a person or not, is no opponent).
        people = [other for other in ai.opponents(game, len(seats), seats.index(user_id))
                  if not is_ai(seats[other])]
        if people:
            raise HintRefused("errors.hint.person_opponent", count=len(people))
        if await tournament_reads(self._store).tournament_game(game_id) is not None:
            raise HintRefused("errors.hint.tournament")

    async def hint_offered(self, game: GameInfo, user_id: int | None) -> bool:
        """Whether a hint to ``user_id`` (the player to move) may be given in ``game`` at all:
        the board's Hint button is shown only then."""
        if user_id is None:
            return False
        try:
            await self._check_hint_allowed(game.game, game.seats, game.id, user_id)
        except HintRefused:
            return False
        return True

    async def hint_job(self, game_id: int, user_id: int) -> AiJob:
        """What ``ai.hint`` needs to suggest a move to ``user_id`` (a player of a game with an
        AI seat, every opponent an AI, not a tournament's game, whose turn it is); refuses
        otherwise, changing nothing."""
        row = await game_row(self._store, game_id)
        await self._check_hint_allowed(row.game, row.seats, game_id, user_id)
        if row.status != ACTIVE:
            raise GameOver("errors.game_over", game_id=game_id)
        seat = row.to_move
        if seat is None or row.seats[seat] != user_id:
            raise NotYourTurn(
                "errors.not_your_turn", game_id=game_id,
                to_move=None if seat is None else row.seats[seat],
            )
        game = self._ctx.engine(row.game)
        view = game.view(game.load(row.snapshot), seat)
        return AiJob(
            game_id=game_id, version=row.version, user_id=user_id, game=row.game,
            view=game.dump(view), seat=seat, level=ai.HINT_LEVEL,
            seed=f"hint:{game_id}:{row.ply}",
        )

    # ----- records --------------------------------------------------------------------------

    async def ai_record(self, user_id: int) -> list[Record]:
        """The user's won/drawn/lost games against each AI level they met as an opponent (a
        game with several AI levels among the opponents counts for each; an AI partner, in
        LPPG's teams, is no opponent). A win shared with an AI partner is a win; a game that
        nobody (or every seat) won is a draw."""
        rows = await ai_seat_reads(self._store).finished_against(
            user_id, LOWEST_AI_ID, HIGHEST_AI_ID, RECORD_GAMES)
        counts: dict[str, list[int]] = {}
        for row in rows:
            if is_ai(user_id):
                continue
            outcome = row_info(row).outcome
            if outcome is None:
                continue
            seat = row.seats.index(user_id)
            if not outcome.winners or len(outcome.winners) == len(row.seats):
                result = 1
            else:
                result = 0 if seat in outcome.winners else 2
            against = ai.opponents(row.game, len(row.seats), seat)
            for level in {ai_level(row.seats[other]) for other in against} - {None}:
                counts.setdefault(level, [0, 0, 0])[result] += 1  # type: ignore[index]
        return [Record(level, *counts[level]) for level in ai.LEVELS if level in counts]
