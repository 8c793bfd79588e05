"""A hint on the web board: the AI's move for the player to move, for them alone, with the
checks and the words of ``/hint`` (against the AI only, never in a tournament game), thought
in the AI's workers like the command's."""

from __future__ import annotations

from aiohttp import web

from bot.core.errors import ServiceError
from bot.core.i18n import say, t
from bot.services.wiring import Services
from bot.web.answers import refused
from bot.workers.ai_player import AiPlayer, HintsBusy
from bot.workers.pool import PoolBusy


async def hint_answer(services: Services, thinker: AiPlayer, game_id: int, user_id: int,
                      lang: str) -> web.Response:
    """The API's answer: ``{"move", "text"}``, or the refusal in the visitor's words."""
    try:
        job = await services.aiseats.hint_job(game_id, user_id)
    except ServiceError as error:
        return refused(error, lang)
    try:
        if not thinker.may_hint(user_id):
            raise HintsBusy
        tip = await thinker.hint(job)
    except HintsBusy:
        return web.json_response({"error": t("ai.hint_busy", lang)}, status=429)
    except PoolBusy:
        return web.json_response({"error": t("ai.busy", lang)}, status=503)
    text = (t("ai.hint.move", lang, move=tip.move) if tip.reason is None
            else t("ai.hint.because", lang, move=tip.move, reason=say(tip.reason, lang)))
    # The words are Discord's markdown; the page shows plain text.
    return web.json_response({"move": tip.move, "text": text.replace("**", "")})
