"""The bot's event loop (``bot.runtime.runner``): uvloop where installed, asyncio's loop
otherwise."""

from __future__ import annotations

import asyncio
import sys

import pytest

from bot.runtime import runner


async def loop_module() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not installed on Windows")
def test_the_bot_runs_on_uvloop_where_it_is_installed():
    assert runner.run(loop_module()).startswith("uvloop")


def test_without_uvloop_the_bot_runs_on_asyncios_loop(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvloop", None)  # importing it fails
    assert runner.run(loop_module()).startswith("asyncio")
