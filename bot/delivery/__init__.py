"""Outbox delivery: turns the rows the services wrote (in the same transaction as a move) into
Discord messages, exactly once and in order, then marks them delivered.

* **In order, each at its own ply.** A game's rows go out in id order under a per-game lock,
  and each is drawn from the game as that row's change left it (``services.games.position``): a
  message posted late still shows its own move, names the player to move after it, and carries
  buttons for its own version (stale ones refuse).
* **One request per move, and a ping.** A handler calls ``flush(game_id, interaction)`` right
  after its service call. The first row the service wrote for that interaction (the row holds
  the interaction's token) is the interaction's response itself: a new message (callback type
  4) with the board, the text and the mention, so the mention notifies (a deferred answer's
  follow-up would be an edit, and an edit notifies nobody). Taking the buttons off the previous
  board is an edit in the background, off the player's path.
* **Exactly once.** Everything else goes to the channel with the row id as its nonce, and a row
  that may have answered its interaction before a restart is looked up first (``threads``).
* A background task delivers what handlers left (after ``HANDLER_GRACE_SECONDS``), and on start
  whatever an earlier run left. With several processes each delivers the rows of its shards'
  servers only (``BoardGamesBot.own_shards``, held exclusively: ``bot.store.base.ShardClaim``);
  a commit in another process that wrote rows for them wakes it (``woken``), polling is the
  fallback.

Hidden information never reaches a public message (``compose``).

Every post of a game is in the game's language (``GameInfo.locale``, fixed when it started;
the bot's default for older games), whoever caused it: the text, what the engine said (the
move's description, the result's reason, seat names) and the board image, with its clock.

The parts, each readable and testable alone:

* ``outbox``: ``Delivery``, which rows go out and when (the background pass, a game's rows in
  order under its lock, marking them delivered);
* ``compose``: what a row says, with its board, buttons and pings;
* ``images``: the board images of the posts and of ``/board``;
* ``threads``: sending a row once (its nonce; an answer given before a restart), in the game's
  thread, started when needed;
* ``buttons``: taking stale buttons off in the background;
* ``policy``: the timings, which young rows a background pass leaves to their handler, how long a
  handler waits for its game, and which failures drop a row or retry it.

Pruning the delivered rows is the scheduler's (``bot.housekeeping``).
"""

from bot.delivery.compose import (
    KINDS,
    MAX_MOVE_BUTTONS,
    Composed,
    button_moves,
    description_text,
    outcome_text,
    public_buttons,
)
from bot.delivery.outbox import Delivery, GameOverListener, Poster
from bot.delivery.policy import HANDLER_GRACE_SECONDS

__all__ = [
    "HANDLER_GRACE_SECONDS",
    "KINDS",
    "MAX_MOVE_BUTTONS",
    "Composed",
    "Delivery",
    "GameOverListener",
    "Poster",
    "button_moves",
    "description_text",
    "outcome_text",
    "public_buttons",
]
