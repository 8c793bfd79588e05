"""The web board's server (aiohttp): sign-in with Discord, the game pages and their API.

Routes (all under ``web_public_url``):

* ``GET /``: the visitor's games; ``GET /games/<id>``: a game's page (static HTML, drawn by
  ``static/game.js`` from the API). Both send an unsigned visitor to sign in first.
* ``GET /auth/login?next=…`` → Discord's authorize page (``state`` in a signed cookie) →
  ``GET /auth/callback`` (the state checked, the code exchanged) → the page asked for, signed
  in (an HttpOnly, SameSite=Lax signed cookie). ``POST /auth/logout``. (``bot.web.signin``)
* ``POST /api/token`` ``{code}``: an Activity's code for a session token (``Authorization:
  Bearer …`` on the API; ``?token=`` on the live socket, which carries no header).
* ``GET /api/games/<id>``: the page's state for the visitor (``bot.web.board``).
* ``POST /api/games/<id>/move`` ``{move, ply}`` and ``/resign`` ``{ply}``: through the same
  service calls as ``/move`` and ``/resign``, then delivered to Discord like them (the board,
  the ping). A ``ply`` that is not the game's is refused as stale; refusals are in the
  visitor's language (``Accept-Language``).
* ``POST /api/games/<id>/offers`` ``{action, ply}``: draw offers and take-backs, asked or
  answered (``bot.web.offers``).
* ``GET /api/games/<id>/past/<ply>``: the board after move ``ply`` as the visitor saw it
  (``bot.web.past``); ``POST /api/games/<id>/rematch``: Rematch (``bot.web.rematch``);
  ``GET /rules/<game>``: the rules ``/rules`` gives, as a page (``bot.web.rules``).
* ``GET /api/games/<id>/live``: a WebSocket that says ``{"changed": id}`` when the game
  changes (``bot.web.live``).
* The Discord Activity (the URL mapping's root is this board): ``GET /activity``, or ``GET /``
  with the ``frame_id`` and ``instance_id`` Discord adds, is its page (``static/activity.js``
  signs in through the Embedded App SDK, served from ``node_modules`` under ``/sdk/``, and
  ``POST /api/token``); ``GET /api/games?channel_id=…`` lists the visitor's games and names the
  one to open (``bot.web.launches``).

A game played in a server is opened by its players, and watched by the members of the server
who can see its channel (``bot.web.watchers``: the bot asks Discord, ``WebHost.sight``). A
spectator's page is the public board's: drawn for no seat (no hand), no region to click, and
every ``POST`` refused (403). Games played where the bot is not a member (DMs, group DMs) are
their players' alone, and refused to them as well: their posts can only answer an
interaction there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

import engines
from bot.core.errors import BoardChanged, ServiceError
from bot.core.i18n import t
from bot.core.models import GameInfo
from bot.services.clocks import ClockService
from bot.services.rematches import Rematch
from bot.services.wiring import Services
from bot.web import pages
from bot.web.answers import (
    Refused,
    error_json,
    json_body,
    language,
    page_error,
    refused,
    theme_of,
)
from bot.web.hints import hint_answer
from bot.web.launches import Launches
from bot.web.limits import READ_BURST, READS_PER_SECOND, RateLimit
from bot.web.live import LiveGames
from bot.web.offers import ACTIONS, act
from bot.web.past import past_answer
from bot.web.rematch import rematch_answer
from bot.web.rules import rules_page
from bot.web.sessions import Visitor
from bot.web.signin import SignIn
from bot.web.state import whole_state
from bot.web.watchers import Sight, Watchers
from bot.workers.ai_player import AiPlayer
from bot.workers.board_process import WorkerGone
from bot.workers.boards import BoardDrawer

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
#: Where ``npm ci`` puts the Embedded App SDK's browser build: the bot's folder (the working
#: directory, as in the container image), else beside the source tree.
SDK_PACKAGE = Path("node_modules", "@discord", "embedded-app-sdk", "output")
SDK_PLACES = (Path.cwd() / SDK_PACKAGE, Path(__file__).parents[2] / SDK_PACKAGE)


def sdk_folder() -> Path | None:
    """The Embedded App SDK's ES modules, if installed."""
    return next((p for p in SDK_PLACES if (p / "index.mjs").is_file()), None)
#: How long a stop waits for the requests in flight.
SHUTDOWN_SECONDS = 3.0
#: The largest request body the API reads (a move, a code).
MAX_BODY = 16 * 1024
#: Headers on every answer: nothing from elsewhere runs in the pages.
#: The policy of every page: its own scripts, styles and pictures only.
PAGE_POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'"
SECURITY_HEADERS = {
    # No other site may frame the board's pages (clicks on a hidden board). The Activity's
    # page is framed by Discord's clients, a mobile one from an opaque origin that no
    # ``frame-ancestors`` can name; framed elsewhere it cannot sign in (docs/web.md, Framing).
    "Content-Security-Policy": PAGE_POLICY + "; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
ACTIVITY_HEADERS = {**SECURITY_HEADERS, "Content-Security-Policy": PAGE_POLICY}

@web.middleware
async def security_headers(request: web.Request,
                           handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                           ) -> web.StreamResponse:
    """``SECURITY_HEADERS`` on every answer that does not set its own."""
    response = await handler(request)
    if not isinstance(response, web.WebSocketResponse) and not response.prepared:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
    return response


class WebHost(Protocol):
    """What the web board needs from the bot."""

    services: Services
    #: The bot's board workers: the pages' pictures are drawn there, like the posted ones.
    boards: BoardDrawer
    #: The games' clocks (correspondence play): the page shows when the move is due.
    clocks: ClockService
    #: The AI's workers: a hint against the AI is thought there, as for ``/hint``.
    ai_player: AiPlayer

    async def display_name(self, user_id: int) -> str: ...

    async def sight(self, user_id: int, guild_id: int, channel_id: int) -> Sight:
        """Whether the user is a member of the server who can see the channel (or thread)."""

    async def deliver(self, game_id: int, written: GameInfo) -> None:
        """Post what a change wrote to the outbox (the board, the ping), as after ``/move``."""

    async def announce_rematch(self, rematch: Rematch, user_id: int) -> None:
        """Tell the game's thread of a Rematch asked on the web, as the button's answer does."""


class WebBoard:
    """The web board of one bot process: ``await start()``, ``await stop()``."""

    def __init__(
        self,
        host: WebHost,
        *,
        public_url: str,
        client_id: Callable[[], str],
        client_secret: str,
        api_base: str = "",
        bind: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.host = host
        self.services = host.services
        self.public_url = public_url.rstrip("/")
        self.bind = bind
        self.port = port
        self.signin = SignIn(public_url=self.public_url, api_base=api_base,
                             client_id=client_id, client_secret=client_secret)
        self.live = LiveGames(self.services.store.events)
        #: Reads (a page's state, once per change) and writes (moves, offers, hints) apart.
        self.limits = {"GET": RateLimit(READ_BURST, READS_PER_SECOND), "POST": RateLimit()}
        #: The game each **Open board** press launched the Activity for.
        self.launches = Launches()
        #: Who may open a game's page: its players, and the server's members who see it.
        self.watchers = Watchers(host)
        self._client_id = client_id
        self._runner: web.AppRunner | None = None
        self.app = self._application()

    # ----- the process ------------------------------------------------------------------------

    def _application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[security_headers])
        app.router.add_get("/", self._home)
        app.router.add_get("/games/{id:\\d+}", self._game_page)
        app.router.add_get("/activity", self._activity_page)
        app.router.add_get("/rules/{game:[a-z]+}", rules_page)
        self.signin.add_routes(app)
        app.router.add_get("/api/games", self._games)
        app.router.add_get("/api/games/{id:\\d+}", self._state)
        app.router.add_post("/api/games/{id:\\d+}/move", self._move)
        app.router.add_post("/api/games/{id:\\d+}/resign", self._resign)
        app.router.add_post("/api/games/{id:\\d+}/offers", self._offers)
        app.router.add_post("/api/games/{id:\\d+}/hint", self._hint)
        app.router.add_get("/api/games/{id:\\d+}/live", self._live)
        app.router.add_get("/api/games/{id:\\d+}/past/{ply:\\d+}", self._past)
        app.router.add_post("/api/games/{id:\\d+}/rematch", self._rematch)
        app.router.add_static("/static/", STATIC)
        sdk = sdk_folder()
        if sdk is not None:
            app.router.add_static("/sdk/", sdk)
        app.on_shutdown.append(self._close_sockets)
        return app

    async def start(self) -> None:
        """Listen on ``bind``:``port`` (0: a free port, then ``self.port``)."""
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        site = web.TCPSite(runner, self.bind, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        sockets = site._server.sockets if site._server is not None else ()
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("web board listening on %s:%d, open at %s", self.bind, self.port,
                 self.public_url)

    async def stop(self) -> None:
        """Stop listening, close the live sockets, let the requests in flight finish (for
        ``SHUTDOWN_SECONDS`` at most)."""
        self.live.close()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _close_sockets(self, app: web.Application) -> None:
        await self.live.close_sockets()

    def game_url(self, game_id: int) -> str:
        return f"{self.public_url}/games/{game_id}"

    # ----- pages ------------------------------------------------------------------------------

    async def _home(self, request: web.Request) -> web.StreamResponse:
        if "frame_id" in request.query and "instance_id" in request.query:
            return await self._activity_page(request)  # Discord opens the Activity here
        visitor = self.signin.visitor(request)
        if visitor is None:
            raise self.signin.sign_in_first(request)
        lang = language(request)
        games = await self.services.games.games_of(visitor.user_id)
        listed = [(g.id, g.game, g.user_to_move() == visitor.user_id) for g in games
                  if not g.in_conversation]
        return web.Response(content_type="text/html", text=pages.home(visitor, listed, lang))

    async def _game_page(self, request: web.Request) -> web.StreamResponse:
        visitor = self.signin.visitor(request)
        if visitor is None:
            raise self.signin.sign_in_first(request)
        game_id, lang = int(request.match_info["id"]), language(request)
        try:
            await self.watchers.admit(game_id, visitor, lang)
        except Refused as denied:
            return page_error(request, denied.status, denied.text)
        return web.Response(content_type="text/html",
                            text=pages.game(game_id, visitor, lang))

    async def _activity_page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(content_type="text/html", headers=ACTIVITY_HEADERS,
                            text=pages.activity(self._client_id(), language(request)))

    # ----- the API ----------------------------------------------------------------------------

    async def _games(self, request: web.Request) -> web.Response:
        """The visitor's games, and the one the Activity opens: the game of the **Open board**
        they pressed in the channel, else the game played in the channel (``channel_id``)."""
        visitor = self._api_visitor(request)
        lang = language(request)
        games = await self.services.games.games_of(visitor.user_id)
        listed = [{"id": g.id, "title": t("web.title", lang, id=g.id,
                                          game=engines.get(g.game).title),
                   "your_turn": g.user_to_move() == visitor.user_id}
                  for g in games if not g.in_conversation]
        opened: int | None = None
        channel = request.query.get("channel_id", "")
        if channel.isdigit():
            opened = self.launches.game(visitor.user_id, int(channel))
            if opened is None:
                found = await self.services.games.game_for_thread(int(channel))
                opened = found.id if found is not None else None
        return web.json_response({"games": listed, "open": opened},
                                 headers={"Cache-Control": "no-store"})

    def _api_visitor(self, request: web.Request) -> Visitor:
        """The signed-in visitor of an API request, within their rate (``bot.web.limits``)."""
        visitor = self.signin.visitor(request)
        if visitor is None:
            text = t("web.not_signed_in", language(request))
            raise web.HTTPUnauthorized(text=error_json(text), content_type="application/json")
        limit = self.limits["GET" if request.method == "GET" else "POST"]
        if not limit.allow(visitor.user_id):
            wait = limit.retry_after(visitor.user_id)
            text = t("web.too_many", language(request))
            raise web.HTTPTooManyRequests(text=error_json(text), content_type="application/json",
                                          headers={"Retry-After": str(max(1, round(wait)))})
        return visitor

    async def _state(self, request: web.Request) -> web.Response:
        visitor = self._api_visitor(request)
        game_id = int(request.match_info["id"])
        lang = language(request)
        try:
            await self.watchers.admit(game_id, visitor, lang)
            seen = await self.services.games.seen_by(game_id, visitor.user_id)
            record = await self.services.games.record(game_id)
        except Refused as denied:
            return web.json_response({"error": denied.text}, status=denied.status)
        except ServiceError as error:
            return refused(error, lang)
        state = await whole_state(self.host, seen, record, visitor.user_id, lang,
                                  theme_of(request), self._draw)
        return web.json_response(state, headers={"Cache-Control": "no-store"})

    async def _move(self, request: web.Request) -> web.Response:
        visitor = self._api_visitor(request)
        game_id = int(request.match_info["id"])
        lang = language(request)
        body = await json_body(request)
        move, ply = (body.get("move"), body.get("ply")) if isinstance(body, dict) else (0, 0)
        if not isinstance(move, str) or not move.strip() or not isinstance(ply, int):
            return web.json_response({"error": "move (text) and ply (number) expected"},
                                     status=400)
        try:
            info = await self.watchers.admit(game_id, visitor, lang, acting=True)
            if info.ply != ply:
                raise BoardChanged("web.stale")
            # The same call as /move; the version read with the ply makes a move landing
            # meanwhile refuse this one instead of playing it on a board nobody saw.
            result = await self.services.play.move(game_id, visitor.user_id, move,
                                                   expected_version=info.version)
        except Refused as denied:
            return web.json_response({"error": denied.text}, status=denied.status)
        except ServiceError as error:
            return refused(error, lang)
        await self._deliver(game_id, result.game)
        return web.json_response({"move": result.move, "ply": result.game.ply,
                                  "version": result.game.version})

    async def _resign(self, request: web.Request) -> web.Response:
        visitor = self._api_visitor(request)
        game_id = int(request.match_info["id"])
        lang = language(request)
        body = await json_body(request)
        ply = body.get("ply") if isinstance(body, dict) else None
        if not isinstance(ply, int):
            return web.json_response({"error": "ply (number) expected"}, status=400)
        return await self._change(visitor, game_id, lang, ply, lambda info: (
            self.services.play.resign(game_id, visitor.user_id, expected_version=info.version)))

    async def _offers(self, request: web.Request) -> web.Response:
        """A draw offer or a take-back, asked or answered: ``{action, ply}``."""
        visitor = self._api_visitor(request)
        game_id = int(request.match_info["id"])
        lang = language(request)
        body = await json_body(request)
        action, ply = (body.get("action"), body.get("ply")) if isinstance(body, dict) else (0, 0)
        if action not in ACTIONS or not isinstance(ply, int):
            return web.json_response({"error": f"action (one of {', '.join(ACTIONS)}) and ply "
                                      "(number) expected"}, status=400)
        return await self._change(visitor, game_id, lang, ply, lambda info: (
            act(self.services, self.host.clocks, game_id, visitor.user_id, action)))

    async def _change(self, visitor: Visitor, game_id: int, lang: str, ply: int,
                      change: Callable[[GameInfo], Awaitable[GameInfo]]) -> web.Response:
        """A change the page asked for on the position it showed (``ply``; a stale page is
        refused), through a service call, then posted in Discord like the command's."""
        try:
            info = await self.watchers.admit(game_id, visitor, lang, acting=True)
            if info.ply != ply:
                raise BoardChanged("web.stale")
            written = await change(info)
        except Refused as denied:
            return web.json_response({"error": denied.text}, status=denied.status)
        except ServiceError as error:
            return refused(error, lang)
        await self._deliver(game_id, written)
        return web.json_response({"status": written.status, "version": written.version})

    async def _admitted(self, request: web.Request,
                        answer: Callable[[GameInfo, Visitor, str], Awaitable[web.Response]],
                        *, acting: bool = False) -> web.Response:
        """``answer(info, visitor, lang)`` if the visitor may open the request's game
        (``acting``: change it, players only), else the refusal (``bot.web.watchers``)."""
        visitor, lang = self._api_visitor(request), language(request)
        try:
            info = await self.watchers.admit(int(request.match_info["id"]), visitor, lang,
                                             acting=acting)
        except Refused as denied:
            return web.json_response({"error": denied.text}, status=denied.status)
        return await answer(info, visitor, lang)

    async def _past(self, request: web.Request) -> web.Response:
        """The board after move ``ply``, as the visitor saw it (``bot.web.past``)."""
        return await self._admitted(request, lambda info, visitor, lang: past_answer(
            self.host, info, visitor.user_id, int(request.match_info["ply"]), lang,
            theme_of(request), self._draw))

    async def _rematch(self, request: web.Request) -> web.Response:
        """Rematch, as Discord's button (``bot.web.rematch``)."""
        return await self._admitted(request, lambda info, visitor, lang: rematch_answer(
            self.host, info.id, visitor.user_id, lang, self.live.wake), acting=True)

    async def _hint(self, request: web.Request) -> web.Response:
        """The AI's suggestion for the visitor's move, for them alone (``bot.web.hints``)."""
        return await self._admitted(request, lambda info, visitor, lang: hint_answer(
            self.services, self.host.ai_player, info.id, visitor.user_id, lang), acting=True)

    async def _draw(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        try:
            return await self.host.boards.run(fn, *args)
        except (WorkerGone, OSError):  # the worker died under it: a thread draws it
            return await asyncio.to_thread(fn, *args)

    async def _deliver(self, game_id: int, written: GameInfo) -> None:
        """Post the change to Discord now; should that fail, the outbox keeps the rows and
        the delivery loop retries them, as after a move typed in Discord."""
        try:
            await self.host.deliver(game_id, written)
        except Exception:
            log.warning("delivering game %s's change from the web failed; the outbox retries",
                        game_id, exc_info=True)

    async def _live(self, request: web.Request) -> web.StreamResponse:
        visitor = self.signin.visitor(request) or self.signin.from_token(request.query.get("token"))
        if visitor is None:
            raise web.HTTPUnauthorized(text="sign in first")
        game_id = int(request.match_info["id"])
        try:
            await self.watchers.admit(game_id, visitor, language(request))
        except Refused as denied:
            raise web.HTTPForbidden(text=denied.text) from None
        return await self.live.serve(request, game_id)
