"""What the web board's handlers share: the visitor's language, JSON bodies, and refusals
in the visitor's words with their HTTP status."""

from __future__ import annotations

from typing import Any

import orjson
from aiohttp import web

from bot.core.errors import (
    BoardChanged,
    GameOver,
    IllegalMoveError,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    ServiceError,
    UndoError,
)
from bot.core.i18n import t
from bot.services.draws import DrawError
from bot.web import pages

#: HTTP status of each kind of refusal (the text says the rest); any other is 400.
STATUS: dict[type[ServiceError], int] = {
    NotFound: 404, NotAPlayer: 403, NotYourTurn: 409, BoardChanged: 409, GameOver: 409,
    IllegalMoveError: 422, DrawError: 409, UndoError: 409,
}


class Refused(Exception):
    """A request the visitor may not make, with its status and text."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


def language(request: web.Request) -> str:
    """"fr" when the browser prefers French to English, else "en"."""
    for part in request.headers.get("Accept-Language", "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag.startswith("fr"):
            return "fr"
        if tag.startswith("en"):
            return "en"
    return "en"


def theme_of(request: web.Request) -> str:
    """The page's colours (``?theme=light``, else dark): the pictures are drawn to match."""
    return "light" if request.query.get("theme") == "light" else "dark"


def refusal(error: ServiceError, lang: str) -> str:
    """The service's refusal in the visitor's words."""
    try:
        return t(error.key, lang, **error.params)
    except (KeyError, IndexError):
        return t("errors.unknown", lang)


def status_of(error: ServiceError) -> int:
    return next((code for kind, code in STATUS.items() if isinstance(error, kind)), 400)


def refused(error: ServiceError, lang: str) -> web.Response:
    """A service's refusal as the API answers it."""
    return web.json_response({"error": refusal(error, lang), "reason": error.key},
                             status=status_of(error))


def error_json(text: str) -> str:
    return orjson.dumps({"error": text}).decode()


def page_error(request: web.Request, status: int, text: str) -> web.Response:
    """A page saying why not."""
    return web.Response(status=status, content_type="text/html",
                        text=pages.message(text, language(request)))


async def json_body(request: web.Request) -> Any:
    """The request's JSON body. JSON only: a form posted from another site (with the
    visitor's cookie) cannot be JSON without the browser asking first."""
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(text="application/json expected")
    try:
        return await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text="the body is not JSON") from None
