"""How the bot's event loop runs: on uvloop where it is installed (Linux and macOS), else on
asyncio's own loop.

uvloop is asyncio's loop written over libuv: the same API, with scheduling, sockets and
wake-ups from other threads (every database statement comes back from aiosqlite's thread that
way) done in C. The bot's event loop is mostly that machinery around discord.py and aiohttp,
so the loop costs a move less CPU (``python -m bench.e2e`` measures it). ``python -m bot`` and
the benches that stand for it run through ``run``; tests run on asyncio's loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

Result = TypeVar("Result")


def run(main: Coroutine[Any, Any, Result]) -> Result:
    """``asyncio.run(main)`` on a uvloop event loop when uvloop is installed."""
    try:
        import uvloop
    except ImportError:  # Windows, or an install without it: asyncio's loop does the same
        return asyncio.run(main)
    return uvloop.run(main)
