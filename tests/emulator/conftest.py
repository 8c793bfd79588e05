"""Fixtures of the emulator's tests: the tiny bot connected, and raw REST requests."""

from __future__ import annotations

import json

import aiohttp
import pytest

from emulator import Emulator
from tests.emulator.tinybot import started


@pytest.fixture
async def emu_and_bot():
    async for pair in started():
        yield pair


@pytest.fixture
def rest():
    """``await rest(emu, "POST", "/channels/1/messages", body=..., files=...)``: a raw request
    as the bot would send it; returns (status, body)."""

    async def request(emu: Emulator, method: str, path: str, *, body=None, files=(),
                      token: bool = True) -> tuple[int, dict]:
        headers = {"Authorization": f"Bot {emu.token}"} if token else {}
        async with aiohttp.ClientSession() as session:
            if files:
                form = aiohttp.FormData()
                form.add_field("payload_json", json.dumps(body or {}),
                               content_type="application/json")
                for index, (name, data) in enumerate(files):
                    form.add_field(f"files[{index}]", data, filename=name,
                                   content_type="application/octet-stream")
                kwargs = {"data": form}
            else:
                kwargs = {"json": body}
            async with session.request(method, emu.api_base + path, headers=headers,
                                       **kwargs) as response:
                text = await response.text()
                return response.status, (json.loads(text) if text else {})

    return request
