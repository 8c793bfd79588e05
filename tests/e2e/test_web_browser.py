"""The web board in a real browser (Debian's Chromium, driven by Playwright): a player signs in
through Discord's authorize page, plays a whole game by clicking on the board against an
opponent typing /move in Discord, and the opponent's open page follows each move without being
reloaded."""

from __future__ import annotations

import pytest

import render
from tests.e2e.browsing import (
    IN_A_BROWSER,
    PATIENCE_MS,
    docs_screenshot,
    moves_shown,
    open_board,
    playwright,
    seven_point_alak,
)
from tests.e2e.test_ai import until_human_turn

pytestmark = [
    *IN_A_BROWSER,
    # One database is enough: the browser's side is what is tested here.
    pytest.mark.parametrize("backend", ["sqlite"]),
]
MAX_PLIES = 200


async def test_a_whole_game_of_alak_played_by_clicks(web_world, browser):
    world = web_world
    emu = world.emu
    _, thread, game_id = await seven_point_alak(world)
    alice = await open_board(browser, world, "alice", game_id)
    bob = await open_board(browser, world, "bob", game_id)
    await playwright.expect(alice.get_by_text("Your turn.")).to_be_visible()
    await playwright.expect(bob.get_by_text("alice to move.")).to_be_visible()
    ply = 0
    while ply < MAX_PLIES:
        mover, moves = await world.turn(game_id)
        if mover is None:
            break
        move = moves[len(moves) // 2]
        if mover.name == "alice":
            play = alice.get_by_role("button", name="Play", exact=True)
            await playwright.expect(play).to_be_disabled()
            if ply == 2:  # the points offered
                await docs_screenshot(alice, "alak")
            for part in render.split_move("alak", move):
                await alice.get_by_role("button", name=part, exact=True).click()
            await playwright.expect(play).to_be_enabled()
            mark = emu.mark()
            await play.click()
            # Posted in Discord as a typed move would be: the board, bob pinged.
            posted = await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread,
                                                since=mark)
            assert move in posted.content
        else:
            await (await emu.slash("bob", "move", {"text": move}, channel=thread)).reply()
        ply += 1
        # Both open pages follow, neither reloaded.
        await moves_shown(alice, ply)
        await moves_shown(bob, ply)
        await playwright.expect(alice.locator(".moves li").last).to_have_text(move)
    game = await world.services.games.get_game(game_id)
    assert game.status == "finished" and ply == game.ply > 0
    for page in (alice, bob):
        await playwright.expect(page.get_by_text("Game over.")).to_be_visible()
        assert await page.get_by_role("button", name="Play", exact=True).count() == 0


async def test_resigning_asks_first(web_world, browser):
    world = web_world
    board = await world.start_game("alice", "alak", "bob", {"length": 7, "time_control": "3d"})
    game_id = (await world.services.games.game_for_thread(board.channel_id)).id
    bob = await open_board(browser, world, "bob", game_id)
    # A timed game: when the move is due, in the visitor's time zone.
    await playwright.expect(bob.locator(".clock")).to_contain_text("Move due ")
    await playwright.expect(bob.locator(".clock")).to_contain_text("(3 days per move).")
    await bob.get_by_role("button", name="Resign", exact=True).click()
    dialog = bob.get_by_role("dialog")
    await playwright.expect(dialog).to_contain_text(f"Resign game #{game_id}?")
    await dialog.get_by_role("button", name="Cancel").click()
    assert (await world.services.games.get_game(game_id)).status == "active"
    await bob.get_by_role("button", name="Resign", exact=True).click()
    await bob.get_by_role("dialog").get_by_role("button", name="Yes, resign").click()
    await playwright.expect(bob.get_by_text("Game over.")).to_be_visible(timeout=PATIENCE_MS)
    assert (await world.services.games.get_game(game_id)).status == "finished"


async def test_a_move_of_several_picks_is_narrowed_pick_by_pick(web_world, browser):
    """Palago: cell, orientation, cell, orientation. After each pick only what can follow
    is offered; Back takes a pick back; Play waits for a whole move."""
    world = web_world
    emu = world.emu
    board = await world.start_game("alice", "palago", "bob")
    thread = board.channel_id
    game_id = (await world.services.games.game_for_thread(thread)).id
    _, moves = await world.turn(game_id)
    # A phone, in dark mode.
    alice = await open_board(browser, world, "alice", game_id, title="Palago",
                             viewport={"width": 390, "height": 844}, color_scheme="dark")
    assert await alice.evaluate("document.documentElement.scrollWidth") <= 390
    assert await alice.evaluate("getComputedStyle(document.body).backgroundColor") == (
        "rgb(30, 31, 34)")
    play = alice.get_by_role("button", name="Play", exact=True)
    regions = alice.locator(".picture [role=button]")
    first = render.split_move("palago", moves[0])
    cells = {render.split_move("palago", m)[0] for m in moves}
    assert await regions.count() == len(cells)
    await alice.get_by_role("button", name=first[0], exact=True).click()
    orientations = {render.split_move("palago", m)[1] for m in moves
                    if m.startswith(first[0] + "/")}
    await playwright.expect(regions).to_have_count(len(orientations))
    assert {await r.get_attribute("aria-label") for r in await regions.all()} == orientations
    await playwright.expect(play).to_be_disabled()
    await alice.get_by_role("button", name="Back", exact=True).click()
    await playwright.expect(regions).to_have_count(len(cells))
    # The keyboard picks too: a region takes the focus, Enter picks it.
    await alice.get_by_role("button", name=first[0], exact=True).focus()
    await alice.keyboard.press("Enter")
    await playwright.expect(regions).to_have_count(len(orientations))
    for part in first[1:]:
        await playwright.expect(play).to_be_disabled()
        await alice.get_by_role("button", name=part, exact=True).click()
    await playwright.expect(alice.locator(".picks output")).to_have_text(moves[0])
    mark = emu.mark()
    await play.click()
    posted = await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread, since=mark)
    assert emu.user("bob").mention in posted.content
    record = await world.services.games.record(game_id)
    assert [m.text for m in record.moves] == [moves[0]]
    await moves_shown(alice, 1)
    await playwright.expect(alice.get_by_text("bob to move.")).to_be_visible()


async def test_a_draw_offered_and_accepted_by_clicks(web_world, browser):
    world = web_world
    board = await world.start_game("alice", "alak", "bob", {"length": 7})
    game_id = (await world.services.games.game_for_thread(board.channel_id)).id
    alice = await open_board(browser, world, "alice", game_id)
    bob = await open_board(browser, world, "bob", game_id)
    await alice.get_by_role("button", name="Offer a draw").click()
    await playwright.expect(alice.get_by_text("You offered a draw.")).to_be_visible()
    # Bob's open page hears of it.
    await bob.get_by_role("button", name="Accept the draw").click(timeout=PATIENCE_MS)
    for page in (alice, bob):
        await playwright.expect(page.get_by_text("Game over. Draw.")).to_be_visible(
            timeout=PATIENCE_MS)
    assert (await world.services.games.get_game(game_id)).status == "finished"


async def test_a_hint_against_the_ai_is_shown_to_its_player(web_world, browser):
    world = web_world
    thread = await world.play_ai("alice", "alak")
    game = await world.services.games.game_for_thread(thread)
    await until_human_turn(world.services, game.id)
    alice = await open_board(browser, world, "alice", game.id)
    await alice.get_by_role("button", name="Hint", exact=True).click()
    await playwright.expect(alice.get_by_role("alert")).to_contain_text(
        "Hint: ", timeout=PATIENCE_MS)
