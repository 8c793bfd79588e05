"""Looking back on the web board in a real browser: the move list's moves are buttons showing
the board after each, with nothing to click or play on it; a move made meanwhile lengthens the
list without taking the viewer away; a button brings back the present. And the link to the
game's rules."""

from __future__ import annotations

import pytest

from tests.e2e.browsing import (
    IN_A_BROWSER,
    PATIENCE_MS,
    moves_shown,
    open_board,
    playwright,
    seven_point_alak,
)

pytestmark = [*IN_A_BROWSER, pytest.mark.parametrize("backend", ["sqlite"])]


async def test_stepping_back_through_the_moves_and_returning(web_world, browser):
    world = web_world
    emu = world.emu
    _, thread, game_id = await seven_point_alak(world)
    played = []
    for mover in ("alice", "bob"):
        _, moves = await world.turn(game_id)
        played.append(moves[0])
        await (await emu.slash(mover, "move", {"text": moves[0]}, channel=thread)).reply()
    bob = await open_board(browser, world, "bob", game_id)
    await moves_shown(bob, 2)
    present = await bob.locator(".picture img").first.get_attribute("src")
    # The rules, as /rules gives them, a link away (in a new tab: the board stays open).
    rules = bob.get_by_role("link", name="Rules of the game")
    await playwright.expect(rules).to_have_attribute("href", "/rules/alak")
    await playwright.expect(rules).to_have_attribute("target", "_blank")

    # By keyboard: the first move's button, named by what it shows.
    first = bob.get_by_role("button", name=f"Show the board after move 1: {played[0]}")
    await first.focus()
    await bob.keyboard.press("Enter")
    caption = f"The board after move 1: {played[0]}."
    await playwright.expect(bob.locator(".past")).to_contain_text(caption, timeout=PATIENCE_MS)
    await playwright.expect(first).to_have_attribute("aria-current", "step")
    shown = bob.locator(".picture img").first
    await playwright.expect(shown).to_have_attribute("alt", f"{caption} You play on the "
                                                     "current position only.")
    assert await shown.get_attribute("src") != present
    assert await bob.locator(".region").count() == 0

    # Alice moves in Discord: Bob's list grows, his look at the past stays.
    _, moves = await world.turn(game_id)
    await (await emu.slash("alice", "move", {"text": moves[0]}, channel=thread)).reply()
    await moves_shown(bob, 3)
    await playwright.expect(bob.locator(".moves li").last).to_have_text(moves[0])
    await playwright.expect(bob.locator(".past")).to_contain_text(caption)
    # His turn now, but no Play on the past.
    assert await bob.get_by_role("button", name="Play", exact=True).count() == 0

    back = bob.get_by_role("button", name="Back to the current position")
    await back.focus()
    await bob.keyboard.press("Enter")
    await playwright.expect(bob.locator(".past")).to_have_count(0)
    await playwright.expect(bob.get_by_role("button", name="Play", exact=True)).to_be_visible()
    assert await bob.locator(".region").count() > 0
