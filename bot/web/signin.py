"""Signing in to the web board with Discord (``bot.web.oauth``) and who a request comes from:
``/auth/login`` → Discord's authorize page → ``/auth/callback`` (the ``state`` checked, the
code exchanged, a signed session cookie set), ``/auth/logout``, and ``/api/token`` where an
Activity trades its code for a bearer session token (``bot.web.sessions``)."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from urllib.parse import quote

from aiohttp import web

from bot.core.i18n import t
from bot.web.answers import json_body, language, page_error
from bot.web.oauth import DiscordOAuth, SignInFailed
from bot.web.sessions import COOKIE, STATE_COOKIE, STATE_SECONDS, Sessions, Visitor

log = logging.getLogger(__name__)


class SignIn:
    """The sign-in routes and the visitor of each request."""

    def __init__(self, *, public_url: str, api_base: str, client_id: Callable[[], str],
                 client_secret: str) -> None:
        self.sessions = Sessions(client_secret)
        self.redirect_uri = f"{public_url}/auth/callback"
        self.secure_cookies = public_url.startswith("https://")
        self._api_base = api_base
        self._client_id = client_id
        self._client_secret = client_secret

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/auth/login", self._login)
        app.router.add_get("/auth/callback", self._callback)
        app.router.add_post("/auth/logout", self._logout)
        app.router.add_post("/api/token", self._token)

    def visitor(self, request: web.Request) -> Visitor | None:
        """The signed-in visitor: a session cookie, or an Activity's bearer token."""
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):
            return self.sessions.from_token(authorization.removeprefix("Bearer ").strip())
        return self.sessions.from_cookie(request.cookies.get(COOKIE))

    def from_token(self, token: str | None) -> Visitor | None:
        return self.sessions.from_token(token)

    @staticmethod
    def sign_in_first(request: web.Request) -> web.HTTPFound:
        """Where an unsigned visitor of a page goes (and comes back to the page after)."""
        return web.HTTPFound(f"/auth/login?next={quote(request.path_qs, safe='')}")

    def _oauth(self) -> DiscordOAuth:
        # The client id may be learnt at login (the application's id): read it each time.
        return DiscordOAuth(api_base=self._api_base, client_id=self._client_id(),
                            client_secret=self._client_secret, redirect_uri=self.redirect_uri)

    async def _login(self, request: web.Request) -> web.StreamResponse:
        after = request.query.get("next", "/")
        # Only pages of this site: never an open redirect ("//host" and "/\\host" are
        # other hosts to a browser).
        if not after.startswith("/") or after[1:2] in ("/", "\\"):
            after = "/"
        nonce = secrets.token_urlsafe(24)
        response = web.HTTPFound(self._oauth().authorize_url(nonce))
        response.set_cookie(STATE_COOKIE, self.sessions.state(nonce, after),
                            max_age=STATE_SECONDS, httponly=True, samesite="Lax",
                            secure=self.secure_cookies, path="/auth/")
        raise response

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        lang = language(request)
        saved = self.sessions.read_state(request.cookies.get(STATE_COOKIE))
        state = request.query.get("state", "")
        if saved is None or not secrets.compare_digest(saved[0].encode(), state.encode()):
            return page_error(request, 400, t("web.sign_in_state", lang))
        if request.query.get("error"):
            return page_error(request, 400, t("web.sign_in_cancelled", lang))
        try:
            visitor = await self._oauth().visitor(request.query.get("code", ""))
        except SignInFailed as failed:
            log.info("web sign-in failed: %s", failed)
            return page_error(request, 400, t("web.sign_in_failed", lang, reason=str(failed)))
        response = web.HTTPFound(saved[1])
        response.del_cookie(STATE_COOKIE, path="/auth/")
        response.set_cookie(COOKIE, self.sessions.cookie(visitor),
                            max_age=self.sessions.lifetime, httponly=True, samesite="Lax",
                            secure=self.secure_cookies, path="/")
        raise response

    async def _logout(self, request: web.Request) -> web.StreamResponse:
        response = web.HTTPSeeOther("/")
        response.del_cookie(COOKIE, path="/")
        raise response

    async def _token(self, request: web.Request) -> web.Response:
        """An Activity's sign-in: the Embedded App SDK's code for a session token (and for
        Discord's access token, which the Activity gives back to Discord's client)."""
        body = await json_body(request)
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not code:
            return web.json_response({"error": "a code is needed"}, status=400)
        try:
            visitor, discord_token = await self._oauth().sign_in(code, with_redirect=False)
        except SignInFailed as failed:
            return web.json_response({"error": str(failed)}, status=400)
        # Ours signs the board's requests; Discord's is for the SDK's ``authenticate``.
        return web.json_response({"access_token": self.sessions.token(visitor),
                                  "token_type": "Bearer",
                                  "expires_in": self.sessions.lifetime,
                                  "discord_access_token": discord_token},
                                 headers={"Cache-Control": "no-store"})
