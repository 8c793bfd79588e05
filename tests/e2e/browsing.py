"""Helpers of the tests that play in a real browser (Debian's Chromium, driven by Playwright):
the browser, a move made by clicks on a page or in the Activity's frame, the check that a move
was posted in Discord as a typed ``/move`` is, and the docs' screenshots.

Importing this module skips the importing test module when Playwright is missing."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image

import render
from bot.web.server import sdk_folder
from emulator import EmuUser, Message
from tests.e2e.conftest import World
from tests.e2e.moves import move_said

if TYPE_CHECKING:
    from playwright.async_api import Browser, FrameLocator, Locator, Page

    from emulator.activity_client import ActivityClient

    #: Where a player clicks: a web page, or the Activity's frame in the client's page.
    Where = Page | FrameLocator

playwright = pytest.importorskip(
    "playwright.async_api", reason="needs Playwright: pip install -e '.[test]'")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: The browser tests' marks: ``browser`` (slow: ``-m "not browser"`` leaves them out of a
#: quick run), skipped without Chromium.
IN_A_BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None,
                       reason="needs headless Chromium: apt-get install -y chromium"),
]
#: The marks of a test module that plays in the emulated Activity: in a browser, with the SDK
#: installed, on one database (the browser's side is what is tested), Activities on.
IN_THE_ACTIVITY = [
    *IN_A_BROWSER,
    pytest.mark.skipif(sdk_folder() is None,
                       reason="needs Discord's Embedded App SDK: npm ci (package.json)"),
    pytest.mark.parametrize("backend", ["sqlite"]),
    pytest.mark.emulator(activities=True),
]
#: How long a page may take to show what a test waits for.
PATIENCE_MS = 30_000
#: The size of a browser's window: the docs' screenshots are taken at this size.
VIEWPORT = {"width": 900, "height": 700}
#: ``BOT_DOCS_SCREENSHOTS=1`` writes a screenshot of each game being played to
#: docs/web-<game>.png; without it no tracked file is written.
DOCS = Path(__file__).resolve().parents[2] / "docs"
SCREENSHOTS = os.environ.get("BOT_DOCS_SCREENSHOTS") == "1"


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """Headless Chromium, closed on leaving (the ``browser`` fixture of tests/e2e)."""
    async with playwright.async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=CHROMIUM,
                                                args=["--no-sandbox", "--disable-gpu"])
        try:
            yield launched
        finally:
            await launched.close()


async def pick_move(where: Where, game: str, move: str,
                    before_pick: tuple[int, Callable[[Locator], Awaitable[None]]] | None = None
                    ) -> None:
    """Click the picks of ``move`` on a page or a frame (``where``): each a button named by the
    notation part it adds (a region of a picture or a word's button), Play disabled until the
    picks make a whole move. A part some regions share (every stone of a Polygo group, every
    square of an LPPG region) is clicked on its first region. ``before_pick`` = (i, f):
    ``await f(button)`` before the i-th pick (the last for -1), while the page offers that
    part's choices (``button``: the one about to be clicked)."""
    play = where.get_by_role("button", name="Play", exact=True)
    await playwright.expect(play).to_be_disabled(timeout=PATIENCE_MS)
    parts = render.split_move(game, move)
    for i, part in enumerate(parts):
        button = where.get_by_role("button", name=part, exact=True).first
        if before_pick is not None and i == before_pick[0] % len(parts):
            await before_pick[1](button)
        await button.click(timeout=PATIENCE_MS)
    await playwright.expect(where.locator(".picks output")).to_have_text(move)
    await playwright.expect(play).to_be_enabled()


async def posted_as_for_move(world: World, game_id: int, thread: int, since: int, mover: EmuUser,
                             move: str) -> Message:
    """The board posted in ``thread`` after the event ``since``: it says that ``mover`` played
    ``move`` and pings the player to move next only, as after a ``/move``."""
    emu = world.emu
    posted = await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread, since=since)
    assert move_said(posted.content, mover.mention, move), (move, posted.content)
    game = await world.services.games.get_game(game_id)
    if game.status == "active":
        after = game.user_to_move()
        assert after is not None
        assert f"<@{after}>, your turn" in posted.content, posted.content
        assert posted.notified == {after}, (posted.content, posted.notified)
    return posted


async def moves_shown(where: Where, count: int) -> None:
    """``where`` (a page or the Activity's frame) lists ``count`` moves."""
    await playwright.expect(where.locator(".moves li")).to_have_count(count, timeout=PATIENCE_MS)


async def docs_screenshot(page: Page, game: str, centred: Locator | None = None) -> None:
    """docs/web-<game>.png from ``page``, when ``BOT_DOCS_SCREENSHOTS=1``; ``centred``: an
    element whose picture is scrolled to the middle of the window first."""
    if not SCREENSHOTS:
        return
    if centred is not None:
        await centred.evaluate(
            "shown => (shown.closest('.picture') || shown).scrollIntoView({block: 'center'})")
    shot = Image.open(io.BytesIO(await page.screenshot()))
    # 256 colours: a third of the bytes, no visible loss on a board's flat colours.
    shot.convert("RGB").quantize(256).save(DOCS / f"web-{game}.png", optimize=True)


async def typed_move(world: World, thread: int, mover: EmuUser, move: str,
                     board: Message | None) -> None:
    """The opponent in Discord types ``/move``."""
    await (await world.emu.slash(mover, "move", {"text": move}, channel=thread)).reply()


#: How a player without a page plays a move: ``(world, thread, mover, move, last board)``.
InDiscord = Callable[[World, int, EmuUser, str, "Message | None"], Awaitable[None]]


async def play_to_the_end(
        world: World, game: str, game_id: int, thread: int, *, pages: dict[str, Where],
        choose: Callable[[list[str], int], str], max_plies: int,
        in_discord: InDiscord = typed_move,
        screenshot: tuple[int, str, Page, int] | None = None,
        after_each: Callable[[EmuUser], Awaitable[None]] | None = None) -> int:
    """Play game ``game_id`` until it is over: a player with a page (``pages``: user name ->
    page or Activity frame) picks each move by clicks, anyone else plays in Discord
    (``in_discord(world, thread, mover, move, last board)``); ``choose(moves, ply)`` is the
    move among the mover's legal moves. Every move's board and ping is checked in Discord,
    and every page follows every move without being reloaded; ``await after_each(mover)``
    then. ``screenshot`` = (ply, user, page, i): the docs' screenshot of ``page`` (the user's
    page, or the Discord client framing their Activity) during the first move they pick from
    that ply on, before its i-th pick (-1: the last). The number of plies played."""
    emu = world.emu
    ply = 0
    board = None
    while ply < max_plies:
        mover, moves = await world.turn(game_id)
        if mover is None:
            break
        move = choose(moves, ply)
        mark = emu.mark()
        where = pages.get(mover.name)
        if where is None:
            await in_discord(world, thread, mover, move, board)
        else:
            shoot = None
            if screenshot is not None and ply >= screenshot[0] and mover.name == screenshot[1]:
                shoot = (screenshot[3], functools.partial(docs_screenshot, screenshot[2], game))
                screenshot = None
            await pick_move(where, game, move, before_pick=shoot)
            await where.get_by_role("button", name="Play", exact=True).click()
        board = await posted_as_for_move(world, game_id, thread, mark, mover, move)
        ply += 1
        for page in pages.values():
            await moves_shown(page, ply)
            await playwright.expect(page.locator(".moves li").last).to_have_text(move)
        if after_each is not None:
            await after_each(mover)
    assert screenshot is None, f"{screenshot[1]} picked no move from ply {screenshot[0]} on"
    return ply


async def shown_over(world: World, game_id: int, plies: int, pages: list[Where]) -> None:
    """The game is over after ``plies`` moves, and each page says so and offers no Play."""
    game = await world.services.games.get_game(game_id)
    assert game.status == "finished" and game.ply == plies > 0, (game.status, game.ply)
    for page in pages:
        await playwright.expect(page.get_by_text("Game over.")).to_be_visible(
            timeout=PATIENCE_MS)
        assert await page.get_by_role("button", name="Play", exact=True).count() == 0


async def seven_point_alak(world: World) -> tuple[Message, int, int]:
    """Alice and Bob's game of Alak on seven points: its first board, its thread and its id."""
    board = await world.start_game("alice", "alak", "bob", {"length": 7})
    thread = board.channel_id
    return board, thread, (await world.services.games.game_for_thread(thread)).id


async def open_board(browser: Browser, world: World, user: str, game_id: int,
                     title: str = "Alak", **context_options) -> Page:
    """``user``'s own browser opens the game's link: signed in to Discord (the emulator's
    link), the board sends them to the authorize page, where they press Authorize."""
    context = await browser.new_context(locale="en-GB",
                                        **{"viewport": VIEWPORT, **context_options})
    page = await context.new_page()
    board = f"{world.config.web_public_url}/games/{game_id}"
    await page.goto(world.emu.sign_in_url(user, board))
    await page.get_by_role("button", name="Authorize").click()
    await page.wait_for_url(board)
    await playwright.expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Game #{game_id}: {title}", timeout=PATIENCE_MS)
    return page


async def open_activity(browser: Browser, world: World, user: str, thread: int, *,
                        watch: Callable[[Page], None] | None = None, **context_options
                        ) -> tuple[ActivityClient, Page, FrameLocator]:
    """``user``'s Discord client opens the Activity in ``thread`` and they press Authorize in
    Discord's OAuth modal: the client, the client's page, and the Activity's frame in it.
    ``watch(page)`` is called before the page opens anything (to listen to its traffic)."""
    emu = world.emu
    client = emu.open_activity(user, channel=thread)
    context = await browser.new_context(locale="en-GB",
                                        **{"viewport": VIEWPORT, **context_options})
    page = await context.new_page()
    if watch is not None:
        watch(page)
    await page.goto(emu.activity_page_url(client))
    await page.locator("#authorize").click(timeout=PATIENCE_MS)
    return client, page, page.frame_locator("#activity")
