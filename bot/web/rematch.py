"""Rematch on the web board: after a game ends, its players ask for it as with Discord's
Rematch button (the same service call, its refusals in the player's words); the thread is
told as the button tells it, the new game is posted in Discord as ever, and the page offers
the new game."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from bot.core.errors import ServiceError
from bot.core.models import GameInfo
from bot.web.answers import refused

log = logging.getLogger(__name__)


async def rematch_state(host: Any, info: GameInfo, user_id: int) -> dict[str, Any] | None:
    """What the page shows of a rematch: None where the game has none (running, aborted, a
    tournament's); else whether the visitor asked already, and the new game once started."""
    if info.status != "finished" or not await host.services.rematches.rematch_offered(info.id):
        return None
    asked, new_game = await host.services.rematches.rematch_state(info.id)
    return {"asked": user_id in asked, "new_game": new_game}


async def rematch_answer(host: Any, game_id: int, user_id: int, lang: str,
                         wake: Callable[[int], None]) -> web.Response:
    """``POST /api/games/<id>/rematch``: ask (the last player to ask starts the new game).
    ``wake(game_id)`` tells the game's open pages to look again: a rematch writes no event
    of the finished game that their live sockets would hear."""
    try:
        rematch = await host.services.rematches.ask_rematch(game_id, user_id)
    except ServiceError as error:
        return refused(error, lang)
    wake(game_id)
    try:
        await host.announce_rematch(rematch, user_id)
        if rematch.new_game is not None:
            await host.deliver(rematch.new_game.id, rematch.new_game)
    except Exception:
        # The rematch stands; the new game's rows stay in the outbox, which retries them.
        log.warning("telling Discord of game %s's rematch failed", game_id, exc_info=True)
    new_id = rematch.new_game.id if rematch.new_game is not None else None
    return web.json_response({"new_game": new_id})
