"""A past position on a game's page: the board as it stood after one of its moves, drawn by
the bot for the viewer (an LPPG hand: the viewer's own only, as on the live page), with no
clickable region: the past is looked at, not played.

The position is rebuilt on the server from the game's stored moves (``ReplaySource``, as
``/replay`` does); the replay holds the secret seed and stays in the bot's processes. Only
the viewer's own view of that position is drawn, so no other seat's past cards reach the page.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from aiohttp import web

import engines
import render
from bot.core.errors import ServiceError
from bot.core.models import GameInfo
from bot.services.clocks import ReplaySource
from bot.services.gamestate import apply_forced_outcome
from bot.web.answers import refused
from bot.web.board import Draw


def past_view(source: ReplaySource, ply: int, seat: int | None) -> Any:
    """What ``seat`` (None: a spectator) sees of the position after move ``ply`` (0: the
    setup); ``ply`` runs from 0 to the number of moves played."""
    if not 0 <= ply <= len(source.moves):
        raise ValueError(f"ply {ply} is not a position of game {source.game_id}")
    game = engines.get(source.game)
    state = game.replay(source.players, source.seed, source.options, list(source.moves[:ply]))[-1]
    if ply == len(source.moves):
        state = apply_forced_outcome(state, source.forced_outcome)
    return game.view(state, seat)


def draw_past(source: ReplaySource, ply: int, seat: int | None, names: Sequence[str],
              lang: str, theme: str) -> dict[str, bytes | None]:
    """PNGs of the position after move ``ply`` as ``seat`` saw it: the board, and the seat's
    own hand where the game has hands (else None)."""
    view = past_view(source, ply, seat)
    last = source.moves[ply - 1] if ply else None
    board = render.board(source.game, view, viewer=seat, players=list(names), theme=theme,
                         lang=lang, last_move=last)
    hand = None
    if seat is not None and render.has_hands(source.game):
        hand = render.hand(source.game, view, seat, players=list(names), theme=theme, lang=lang)
    return {"board": board, "hand": hand}


def past_state(drawn: dict[str, bytes | None], ply: int, moves: Sequence[str]
               ) -> dict[str, Any]:
    """The JSON of a past position: its pictures as data URLs (no hit map: nothing to click)."""
    return {"ply": ply, "last_move": moves[ply - 1] if ply else None,
            **{name: None if png is None else
               {"image": "data:image/png;base64," + base64.b64encode(png).decode()}
               for name, png in drawn.items()}}


async def past_answer(host: Any, info: GameInfo, user_id: int, ply: int, lang: str,
                      theme: str, draw: Draw) -> web.Response:
    """The page's answer for the position after move ``ply`` of a game the visitor plays
    or watches (``host``: the ``WebHost``; ``draw``: the board workers, as for the live page)."""
    try:
        source = await host.clocks.replay_source(info.id)
    except ServiceError as error:
        return refused(error, lang)
    if not 0 <= ply <= len(source.moves):
        return web.json_response({"error": f"ply from 0 to {len(source.moves)} expected"},
                                 status=404)
    seat = info.seats.index(user_id) if user_id in info.seats else None  # None: a spectator
    names = [await host.display_name(uid) for uid in info.seats]
    drawn = await draw(draw_past, source, ply, seat, names, lang, theme)
    return web.json_response(past_state(drawn, ply, source.moves),
                             headers={"Cache-Control": "no-store"})
