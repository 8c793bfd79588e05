"""Draw offers, take-backs and claims on time on the web board: what a page shows of them, and
the answers it sends, through the same services as the buttons in Discord (``services.draws``,
``services.play``'s undo, the clocks' claim)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.i18n import t
from bot.core.models import GameInfo
from bot.core.seats import has_ai
from bot.services.clocks import ClockService
from bot.services.draws import DrawError, draw_possible
from bot.services.wiring import Services

#: What a page may ask: each is a button of the page.
ACTIONS = ("offer_draw", "accept_draw", "decline_draw", "ask_undo", "accept_undo",
           "decline_undo", "claim")


async def offers_state(services: Services, info: GameInfo, seat: int | None,
                       names: Sequence[str], lang: str) -> dict[str, Any]:
    """The offers a page shows: which buttons it has, and the sentence about a pending
    offer or request (``{"text": …, "actions": [...]}``)."""
    if info.status != "active" or seat is None:
        return {"text": "", "actions": []}
    actions: list[str] = []
    texts: list[str] = []
    if draw_possible(info.game, len(info.seats)):
        offers = await services.draws.pending_draw_offers(info.id)
        mine = [o for o in offers if o.seat == seat]
        theirs = [o for o in offers if o.seat != seat]
        if theirs:
            texts.append(t("web.draw_offered_by", lang, player=names[theirs[0].seat]))
            actions += ["accept_draw", "decline_draw"]
        elif mine:
            texts.append(t("web.draw_yours", lang))
        else:
            actions.append("offer_draw")
    requester = info.undo_requested_by
    if requester is not None and requester == info.seats[seat]:
        texts.append(t("web.undo_yours", lang))
    elif requester is not None:
        texts.append(t("web.undo_asked_by", lang, player=names[info.seats.index(requester)]))
        if info.seats[seat] not in info.undo_accepted_by:
            actions += ["accept_undo", "decline_undo"]
    elif info.ply > 0 and not has_ai(info.seats):
        actions.append("ask_undo")
    return {"text": " ".join(texts), "actions": actions}


async def act(services: Services, clocks: ClockService, game_id: int, user_id: int,
              action: str) -> GameInfo:
    """Do ``action`` (one of ``ACTIONS``) for the user: the game as the service left it.
    Raises the service's refusal (a ``ServiceError``)."""
    if action == "claim":
        return await clocks.claim(game_id, user_id)
    if action == "offer_draw":
        return (await services.draws.offer_draw(game_id, user_id)).game
    if action in ("accept_draw", "decline_draw"):
        offers = [o for o in await services.draws.pending_draw_offers(game_id)
                  if o.user_id != user_id]
        if not offers:
            raise DrawError("errors.draw_not_open", game_id=game_id)
        return (await services.draws.answer_draw(game_id, user_id, offers[0].id,
                                                 action == "accept_draw")).game
    if action == "ask_undo":
        return await services.play.request_undo(game_id, user_id)
    if action in ("accept_undo", "decline_undo"):
        return await services.play.answer_undo(game_id, user_id, action == "accept_undo")
    raise ValueError(f"unknown action {action!r}")
