"""The bot's core without Discord: games as plain async Python (DESIGN.md §5–6).

Implements the contract of SERVICES_API.md exactly; everything marked *added* below goes
beyond it. Usage::

    store = await open_store("data/bot.sqlite3")       # bot.store: migrations, WAL, FKs
    service = GameService(store)                        # clock=..., seeds=... for tests
    challenge = await service.challenge("alak", host_id, opponent_id=other_id)
    info = await service.accept(challenge.id, other_id)          # GameInfo, game started
    result = await service.move(info.id, host_id, "f", expected_version=info.version)
    ...
    await store.close()

Every failure raises a ``ServiceError`` subclass (``bot.services.errors``) with ``key``/``params``
for ``bot.i18n.t`` and an English ``message``; nothing is changed when one is raised.

Challenges. ``players == 2``: a challenge to ``opponent_id`` (only they may accept/decline) or
an open one (anyone but the host may accept; it cannot be declined). ``players > 2``: a lobby
(``opponent_id`` must be None): players ``join``/``leave``, the host ``start``s it when full
(``accept`` on a lobby raises ``ChallengeError``). ``join`` also works on an open two-player
challenge (then the host starts it). Seats follow the joining order; the host is seat 0.
Statuses: open, accepted (2-player accept), started (lobby start), declined, cancelled.

Games. ``GameInfo.state`` is the public view (``view(state, None)``): no seed while running,
no hidden hand. ``player_view`` gives a seat's own view. ``move`` with ``expected_version``
fails with ``BoardChanged`` if the board moved on; two moves racing for one ply: one wins, the
other gets ``BoardChanged``. ``legal_moves`` returns [] when it is not the user's turn (also for
spectators and finished games). ``record`` returns a ``GameRecord`` (``game``, ``moves`` as
``RecordedMove(ply, seat, text, time)`` tuples with ply 1 for the first move, ``seed`` only
once the game is over, ``header`` dict).

Rulings (details in ``bot.services.games``): resigning ends the game at once for everybody,
the winners being every seat not on the resigner's side (teams: LPPG 4 players 0+2 v 1+3); undo
takes back the requester's own last move once every other player agrees.

Outbox kinds and payloads (written in the same transaction as their cause):
``game_started`` {game_id}; ``move`` {game_id, ply, move, description, seat, user_id*};
``game_over`` {game_id} (after the ``move`` or ``resigned`` row that ended the game);
``resigned`` {game_id, seat, user_id*}; ``undo_requested`` {game_id, by (user id), seat*, ply*};
``undo_done`` {game_id, ply* (the ply removed), seat*}; *added*: ``undo_declined``
{game_id, by}. Fields marked * are additions.

Additions to the contract:

* ``GameService(store, *, clock=utcnow, seeds=secret_seed)``: ``seeds`` makes seeds
  reproducible in tests (default: ``secrets.randbits(63)``).
* ``GameService.get_challenge(id)``, ``open_challenges(guild_id=None, *, limit=25)``,
  ``games_of(..., limit=100)``, ``replay_matches(game_id) -> bool`` (snapshot == replay),
  ``guild_settings(guild_id) -> (locale, dict)``, ``set_guild_settings(guild_id, *, locale,
  settings)``, ``user_locale(user_id)``, ``set_user_locale(user_id, locale)``.
* ``pending_outbox(limit=100, *, game_id=None)``: ``game_id`` keeps one game's rows only.
* ``game_seen_from(game_id, *, guild_id, user_id)``: a game named by number, only from its own
  server (or, in a direct message, only the user's own games); otherwise ``NotFound``
  (``errors.game_not_here`` / ``errors.game_not_yours``), the answer an unknown number gets.
  The tournament service's methods take ``guild_id`` the same way, and ``manager_of`` (the
  server where the user has Manage Server) instead of a bare manager flag.
* ``prune_outbox(history, *, batch=500)``: deletes outbox rows delivered longer than ``history``
  ago, keeping the outbox to a bounded history (the bot runs it from its scheduler).
* ``Challenge.game_id`` (the game it became), ``Challenge.is_lobby``, ``Challenge.is_full``.
* ``GameInfo.undo_requested_by`` (user id), ``GameInfo.undo_accepted_by`` (user ids),
  ``GameInfo.resigned_seat``, ``GameInfo.players``, ``GameInfo.seat_of(user_id)``.
* ``UndoError(ServiceError)`` for undo requests/answers that are not allowed;
  ``ChallengeError`` also covers an unknown game, a bad player count and bad options.
* ``GameService.create_game(game, seats, options, *, time_control=None, guild_id=None,
  channel_id=None, source=None)`` (TOURNAMENT_CLOCK_CONTRACT.md) starts a game without a
  challenge; ``create_game_in(tx, ...)`` does it inside the caller's transaction (tournaments
  create pairings and games together); ``source`` goes into the ``game_started`` payload.
  ``resolve_setup(game, players, options)`` checks a setup as ``challenge`` does.
* Tournaments (``bot.services.tournaments.TournamentService``) and ratings
  (``bot.services.ratings.RatingService``): see their module docstrings. Outbox kinds
  ``tournament_round`` {tournament_id, round} and ``tournament_finished`` {tournament_id}
  (``game_id`` NULL). The bot calls ``TournamentService.on_game_over(game_id)`` and
  ``RatingService.on_game_over(game_id)`` when it delivers a ``game_over`` row (the
  tournaments cog registers them with ``Delivery.on_game_over``), and both
  ``sync_finished_games()`` at start-up. ``TournamentService.forfeit_grace`` is the clocks'
  ``grace_for``. Errors: ``TournamentError`` (``errors.tournament.*``).
* ``open_store(path, *, synchronous="NORMAL")``; ``bot.services.games.rebuild(...)`` rebuilds
  a state from (seed, options, moves) plus a stored resignation.

Correspondence play (issue 11, *added*; details in ``bot.services.clocks``):

* ``challenge(..., time_control=None)`` (``untimed``, ``3d``, ``3d+1d``; a bad one raises
  ``ChallengeError`` key ``errors.bad_time_control``) and ``create_game(game, seats, options,
  *, time_control=None, guild_id=None, channel_id=None, source=None)`` for tournaments
  (``source`` goes into the ``game_started`` payload). The clock starts in the transaction that
  creates the game and moves on in the one of each move, resignation and undo
  (``bot.services.clockstate``).
* ``GameService.resolve_setup(game, players, options)``, ``create_game_in(tx, ...)`` (the same
  inside the caller's transaction; call ``notify_change()`` after its commit), ``store``.
* ``GameService.on_change``: called after each committed change that may move a deadline (the
  bot sets it to the scheduler's ``poke``); ``notify_change()`` calls it.
* ``GameInfo.timed_out_seat``: the seat that lost on time (``resigned_seat`` is now only set for
  a resignation).
* ``ClockService(store, games, *, clock, grace_for, vacation_days_per_year, on_change)``:
  ``clock_info``/``clock_infos``/``deadline``, ``claim``, ``vacation``/``vacation_status``,
  ``dm_reminders``/``set_dm_reminders``, ``record_text``, ``replay_source`` (a
  ``ReplaySource``: the plain data that rebuilds every position, for a worker process;
  ``public_states`` uses it), and the scheduler's ``next_due`` /
  ``run_due`` (``scheduler()`` builds the task). Errors: ``ClockError`` (keys in
  ``clocks.toml``). Outbox kinds ``reminder``, ``timeout``, ``vacation``.
* ``bot.services.records``: ``format_record``/``parse_record``/``replay_record`` (text records).
"""

from bot.services.clocks import ClockError, ClockInfo, ClockService, VacationInfo
from bot.services.errors import (
    BoardChanged,
    ChallengeError,
    GameOver,
    IllegalMoveError,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    ServiceError,
    UndoError,
)
from bot.services.games import GameService, rebuild, secret_seed
from bot.services.models import (
    Challenge,
    GameInfo,
    GameRecord,
    MoveResult,
    OutboxItem,
    RecordedMove,
    utcnow,
)
from bot.services.ratings import RatingService
from bot.services.tournaments import TournamentError, TournamentService

__all__ = [
    "BoardChanged",
    "Challenge",
    "ChallengeError",
    "ClockError",
    "ClockInfo",
    "ClockService",
    "GameInfo",
    "GameOver",
    "GameRecord",
    "GameService",
    "IllegalMoveError",
    "MoveResult",
    "NotAPlayer",
    "NotFound",
    "NotYourTurn",
    "OutboxItem",
    "RatingService",
    "RecordedMove",
    "ServiceError",
    "TournamentError",
    "TournamentService",
    "UndoError",
    "VacationInfo",
    "rebuild",
    "secret_seed",
    "utcnow",
]
