"""Tournaments: sign-up, rounds of normal games, results, standings.

Plain async Python over the store (``bot.store.tournaments``), the challenges service (each
pairing becomes a normal game through ``ChallengeService.create_game_in``, in the same
transaction as the pairing) and the pure mathematics of ``bot.core.competition``. Usage::

    tournaments = TournamentService(services, ratings)   # on the game services' context
    t = await tournaments.signup.create(organiser_id, "alak", "swiss", guild_id=guild_id)
    await tournaments.signup.join(t.id, user_id)
    await tournaments.signup.start(t.id, organiser_id)   # round 1 paired, its games created
    boards = await tournaments.reading.pairings(t.id)
    await tournaments.rounds.on_game_over(game_id)       # when a game ends

Life of a tournament: ``create`` (status ``signup``) → ``join``/``leave`` → ``start`` by the
organiser or a manager (``running``: seeds fixed, round 1 paired and its games created) → every
finished game is recorded by ``on_game_over`` → when the last pairing of a round is decided the
next round is paired at once → ``finished``. ``cancel`` stops it at any time before the end: no
more rounds or results; games already running stay playable as friendly (still rated) games.

Where the pieces are:

* ``models``: the values handed to the bot layer (``Tournament``, ``Board``, ``Standings``…),
  the limits and ``TournamentError``;
* ``signup`` (``SignUp``, ``.signup``): creating, joining, leaving, starting, cancelling,
  kicking, and withdrawals; calls ``rounds`` and ``reading``;
* ``rounds`` (``Rounds``, ``.rounds``): recording results, pairing rounds per format, the LPPG
  match, forfeits;
* ``reading`` (``Reading``, ``.reading``): lists, boards, brackets and standings;
* ``base``: the row lookup and the LPPG match state the parts share (plain functions).

The three parts sit side by side in ``TournamentService`` (none inherits from another) and
share the game services' ``ServiceContext`` (store, clock, ``on_change``).

Servers are kept apart: the methods a command reaches with a tournament number take
``guild_id``, the server the command was typed in, and refuse a tournament of another server
exactly like a number that does not exist (``errors.tournament.not_here``).

``reading.forfeit_grace``: the organiser's grace period for tournament games that run out of time,
read by the correspondence scheduler.
"""

from __future__ import annotations

from bot.services.ratings import RatingService
from bot.services.tournaments.models import (
    Board,
    Entrant,
    StandingRow,
    Standings,
    Tournament,
    TournamentError,
)
from bot.services.tournaments.reading import Reading
from bot.services.tournaments.rounds import Rounds
from bot.services.tournaments.signup import SignUp
from bot.services.wiring import Services


class TournamentService:
    """Tournaments as plain async calls, in three parts: ``signup`` (sign-up and management),
    ``rounds`` (results and pairing) and ``reading`` (lists, boards, standings)."""

    def __init__(self, services: Services, ratings: RatingService | None = None) -> None:
        """On the game services' store and clock; ``ratings``: seeds by rating (else by
        joining order)."""
        context = services.context
        self.reading = Reading(context)
        self.rounds = Rounds(context, services.challenges)
        self.signup = SignUp(context, services.challenges, ratings, self.rounds, self.reading)


__all__ = [
    "Board",
    "Entrant",
    "StandingRow",
    "Standings",
    "Tournament",
    "TournamentError",
    "TournamentService",
]
