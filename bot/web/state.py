"""Everything a game's page is drawn from, for one visitor: the pictures and moves
(``bot.web.board``), the clock, the offers and claims, the hint, and the page's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.web import pages
from bot.web.board import Draw, page_state
from bot.web.clocks import claimable, clock_state
from bot.web.offers import offers_state
from bot.web.rematch import rematch_state

if TYPE_CHECKING:
    from bot.core.models import GameRecord
    from bot.services.games import SeenGame


async def whole_state(host: Any, seen: SeenGame, record: GameRecord, user_id: int, lang: str,
                      theme: str, draw: Draw) -> dict[str, Any]:
    """The JSON of ``GET /api/games/<id>`` (``host``: the ``WebHost``), for a player or a
    spectator (``seen.seat`` None: the public board's view, nothing to click)."""
    game_id = seen.game.id
    names = [await host.display_name(uid) for uid in seen.game.seats]
    moves = [m.text for m in record.moves]
    state = await page_state(seen, names, moves, lang, theme, draw)
    state["clock"] = await clock_state(host.clocks, game_id, lang)
    state["offers"] = await offers_state(host.services, seen.game, seen.seat, names, lang)
    if await claimable(host.clocks, seen.game, seen.seat):
        state["offers"]["actions"].append("claim")
    # A spectator (no seat) has no part in the game: no hint, no rematch.
    watching = user_id not in seen.game.seats
    state["watching"] = watching
    state["hint"] = (not watching and bool(seen.moves)
                     and await host.services.aiseats.hint_offered(seen.game, user_id))
    state["rematch"] = None if watching else await rematch_state(host, seen.game, user_id)
    state["words"] = pages.words(lang, game_id)
    return state
