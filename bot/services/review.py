"""Post-game reviews: who may ask for one, what the AI is asked (as jobs for the heavy worker
pool), and the stored reviews (``bot.store.review``). The analysis itself is
``bot.core.review`` (pure).

Fairness rulings:

* A finished game is reviewed for anyone who may see it (``game_seen_from``: its server's
  members, like ``/record``), from full states: once a game is over nothing is hidden any more
  (LPPG's hands and pile), so evaluations use every card, and the image says so.
* A game in progress is reviewed only for one of its players, and only when every other seat
  is an AI's (no help against people); it is then reviewed from that player's own view at each
  position (never a card they could not see), the AI's move instead is shown for their own
  mistakes only, and the review is stored for them alone.
* An aborted game, or one without a move, has nothing to review.

Positions are evaluated with ``ai.evaluate`` (deterministic: the same game always gets the
same review) on a per-game budget (``REVIEW_BUDGET_S``) such that a 40-ply Alak game and a
100-ply Polygo game take well under a minute of CPU (``python -m bench.review``). With two
players one evaluation per position suffices (the other side's expected score is its
complement); with more, each seat is evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import ai
import engines
from bot.core.errors import GameOver, NotFound, ServiceError
from bot.core.models import utcnow
from bot.core.review import Review
from bot.services.aiseats import is_ai
from bot.services.gamestate import ACTIVE, apply_forced_outcome
from bot.store import Store
from bot.store.review import review_reads, review_writes

#: Thinking time per position, where a review needs another than ``ai.EVAL_BUDGET_S`` (the
#: evaluation's own defaults, which fit the budgets: ``python -m bench.review``). Searches are
#: sized by counts calibrated from it, so a review does not depend on how busy the machine is.
REVIEW_BUDGET_S: dict[str, float] = {}
#: The level whose move is shown as "the AI's move instead", and its budget per position.
BETTER_LEVEL = "hard"
BETTER_BUDGET_S = 1.0
#: ``perspective`` of a review made from full states (a finished game).
FULL = -1


class ReviewRefused(ServiceError):
    """A review that may not be given (keys ``errors.review.*`` in ``review.toml``)."""

    key = "errors.review.in_progress"


@dataclass(frozen=True)
class ReviewSource:
    """What a review is made from: plain data for a worker process. It holds the secret seed
    (positions are rebuilt from it), so it stays in the bot's own processes; ``repr`` leaves
    the seed out. ``perspective``: ``FULL`` (every card known: a finished game) or the seat
    whose view every position is evaluated from (a game in progress against the AI)."""

    game_id: int
    version: int
    game: str
    players: int
    seed: int = field(repr=False)
    options: dict[str, Any]
    moves: tuple[str, ...]
    forced_outcome: dict[str, Any] | None
    perspective: int = FULL

    @property
    def positions(self) -> int:
        return len(self.moves) + 1

    @property
    def finished(self) -> bool:
        return self.perspective == FULL

    def may_suggest(self, seat: int) -> bool:
        """Whether the AI's move instead of ``seat``'s may be shown: always once the game is
        over; while it runs, only for the requesting player's own moves (the AI would choose
        an AI seat's move from that seat's view, hand included, which the player may not
        learn before the end)."""
        return self.finished or seat == self.perspective

    def states(self, with_result: bool = True) -> list[Any]:
        """Every position from the start, full states; the last one with the stored result of
        a game ended without a move (a resignation, a loss on time) unless ``with_result`` is
        False (the position as the last move left it)."""
        game = engines.get(self.game)
        states = game.replay(self.players, self.seed, self.options, list(self.moves))
        if with_result:
            states[-1] = apply_forced_outcome(states[-1], self.forced_outcome)
        return states

    def ended(self) -> tuple[float, ...] | None:
        """Each seat's result if the game ended without a move, else None."""
        if not self.forced_outcome:
            return None
        outcome = apply_forced_outcome(self.states()[-1], self.forced_outcome).outcome
        return tuple(ai.result_score(self.game, outcome, self.players, seat)
                     for seat in range(self.players))

    def seen(self, state: Any) -> Any:
        """A position as the review may use it: the full state of a finished game, else the
        requesting player's view."""
        if self.finished:
            return state
        return engines.get(self.game).view(state, self.perspective)


def expected_scores(source: ReviewSource, state: Any) -> tuple[float, ...]:
    """Each seat's expected score at ``state`` (a full state; ``source.seen`` is evaluated; a
    finished position gets its result, ``ai.result_score``)."""
    position = source.seen(state)
    budget = REVIEW_BUDGET_S.get(source.game)
    if source.players == 2 and getattr(state, "outcome", None) is None:
        # Seen from the player to move (or the requesting player): the other side's is the
        # complement, as results are.
        seat = source.perspective if source.perspective != FULL else int(state.to_move)
        value = ai.evaluate(source.game, position, seat, seed=0, budget_s=budget)
        return (value, 1.0 - value) if seat == 0 else (1.0 - value, value)
    return tuple(ai.evaluate(source.game, position, seat, seed=0, budget_s=budget)
                 for seat in range(source.players))


@dataclass(frozen=True)
class Evaluated:
    """A worker's answer for positions ``start``..: expected scores per seat, and for the
    move played from each position (if any), its seat and whether it was the only legal one."""

    start: int
    scores: tuple[tuple[float, ...], ...]
    movers: tuple[int, ...]
    forced: tuple[bool, ...]


def evaluate_positions(source: ReviewSource, start: int, stop: int) -> Evaluated:
    """A heavy-pool job: positions ``start`` to ``stop - 1`` of the game (the last one as the
    last move left it: a resignation's result is ``ReviewSource.ended``)."""
    game = engines.get(source.game)
    states = source.states(with_result=False)
    scores, movers, forced = [], [], []
    for index in range(start, stop):
        state = states[index]
        scores.append(expected_scores(source, state))
        if index < len(source.moves):
            movers.append(int(state.to_move))
            forced.append(len(game.legal_moves(state)) == 1)
    return Evaluated(start, tuple(scores), tuple(movers), tuple(forced))


def better_moves(source: ReviewSource, plies: Sequence[int]) -> dict[int, str]:
    """A heavy-pool job: the AI's move (``BETTER_LEVEL``) in the position before each move
    ``ply``, chosen from what the mover saw then (the move they could have found)."""
    game = engines.get(source.game)
    states = source.states()
    found = {}
    for ply in plies:
        state = states[ply - 1]
        seat = int(state.to_move)
        view = game.view(state, seat)
        found[ply] = ai.choose(source.game, view, seat, level=BETTER_LEVEL,
                               seed=f"review:{source.game_id}:{ply}", budget_s=BETTER_BUDGET_S)
    return found


def better_moves_kept(source: ReviewSource, plies: Sequence[int]
                      ) -> dict[int, tuple[str, float]]:
    """A job: for each move ``ply``, the AI's move instead (``better_moves``) and the mover's
    expected score after it, evaluated as the position after the move played was (the same
    side to move), so that the two compare like with like."""
    game = engines.get(source.game)
    states = source.states(with_result=False)
    found = {}
    for ply, move in better_moves(source, plies).items():
        before = states[ply - 1]
        seat = int(before.to_move)
        after = game.play(before, move)
        found[ply] = (move, expected_scores(source, after)[seat])
    return found


class ReviewService:
    """Who may have a review, and the stored reviews (see the module)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def source(self, game_id: int, user_id: int) -> ReviewSource:
        """What the review ``user_id`` asks for is made from; refuses (``ReviewRefused``,
        ``NotFound``) when it may not be given. The caller checked the game may be seen from
        where it was asked (``GameReads.game_seen_from``)."""
        row = await self._store.get_game(game_id)
        if row is None:
            raise NotFound("errors.not_found", game_id=game_id)
        if row.status == ACTIVE:
            if user_id not in row.seats:
                raise ReviewRefused("errors.review.in_progress", id=game_id)
            if any(not is_ai(other) for other in row.seats if other != user_id):
                raise ReviewRefused("errors.review.against_people", id=game_id)
            perspective = row.seats.index(user_id)
        elif row.status == "finished":
            perspective = FULL
        else:
            raise GameOver("errors.review.aborted", id=game_id)
        if row.ply == 0:
            raise ReviewRefused("errors.review.no_moves", id=game_id)
        moves = [m.text for m in await self._store.moves(game_id) if m.ply <= row.ply]
        if len(moves) != row.ply:  # a move was being written: the caller may ask again
            raise ReviewRefused("errors.review.retry", id=game_id)
        return ReviewSource(row.id, row.version, row.game, len(row.seats), row.seed,
                            row.options, tuple(moves), row.forced_outcome, perspective)

    async def stored(self, source: ReviewSource) -> Review | None:
        """The review of exactly this position, if one was made."""
        row = await review_reads(self._store).review(source.game_id, source.perspective)
        if row is None or row.version != source.version:
            return None
        return Review.load(row.data)

    async def save(self, source: ReviewSource, review: Review) -> None:
        async with self._store.transaction() as tx:
            await review_writes(tx).put_review(source.game_id, source.perspective,
                                               source.version, review.dump(), utcnow())

    async def finished_review(self, game_id: int) -> Review | None:
        """The stored review of a finished game (``/record``'s comments); a review made from a
        player's view while the game ran is theirs alone, never shown here."""
        row = await review_reads(self._store).review(game_id, FULL)
        return None if row is None else Review.load(row.data)
