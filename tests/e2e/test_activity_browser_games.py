"""Whole games of LPPG and Palago played by clicks in the board's Discord Activity, in a real
browser (Debian's Chromium, driven by Playwright): the emulated Discord client page frames the
board through the Activity's proxy. LPPG is played by four, Alice in the Activity and the
three others typing /move in Discord, and no other player's hand ever reaches her page; in
Palago, Alice in the Activity plays Bob clicking on the web board in his browser. Every move's
board and ping is posted in the game's thread as for /move. (Alak in the Activity:
``test_activity_browser.py``; Kolory, Palam and Polygo: ``test_web_browser_games.py``.)"""

from __future__ import annotations

import asyncio
import re

import orjson

import engines
from engines.lppg import CARD_IDS
from tests.e2e.browsing import (
    IN_THE_ACTIVITY,
    PATIENCE_MS,
    open_activity,
    open_board,
    play_to_the_end,
    playwright,
    shown_over,
)

pytestmark = IN_THE_ACTIVITY

#: A card's id as the engine names it (``R1``..``Y19``).
CARD = re.compile(r"\b[RBGY](?:1[0-9]|[1-9])\b")
#: A deal of four where playing each player's first legal move ends the game in 28 plies
#: (a player places their third marker and wins).
LPPG_SEED = 33
IMAGE = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")


class Traffic:
    """What a page received: every response (its URL and body) and every WebSocket frame, the
    Activity's frame included. The emulated client's own event stream (Discord's side of the
    SDK's messages, which never ends while the page is open) is counted apart, not read."""

    def __init__(self) -> None:
        self.reading: list[asyncio.Future] = []
        self.frames: list[str | bytes] = []
        self.streams = 0

    def watch(self, page) -> None:
        page.on("response", self._response)
        page.on("websocket", lambda socket: socket.on(
            "framereceived", lambda payload: self.frames.append(payload)))

    def _response(self, response) -> None:
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            self.streams += 1
        else:
            self.reading.append(asyncio.ensure_future(self._read(response)))

    @staticmethod
    async def _read(response) -> tuple[str, int, bytes | None]:
        try:
            return response.url, response.status, await response.body()
        except playwright.Error:  # a redirect has no body
            assert 300 <= response.status < 400, response.url
            return response.url, response.status, None

    async def responses(self) -> list[tuple[str, int, bytes | None]]:
        return await asyncio.gather(*self.reading)


async def seat_table(world, game: str, host: str, guests: list[str]):
    """``host`` opens a table for 1 + len(guests), the guests join in turn, the host starts
    it: the game's first board."""
    emu = world.emu
    table = await world.challenge(host, game, {"players": 1 + len(guests)})
    for guest in guests:
        await (await emu.click(guest, table, label="Join")).reply()
    mark = emu.mark()
    await emu.click(host, table, label="Start")
    return await emu.wait_for_message(lambda m: bool(m.files), since=mark)


async def test_a_whole_game_of_lppg_for_four_in_the_activity_hides_the_other_hands(
        web_world, browser):
    """Alice plays her cards by clicks (a card of her hand, the square, the turned card), her
    markers (the marker, then the region) and her draws (a pile). Her hand reaches her page
    only as its picture and hit map, whose parts are slots (``play 1``) and rotations, never
    card ids; so for every state her page was sent (its ``ply``), no id of a card then in
    another player's hand appears in it outside the pictures, and no picture of another
    player's hand (as their own page is sent it) appears in anything her page received."""
    world = web_world
    emu = world.emu
    world.services.context.seeds = lambda: LPPG_SEED
    others = ["bob", "carol", "dave"]
    board = await seat_table(world, "lppg", "alice", others)
    thread = board.channel_id
    game = await world.services.games.game_for_thread(thread)
    assert game.seats == tuple(emu.user(u).id for u in ["alice", *others])
    # Each player's own hand picture, as their own page is sent it (a light theme, English):
    # their own visitor, signed in on the web (Alice's after her Activity asked her consent:
    # Discord asks only once).
    clients = {}
    hands: dict[str, set[str]] = {user: set() for user in ["alice", *others]}

    async def hand_pictures(mover) -> None:
        for user in [mover.name] if mover is not None else clients:
            client = clients[user]
            async with client.session.get(f"{client.base}/api/games/{game.id}",
                                          params={"theme": "light"}) as answer:
                assert answer.status == 200
                hand = (await answer.json())["hand"]
            if hand is not None:
                hands[user].add(hand["image"])

    async def sign_in(users: list[str]) -> None:
        for user in users:
            clients[user] = world.client(user)
            await clients[user].sign_in()
        await hand_pictures(None)

    await sign_in(others)
    traffic = Traffic()
    await emu.click("alice", board, f"bg:board:{game.id}")
    client, page, activity = await open_activity(browser, world, "alice", thread,
                                                 watch=traffic.watch, color_scheme="light")
    await playwright.expect(activity.get_by_role("heading", level=1)).to_have_text(
        f"Game #{game.id}: LPPG — Le Plus Petit Gagne", timeout=PATIENCE_MS)
    await sign_in(["alice"])
    plies = await play_to_the_end(
        world, "lppg", game.id, thread, pages={"alice": activity},
        choose=lambda moves, ply: moves[0], max_plies=80,
        screenshot=(8, "alice", page, 1),
        after_each=hand_pictures)
    assert plies == 28
    await shown_over(world, game.id, plies, [activity])
    record = await world.services.games.record(game.id)
    clicked = [m.text for m in record.moves if m.seat == 0]
    assert {text.split(" ")[0] for text in clicked} >= {"play", "mark", "draw"}, clicked
    states = engines.get("lppg").replay(4, record.seed, game.options,
                                        [m.text for m in record.moves])
    responses = await traffic.responses()
    states_seen = 0
    for url, _, body in responses:
        if body is None:
            continue
        if re.search(rf"/api/games/{game.id}\?theme=light$", url):
            state = orjson.loads(body)
            words = IMAGE.sub("", body.decode())
            held = {CARD_IDS[c] for seat, hand in enumerate(states[state["ply"]].hands)
                    if seat != 0 for c in hand}
            assert not held & set(CARD.findall(words)), (state["ply"], url)
            states_seen += 1
        text = body.decode("latin-1")
        for user in others:
            assert not any(picture in text for picture in hands[user]), (user, url)
    assert states_seen >= plies, "her page fetched the game's state after every move"
    # The comparison finds a hand where it is: Alice's own, in what her page was sent.
    mine = [picture for picture in hands["alice"]
            if any(body and picture.encode() in body for _, _, body in responses)]
    assert mine, "Alice's own hand, as her page is sent it, is in her page's traffic"
    assert traffic.frames and not any(CARD.search(str(f)) for f in traffic.frames)
    assert all(len(hands[user]) > 1 for user in others), "every hand changed and was seen"
    assert not any("token" in message.lower() for _, message in client.logs), client.logs


async def test_a_whole_game_of_palago_in_the_activity_against_a_browser(
        web_world, browser):
    """Alice in the Activity, Bob on the web board in his browser, both by clicks: every move
    two tiles (cell, orientation, cell, orientation), until the 48 tiles are down."""
    world = web_world
    emu = world.emu
    board = await world.start_game("alice", "palago", "bob")
    thread = board.channel_id
    game_id = (await world.services.games.game_for_thread(thread)).id
    await emu.click("alice", board, f"bg:board:{game_id}")
    _, page, activity = await open_activity(browser, world, "alice", thread)
    await playwright.expect(activity.get_by_role("heading", level=1)).to_have_text(
        f"Game #{game_id}: Palago", timeout=PATIENCE_MS)
    bob = await open_board(browser, world, "bob", game_id, title="Palago")
    plies = await play_to_the_end(
        world, "palago", game_id, thread, pages={"alice": activity, "bob": bob},
        choose=lambda moves, ply: moves[0], max_plies=30, screenshot=(10, "alice", page, 2))
    assert plies == 24  # 48 tiles, two a move
    await shown_over(world, game_id, plies, [activity, bob])
