"""The bot's core without Discord: games as plain async Python (docs/architecture.md).

Services know nothing of discord.py and hold no SQL: they work on the repository interface of
``bot.store`` and the engine API of ``engines``, and return frozen values (``models``). One
``Services`` object builds them all on one store and holds them side by side, one per feature;
a call names the service that owns it. Usage::

    store = await open_store("data/bot.sqlite3")        # or a postgresql:// URL
    services = Services(store)                           # clock=..., seeds=... for tests
    challenge = await services.challenges.challenge("alak", host_id, opponent_id=other_id)
    info = await services.challenges.accept(challenge.id, other_id)   # GameInfo, game started
    result = await services.play.move(info.id, host_id, "f", expected_version=info.version)
    info = await services.games.get_game(info.id)

Where things are (``Services.<name>``: its class, in ``bot.services.<module>``). No service
inherits from another; each is given, when built (``wiring``), the few others it calls, and
calls them by their public methods only. What they share is ``context.ServiceContext`` (the
store, clock, seeds, engines, the states just played, the ``on_change`` hook); the plain
helpers they share (a game's row, a seat, a ``GameInfo``…) are functions of ``base``.

* ``games`` (``GameReads``, ``games``): reading games (by number, by thread, a user's, those to
  suggest), legal moves, records and positions, the thread a game posts in.
* ``outbox`` (``OutboxService``, ``games``): the rows waiting for delivery, marking them
  delivered, pruning the old ones.
* ``settings`` (``SettingsService``, ``settings``): a server's language and default time
  control, a user's language.
* ``challenges`` (``ChallengeService``, ``challenges``): challenges, lobbies, and every new
  game (``create_game_in``: games against the AI, rematches and tournaments call it).
* ``seeks`` (``SeekService``, ``seeks``): open offers to play and ``/lobby``.
* ``aiseats`` (``AiSeatService``, ``aiseats``): AI players' seats (reserved ids per level),
  games against the AI, lobbies filled with AI players, the AI's turns, hints, records.
* ``play`` (``PlayService``, ``play``): moves, resignations, take-backs (how a change is
  written).
* ``draws`` (``DrawService``, ``draws``): draw offers and their answers (the AI's too), and a
  player's abort before everyone has moved.
* ``rematches`` (``RematchService``, ``rematches``), ``conversations``
  (``ConversationService``, ``conversations``: the way into a game played in a DM), ``admin``
  (``AdminService``, ``admin``: aborting a game, changing a server's settings).
* In the same transaction as a change: ``gamestate`` (statuses, sides, rebuilding a game from
  its moves, ending it without a move), ``drawstate`` (what a move or a game's end does to
  pending draw offers), ``clockstate`` (what it does to the clock).
* Built beside ``Services`` on its store: ``clocks.ClockService`` (time controls, reminders,
  claims, forfeits, vacations; ``records``: text records of games),
  ``tournaments.TournamentService`` (its parts ``signup``, ``rounds``, ``reading``) and
  ``ratings.RatingService``; both of the last learn of finished games from the ``game_over``
  outbox row (``tournaments.rounds.on_game_over``, ``ratings.on_game_over``) and catch up at
  start-up (``sync_finished_games``); ``notify``, ``history``, ``reviews``.
* ``errors``: every refusal is a ``ServiceError`` with a translation ``key`` and ``params`` (and
  an English ``message``); nothing is changed when one is raised.

Games. ``GameInfo.state`` is the public view (``view(state, None)``): no seed while running,
no hidden hand; ``games.player_view`` gives a seat's own view. ``play.move`` with
``expected_version`` fails with ``BoardChanged`` if the board moved on: of two moves racing for
one ply, one wins and the other gets ``BoardChanged``. A game named by number is only seen
from its own server (or, in a direct message, by its players: ``games.game_seen_from``).

The outbox. Every message a change causes is an event (``bot.core.events``: one frozen dataclass per
thing that happens, ``MovePlayed``, ``GameEnded``, ``DrawOffered``, ``Reminder``...; the types
are the schema) written as an outbox row in the change's own transaction
(``tx.insert_outbox(event, now, reply_token)``), then delivered by ``bot.discord.delivery`` (exactly
once: the row id is the message's nonce, and the interaction that caused the change answers
with its rows when it can, ``reply_token``). Once the transaction commits, the store also
publishes its events to listeners in the process (``Store.events``). A game event's
``version`` is the game's version after the change, so a row is drawn at its own position
(``GameReads.position``). Delivered rows are kept ``outbox_history_days``
(``OutboxService.prune_outbox``).
"""

from bot.core.errors import (
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
from bot.core.events import OutboxItem
from bot.core.models import (
    Challenge,
    GameInfo,
    GameRecord,
    MoveResult,
    Position,
    RecordedMove,
    utcnow,
)
from bot.services.clocks import ClockError, ClockInfo, ClockService, VacationInfo
from bot.services.context import ServiceContext
from bot.services.gamestate import rebuild, secret_seed
from bot.services.ratings import RatingService
from bot.services.tournaments import TournamentError, TournamentService
from bot.services.wiring import Services

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
    "IllegalMoveError",
    "MoveResult",
    "NotAPlayer",
    "NotFound",
    "NotYourTurn",
    "OutboxItem",
    "Position",
    "RatingService",
    "RecordedMove",
    "ServiceContext",
    "ServiceError",
    "Services",
    "TournamentError",
    "TournamentService",
    "UndoError",
    "VacationInfo",
    "rebuild",
    "secret_seed",
    "utcnow",
]
