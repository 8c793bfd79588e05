"""What a game's page shows one viewer: the bot's own images of the game as that viewer may
see it (the board; an LPPG hand to its owner only; the marker choices), each with its hit map,
and the legal moves split into the picks a click adds (``render.split_move``).

Everything here is drawn from ``SeenGame.view``, the engine's view for the viewer's seat, so
another seat's hidden cards never enter a picture or the JSON. The legal moves come from the
same read of the game as the view: the picks offered always match the board shown.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import orjson

import engines
import render
from bot.core.i18n import listed, say, t
from bot.core.models import GameInfo

if TYPE_CHECKING:
    from bot.services.games import SeenGame

#: ``await draw(fn, *args)``: ``fn(*args)`` off the event loop, with the bot's boards (its
#: board workers: one cache of pieces and palettes, the pictures of a game all alike).
Draw = Callable[..., Awaitable[Any]]


def draw_pictures(game_name: str, view: dict[str, Any], seat: int | None, names: list[str],
                  lang: str, theme: str, last_move: str | None
                  ) -> dict[str, tuple[bytes, str] | None]:
    """The pictures of a seat's view (``engine.dump`` of it: plain data a worker process
    receives): the board, the seat's hand and the marker choices, each as (PNG, hit map
    JSON), or None where the game has no such picture now."""
    state = engines.get(game_name).load(view)
    board = render.board_with_hits(game_name, state, viewer=seat, players=names, theme=theme,
                                   lang=lang, last_move=last_move)
    hand = None
    if seat is not None and render.has_hands(game_name):
        hand = render.hand_with_hits(game_name, state, seat, players=names, theme=theme,
                                     lang=lang)
    choices = render.choices(game_name, state, seat, theme=theme, lang=lang)
    return {name: None if drawn is None else (drawn[0], drawn[1].to_json())
            for name, drawn in (("board", board), ("hand", hand), ("choices", choices))}


def _picture(drawn: tuple[bytes, str] | None) -> dict[str, Any] | None:
    """An image as a data URL with its hit map: one answer holds both, so the regions laid
    over an image are always that image's."""
    if drawn is None:
        return None
    png, hits = drawn
    return {"image": "data:image/png;base64," + base64.b64encode(png).decode(),
            "hits": orjson.loads(hits)}


def status_text(info: GameInfo, seat: int | None, names: Sequence[str], lang: str) -> str:
    """Whose turn it is, or how the game ended, in the viewer's words."""
    if info.status == "aborted":
        return t("web.aborted", lang)
    if info.status != "active" or info.to_move is None:
        outcome = info.outcome
        if outcome is None:
            return t("web.finished", lang, result="")
        reason = outcome.reason if outcome.phrase is None else say(outcome.phrase, lang)
        if outcome.winners:
            result = t("web.won", lang, reason=reason,
                       winners=listed([names[s] for s in sorted(outcome.winners)], lang))
        else:
            result = t("web.drawn", lang, reason=reason)
        return t("web.finished", lang, result=result).strip()
    if seat is not None and seen_turn(info, seat):
        return t("web.your_turn", lang)
    return t("web.turn_of", lang, player=names[info.to_move])


def seen_turn(info: GameInfo, seat: int) -> bool:
    return info.status == "active" and info.to_move == seat


async def page_state(seen: SeenGame, names: Sequence[str], moves: Sequence[str], lang: str,
                     theme: str, draw: Draw) -> dict[str, Any]:
    """The JSON a game's page is drawn from (see the module)."""
    info = seen.game
    engine = engines.get(info.game)
    drawn = await draw(draw_pictures, info.game, engine.dump(seen.view), seen.seat, list(names),
                       lang, theme, info.last_move)
    pictures = {name: _picture(picture) for name, picture in drawn.items()}
    title = engines.get(info.game).title
    seat_names = engines.get(info.game).seat_names
    return {
        "id": info.id,
        "game": info.game,
        "title": t("web.title", lang, id=info.id, game=title),
        "version": info.version,
        "ply": info.ply,
        "status": info.status,
        "seat": seen.seat,
        "to_move": info.to_move if info.status == "active" else None,
        "your_turn": bool(seen.moves),
        "turn_text": status_text(info, seen.seat, names, lang),
        "players": [{"name": name, "seat": seat_names[i % len(seat_names)],
                     "you": i == seen.seat} for i, name in enumerate(names)],
        "moves": list(moves),
        # Each legal move as the picks that make it, in notation order.
        "legal": [render.split_move(info.game, move) for move in seen.moves],
        "buttons": sorted(render.button_parts(info.game)),
        # Moves the page toggles and sends as one (Polygo's groups marked dead together).
        "together": render.together(info.game, seen.moves),
        **pictures,
    }
