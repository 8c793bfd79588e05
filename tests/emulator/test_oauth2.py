"""The emulator's OAuth2: the authorize page a local user consents on, the token endpoint and
``/users/@me`` for Bearer tokens, with Discord's refusals (``emulator.oauth2``)."""

from __future__ import annotations

import base64
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from emulator import Emulator
from emulator.oauth2 import ACCESS_DENIED, ACCESS_TOKEN_LIFETIME, CODE_LIFETIME, AuthorizeRefused

CALLBACK = "http://127.0.0.1:8080/auth/callback"


@pytest.fixture
async def emu():
    emulator = Emulator(redirect_uris=[CALLBACK])
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.close()


@pytest.fixture
async def browser():
    """A browser that keeps cookies (for the loopback address too) and follows no redirect
    by itself, so each hop can be checked."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        yield session


def query_of(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def authorize_url(emu: Emulator, **extra: str) -> str:
    params = {"response_type": "code", "client_id": emu.client_id, "scope": "identify",
              "state": "s-123", "redirect_uri": CALLBACK, **extra}
    return f"{emu.origin}/oauth2/authorize?" + "&".join(
        f"{k}={aiohttp.helpers.quote(v, safe='')}" for k, v in params.items())


async def exchange(emu: Emulator, form: dict[str, str], *, basic: tuple[str, str] | None = None,
                   json_body: bool = False) -> tuple[int, dict]:
    headers = {}
    if basic is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(
            f"{basic[0]}:{basic[1]}".encode()).decode()
    async with aiohttp.ClientSession() as session:
        kwargs = {"json": form} if json_body else {"data": form}
        async with session.post(f"{emu.api_base}/oauth2/token", headers=headers,
                                **kwargs) as response:
            return response.status, await response.json()


def code_form(emu: Emulator, code: str, **extra: str) -> dict[str, str]:
    return {"grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK,
            "client_id": emu.client_id, "client_secret": emu.client_secret, **extra}


async def get_me(emu: Emulator, authorization: str, path: str = "/users/@me") -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session, session.get(
            emu.api_base + path, headers={"Authorization": authorization}) as response:
        return response.status, await response.json()


async def test_a_browser_signs_in_consents_and_the_page_learns_the_user(emu, browser):
    # The console's link: signed in as bob, then on to the board.
    async with browser.get(emu.sign_in_url("bob", "http://127.0.0.1:8080/board"),
                           allow_redirects=False) as response:
        assert response.status == 302
        assert response.headers["Location"] == "http://127.0.0.1:8080/board"
    async with browser.get(authorize_url(emu), allow_redirects=False) as response:
        page = await response.text()
        assert response.status == 200
        assert '<option value="bob" selected>' in page
        assert "identify" in page
    form = {**query_of(authorize_url(emu)), "user": "bob", "decision": "authorize"}
    async with browser.post(f"{emu.origin}/oauth2/authorize", data=form,
                            allow_redirects=False) as response:
        assert response.status == 302
        back = response.headers["Location"]
    assert back.startswith(CALLBACK + "?")
    assert query_of(back)["state"] == "s-123"
    status, tokens = await exchange(emu, code_form(emu, query_of(back)["code"]))
    assert status == 200, tokens
    assert tokens["token_type"] == "Bearer" and tokens["scope"] == "identify"
    assert tokens["expires_in"] == ACCESS_TOKEN_LIFETIME and tokens["refresh_token"]
    status, me = await get_me(emu, f"Bearer {tokens['access_token']}")
    assert status == 200
    assert (me["id"], me["username"]) == (str(emu.user("bob").id), "bob")
    assert emu.refusals == []


async def test_the_bot_token_still_answers_for_the_bot(emu):
    status, me = await get_me(emu, f"Bot {emu.token}")
    assert status == 200 and me["id"] == str(emu.bot_user.id) and me["bot"] is True


async def test_client_credentials_may_come_as_http_basic(emu):
    code = query_of(emu.authorize("carol", redirect_uri=CALLBACK))["code"]
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK}
    status, tokens = await exchange(emu, form, basic=(emu.client_id, emu.client_secret))
    assert status == 200
    status, me = await get_me(emu, f"Bearer {tokens['access_token']}")
    assert me["username"] == "carol"


async def test_a_code_is_exchanged_once(emu):
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK, state="x"))["code"]
    assert (await exchange(emu, code_form(emu, code)))[0] == 200
    status, body = await exchange(emu, code_form(emu, code))
    assert (status, body) == (400, {"error": "invalid_grant",
                                    "error_description": 'Invalid "code" in request.'})
    assert [(r.path, r.status) for r in emu.refusals] == [("/api/v10/oauth2/token", 400)]


async def test_a_code_expires(emu):
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK))["code"]
    emu.advance(CODE_LIFETIME + 1)
    status, body = await exchange(emu, code_form(emu, code))
    assert status == 400 and body["error"] == "invalid_grant"


async def test_a_wrong_secret_is_an_invalid_client(emu):
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK))["code"]
    status, body = await exchange(emu, code_form(emu, code, client_secret="guess"))
    assert (status, body) == (401, {"error": "invalid_client"})
    status, body = await exchange(emu, {k: v for k, v in code_form(emu, code).items()
                                        if k != "client_secret"})
    assert (status, body) == (401, {"error": "invalid_client"})


async def test_the_redirect_uri_must_be_the_authorizations(emu):
    emu.redirect_uris.append("http://127.0.0.1:8080/other")
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK))["code"]
    status, body = await exchange(
        emu, code_form(emu, code, redirect_uri="http://127.0.0.1:8080/other"))
    assert (status, body) == (400, {"error": "invalid_grant",
                                    "error_description": 'Invalid "redirect_uri" in request.'})
    status, body = await exchange(emu, {k: v for k, v in code_form(emu, code).items()
                                        if k != "redirect_uri"})
    assert status == 400 and body["error_description"] == 'Invalid "redirect_uri" in request.'


async def test_only_a_form_encoded_body_is_read(emu):
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK))["code"]
    status, body = await exchange(emu, code_form(emu, code), json_body=True)
    assert status == 400 and body["error"] == "unsupported_grant_type"


async def test_an_unregistered_redirect_uri_stops_on_the_page(emu, browser):
    url = authorize_url(emu, redirect_uri="http://evil.example/steal")
    async with browser.get(url, allow_redirects=False) as response:
        assert response.status == 400
        assert "Location" not in response.headers
        assert "Invalid OAuth2 redirect_uri" in await response.text()
    assert emu.refusals[-1].path == "/oauth2/authorize"
    with pytest.raises(AuthorizeRefused):
        emu.authorize("alice", redirect_uri="http://evil.example/steal")


async def test_cancel_sends_access_denied_back_with_the_state(emu, browser):
    form = {**query_of(authorize_url(emu)), "user": "alice", "decision": "cancel"}
    async with browser.post(f"{emu.origin}/oauth2/authorize", data=form,
                            allow_redirects=False) as response:
        back = query_of(response.headers["Location"])
    assert back == {"error": "access_denied", "error_description": ACCESS_DENIED,
                    "state": "s-123"}
    assert query_of(emu.authorize("alice", redirect_uri=CALLBACK, granted=False))["error"] == (
        "access_denied")


async def test_prompt_none_skips_the_page_only_after_a_consent(emu, browser):
    async with browser.get(emu.sign_in_url("dave", "/"), allow_redirects=False):
        pass
    async with browser.get(authorize_url(emu, prompt="none"), allow_redirects=False) as response:
        assert response.status == 200  # dave never consented: the page asks
    emu.authorize("dave", redirect_uri=CALLBACK)
    async with browser.get(authorize_url(emu, prompt="none"), allow_redirects=False) as response:
        assert response.status == 302
        assert "code" in query_of(response.headers["Location"])


async def test_a_bad_or_expired_bearer_token_is_unauthorized(emu):
    unauthorized = (401, {"message": "401: Unauthorized", "code": 0})
    assert await get_me(emu, "Bearer not-a-token") == unauthorized
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK))["code"]
    tokens = (await exchange(emu, code_form(emu, code)))[1]
    assert (await get_me(emu, f"Bearer {tokens['access_token']}"))[0] == 200
    emu.advance(ACCESS_TOKEN_LIFETIME + 1)
    assert await get_me(emu, f"Bearer {tokens['access_token']}") == unauthorized


async def test_users_me_needs_the_identify_scope(emu):
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK, scope="guilds"))["code"]
    tokens = (await exchange(emu, code_form(emu, code)))[1]
    assert (await get_me(emu, f"Bearer {tokens['access_token']}"))[0] == 401
    status, info = await get_me(emu, f"Bearer {tokens['access_token']}", "/oauth2/@me")
    assert status == 200 and info["scopes"] == ["guilds"] and "user" not in info
    assert info["application"]["id"] == emu.client_id


async def test_a_refresh_token_is_used_once(emu):
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK))["code"]
    first = (await exchange(emu, code_form(emu, code)))[1]
    refresh = {"grant_type": "refresh_token", "refresh_token": first["refresh_token"],
               "client_id": emu.client_id, "client_secret": emu.client_secret}
    status, second = await exchange(emu, refresh)
    assert status == 200 and second["access_token"] != first["access_token"]
    assert (await get_me(emu, f"Bearer {second['access_token']}"))[1]["username"] == "alice"
    assert await exchange(emu, refresh) == (400, {"error": "invalid_grant"})


async def test_revoking_a_token_ends_the_whole_authorization(emu):
    code = query_of(emu.authorize("alice", redirect_uri=CALLBACK))["code"]
    tokens = (await exchange(emu, code_form(emu, code)))[1]
    async with aiohttp.ClientSession() as session, session.post(
            f"{emu.api_base}/oauth2/token/revoke",
            data={"token": tokens["refresh_token"], "client_id": emu.client_id,
                  "client_secret": emu.client_secret}) as response:
        assert response.status == 200
    assert (await get_me(emu, f"Bearer {tokens['access_token']}"))[0] == 401


async def test_an_unknown_scope_goes_back_as_invalid_scope(emu):
    back = query_of(emu.authorize("alice", redirect_uri=CALLBACK, scope="identify nonsense",
                                  state="q"))
    assert back["error"] == "invalid_scope" and back["state"] == "q"
