"""What an outbox row says: its text in the game's language, the position whose board goes with
it, its buttons and whom it pings (``Composer.compose``). Hidden information never reaches a
public message: boards are drawn from the public view, and a position where the player to move
sees more than the public (an LPPG hand) gets no move buttons; that player gets them privately
with ``/hand``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

import engines
import render
from bot.core.correspondence.texts import due_text
from bot.core.events import (
    Event,
    GameEnded,
    GameStarted,
    MovePlayed,
    OutboxItem,
    Resigned,
    UndoDeclined,
    UndoDone,
    UndoRequested,
)
from bot.core.i18n import listed, say, t
from bot.core.models import GameInfo, Position
from bot.core.names import naming_player, player_name
from bot.core.seats import is_ai
from bot.discord.replies import NO_PINGS, pinging
from bot.discord.views.actions import (
    ActionRows,
    ActivityButton,
    action_row,
    link_button,
    with_actions,
)
from bot.discord.views.draws import with_abort
from bot.discord.views.game import move_view, rematch_view, undo_view
from bot.discord.views.review import add_review_button
from bot.services.clocks import ClockInfo
from engines import Phrase

if TYPE_CHECKING:
    from bot.services.clocks import ClockService
    from bot.services.notify import NotifyService
    from bot.services.wiring import Services

#: Boards past this many moves per player never look for an Abort button (two reads saved per
#: move; every player has moved by then in all but freak games, where ``/abort`` still works).
ABORT_BUTTON_PLIES = 6
#: Above this many legal moves the board gets no move buttons (use /move and its autocomplete).
MAX_MOVE_BUTTONS = 20
#: Beyond this many moves we do not look for a subset worth buttons (formatting costs time).
MAX_SCANNED_MOVES = 400
#: One-word moves get buttons only if they are at least this share of all moves.
MIN_BUTTON_SHARE = 0.05


def button_moves(moves: Sequence[Any]) -> list[str]:
    """The moves that get a button under the board: all of them when there are few (Alak's
    points); otherwise the one-word moves when they are few and a fair share of the whole
    (Palam's six column drops among its swaps). Games with hundreds of moves get none: their
    players type with the autocomplete."""
    if len(moves) <= MAX_MOVE_BUTTONS:
        return [str(m) for m in moves]
    if len(moves) > MAX_SCANNED_MOVES:
        return []
    one_word = [text for text in map(str, moves) if " " not in text]
    if len(one_word) <= MAX_MOVE_BUTTONS and len(one_word) >= MIN_BUTTON_SHARE * len(moves):
        return one_word
    return []


def public_buttons(game_name: str, position: Position) -> list[str]:
    """The move buttons a public board may carry: from the public view only, and none when the
    player to move sees more than the public (their moves would tell their cards)."""
    if position.to_move is None or position.private_moves:
        return []
    return button_moves(engines.get(game_name).legal_moves(position.state))


#: A seated player as messages name them (a person's mention, an AI seat's name).
mention = player_name
#: Who a post that every player must see notifies: the users it mentions.
EVERYONE = discord.AllowedMentions(everyone=False, roles=False, users=True)


def description_text(description: Phrase | str | None, move: str, language: str,
                     mover: tuple[Phrase, str] | None = None) -> str:
    """What a move did, in ``language``: a move event holds the engine's phrase (rows written
    before phrases were stored hold English text, shown as it is). Empty when it says no more
    than the move itself. ``mover``: (seat, name): the phrase names the mover so, and an empty
    text means it did not name them."""
    if isinstance(description, Phrase):
        if mover is not None:
            named = naming_player(description, *mover)
            return "" if named is None else say(named, language)
        return "" if description.key == "move.plain" else say(description, language)
    if mover is not None:
        return ""
    text = str(description or "")
    return "" if text == move else text


def outcome_text(outcome: engines.Outcome, language: str) -> str:
    """Why a game ended, in ``language`` (the engine's English when it gave no phrase)."""
    return outcome.reason if outcome.phrase is None else say(outcome.phrase, language)


def game_language(game: GameInfo, default: str) -> str:
    """The language of a game's posts: its own (fixed when it started), else ``default`` (the
    bot's, for older games)."""
    return game.locale or default


@dataclass
class Composed:
    """What one row says: text, the position whose board goes with it (None: no image),
    buttons, whom its mentions notify, and the clock drawn on the board (the position's
    while it is the game's newest)."""

    content: str
    position: Position | None
    view: discord.ui.View | None
    pings: discord.AllowedMentions
    clock: ClockInfo | None = None


#: ``await compose(item, game, language)``: what one event type's row says.
Compose = Callable[[OutboxItem[Any], GameInfo, str], Awaitable[Composed]]


class Composer:
    """What the game's own posts say (``posts``: one method per event type, the board or the
    result in the game's thread), from the services they read."""

    def __init__(self, services: Services, clocks: ClockService, notify: NotifyService,
                 board_url: Callable[[int], str] | None = None,
                 launches_activity: Callable[[], bool] | None = None) -> None:
        self.services = services
        self.clocks = clocks
        self.notify = notify
        #: A game's page on the web board (None: no web board): running games' boards link
        #: to it.
        self.board_url = board_url
        #: Whether the app has Activities (the web board is its Activity): then boards also
        #: get **Open board**, which launches it.
        self.launches_activity = launches_activity or (lambda: False)
        #: The event types posted in the game's thread as the game delivery's own, and what
        #: each says.
        self.posts: dict[type[Event], Compose] = {
            GameStarted: self.started,
            MovePlayed: self.moved,
            UndoDone: self.undone,
            Resigned: self.resigned,
            UndoRequested: self.undo_requested,
            UndoDeclined: self.undo_declined,
            GameEnded: self.ended,
        }

    async def compose(self, item: OutboxItem[Any], game: GameInfo, locale: str) -> Composed:
        """What ``item`` says in ``locale``, and what goes with it (``posts``)."""
        return await self.posts[type(item.event)](item, game, locale)

    async def _position(self, game: GameInfo, ply: int, version: int | None,
                        last_move: str | None) -> Position:
        return await self.services.games.position(game.id, ply=ply, version=version,
                                            last_move=last_move, game=game)

    async def started(self, item: OutboxItem[GameStarted], game: GameInfo, locale: str
                      ) -> Composed:
        engine = engines.get(game.game)
        position = await self._position(game, 0, item.event.version, None)
        seat_list = ", ".join(
            f"{mention(uid, locale, game.seats)} "
            f"({say(engine.seat_phrase(position.state, seat), locale)})"
            for seat, uid in enumerate(game.seats)
        )
        text = t("bot.game.started", locale, game=engine.title, players=seat_list)
        composed = await self._with_turn(text, game, position, locale)
        composed.pings = EVERYONE  # every player learns that the game is on
        return composed

    async def moved(self, item: OutboxItem[MovePlayed], game: GameInfo, locale: str
                    ) -> Composed:
        played = item.event
        position = await self._position(game, played.ply, played.version, played.move)
        text = self.move_text(played, game, position, locale)
        return await self._with_turn(text, game, position, locale)

    async def moves_together(self, items: Sequence[OutboxItem[MovePlayed]], game: GameInfo,
                             locale: str) -> Composed:
        """Several moves in one post (where the bot is not, the AI players' moves after a
        person's): each move's sentence, then the board after the last one, with its turn
        line and buttons."""
        lines = []
        for item in items[:-1]:
            played = item.event
            position = await self._position(game, played.ply, played.version, played.move)
            lines.append(self.move_text(played, game, position, locale))
        composed = await self.moved(items[-1], game, locale)
        composed.content = "\n".join([*lines, composed.content])
        return composed

    def move_text(self, played: MovePlayed, game: GameInfo, position: Position, locale: str
                  ) -> str:
        """What a move did, naming its player (``position``: the game after it)."""
        mover = mention(game.seats[played.seat], locale, game.seats)
        # Said once: "@alice plays h and captures 2 stones", not "@alice played h: Black
        # plays h and captures 2 stones" (the engine's sentence, naming the player).
        seat = played.mover_named or engines.get(game.game).seat_phrase(position.state,
                                                                        played.seat)
        said = description_text(played.description, played.move, locale, (seat, mover))
        description = "" if said else description_text(played.description, played.move,
                                                        locale)
        if said:
            text = said + "."
        elif description:
            text = t("bot.game.moved_described", locale, player=mover, move=played.move,
                     description=description)
        else:
            text = t("bot.game.moved", locale, player=mover, move=played.move)
        if played.undo_dropped_by:
            text += "\n" + t("bot.undo.dropped", locale,
                             player=mention(played.undo_dropped_by, locale))
        return text

    async def undone(self, item: OutboxItem[UndoDone], game: GameInfo, locale: str
                     ) -> Composed:
        done = item.event
        position = await self._position(game, done.ply - 1, done.version, done.last_move)
        return await self._with_turn(t("bot.game.undone", locale), game, position, locale)

    async def resigned(self, item: OutboxItem[Resigned], game: GameInfo, locale: str
                       ) -> Composed:
        text = t("bot.game.resigned", locale,
                 player=mention(game.seats[item.event.seat], locale, game.seats))
        return Composed(text, None, None, NO_PINGS)

    async def undo_requested(self, item: OutboxItem[UndoRequested], game: GameInfo,
                             locale: str) -> Composed:
        by = item.event.by
        others = [uid for uid in game.seats if uid != by]
        text = t("bot.undo.requested", locale, player=mention(by, locale),
                 others=" ".join(mention(uid, locale) for uid in others))
        return Composed(text, None, undo_view(game.id, item.id, locale), pinging(*others))

    async def undo_declined(self, item: OutboxItem[UndoDeclined], game: GameInfo,
                            locale: str) -> Composed:
        declined = item.event
        text = t("bot.undo.declined", locale, player=mention(declined.by, locale))
        if declined.requester is not None:
            text += " " + mention(declined.requester, locale)
        return Composed(text, None, None, pinging(declined.requester))

    async def ended(self, item: OutboxItem[GameEnded], game: GameInfo, locale: str
                    ) -> Composed:
        offered = await self.services.rematches.rematch_offered(game.id)
        view = rematch_view(game.id, locale) if offered else None
        if game.status == "finished" and game.ply > 0:  # something to review
            view = add_review_button(view, game.id, locale)
        return Composed(self._result(game, locale), None, view, EVERYONE)

    async def as_it_stands(self, game: GameInfo, locale: str) -> Composed:
        """The game's board as it stands now, pinging whoever must move (or its result): for
        a conversation whose last rows could not be posted (their token had died)."""
        position = await self._position(game, game.ply, game.version, game.last_move)
        text = t("anywhere_restart.as_it_stands", locale)
        if game.status != "active":
            return Composed(text + "\n" + self._result(game, locale), position, None,
                            NO_PINGS)
        return await self._with_turn(text, game, position, locale)

    async def _with_turn(
        self, text: str, game: GameInfo, position: Position, locale: str
    ) -> Composed:
        """The text with the board of ``position``, and while the game goes on at that
        position, the mention of the player to move (who alone is pinged) and the move
        buttons of that version."""
        if position.to_move is None:
            return Composed(text, position, None, NO_PINGS)
        user = game.seats[position.to_move]
        ai_turn = is_ai(user)
        key = "ai.thinking" if ai_turn else "bot.game.your_turn"
        text += "\n" + t(key, locale, player=mention(user, locale, game.seats))
        clock = None
        if position.current:
            # Timed games (bot.services.clocks): when the move is due, and who paused the clock.
            clock = await self.clocks.due_info(game.id)
            due = due_text(clock, locale) if clock is not None else None
            if due:
                text += " " + due
        link = self._board_links(game, locale)
        if ai_turn:  # nobody to ping and nothing to press: the AI answers on its own
            view = None if not link else ActionRows([
                {"type": discord.ComponentType.action_row.value, "components": link}])
            return Composed(text, position, view, NO_PINGS, clock)
        shown = public_buttons(game.game, position)
        view = move_view(game.id, position.version, shown, locale) if shown else None
        if (position.current and position.ply < ABORT_BUTTON_PLIES * len(game.seats)
                and await self.services.draws.abort_open(game.id, position.ply, game=game)):
            view = with_abort(view, game.id, locale)  # until every player has moved once
        # Buttons stand for the commands (where the bot is not, only the app's installer has
        # them), the same in server threads so that both places work the same way.
        # Only buttons that may do something: no Undo against the AI (it refuses every
        # take-back), Hint only where the player to move may have one.
        against_ai = any(is_ai(uid) for uid in game.seats)
        view = with_actions(view, action_row(
            game.id, locale, hands=render.has_hands(game.game),
            timed=clock is not None and clock.deadline is not None, against_ai=against_ai,
            hint=against_ai and await self.services.aiseats.hint_offered(game, user)), link)
        # Quiet mode (``/mute``): the player is named, not pinged.
        pings = pinging(user) if await self.notify.turn_pings(user, game.id) else NO_PINGS
        return Composed(text, position, view, pings, clock)

    def _board_links(self, game: GameInfo, locale: str) -> list[dict[str, Any]]:
        """The web board's buttons, where the web board runs and can play the game (not in a
        conversation, where posts answer interactions only): its **Open board** link, and
        where the app has Activities **Open board** launching it as the Activity, the link
        then named **In a browser**."""
        if self.board_url is None or game.in_conversation:
            return []
        url = self.board_url(game.id)
        if not self.launches_activity():
            return [link_button(t("web.open_board", locale), url)]
        return [ActivityButton(game.id, t("web.open_board", locale)).item.to_component_dict(),
                link_button(t("web.in_browser", locale), url)]

    def _result(self, game: GameInfo, locale: str) -> str:
        outcome = game.outcome
        if outcome is None:
            return t("bot.game.over", locale, reason="")
        reason = outcome_text(outcome, locale)
        winners = [mention(game.seats[s], locale, game.seats) for s in sorted(outcome.winners)]
        if winners:
            return t("bot.game.won", locale, winners=listed(winners, locale),
                     count=len(winners), reason=reason)
        if not reason:
            return t("bot.game.drawn_plain", locale)
        return t("bot.game.drawn", locale, reason=reason)
