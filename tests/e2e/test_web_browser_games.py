"""Whole games of Kolory, Palam and Polygo played by clicks on the web board in a real browser
(Debian's Chromium, driven by Playwright), to their end by moves: against an opponent clicking
on a page of their own (Kolory), pressing the board's buttons in Discord (Palam), or typing
/move (Polygo). Every move's board and ping is posted in the game's thread as for /move, and
every open page follows every move. (Alak: ``test_web_browser.py``; LPPG and Palago in the
Activity: ``test_activity_browser_games.py``.)"""

from __future__ import annotations

import pytest

from tests.e2e.browsing import (
    IN_A_BROWSER,
    PATIENCE_MS,
    open_board,
    play_to_the_end,
    playwright,
    shown_over,
    typed_move,
)
from tests.e2e.buttons import move_buttons
from tests.e2e.test_web_polygo import to_the_scoring

pytestmark = [
    *IN_A_BROWSER,
    # One database is enough: the browser's side is what is tested here.
    pytest.mark.parametrize("backend", ["sqlite"]),
]


async def test_a_whole_game_of_kolory_both_players_clicking(web_world, browser):
    """Two players, ten cards each: twenty placements, each one click on the square where
    the card's centre goes, by whichever player the round's draw puts first."""
    world = web_world
    board = await world.start_game("alice", "kolory", "bob")
    thread = board.channel_id
    game_id = (await world.services.games.game_for_thread(thread)).id
    alice = await open_board(browser, world, "alice", game_id, title="Kolory")
    bob = await open_board(browser, world, "bob", game_id, title="Kolory")
    plies = await play_to_the_end(
        world, "kolory", game_id, thread, pages={"alice": alice, "bob": bob},
        choose=lambda moves, ply: moves[len(moves) // 2], max_plies=20,
        screenshot=(9, "alice", alice, -1))
    assert plies == 20
    await shown_over(world, game_id, plies, [alice, bob])


def palam_moves(moves: list[str], ply: int) -> str:
    """The first legal move (the camp, then attacks and answers), but a swap of two pieces
    (two clicks) on the second move."""
    if ply == 1:
        swaps = [m for m in moves if " " in m]
        assert swaps, moves
        return swaps[0]
    return moves[0]


class PressedOrTyped:
    """The opponent presses the move's button under the last board, or types /move for a
    move with no button (a swap); counts the moves pressed."""

    def __init__(self) -> None:
        self.pressed = 0

    async def __call__(self, world, thread: int, mover, move: str, board) -> None:
        labels = {b["label"] for b in move_buttons(board)} if board is not None else set()
        if move in labels:
            await (await world.emu.click(mover, board, label=move)).reply()
            self.pressed += 1
        else:
            await typed_move(world, thread, mover, move, board)


async def test_a_whole_game_of_palam_against_the_boards_buttons(web_world, browser):
    """The camp chosen, a swap, then twelve duels (attack, answer) to the last one: whoever
    the toss picks, Alice clicks her moves; Bob presses the board's buttons in Discord."""
    world = web_world
    board = await world.start_game("alice", "palam", "bob")
    thread = board.channel_id
    game_id = (await world.services.games.game_for_thread(thread)).id
    alice = await open_board(browser, world, "alice", game_id, title="Palam")
    bob = PressedOrTyped()
    plies = await play_to_the_end(
        world, "palam", game_id, thread, pages={"alice": alice}, choose=palam_moves,
        in_discord=bob, max_plies=60, screenshot=(8, "alice", alice, -1))
    assert bob.pressed >= 10, "Bob's attacks and answers are buttons"
    await shown_over(world, game_id, plies, [alice])
    record = await world.services.games.record(game_id)
    duels = [m.text for m in record.moves if len(m.text) == 1]
    assert len(duels) == 24, "twelve duels, each an attack and its answer"


def polygo_moves(moves: list[str], ply: int) -> str:
    """Four turns of a stone and a wall, then both pass; in the scoring phase one group is
    marked dead and the other player accepts."""
    if ply < 4:
        return next(m for m in moves if " " in m)
    if ply < 6:
        return "pass"
    if ply == 6:
        return next(m for m in moves if m.startswith("dead "))
    return "accept"


async def test_a_whole_game_of_polygo_to_the_scoring(web_world, browser):
    """On the hexagon of side 5: stones with a wall each (stone, then wall: two clicks), two
    passes (a button), a group marked dead (one click on any of its stones) and accepted."""
    world = web_world
    board = await world.start_game("alice", "polygo", "bob", {"board": "hex5"})
    thread = board.channel_id
    game_id = (await world.services.games.game_for_thread(thread)).id
    alice = await open_board(browser, world, "alice", game_id, title="Polygo")
    bob_page = await open_board(browser, world, "bob", game_id, title="Polygo")
    plies = await play_to_the_end(
        world, "polygo", game_id, thread, pages={"alice": alice}, choose=polygo_moves,
        max_plies=12, screenshot=(2, "alice", alice, -1))
    record = await world.services.games.record(game_id)
    texts = [m.text for m in record.moves]
    assert texts[4:6] == ["pass", "pass"] and texts[6].startswith("dead ")
    assert texts[-1] == "accept"
    # Alice (Black, the host) clicked two stones with a wall, a pass and the dead group.
    assert [m.text for m in record.moves if m.seat == 0] == texts[0:7:2]
    await shown_over(world, game_id, plies, [alice, bob_page])
    await playwright.expect(bob_page.locator(".moves li")).to_have_count(plies)


async def test_several_polygo_groups_are_marked_dead_in_one_move(web_world, browser):
    """In the scoring phase each group the player may mark dead is a toggle: two of them on
    (a third on, then off again), and Play sends the one move naming both."""
    world = web_world
    game_id = await to_the_scoring(world)
    user, moves = await world.turn(game_id)
    dead = [m for m in moves if m.startswith("dead ")]
    assert len(dead) >= 3, dead
    page = await open_board(browser, world, user.name, game_id, title="Polygo")
    play = page.get_by_role("button", name="Play", exact=True)
    await playwright.expect(play).to_be_disabled(timeout=PATIENCE_MS)
    for part in (dead[1], dead[2], dead[0]):
        await page.get_by_role("button", name=part, exact=True).first.click()
    toggled = page.get_by_role("button", name=dead[1], exact=True)
    await playwright.expect(toggled.first).to_have_attribute("aria-pressed", "true")
    await toggled.first.click()  # off again
    await playwright.expect(toggled.first).to_have_attribute("aria-pressed", "false")
    # Every stone of a group toggled on shows it.
    on = page.get_by_role("button", name=dead[2], exact=True)
    assert await on.count() >= 1
    for i in range(await on.count()):
        await playwright.expect(on.nth(i)).to_have_attribute("aria-pressed", "true")
    move = f"dead {dead[0].split()[1]} {dead[2].split()[1]}"
    await playwright.expect(page.locator(".picks output")).to_have_text(move)
    await play.click()
    await playwright.expect(page.locator(".moves li").last).to_have_text(move,
                                                                        timeout=PATIENCE_MS)
    record = await world.services.games.record(game_id)
    assert record.moves[-1].text == move and record.moves[-1].seat is not None
