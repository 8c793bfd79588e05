"""The time left for a move on the web board, in a real browser: counted down on the page
from the server's deadline and the server's clock (the browser's may be off)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.e2e.browsing import IN_A_BROWSER, PATIENCE_MS, open_board, playwright
from tests.e2e.test_notify import skew_to

pytestmark = [*IN_A_BROWSER, pytest.mark.parametrize("backend", ["sqlite"])]


async def test_the_time_left_ticks_down_by_the_servers_clock(web_world, browser):
    world = web_world
    board = await world.start_game("alice", "alak", "bob", {"length": 7, "time_control": "3d"})
    game_id = (await world.services.games.game_for_thread(board.channel_id)).id
    # The bot's clock runs two days ahead of the browser's: the page counts by the bot's.
    skew_to(world, world.bot.clocks.clock() + timedelta(days=2))
    alice = await open_board(browser, world, "alice", game_id)
    left = alice.get_by_role("timer")
    await playwright.expect(left).to_have_text(
        re.compile(r"^Time left: 23:59:\d\d$"), timeout=PATIENCE_MS)
    shown = await left.text_content()
    # It ticks on the page alone: no request is made for it.
    asked = []
    alice.on("request", lambda request: asked.append(request.url))
    await playwright.expect(left).not_to_have_text(shown, timeout=PATIENCE_MS)
    assert not [url for url in asked if "/api/" in url]
    # Seconds before the deadline: once the count reaches it, the page says so and looks
    # once at what that allows (nothing changed in the game: no live message comes).
    deadline = (await world.bot.clocks.clock_info(game_id)).deadline
    skew_to(world, deadline - timedelta(seconds=3))
    bob = await open_board(browser, world, "bob", game_id)
    claim = bob.get_by_role("button", name="Claim the win on time")
    await playwright.expect(bob.get_by_role("timer")).to_have_text(
        re.compile(r"^Time left: 00:00:0\d$"), timeout=PATIENCE_MS)
    assert await claim.count() == 0
    await playwright.expect(bob.get_by_role("timer")).to_have_text(
        "The time for this move is up.", timeout=PATIENCE_MS)
    await expect_visible(claim)


async def expect_visible(locator) -> None:
    await playwright.expect(locator).to_be_visible(timeout=PATIENCE_MS)
