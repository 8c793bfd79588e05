"""Outbox delivery: turns the rows the services wrote (in the same transaction as a move) into
Discord messages, exactly once and in order, then marks them delivered.

* **In order, each at its own ply.** A game's rows go out in id order under a per-game lock,
  and each is drawn from the game as that row's change left it (``services.games.position``): a
  message posted late still shows its own move, names the player to move after it, and carries
  buttons for its own version (stale ones refuse).
* **One event type, one handler.** A row holds a typed event (``bot.core.events``). The game's own
  events (a game starts, a move, a take-back, a resignation, the result) are posted here
  (``posting``, saying what ``compose`` says); every other type by the feature that owns it,
  which registers its posters (``Delivery.register``: the draws feature posts the draw events,
  the tournaments theirs...), posting where the game is played with ``Delivery.post``. A row no
  handler posts is skipped.
* **Where the bot is not** (a DM, a group DM), every post is an interaction's answer or one of
  its five follow-ups (``conversations``): the moves no interaction answers (the AI players')
  go out together, one board after the last, with the result when they end the game
  (``posting.together``).
* **Act, then deliver: one request per move, and a ping.** A command, button or form runs its
  service call through ``Delivery.act``, which then delivers the game's rows
  (``flush(game_id, interaction)``). The first row the service wrote for that interaction (the
  row holds the interaction's token) is the interaction's response itself: a new message
  (callback type 4) with the board, the text and the mention, so the mention notifies (a
  deferred answer's follow-up would be an edit, and an edit notifies nobody). Taking the
  buttons off the previous board is an edit in the background, off the player's path.
* **Exactly once.** Everything else goes to the channel with the row id as its nonce, and a row
  that may have answered its interaction before a restart is looked up first (``threads``).
* A background task delivers what handlers left (after ``HANDLER_GRACE_SECONDS``), and on start
  whatever an earlier run left. With several processes each delivers the rows of its shards'
  servers only (``shards``: ``BoardGamesBot.own_shards``, held exclusively:
  ``bot.store.base.ShardClaim``); a commit in another process that wrote rows for them wakes it
  (``background.woken``), polling is the fallback.

Hidden information never reaches a public message (``compose``).

Every post of a game is in the game's language (``GameInfo.locale``, fixed when it started;
the bot's default for older games), whoever caused it: the text, what the engine said (the
move's description, the result's reason, seat names) and the board image, with its clock.

The parts, each readable and testable alone, take what they use (the services they call, the
board drawer, the Discord client that sends, the default language), not the whole bot:

* ``outbox``: ``Delivery``, which rows go out and when (the background pass, a game's rows in
  order under its lock, marking them delivered), who posts each event type, and ``act``;
* ``background``: the background pass (at start, on a poll, when another process wakes it)
  and the boards' warm-up;
* ``posting``: posting the game's own events where the game is played (the interaction's
  answer, the thread, a conversation's follow-ups), then taking stale buttons off;
* ``compose``: what each of the game's own events says, with its board, buttons and pings;
* ``images``: the board images of the posts and of ``/board``;
* ``threads``: sending a row once (its nonce; an answer given before a restart), in the game's
  thread, started when needed;
* ``buttons``: taking stale buttons off in the background;
* ``policy``: the timings, which young rows a background pass leaves to their handler, how long a
  handler waits for its game, and which failures drop a row or retry it.

Pruning the delivered rows is the scheduler's (``bot.discord.housekeeping``).
"""

from bot.discord.delivery.compose import (
    MAX_MOVE_BUTTONS,
    Composed,
    button_moves,
    description_text,
    outcome_text,
    public_buttons,
)
from bot.discord.delivery.outbox import Acted, Delivery, GameOverListener, Poster
from bot.discord.delivery.policy import HANDLER_GRACE_SECONDS

__all__ = [
    "HANDLER_GRACE_SECONDS",
    "MAX_MOVE_BUTTONS",
    "Acted",
    "Composed",
    "Delivery",
    "GameOverListener",
    "Poster",
    "button_moves",
    "description_text",
    "outcome_text",
    "public_buttons",
]
