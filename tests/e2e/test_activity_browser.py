"""The web board as a Discord Activity, in a real browser (Debian's Chromium, driven by
Playwright): the emulated Discord client page frames the board through the Activity's proxy;
the board's page signs in with Discord's Embedded App SDK (ready, authorize, our /api/token,
authenticate), opens the game of the thread it was launched from, and a whole game is played
by clicks against an opponent typing /move in Discord, every board and ping posted in the
thread as for /move. A non-player who opens the Activity there cannot move."""

from __future__ import annotations

import render
from tests.e2e.browsing import (
    IN_THE_ACTIVITY,
    PATIENCE_MS,
    open_activity,
    playwright,
    seven_point_alak,
)

pytestmark = IN_THE_ACTIVITY
MAX_PLIES = 200


async def test_a_whole_game_of_alak_played_in_the_activity(web_world, browser):
    world = web_world
    emu = world.emu
    board, thread, game_id = await seven_point_alak(world)
    # Alice presses Open board: Discord launches the Activity in the thread.
    await emu.click("alice", board, f"bg:board:{game_id}")
    client, _, activity = await open_activity(browser, world, "alice", thread)
    await playwright.expect(activity.get_by_role("heading", level=1)).to_have_text(
        f"Game #{game_id}: Alak", timeout=PATIENCE_MS)
    assert emu.user("alice").id in client.instance.users
    await playwright.expect(activity.get_by_text("Your turn.")).to_be_visible()
    ply = 0
    while ply < MAX_PLIES:
        mover, moves = await world.turn(game_id)
        if mover is None:
            break
        move = moves[len(moves) // 2]
        mark = emu.mark()
        if mover.name == "alice":
            play = activity.get_by_role("button", name="Play", exact=True)
            await playwright.expect(play).to_be_disabled()
            for part in render.split_move("alak", move):
                await activity.get_by_role("button", name=part, exact=True).click()
            await play.click()
            pinged = "bob"
        else:
            await (await emu.slash("bob", "move", {"text": move}, channel=thread)).reply()
            pinged = "alice"
        # Posted in Discord as for /move: the board, the next player pinged.
        posted = await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread,
                                            since=mark)
        assert move in posted.content
        game = await world.services.games.get_game(game_id)
        if game.status == "active":
            assert emu.user(pinged).mention in posted.content
        ply += 1
        # The Activity follows every move, live, without being reloaded.
        await playwright.expect(activity.locator(".moves li")).to_have_count(
            ply, timeout=PATIENCE_MS)
        await playwright.expect(activity.locator(".moves li").last).to_have_text(move)
    game = await world.services.games.get_game(game_id)
    assert game.status == "finished" and ply == game.ply > 0
    await playwright.expect(activity.get_by_text("Game over.")).to_be_visible()
    # The list of her games is one click away (the game is over: none left).
    await activity.get_by_role("button", name="Your games").click()
    await playwright.expect(activity.get_by_role("heading", level=1)).to_have_text("Your games")
    # The session token never shows in what the Activity logged to Discord.
    assert not any("token" in message.lower() for _, message in client.logs), client.logs
    assert emu.refusals == []


async def test_a_spectator_in_the_activity_watches_and_cannot_move(web_world, browser):
    world = web_world
    _, thread, game_id = await seven_point_alak(world)
    # Carol, a member of the server who sees the thread, opens the Activity from the App
    # Launcher there: she watches the board, with nothing to click and no Play.
    _, _, activity = await open_activity(browser, world, "carol", thread)
    await playwright.expect(activity.get_by_text("You are watching this game.")).to_be_visible(
        timeout=PATIENCE_MS)
    await playwright.expect(activity.locator(".picture img").first).to_be_visible()
    assert await activity.get_by_role("button", name="Play", exact=True).count() == 0
    assert await activity.get_by_role("button", name="Resign").count() == 0
    assert await activity.locator("svg [role=button]").count() == 0
    # Her games (none) are a click away.
    await activity.get_by_role("button", name="Your games").click()
    await playwright.expect(activity.get_by_text("You have no game going on.")).to_be_visible()
    assert (await world.services.games.get_game(game_id)).ply == 0


async def test_the_activity_in_a_group_dm_lists_the_games_and_plays_one(web_world, browser):
    """From the App Launcher of a group DM (the app installed to the user's account), the
    Activity has no game of its channel: it lists the player's games, and a move played in
    one is posted in the game's thread."""
    world = web_world
    emu = world.emu
    _, thread, game_id = await seven_point_alak(world)
    emu.install_app("alice")
    group = emu.open_group_dm("alice", "bob", "carol")
    instance = await emu.launch("alice", channel=group)  # Discord launches it, and says so
    assert instance.channel_id == group and instance.guild_id is None
    _, _, activity = await open_activity(browser, world, "alice", group)
    await playwright.expect(activity.get_by_role("heading", level=1)).to_have_text(
        "Your games", timeout=PATIENCE_MS)
    title = f"Game #{game_id}: Alak"
    await playwright.expect(activity.get_by_role("listitem")).to_have_text(
        f"{title} — Your turn.")
    await activity.get_by_role("button", name=title).click()
    await playwright.expect(activity.get_by_role("heading", level=1)).to_have_text(title)
    _, moves = await world.turn(game_id)
    move = moves[0]
    for part in render.split_move("alak", move):
        await activity.get_by_role("button", name=part, exact=True).click()
    mark = emu.mark()
    await activity.get_by_role("button", name="Play", exact=True).click()
    posted = await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread, since=mark)
    assert move in posted.content and emu.user("bob").mention in posted.content
    await playwright.expect(activity.locator(".moves li")).to_have_text([move])
    assert emu.refusals == []
