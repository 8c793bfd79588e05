"""Signing in with Discord: the OAuth2 authorization code grant, scope ``identify``.

The browser goes to ``<Discord's origin>/oauth2/authorize`` with a ``state`` and one fixed
``redirect_uri`` (``<public url>/auth/callback``); Discord sends it back with a code, which the
bot exchanges at ``<API base>/oauth2/token`` (form-encoded, with the client id and secret), and
the access token tells ``<API base>/users/@me`` who signed in. An Activity gets its code from
the Embedded App SDK's ``authorize`` and the exchange carries no ``redirect_uri``.

The client secret goes in the token request's form only: never in a page, a URL, a log line or
an error.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import aiohttp

from bot.web.sessions import Visitor

#: Discord's REST base when the bot talks to Discord itself.
DISCORD_API = "https://discord.com/api/v10"
SCOPE = "identify"
#: How long a request to Discord may take before the sign-in fails.
TIMEOUT_SECONDS = 10


class SignInFailed(Exception):
    """Discord refused the code or could not be asked; the message is safe to show."""


class DiscordOAuth:
    """The OAuth2 client of the bot's application."""

    def __init__(self, *, api_base: str, client_id: str, client_secret: str,
                 redirect_uri: str) -> None:
        self.api_base = (api_base or DISCORD_API).rstrip("/")
        parts = urlsplit(self.api_base)
        #: Where the authorize page is: the API's origin (``https://discord.com``).
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.client_id = client_id
        self._client_secret = client_secret
        self.redirect_uri = redirect_uri

    def authorize_url(self, state: str) -> str:
        query = urlencode({"response_type": "code", "client_id": self.client_id,
                           "scope": SCOPE, "state": state, "redirect_uri": self.redirect_uri,
                           "prompt": "none"})
        return f"{self.origin}/oauth2/authorize?{query}"

    async def visitor(self, code: str, *, with_redirect: bool = True) -> Visitor:
        """Who consented: the code exchanged for a token, and the token for the user.
        ``with_redirect``: False for an Activity's code, which was issued without one."""
        return (await self.sign_in(code, with_redirect=with_redirect))[0]

    async def sign_in(self, code: str, *, with_redirect: bool = True) -> tuple[Visitor, str]:
        """``visitor``, and Discord's access token (an Activity hands it to Discord's client
        with the SDK's ``authenticate``)."""
        form = {"grant_type": "authorization_code", "code": code,
                "client_id": self.client_id, "client_secret": self._client_secret}
        if with_redirect:
            form["redirect_uri"] = self.redirect_uri
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
        try:
            async with aiohttp.ClientSession(timeout=timeout) as session:
                async with session.post(f"{self.api_base}/oauth2/token", data=form) as answer:
                    if answer.status != 200:
                        raise SignInFailed(f"Discord refused the sign-in ({answer.status})")
                    token = (await answer.json())["access_token"]
                headers = {"Authorization": f"Bearer {token}"}
                async with session.get(f"{self.api_base}/users/@me", headers=headers) as answer:
                    if answer.status != 200:
                        raise SignInFailed(f"Discord did not say who signed in ({answer.status})")
                    user = await answer.json()
        except (aiohttp.ClientError, TimeoutError, KeyError, ValueError) as error:
            raise SignInFailed(f"Discord could not be asked ({type(error).__name__})") from None
        name = user.get("global_name") or user.get("username") or str(user["id"])
        return Visitor(int(user["id"]), str(name)), token
