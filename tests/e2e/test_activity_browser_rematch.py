"""Rematch in the Discord Activity, in a real browser: once every player asked, the Activity
opens the new game in its own frame (no page of the web board to go to there)."""

from __future__ import annotations

from tests.e2e.browsing import (
    IN_THE_ACTIVITY,
    PATIENCE_MS,
    open_activity,
    playwright,
    seven_point_alak,
)
from tests.e2e.test_web import signed_in

pytestmark = IN_THE_ACTIVITY


async def test_the_activity_opens_the_rematch(web_world, browser):
    world = web_world
    emu = world.emu
    board, thread, game_id = await seven_point_alak(world)
    await emu.click("alice", board, f"bg:board:{game_id}")
    _, _, activity = await open_activity(browser, world, "alice", thread)
    await playwright.expect(activity.get_by_role("heading", level=1)).to_have_text(
        f"Game #{game_id}: Alak", timeout=PATIENCE_MS)
    await world.resign("bob", thread)
    # Bob asks first, on his web page; Alice's press in the Activity starts the new game.
    (bob,) = await signed_in(world, "bob")
    status, _ = await bob.post(f"/api/games/{game_id}/rematch", {})
    assert status == 200
    await activity.get_by_role("button", name="Rematch", exact=True).click(timeout=PATIENCE_MS)
    opener = activity.get_by_role("button", name="Open the rematch, game #")
    await opener.click(timeout=PATIENCE_MS)
    _, new_id = await world.services.rematches.rematch_state(game_id)
    await playwright.expect(activity.get_by_role("heading", level=1)).to_have_text(
        f"Game #{new_id}: Alak", timeout=PATIENCE_MS)
    await playwright.expect(activity.get_by_text("bob to move.")).to_be_visible()
