"""Rematch on the web board in a real browser: after the game, each player presses Rematch on
their page; the first waits for the other, and once both asked each page links the new game."""

from __future__ import annotations

import pytest

from tests.e2e.browsing import IN_A_BROWSER, PATIENCE_MS, open_board, playwright, seven_point_alak

pytestmark = [*IN_A_BROWSER, pytest.mark.parametrize("backend", ["sqlite"])]


async def test_rematch_pressed_on_both_pages_opens_the_new_game(web_world, browser):
    world = web_world
    _, thread, game_id = await seven_point_alak(world)
    alice = await open_board(browser, world, "alice", game_id)
    bob = await open_board(browser, world, "bob", game_id)
    rematch = alice.get_by_role("button", name="Rematch", exact=True)
    assert await rematch.count() == 0  # not while the game runs
    await world.resign("bob", thread)
    await rematch.click()
    await playwright.expect(alice.get_by_text("You asked for a rematch")).to_be_visible(
        timeout=PATIENCE_MS)
    await bob.get_by_role("button", name="Rematch", exact=True).click()
    await playwright.expect(bob.locator(".rematch a")).to_be_visible(timeout=PATIENCE_MS)
    _, new_id = await world.services.rematches.rematch_state(game_id)
    assert new_id is not None
    for page in (bob, alice):  # Alice's page hears of it through its live socket
        link = page.get_by_role("link", name=f"Open the rematch, game #{new_id}")
        await playwright.expect(link).to_have_attribute("href", f"/games/{new_id}",
                                                        timeout=PATIENCE_MS)
    await link.click()
    await playwright.expect(alice.get_by_role("heading", level=1)).to_have_text(
        f"Game #{new_id}: Alak", timeout=PATIENCE_MS)
