"""OAuth2 as Discord plays it for a web page that signs its users in with Discord: the
authorize page where a local user consents, the token endpoint, and ``/users/@me`` answered for
a Bearer token (the bot token keeps its own answer).

The flow a web page follows (authorization code grant):

1. it sends the browser to ``{origin}/oauth2/authorize?response_type=code&client_id=…&scope=
   identify&state=…&redirect_uri=…``; the page shows who is signed in (the local user of the
   emulator's session cookie, which ``sign_in_url`` sets; any local user can be picked) and
   Authorize / Cancel;
2. Authorize sends the browser to ``redirect_uri?code=…&state=…``; Cancel to ``redirect_uri?
   error=access_denied&error_description=…&state=…``;
3. the page's server exchanges the code at ``{api_base}/oauth2/token`` (form-encoded, with the
   client id and secret as HTTP Basic or in the form) for an access token;
4. it asks ``{api_base}/users/@me`` with ``Authorization: Bearer <token>`` who the user is.

Tests consent without a browser: ``emu.authorize(user, redirect_uri=…, state=…)`` returns the
URL the browser would be sent to.

What each rule follows:

* discord-api-docs ``topics/oauth2.mdx`` "Authorization Code Grant": the authorize URL and its
  parameters, ``redirect_uri`` "whatever URL you registered", the redirect with ``code`` and
  ``state``, the token exchange's parameters (``grant_type``, ``code``, ``redirect_uri``), "All
  calls to the OAuth2 endpoints require either HTTP Basic authentication or client_id and
  client_secret supplied in the form data body", the access token response (``expires_in``
  604800), the refresh token grant, token revocation ("any active access or refresh tokens
  associated with that authorization will be revoked"); ``prompt=none`` skips the page for a
  user who already authorized those scopes. "OAuth2 URLs": the token URLs "will only accept a
  content type of application/x-www-form-urlencoded". "Get Current Authorization Information"
  (``GET /oauth2/@me``). Scopes: the "OAuth2 Scopes" table; ``identify`` "allows /users/@me".
* Refusals, as Discord's answers are quoted in discord-api-docs issues (the docs list none):
  an unknown, used or expired code is 400 ``{"error": "invalid_grant", "error_description":
  "Invalid \\"code\\" in request."}`` (#5579, #2526: "codes are one time use and expire 100
  seconds after creation"); a redirect_uri other than the authorization's is 400
  ``invalid_grant`` / ``Invalid "redirect_uri" in request.`` (#1131); a wrong client secret is
  401 ``{"error": "invalid_client"}``; a body that is not form-encoded is 400
  ``unsupported_grant_type`` (#645, #5249), checked before the client; a refused refresh token
  is 400 ``{"error": "invalid_grant"}`` (#1650); an unregistered redirect_uri stops on
  Discord's page, "Invalid OAuth2 redirect_uri", without redirecting; Cancel redirects with
  ``error=access_denied`` and the RFC 6749 description, and ``state`` (#685); a bad Bearer
  token is 401 ``{"message": "401: Unauthorized", "code": 0}``.

Every refusal of the token endpoint or the authorize page is kept in ``emu.refusals``.
"""

from __future__ import annotations

import base64
import binascii
import html
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from aiohttp import web

from emulator.api import json_response
from emulator.models import EmuUser, Refusal

#: An authorization code is exchanged once, within this many seconds.
CODE_LIFETIME = 100.0
#: Seconds an access token lives (the docs' ``expires_in``).
ACCESS_TOKEN_LIFETIME = 604800
#: The emulator's "signed in to Discord" cookie: the local user's name.
SESSION_COOKIE = "emulator_discord_user"
#: What Cancel on the authorize page sends back (RFC 6749 §4.1.2.1's wording, which Discord
#: uses).
ACCESS_DENIED = "The resource owner or authorization server denied the request"
INVALID_CODE = 'Invalid "code" in request.'
INVALID_REDIRECT = 'Invalid "redirect_uri" in request.'
#: The scopes of the docs' "OAuth2 Scopes" table.
KNOWN_SCOPES = frozenset({
    "activities.read", "activities.write", "applications.builds.read",
    "applications.builds.upload", "applications.commands", "applications.commands.update",
    "applications.commands.permissions.update", "applications.entitlements",
    "applications.store.update", "bot", "connections", "dm_channels.read", "email", "gdm.join",
    "guilds", "guilds.join", "guilds.members.read", "identify", "identify.premium",
    "messages.read", "relationships.read", "role_connections.write", "rpc",
    "rpc.activities.write", "rpc.notifications.read", "rpc.voice.read", "rpc.voice.write",
    "voice", "webhook.incoming",
})
UNAUTHORIZED = {"message": "401: Unauthorized", "code": 0}


class OAuthError(Exception):
    """A refusal of the token endpoint, with its RFC 6749 body."""

    def __init__(self, status: int, error: str, description: str | None = None) -> None:
        super().__init__(f"{error}: {description}" if description else error)
        self.status = status
        self.body: dict[str, str] = {"error": error}
        if description is not None:
            self.body["error_description"] = description


class AuthorizeRefused(Exception):
    """An authorization request Discord's page refuses to go on with (it shows the message and
    redirects nowhere)."""


@dataclass(frozen=True)
class AuthorizationRequest:
    """The parameters of ``/oauth2/authorize``, checked."""

    client_id: str
    scopes: tuple[str, ...]
    #: None: an Activity's AUTHORIZE, whose code is exchanged without one.
    redirect_uri: str | None
    state: str | None
    prompt: str | None


@dataclass
class Grant:
    """An authorization code: who consented to what, for which redirect URI."""

    code: str
    user: EmuUser
    client_id: str
    scopes: tuple[str, ...]
    redirect_uri: str | None
    issued: float
    used: bool = False


@dataclass
class Authorization:
    """The tokens one consent was exchanged for."""

    user: EmuUser
    scopes: tuple[str, ...]
    access_token: str
    refresh_token: str
    expires_at: float
    #: The same at wall-clock time, for ``expires`` in the answers that show it.
    expires_iso: str
    revoked: bool = False
    refresh_tokens: list[str] = field(default_factory=list)


class OAuth2:
    """Authorize page, tokens and Bearer answers; part of ``Emulator``.

    Longer than 300 lines on purpose: one protocol (authorize, token, refresh, revoke, Bearer)
    and each of its refusals, which read best side by side."""

    def _setup_oauth2(self, client_secret: str, redirect_uris: Iterable[str]) -> None:
        #: The application's client secret (its OAuth2 settings page).
        self.client_secret = client_secret
        #: The redirect URIs registered for the application; ``redirect_uri`` must be one.
        self.redirect_uris: list[str] = list(redirect_uris)
        self._codes: dict[str, Grant] = {}
        self._access: dict[str, Authorization] = {}
        self._refresh: dict[str, Authorization] = {}
        #: User id -> the scopes they authorized the application for.
        self.consents: dict[int, frozenset[str]] = {}

    @property
    def client_id(self) -> str:
        """The application's OAuth2 client id (its id)."""
        return str(self.application_id)

    @property
    def origin(self) -> str:
        """The emulator's web origin (Discord's ``https://discord.com``)."""
        return f"http://{self.host}:{self.port}"

    def sign_in_url(self, user: str | EmuUser, next_url: str) -> str:
        """A link that signs the browser in as ``user`` (the emulator's session cookie) and
        then opens ``next_url``: a page that sends the browser to the authorize page finds
        ``user`` signed in."""
        query = urlencode({"user": self.user(user).name, "next": next_url})
        return f"{self.origin}/emulator/sign-in?{query}"

    # ----- the authorization request ---------------------------------------------------------

    def check_authorization(self, query: Mapping[str, str]) -> AuthorizationRequest:
        """The authorize page's parameters, or ``AuthorizeRefused`` with what Discord's page
        says; a refusal Discord sends back to the redirect URI is an ``OAuthError``."""
        if query.get("client_id") != self.client_id:
            raise AuthorizeRefused("Unknown Application: client_id is not this application's")
        redirect_uri = query.get("redirect_uri")
        if redirect_uri is None and self.redirect_uris:
            redirect_uri = self.redirect_uris[0]  # Discord uses the first registered one
        if redirect_uri not in self.redirect_uris:
            raise AuthorizeRefused("Invalid OAuth2 redirect_uri")
        response_type = query.get("response_type")
        if response_type is None:
            raise OAuthError(400, "invalid_request", "Missing response_type parameter.")
        if response_type != "code":
            raise OAuthError(400, "unsupported_response_type",
                             f"the emulator implements the code grant only, not {response_type!r}")
        scopes = tuple((query.get("scope") or "").split())
        unknown = [s for s in scopes if s not in KNOWN_SCOPES]
        if not scopes or unknown:
            raise OAuthError(400, "invalid_scope",
                             f"Invalid scope: {' '.join(unknown) or '(none)'}")
        return AuthorizationRequest(self.client_id, scopes, redirect_uri, query.get("state"),
                                    query.get("prompt"))

    def _redirect(self, redirect_uri: str, params: dict[str, str | None]) -> str:
        parts = urlsplit(redirect_uri)
        extra = urlencode({k: v for k, v in params.items() if v is not None})
        query = f"{parts.query}&{extra}" if parts.query else extra
        return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))

    def issue_code(self, user: str | EmuUser, request: AuthorizationRequest) -> str:
        """``user`` consents to ``request``: a new authorization code."""
        member = self.user(user)
        code = secrets.token_urlsafe(22)
        self._codes[code] = Grant(code, member, request.client_id, request.scopes,
                                  request.redirect_uri, self.now())
        self.consents[member.id] = self.consents.get(member.id, frozenset()) | set(
            request.scopes)
        return code

    def consent(self, user: str | EmuUser, request: AuthorizationRequest, *,
                granted: bool = True) -> str:
        """``user`` presses Authorize (or Cancel): the URL the browser is sent to."""
        assert request.redirect_uri is not None
        if not granted:
            return self._redirect(request.redirect_uri, {
                "error": "access_denied", "error_description": ACCESS_DENIED,
                "state": request.state})
        code = self.issue_code(user, request)
        return self._redirect(request.redirect_uri, {"code": code, "state": request.state})

    def authorize(self, user: str | EmuUser, *, redirect_uri: str | None, state: str | None = None,
                  scope: str = "identify", client_id: str | None = None,
                  response_type: str = "code", granted: bool = True) -> str:
        """``user`` opens the authorize page with these parameters and presses Authorize (or
        Cancel, ``granted=False``): the URL Discord sends the browser to. Raises
        ``AuthorizeRefused`` where Discord's page stops."""
        query = {"client_id": client_id or self.client_id, "response_type": response_type,
                 "scope": scope}
        if redirect_uri is not None:
            query["redirect_uri"] = redirect_uri
        if state is not None:
            query["state"] = state
        try:
            request = self.check_authorization(query)
        except OAuthError as error:
            return self._redirect(redirect_uri or self.redirect_uris[0],
                                  {**error.body, "state": state})
        return self.consent(user, request, granted=granted)

    def access_token_of(self, token: str) -> Authorization | None:
        """The live authorization of an access token (None: unknown, revoked or expired)."""
        found = self._access.get(token)
        if found is None or found.revoked or self.now() >= found.expires_at:
            return None
        return found

    # ----- the browser's side ------------------------------------------------------------------

    def _session_user(self, request: web.Request) -> EmuUser | None:
        name = request.cookies.get(SESSION_COOKIE)
        return self.users.get(name) if name else None

    def _page_refused(self, request: web.Request, message: str) -> web.Response:
        self._note_refusal(request.method, request.path, 400, {"message": message})
        return web.Response(status=400, content_type="text/html",
                            text=_page("Authorization failed", f"<p>{html.escape(message)}</p>"))

    async def _authorize_page(self, request: web.Request) -> web.StreamResponse:
        """GET /oauth2/authorize: the consent page (or, with ``prompt=none`` for a user who
        already consented to these scopes, the redirect at once)."""
        try:
            wanted = self.check_authorization(request.query)
        except AuthorizeRefused as refused:
            return self._page_refused(request, str(refused))
        except OAuthError as error:
            return self._redirect_refusal(request, error)
        signed_in = self._session_user(request)
        if (signed_in is not None and wanted.prompt == "none"
                and set(wanted.scopes) <= self.consents.get(signed_in.id, frozenset())):
            raise web.HTTPFound(self.consent(signed_in, wanted))
        chosen = signed_in or next(iter(self.users.values()))
        options = "".join(
            f'<option value="{html.escape(u.name)}"{" selected" if u == chosen else ""}>'
            f"{html.escape(u.name)}</option>" for u in self.users.values())
        hidden = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                         for k, v in request.query.items())
        scopes = "".join(f"<li>{html.escape(s)}</li>" for s in wanted.scopes)
        body = (
            f"<p><b>{html.escape(self.bot_user.name)}</b> wants to access your account.</p>"
            f"<ul>{scopes}</ul>"
            f'<form method="post" action="/oauth2/authorize">{hidden}'
            f'<label>Signed in as <select name="user">{options}</select></label> '
            '<button name="decision" value="authorize">Authorize</button> '
            '<button name="decision" value="cancel">Cancel</button></form>'
            f"<p>It will be sent back to {html.escape(wanted.redirect_uri)}</p>")
        return web.Response(content_type="text/html", text=_page("Authorize access", body))

    async def _authorize_submit(self, request: web.Request) -> web.StreamResponse:
        """POST /oauth2/authorize: the user's answer; the browser goes back to the page that
        asked, signed in as the user it chose."""
        form = await request.post()
        query = {k: str(v) for k, v in form.items() if k not in ("user", "decision")}
        try:
            wanted = self.check_authorization(query)
            user = self.user(str(form.get("user", "")))
        except AuthorizeRefused as refused:
            return self._page_refused(request, str(refused))
        except OAuthError as error:
            return self._redirect_refusal(request, error, query)
        except LookupError as missing:
            return self._page_refused(request, str(missing).strip("'\""))
        target = self.consent(user, wanted, granted=form.get("decision") == "authorize")
        response = web.HTTPFound(target)
        response.set_cookie(SESSION_COOKIE, user.name, httponly=True, samesite="Lax")
        raise response

    def _redirect_refusal(self, request: web.Request, error: OAuthError,
                          query: Mapping[str, str] | None = None) -> web.StreamResponse:
        query = request.query if query is None else query
        self._note_refusal(request.method, request.path, error.status, dict(error.body))
        redirect_uri = query.get("redirect_uri") or self.redirect_uris[0]
        raise web.HTTPFound(self._redirect(redirect_uri, {**error.body,
                                                          "state": query.get("state")}))

    async def _sign_in(self, request: web.Request) -> web.StreamResponse:
        """GET /emulator/sign-in?user=…&next=…: sign the browser in as a local user, then go
        on to ``next``."""
        try:
            user = self.user(request.query.get("user", ""))
        except LookupError as missing:
            return web.Response(status=404, text=str(missing).strip("'\""))
        response = web.HTTPFound(request.query.get("next") or "/")
        response.set_cookie(SESSION_COOKIE, user.name, httponly=True, samesite="Lax")
        raise response

    # ----- the token endpoint ------------------------------------------------------------------

    async def _token(self, request: web.Request) -> web.Response:
        """POST /api[/vN]/oauth2/token."""
        try:
            body = await self._token_answer(request)
        except OAuthError as error:
            self._note_refusal(request.method, request.path, error.status, dict(error.body))
            return json_response(error.body, status=error.status)
        return json_response(body)

    async def _client_form(self, request: web.Request) -> dict[str, str]:
        """The form of a token request, after the checks Discord makes first: a form-encoded
        body with a grant type it knows, then the client's credentials."""
        form: dict[str, str] = {}
        if request.content_type == "application/x-www-form-urlencoded":
            form = {k: str(v) for k, v in (await request.post()).items()}
        else:
            await request.read()
        return form

    def _check_client(self, request: web.Request, form: Mapping[str, str]) -> None:
        client_id, secret = form.get("client_id"), form.get("client_secret")
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            try:
                decoded = base64.b64decode(header[6:], validate=True).decode()
            except (binascii.Error, UnicodeDecodeError):
                raise OAuthError(401, "invalid_client") from None
            client_id, _, secret = decoded.partition(":")
        if client_id != self.client_id or secret != self.client_secret:
            raise OAuthError(401, "invalid_client")

    async def _token_answer(self, request: web.Request) -> dict[str, Any]:
        form = await self._client_form(request)
        grant_type = form.get("grant_type")
        if grant_type not in ("authorization_code", "refresh_token"):
            if grant_type in ("client_credentials", "implicit"):
                raise OAuthError(400, "unsupported_grant_type",
                                 f"the emulator does not implement the {grant_type} grant")
            raise OAuthError(400, "unsupported_grant_type",
                             f"Grant type {grant_type} is not supported")
        self._check_client(request, form)
        if grant_type == "refresh_token":
            return self._refreshed(form.get("refresh_token", ""))
        grant = self._codes.get(form.get("code", ""))
        if (grant is None or grant.used or grant.client_id != self.client_id
                or self.now() - grant.issued > CODE_LIFETIME):
            raise OAuthError(400, "invalid_grant", INVALID_CODE)
        if grant.redirect_uri is not None and form.get("redirect_uri") != grant.redirect_uri:
            raise OAuthError(400, "invalid_grant", INVALID_REDIRECT)
        grant.used = True
        return self._issue(grant.user, grant.scopes)

    def _issue(self, user: EmuUser, scopes: tuple[str, ...],
               previous: Authorization | None = None) -> dict[str, Any]:
        access, refresh = secrets.token_urlsafe(22), secrets.token_urlsafe(22)
        expires = datetime.now(UTC) + timedelta(seconds=ACCESS_TOKEN_LIFETIME)
        authorization = Authorization(user, scopes, access, refresh,
                                      self.now() + ACCESS_TOKEN_LIFETIME, expires.isoformat())
        if previous is not None:
            authorization.refresh_tokens = previous.refresh_tokens
        authorization.refresh_tokens.append(refresh)
        self._access[access] = authorization
        self._refresh[refresh] = authorization
        return {"access_token": access, "token_type": "Bearer",
                "expires_in": ACCESS_TOKEN_LIFETIME, "refresh_token": refresh,
                "scope": " ".join(scopes)}

    def _refreshed(self, refresh_token: str) -> dict[str, Any]:
        previous = self._refresh.pop(refresh_token, None)
        if previous is None or previous.revoked:
            raise OAuthError(400, "invalid_grant")
        return self._issue(previous.user, previous.scopes, previous)

    async def _revoke(self, request: web.Request) -> web.Response:
        """POST /api[/vN]/oauth2/token/revoke: every token of that authorization dies."""
        try:
            form = await self._client_form(request)
            self._check_client(request, form)
        except OAuthError as error:
            self._note_refusal(request.method, request.path, error.status, dict(error.body))
            return json_response(error.body, status=error.status)
        token = form.get("token", "")
        found = self._access.get(token) or self._refresh.get(token)
        if found is not None:  # the whole chain of refreshes shares one list
            for authorization in self._access.values():
                if authorization.refresh_tokens is found.refresh_tokens:
                    authorization.revoked = True
        return json_response({})

    # ----- Bearer requests (``emulator.routes``) -----------------------------------------------

    def bearer_answer(self, method: str, parts: list[str],
                      authorization: str | None) -> web.Response | None:
        """The answer to a REST request made with a Bearer token; None for any other
        request (the bot's token is checked by the REST side)."""
        if not authorization or not authorization.startswith("Bearer "):
            return None
        found = self.access_token_of(authorization[len("Bearer "):])
        if found is None:
            return json_response(UNAUTHORIZED, status=401)
        if method == "GET" and parts == ["users", "@me"] and "identify" in found.scopes:
            return json_response({**found.user.payload(), "flags": 0, "banner": None,
                                  "accent_color": None, "locale": "en-US",
                                  "mfa_enabled": False, "premium_type": 0})
        if method == "GET" and parts == ["oauth2", "@me"]:
            info: dict[str, Any] = {
                "application": {k: v for k, v in self._application_payload().items()
                                if k in ("id", "name", "icon", "description", "bot_public",
                                         "bot_require_code_grant", "verify_key")},
                "scopes": list(found.scopes),
                "expires": found.expires_iso,
            }
            if "identify" in found.scopes:
                info["user"] = found.user.payload()
            return json_response(info)
        return json_response(UNAUTHORIZED, status=401)

    def _note_refusal(self, method: str, path: str, status: int, body: dict[str, Any]) -> None:
        refusal = Refusal(method, path, status, int(body.get("code") or 0), body)
        self.refusals.append(refusal)
        self._record("refused", refusal)

    def _add_oauth2_routes(self, app: web.Application) -> None:
        """The browser pages and the token endpoint (before the REST catch-all)."""
        app.router.add_get("/oauth2/authorize", self._authorize_page)
        app.router.add_post("/oauth2/authorize", self._authorize_submit)
        app.router.add_get("/emulator/sign-in", self._sign_in)
        for prefix in ("/api", "/api/v{version}"):
            app.router.add_post(f"{prefix}/oauth2/token", self._token)
            app.router.add_post(f"{prefix}/oauth2/token/revoke", self._revoke)


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title></head><body><h1>{html.escape(title)}</h1>{body}</body></html>")
