"""Tournaments: sign-up, rounds of normal games, results, standings.

Plain async Python over the store (``bot.store.tournaments``), the game service (each pairing
becomes a normal game through ``GameService.create_game_in``, in the same transaction as the
pairing) and the pure mathematics of ``bot.competition``.

Life of a tournament: ``create`` (status ``signup``) → ``join``/``leave`` → ``start`` by the
organiser or a manager (``running``: seeds fixed, round 1 paired and its games created) → every
finished game is recorded by ``on_game_over`` → when the last pairing of a round is decided the
next round is paired at once → ``finished``. ``cancel`` stops it at any time before the end: no
more rounds or results; games already running stay playable as friendly (still rated) games.

Where the pieces are:

* ``models``: the values handed to the bot layer (``Tournament``, ``Board``, ``Standings``…),
  the limits and ``TournamentError``;
* ``signup``: creating, joining, leaving, starting, cancelling, kicking, and withdrawals;
* ``rounds``: recording results, pairing rounds per format, the LPPG match;
* ``reading``: lists, boards, brackets and standings;
* ``base``: the collaborators and the row lookup every part uses.

Servers are kept apart: the methods a command reaches with a tournament number take
``guild_id``, the server the command was typed in, and refuse a tournament of another server
exactly like a number that does not exist (``errors.tournament.not_here``).

``forfeit_grace``: the organiser's grace period for tournament games that run out of time,
read by the correspondence scheduler.
"""

from __future__ import annotations

from bot.services.tournaments.models import (
    Board,
    Entrant,
    StandingRow,
    Standings,
    Tournament,
    TournamentError,
)
from bot.services.tournaments.signup import SignUp


class TournamentService(SignUp):
    """Tournaments as plain async calls: ``SignUp`` (sign-up and management) on ``Rounds``
    (results and pairing) on ``Reading`` (lists, boards, standings)."""


__all__ = [
    "Board",
    "Entrant",
    "StandingRow",
    "Standings",
    "Tournament",
    "TournamentError",
    "TournamentService",
]
