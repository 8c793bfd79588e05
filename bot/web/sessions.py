"""Who a web visitor is: a signed session, as an HttpOnly cookie in a browser or as a bearer
token in a Discord Activity (whose frame cannot rely on third-party cookies).

Both are the same small signed value, ``{"u": user id, "n": name}`` with the time it was made,
signed by ``itsdangerous`` with a key derived from the application's client secret (so no
other secret has to be kept, and a new client secret signs every visitor out). A value that
was changed, signed with another key, or older than ``SESSION_SECONDS`` reads as nobody. A
cookie and a token are signed with different salts: neither passes for the other.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadData, URLSafeTimedSerializer
from itsdangerous.timed import TimestampSigner

#: How long a sign-in lasts.
SESSION_SECONDS = 7 * 24 * 3600
#: The cookie holding the browser's session.
COOKIE = "bg_session"
#: The cookie holding the OAuth2 ``state`` (and where to go after) while Discord asks.
STATE_COOKIE = "bg_oauth_state"
#: How long a visitor has to consent on Discord's page.
STATE_SECONDS = 600


@dataclass(frozen=True)
class Visitor:
    """A signed-in Discord user."""

    user_id: int
    name: str


class _ClockedSigner(TimestampSigner):
    """itsdangerous's timestamp signer on a clock of ours (tests move it forward)."""

    def __init__(self, *args: Any, clock: Callable[[], float] = time.time, **kwargs: Any
                 ) -> None:
        super().__init__(*args, **kwargs)
        self._clock = clock

    def get_timestamp(self) -> int:
        return int(self._clock())


def signing_key(client_secret: str) -> bytes:
    """The sessions' key: derived from the client secret, never the secret itself."""
    return hmac.new(client_secret.encode(), b"boardgames web sessions", hashlib.sha256).digest()


class Sessions:
    """Makes and reads the signed values of ``Visitor``s and OAuth2 states."""

    def __init__(self, client_secret: str, *, clock: Callable[[], float] = time.time,
                 lifetime: int = SESSION_SECONDS) -> None:
        key = signing_key(client_secret)
        self.lifetime = lifetime

        def serializer(salt: str) -> URLSafeTimedSerializer:
            return URLSafeTimedSerializer(key, salt=salt, signer=_ClockedSigner,
                                          signer_kwargs={"clock": clock})

        self._cookie = serializer("web-session-cookie")
        self._token = serializer("web-session-token")
        self._state = serializer("web-oauth-state")

    def cookie(self, visitor: Visitor) -> str:
        return self._cookie.dumps({"u": str(visitor.user_id), "n": visitor.name})

    def token(self, visitor: Visitor) -> str:
        return self._token.dumps({"u": str(visitor.user_id), "n": visitor.name})

    def from_cookie(self, value: str | None) -> Visitor | None:
        return self._read(self._cookie, value)

    def from_token(self, value: str | None) -> Visitor | None:
        return self._read(self._token, value)

    def _read(self, serializer: URLSafeTimedSerializer, value: str | None) -> Visitor | None:
        if not value:
            return None
        try:
            data = serializer.loads(value, max_age=self.lifetime)
            return Visitor(int(data["u"]), str(data["n"]))
        except (BadData, KeyError, TypeError, ValueError):
            return None

    def state(self, nonce: str, after: str) -> str:
        """The state cookie: the nonce sent to Discord and the page to open after."""
        return self._state.dumps({"s": nonce, "next": after})

    def read_state(self, value: str | None) -> tuple[str, str] | None:
        if not value:
            return None
        try:
            data = self._state.loads(value, max_age=STATE_SECONDS)
            return str(data["s"]), str(data["next"])
        except (BadData, KeyError, TypeError):
            return None
