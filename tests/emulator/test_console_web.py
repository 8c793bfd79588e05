"""The console's /web and /activity: links that open the web board signed in as a local user,
and the emulated Discord client framing it (``emulator.console_web``)."""

from __future__ import annotations

import re

import aiohttp
import pytest

from emulator import Emulator
from emulator.console import Console
from emulator.console_web import NOT_CONFIGURED

BOARD = "http://127.0.0.1:9/board"
CALLBACK = "http://127.0.0.1:9/board/callback"


def console_for(emu: Emulator, tmp_path):
    lines: list[str] = []
    console = Console(emu, tmp_path, output=lines.append)

    async def type_(line: str) -> list[str]:
        start = len(lines)
        assert await console.handle(line)
        return lines[start:]

    return console, type_


def link_in(lines: list[str]) -> str:
    [line] = lines
    found = re.search(r"(http://\S+)$", line)
    assert found, line
    return found[1]


@pytest.fixture
async def emu():
    emulator = Emulator(activity_url=BOARD, redirect_uris=[CALLBACK])
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.close()


async def test_without_a_board_the_console_says_so(tmp_path):
    _, type_ = console_for(Emulator(), tmp_path)
    assert await type_("/web") == [NOT_CONFIGURED]
    assert await type_("/activity bob") == [NOT_CONFIGURED]


async def test_web_opens_the_board_signed_in_as_the_user(emu, tmp_path):
    _, type_ = console_for(emu, tmp_path)
    shown = await type_("/web @bob")
    assert shown[0].startswith("Open the board as bob: ")
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as browser:
        async with browser.get(link_in(shown), allow_redirects=False) as response:
            assert response.headers["Location"] == BOARD
        # The board then sends the browser to the authorize page: bob is signed in there.
        authorize = (f"{emu.origin}/oauth2/authorize?response_type=code&client_id="
                     f"{emu.client_id}&scope=identify&redirect_uri={CALLBACK}")
        async with browser.get(authorize) as response:
            assert '<option value="bob" selected>' in await response.text()
    assert (await type_("/web"))[0].startswith("Open the board as alice: ")
    assert "no local user" in (await type_("/web zed"))[0]


async def test_activity_opens_the_client_page_here(emu, tmp_path):
    console, type_ = console_for(emu, tmp_path)
    shown = await type_("/activity carol")
    assert shown[0].startswith("Open the Activity in #games as carol: ")
    [client] = emu.activity_clients.values()
    assert client.user == emu.user("carol") and client.instance.channel_id == console.channel_id
    async with aiohttp.ClientSession() as browser, browser.get(link_in(shown)) as response:
        page = await response.text()
    assert "carol" in page and client.frame_id in page
    help_lines = await type_("/console")
    assert any("/web [user]" in line for line in help_lines)


async def test_activity_needs_activities_on(tmp_path):
    emulator = Emulator(activity_url=BOARD, activities=False)
    _, type_ = console_for(emulator, tmp_path)
    assert "Activities are off" in (await type_("/activity"))[0]
