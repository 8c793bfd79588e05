"""The e2e world with the web board on: the bot serves its pages on a port of its own, and
the emulator knows the board's sign-in redirect; ``WebClient`` is a visitor's browser without
the browser (a cookie jar), signed in through the emulator's OAuth2 like a person would be."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import aiohttp

from bot.web.sessions import COOKIE
from emulator import Emulator
from tests.e2e.conftest import TOKEN, World, make_config


def web_emulator(port: int, **options) -> Emulator:
    """The emulator of a web world: Activities off unless ``options`` turn them on (the
    board is then also the Activity, at the root of the URL mapping)."""
    public = f"http://127.0.0.1:{port}"
    return Emulator(token=TOKEN, redirect_uris=[f"{public}/auth/callback"], activity_url=public,
                    **{"activities": False, **options})


def web_config(emu: Emulator, tmp_path, port: int, database: str | None):
    return replace(make_config(emu, tmp_path, database), web_port=port,
                   web_public_url=f"http://127.0.0.1:{port}", client_secret=emu.client_secret)


class WebClient:
    """One visitor: their cookies, and the requests a page would make."""

    def __init__(self, world: World, user: str) -> None:
        self.world = world
        self.user = user
        self.base = world.config.web_public_url
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                             headers={"Accept-Language": "en"})

    async def close(self) -> None:
        await self.session.close()

    async def start_sign_in(self, after: str = "/") -> str:
        """Open the sign-in: the ``state`` the board sent to Discord's authorize page."""
        async with self.session.get(f"{self.base}/auth/login", params={"next": after},
                                    allow_redirects=False) as answer:
            assert answer.status == 302, await answer.text()
            where = urlsplit(answer.headers["Location"])
        query = parse_qs(where.query)
        assert f"{where.scheme}://{where.netloc}" == self.world.emu.origin
        assert query["redirect_uri"] == [f"{self.base}/auth/callback"]
        assert query["scope"] == ["identify"]
        return query["state"][0]

    async def callback(self, url: str) -> aiohttp.ClientResponse:
        """The browser comes back from Discord to ``url``: the board's answer (not followed)."""
        async with self.session.get(url, allow_redirects=False) as answer:
            await answer.read()
            return answer

    async def sign_in(self, after: str = "/") -> None:
        state = await self.start_sign_in(after)
        back = self.world.emu.authorize(self.user, redirect_uri=f"{self.base}/auth/callback",
                                        state=state)
        answer = await self.callback(back)
        assert answer.status == 302 and answer.headers["Location"] == after
        assert self.cookie is not None

    @property
    def cookie(self) -> str | None:
        for cookie in self.session.cookie_jar:
            if cookie.key == COOKIE:
                return cookie.value
        return None

    async def state(self, game_id: int) -> tuple[int, dict]:
        async with self.session.get(f"{self.base}/api/games/{game_id}") as answer:
            return answer.status, await answer.json()

    async def post(self, path: str, body: dict) -> tuple[int, dict]:
        async with self.session.post(f"{self.base}{path}", json=body) as answer:
            return answer.status, await answer.json()

    async def move(self, game_id: int, move: str, ply: int) -> tuple[int, dict]:
        return await self.post(f"/api/games/{game_id}/move", {"move": move, "ply": ply})
