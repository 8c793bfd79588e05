"""The web board of the real bot against the emulator: signing in with Discord's OAuth2, what a
page may see, moves and resignations through the web posted in Discord as if typed there, and
the live socket that tells open pages their game changed."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import time
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

import engines
import render
from bot.services import Services
from bot.store import open_store
from bot.web.sessions import COOKIE, Sessions, Visitor
from emulator.oauth2 import AuthorizationRequest
from tests.e2e.loaded import loaded
from tests.e2e.test_ai import until_human_turn
from tests.e2e.test_notify import skew_to
from tests.e2e.web import WebClient


async def signed_in(world, *users: str) -> list[WebClient]:
    clients = [world.client(user) for user in users]
    for client in clients:
        await client.sign_in()
    return clients


async def alak(world, host: str = "alice", guest: str = "bob") -> tuple[int, int]:
    board = await world.start_game(host, "alak", guest, {"length": 7})
    game = await world.services.games.game_for_thread(board.channel_id)
    return game.id, board.channel_id


# ----- signing in ------------------------------------------------------------------------------


async def test_an_unsigned_visitor_is_sent_to_discord_and_comes_back_signed_in(web_world):
    world = web_world
    game_id, _ = await alak(world)
    alice = world.client("alice")
    async with alice.session.get(f"{alice.base}/games/{game_id}",
                                 allow_redirects=False) as answer:
        assert answer.status == 302
        where = urlsplit(answer.headers["Location"])
        assert where.path == "/auth/login"
        assert parse_qs(where.query) == {"next": [f"/games/{game_id}"]}
    await alice.sign_in(after=f"/games/{game_id}")
    status, state = await alice.state(game_id)
    assert status == 200, state
    assert state["seat"] == 0 and state["your_turn"] and state["players"][0]["you"]
    async with alice.session.get(f"{alice.base}/games/{game_id}") as page:
        assert page.status == 200
        text = await page.text()
    assert f'data-game="{game_id}"' in text and "/static/game.js" in text
    assert world.emu.client_secret not in text


async def test_a_state_that_is_not_the_one_sent_is_refused(web_world):
    world = web_world
    world.refusals_expected = True  # the reused code below is refused by Discord
    alice, mallory = world.client("alice"), world.client("bob")
    state = await alice.start_sign_in()
    await mallory.start_sign_in()
    # Bob's browser is led back with a code and a state Alice's sign-in asked for.
    back = world.emu.authorize("alice", redirect_uri=f"{alice.base}/auth/callback",
                               state=state)
    answer = await mallory.callback(back)
    assert answer.status == 400 and mallory.cookie is None
    # Without any sign-in started, no state is accepted either.
    stranger = world.client("carol")
    answer = await stranger.callback(back)
    assert answer.status == 400 and stranger.cookie is None


async def test_a_code_is_exchanged_once(web_world):
    world = web_world
    world.refusals_expected = True
    alice = world.client("alice")
    state = await alice.start_sign_in()
    back = world.emu.authorize("alice", redirect_uri=f"{alice.base}/auth/callback",
                               state=state)
    first = await alice.callback(back)
    assert first.status == 302 and alice.cookie is not None
    again = world.client("alice")
    state = await again.start_sign_in()
    replayed = back.replace(back.split("state=")[1], state)
    answer = await again.callback(replayed)
    assert answer.status == 400 and again.cookie is None
    assert [r.body.get("error") for r in world.emu.refusals] == ["invalid_grant"]


async def test_an_expired_or_forged_session_is_nobody(web_world):
    world = web_world
    game_id, _ = await alak(world)
    alice_id = world.emu.user("alice").id
    secret = world.config.client_secret
    week_ago = Sessions(secret, clock=lambda: time.time() - 8 * 24 * 3600)
    forged_key = Sessions("another-secret")
    genuine = Sessions(secret).cookie(Visitor(alice_id, "alice"))
    # (not the last character: it has spare bits)
    tampered = genuine[:-3] + ("A" if genuine[-3] != "A" else "B") + genuine[-2:]
    for value in (week_ago.cookie(Visitor(alice_id, "alice")),
                  forged_key.cookie(Visitor(alice_id, "alice")), tampered,
                  # A bearer token is not a cookie: each is signed for its own use.
                  Sessions(secret).token(Visitor(alice_id, "alice"))):
        assert await status_with_cookie(world, game_id, value) == 401
    assert await status_with_cookie(world, game_id, genuine) == 200


async def status_with_cookie(world, game_id: int, cookie: str) -> int:
    url = f"{world.config.web_public_url}/api/games/{game_id}"
    async with (aiohttp.ClientSession(cookies={COOKIE: cookie}) as session,
                session.get(url) as answer):
        return answer.status


async def test_an_activity_trades_its_code_for_a_bearer_token(web_world):
    world = web_world
    game_id, _ = await alak(world)
    # The Embedded App SDK's authorize gives a code without a redirect URI.
    code = world.emu.issue_code("bob", AuthorizationRequest(
        world.emu.client_id, ("identify",), None, None, None))
    base = world.config.web_public_url
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{base}/api/token", json={"code": code}) as answer:
            assert answer.status == 200
            token = (await answer.json())["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        async with session.get(f"{base}/api/games/{game_id}", headers=headers) as answer:
            state = await answer.json()
    assert state["seat"] == 1 and not state["your_turn"]


# ----- what a page sees ------------------------------------------------------------------------


async def test_a_hidden_hand_reaches_its_owner_only(web_world):
    world = web_world
    board = await world.start_game("alice", "lppg", "bob")
    game = await world.services.games.game_for_thread(board.channel_id)
    alice, bob = await signed_in(world, "alice", "bob")
    full = engines.get("lppg").load((await world.services.store.get_game(game.id)).snapshot)
    assert full.to_move == 0
    _, mine = await alice.state(game.id)
    _, theirs = await bob.state(game.id)
    own = {0: render.hand("lppg", full, 0), 1: render.hand("lppg", full, 1)}
    assert own[0] != own[1]
    def png(picture):
        return base64.b64decode(picture["image"].split(",", 1)[1])

    # Each sees their own cards (themes aside, the very image ``/hand`` shows them)...
    names = [p["name"] for p in mine["players"]]
    assert png(mine["hand"]) == render.hand("lppg", full, 0, players=names)
    assert png(theirs["hand"]) == render.hand("lppg", full, 1, players=names)
    # ...and nothing of the other's: the boards are drawn from each seat's own view, and
    # the hand's clickable cards go to the seat to move only.
    assert png(theirs["board"]) == render.board("lppg", full, viewer=1, players=names,
                                                last_move=game.last_move)
    assert theirs["legal"] == [] and theirs["hand"]["hits"]["regions"] == []
    assert any(parts[0].startswith("play ") for parts in mine["legal"])
    assert render.hand("lppg", full, 0, players=names) not in (png(theirs["hand"]),
                                                               png(theirs["board"]))


async def test_only_the_players_and_the_servers_members_open_a_game(web_world):
    world = web_world
    game_id, _ = await alak(world)
    world.emu.leave("carol")
    (carol,) = await signed_in(world, "carol")
    status, answer = await carol.state(game_id)
    assert status == 403
    assert answer["error"] == (f"Game #{game_id} is played in a server you are not a member "
                               "of: only its members can watch it here.")
    status, answer = await carol.move(game_id, "a", 0)
    assert status == 403
    assert (await world.services.games.get_game(game_id)).ply == 0


async def test_a_visitor_who_floods_the_api_is_slowed_down_alone(web_world):
    """Each state is drawn by the board workers: a script asking for it in a loop is answered
    429 (with when to come back) once its burst is spent, changes nothing, and the other
    player's page is served all the while."""
    world = web_world
    game_id, _ = await alak(world)
    alice, bob = await signed_in(world, "alice", "bob")
    reads, writes = world.bot.web.limits["GET"], world.bot.web.limits["POST"]
    reads.clock = writes.clock = lambda: 1000.0  # time stands still: nothing refills
    reads.burst = 12  # as many reads as the test may ask for in a reasonable time
    statuses = [(await alice.state(game_id))[0] for _ in range(reads.burst + 1)]
    assert statuses[:reads.burst] == [200] * reads.burst
    assert statuses[-1] == 429
    async with alice.session.get(f"{alice.base}/api/games/{game_id}") as answer:
        assert answer.status == 429 and int(answer.headers["Retry-After"]) >= 1
        assert (await answer.json())["error"].startswith("Too many requests")
    # Moves are counted apart: a flood of them is slowed down the same way.
    answers = [(await alice.move(game_id, "z", 0))[0] for _ in range(writes.burst + 1)]
    assert answers[-1] == 429 and 429 not in answers[:writes.burst]
    assert (await world.services.games.get_game(game_id)).ply == 0
    assert (await bob.state(game_id))[0] == 200


async def test_no_other_site_frames_a_board_page_but_discord_frames_the_activity(web_world):
    world = web_world
    game_id, _ = await alak(world)
    (alice,) = await signed_in(world, "alice")
    async with alice.session.get(f"{alice.base}/games/{game_id}") as page:
        assert page.status == 200
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    async with alice.session.get(f"{alice.base}/activity") as activity:
        assert activity.status == 200
        policy = activity.headers["Content-Security-Policy"]
        assert "frame-ancestors" not in policy and "default-src 'self'" in policy


async def test_a_hint_against_the_ai_on_the_web_and_none_against_a_person(web_world):
    world = web_world
    thread = await world.play_ai("alice", "alak")
    game = await world.services.games.game_for_thread(thread)
    await until_human_turn(world.services, game.id)
    (alice,) = await signed_in(world, "alice")
    status, state = await alice.state(game.id)
    assert status == 200 and state["your_turn"] and state["hint"] is True
    status, tip = await alice.post(f"/api/games/{game.id}/hint", {})
    assert status == 200, tip
    legal = await world.services.games.legal_moves(game.id, world.emu.user("alice").id)
    assert tip["move"] in [str(m) for m in legal]
    assert tip["text"].startswith(f"Hint: {tip['move']}")
    # Between people /hint refuses, and so do the page (no button) and the API.
    people, _ = await alak(world)
    status, state = await alice.state(people)
    assert state["hint"] is False
    status, refused = await alice.post(f"/api/games/{people}/hint", {})
    assert status >= 400 and refused["error"]
    assert (await world.services.games.get_game(people)).ply == 0


async def test_the_win_on_time_is_claimed_on_the_web_once_the_move_is_overdue(web_world):
    world = web_world
    board = await world.start_game("alice", "alak", "bob", {"length": 7, "time_control": "1d"})
    game = await world.services.games.game_for_thread(board.channel_id)
    alice_id = world.emu.user("alice").id
    waiting = "bob" if game.user_to_move() == alice_id else "alice"
    (claimer,) = await signed_in(world, waiting)
    _, state = await claimer.state(game.id)
    assert "claim" not in state["offers"]["actions"]  # not overdue yet
    status, refused = await claimer.post(f"/api/games/{game.id}/offers",
                                         {"action": "claim", "ply": 0})
    assert status >= 400 and refused["error"]
    assert (await world.services.games.get_game(game.id)).status == "active"
    deadline = await world.bot.clocks.deadline(game.id)
    skew_to(world, deadline + timedelta(minutes=1))
    _, state = await claimer.state(game.id)
    assert "claim" in state["offers"]["actions"]
    mark = world.emu.mark()
    status, answer = await claimer.post(f"/api/games/{game.id}/offers",
                                        {"action": "claim", "ply": 0})
    assert status == 200 and answer["status"] == "finished", answer
    ended = await world.emu.wait_for_message(lambda m: "Game over" in m.content,
                                             channel_id=board.channel_id, since=mark)
    assert world.emu.user(waiting).mention in ended.content or waiting in ended.content


# ----- moves -----------------------------------------------------------------------------------


async def test_a_move_on_the_web_is_posted_in_discord_like_one_typed_there(web_world):
    world = web_world
    emu = world.emu
    game_id, thread = await alak(world)
    alice, bob = await signed_in(world, "alice", "bob")
    _, state = await alice.state(game_id)
    move = state["legal"][0][0]
    # Out of turn: refused in the player's words, nothing played.
    status, refused = await bob.move(game_id, move, 0)
    assert status == 409 and refused["error"] == "It is not your turn yet."
    mark = emu.mark()
    status, played = await alice.move(game_id, move, 0)
    assert status == 200 and played == {"move": move, "ply": 1, "version": state["version"] + 1}
    posted = await emu.wait_for_message(lambda m: bool(m.files), channel_id=thread, since=mark)
    assert emu.user("bob").mention in posted.content
    assert move in posted.content
    links = [b for b in posted.buttons() if b.get("style") == 5]
    assert [(b["label"], b["url"]) for b in links] == [
        ("Open board", f"{world.config.web_public_url}/games/{game_id}")]
    # The board's buttons stay within Discord's limits.
    rows = posted.data["components"]
    assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
    # A page that loaded before that move is stale: refused, the board unchanged.
    status, stale = await alice.move(game_id, state["legal"][1][0], 0)
    assert status == 409 and "board changed" in stale["error"]
    assert (await world.services.games.get_game(game_id)).ply == 1
    # An illegal move is refused with the engine's reason.
    _, now = await bob.state(game_id)
    status, illegal = await bob.move(game_id, move, 1)
    assert status == 422 and illegal["error"].startswith("That move is not allowed")
    assert now["your_turn"] and now["moves"] == [move]


async def test_resigning_on_the_web(web_world):
    world = web_world
    emu = world.emu
    game_id, thread = await alak(world)
    (bob,) = await signed_in(world, "bob")
    mark = emu.mark()
    status, done = await bob.post(f"/api/games/{game_id}/resign", {"ply": 0})
    assert status == 200 and done["status"] == "finished"
    await emu.wait_for_message(lambda m: "resigned." in m.content, channel_id=thread, since=mark)
    _, state = await bob.state(game_id)
    assert state["status"] == "finished" and state["legal"] == []
    assert "alice won" in state["turn_text"].lower() or "won" in state["turn_text"]


async def test_open_pages_hear_of_each_change(web_world):
    world = web_world
    game_id, thread = await alak(world)
    alice, bob = await signed_in(world, "alice", "bob")
    base = world.config.web_public_url.replace("http", "ws")
    async with bob.session.ws_connect(f"{base}/api/games/{game_id}/live") as live:
        _, state = await alice.state(game_id)
        await alice.move(game_id, state["legal"][0][0], 0)
        assert await asyncio.wait_for(live.receive_json(), 30) == {"changed": game_id}
        # A move typed in Discord too.
        _, mine = await bob.state(game_id)
        await (await world.emu.slash("bob", "move", {"text": mine["legal"][0][0]},
                                     channel=thread)).reply()
        assert await asyncio.wait_for(live.receive_json(), 30) == {"changed": game_id}


async def test_the_home_page_lists_the_visitors_games_and_speaks_their_language(web_world):
    world = web_world
    game_id, _ = await alak(world)
    alice, carol = await signed_in(world, "alice", "carol")
    async with alice.session.get(f"{alice.base}/") as page:
        text = await page.text()
    assert f'href="/games/{game_id}"' in text and "Your turn." in text
    async with carol.session.get(f"{carol.base}/") as page:
        assert "You have no game going on." in await page.text()
    headers = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
    async with alice.session.get(f"{alice.base}/api/games/{game_id}", headers=headers) as got:
        state = await got.json()
    assert state["words"]["play"] == "Jouer" and state["turn_text"] == "À vous de jouer."


async def test_the_api_wants_a_signed_in_visitor_and_json(web_world):
    world = web_world
    game_id, _ = await alak(world)
    (alice,) = await signed_in(world, "alice")
    base = world.config.web_public_url
    async with aiohttp.ClientSession() as nobody:
        async with nobody.get(f"{base}/api/games/{game_id}") as answer:
            assert answer.status == 401
            assert "session has ended" in (await answer.json())["error"]
        async with nobody.get(f"{base}/api/games/{game_id}/live") as answer:
            assert answer.status == 401
    # A form another site could post with the visitor's cookie is not a move.
    async with alice.session.post(f"{base}/api/games/{game_id}/move",
                                  data={"move": "a", "ply": "0"}) as answer:
        assert answer.status == 415
    assert (await world.services.games.get_game(game_id)).ply == 0


@pytest.mark.parametrize("backend", ["postgres"])
async def test_open_pages_hear_of_a_move_another_process_made(web_world):
    """PostgreSQL: a move committed by another process (another store on the same database)
    reaches this process's open pages through the database's wake-ups."""
    world = web_world
    game_id, _ = await alak(world)
    (bob,) = await signed_in(world, "bob")
    base = world.config.web_public_url.replace("http", "ws")
    other = await open_store(world.config.database)
    try:
        async with bob.session.ws_connect(f"{base}/api/games/{game_id}/live") as live:
            move = (await world.services.games.legal_moves(game_id, world.emu.user("alice").id))[0]
            await Services(other).play.move(game_id, world.emu.user("alice").id, move)
            assert await asyncio.wait_for(live.receive_json(), 30) == {"changed": game_id}
    finally:
        await other.close()


async def test_the_bot_stops_its_web_board_first_and_cleanly(web_world, caplog):
    """A page still open when the bot stops is told the server is going away (1001); nothing
    fails on the way out (the board stops before the pools and the database)."""
    world = web_world
    game_id, _ = await alak(world)
    (bob,) = await signed_in(world, "bob")
    base = world.config.web_public_url
    order = [name for _, name in world.bot.stop_order.names()]
    assert order.index("web board") < order.index("board workers")
    async with bob.session.ws_connect(f"{base.replace('http', 'ws')}/api/games/{game_id}/live"
                                      ) as live:
        await world.stop()
        message = await asyncio.wait_for(live.receive(), 10)
        assert message.type == aiohttp.WSMsgType.CLOSE and message.data == 1001
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    with pytest.raises(aiohttp.ClientConnectionError):
        await bob.state(game_id)


@pytest.mark.parametrize("after", ["https://evil.example/", "//evil.example/", "/\\evil.example/",
                                   "games/1"])
async def test_signing_in_never_leads_to_another_site(web_world, after):
    world = web_world
    alice = world.client("alice")
    state = await alice.start_sign_in(after)
    back = world.emu.authorize("alice", redirect_uri=f"{alice.base}/auth/callback", state=state)
    answer = await alice.callback(back)
    assert answer.status == 302 and answer.headers["Location"] == "/"


async def test_a_timed_game_says_when_the_move_is_due(web_world):
    world = web_world
    board = await world.start_game("alice", "alak", "bob", {"time_control": "3d"})
    game_id = (await world.services.games.game_for_thread(board.channel_id)).id
    untimed, _ = await alak(world)
    (alice,) = await signed_in(world, "alice")
    _, state = await alice.state(game_id)
    deadline = (await world.bot.clocks.clock_info(game_id)).deadline
    before = world.bot.clocks.clock()
    _, state = await alice.state(game_id)
    now = datetime.fromisoformat(state["clock"].pop("now"))
    assert before <= now <= world.bot.clocks.clock()  # the service's clock, not the page's
    assert state["clock"] == {"deadline": deadline.isoformat(), "control": "3 days per move",
                              "paused": False}
    assert state["words"]["due"] == "Move due {when} ({control})."
    _, state = await alice.state(untimed)
    assert state["clock"] is None


async def test_a_draw_offered_and_accepted_on_the_web_is_said_in_discord(web_world):
    world = web_world
    emu = world.emu
    game_id, thread = await alak(world)
    alice, bob = await signed_in(world, "alice", "bob")
    _, state = await alice.state(game_id)
    assert "offer_draw" in state["offers"]["actions"]
    mark = emu.mark()
    status, _ = await alice.post(f"/api/games/{game_id}/offers",
                                 {"action": "offer_draw", "ply": 0})
    assert status == 200
    await emu.wait_for_message(lambda m: "offers a draw" in m.content, channel_id=thread,
                               since=mark)
    _, mine = await alice.state(game_id)
    _, theirs = await bob.state(game_id)
    assert mine["offers"] == {"text": "You offered a draw.", "actions": []}
    assert theirs["offers"]["text"] == f"{theirs['players'][0]['name']} offers a draw."
    assert theirs["offers"]["actions"][:2] == ["accept_draw", "decline_draw"]
    # Alice cannot answer her own offer.
    status, refused = await alice.post(f"/api/games/{game_id}/offers",
                                       {"action": "accept_draw", "ply": 0})
    assert status == 409 and refused["error"].startswith("That draw offer is over")
    assert (await world.services.games.get_game(game_id)).status == "active"
    status, done = await bob.post(f"/api/games/{game_id}/offers",
                                  {"action": "accept_draw", "ply": 0})
    assert status == 200 and done["status"] == "finished"
    game = await world.services.games.get_game(game_id)
    assert game.outcome is not None and game.outcome.winners == frozenset()
    _, over = await bob.state(game_id)
    assert over["offers"] == {"text": "", "actions": []} and over["turn_text"].startswith(
        "Game over. Draw.")


async def test_a_take_back_asked_and_allowed_on_the_web(web_world):
    world = web_world
    emu = world.emu
    game_id, thread = await alak(world)
    alice, bob = await signed_in(world, "alice", "bob")
    _, state = await alice.state(game_id)
    assert "ask_undo" not in state["offers"]["actions"]  # nothing to take back yet
    await alice.move(game_id, state["legal"][0][0], 0)
    mark = emu.mark()
    status, _ = await alice.post(f"/api/games/{game_id}/offers", {"action": "ask_undo",
                                                                  "ply": 1})
    assert status == 200
    await emu.wait_for_message(lambda m: "asks to take back" in m.content, channel_id=thread,
                               since=mark)
    _, theirs = await bob.state(game_id)
    assert theirs["offers"]["actions"] == ["offer_draw", "accept_undo", "decline_undo"]
    assert "asks to take back their last move." in theirs["offers"]["text"]
    mark = emu.mark()
    status, _ = await bob.post(f"/api/games/{game_id}/offers", {"action": "accept_undo",
                                                                "ply": 1})
    assert status == 200
    await emu.wait_for_message(lambda m: "taken back" in m.content, channel_id=thread,
                               since=mark)
    assert (await world.services.games.get_game(game_id)).ply == 0
    _, again = await alice.state(game_id)
    assert again["your_turn"] and again["moves"] == []


@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.bot_config(board_pool="process")
async def test_the_pages_pictures_are_drawn_by_the_board_worker_process(web_world):
    """As the bot runs by default: the board workers are processes, which load the drawing
    function of the web board (not its server) and draw the same pictures as a thread."""
    world = web_world
    game_id, _ = await alak(world)
    (alice,) = await signed_in(world, "alice")
    boards = world.bot.boards
    assert boards.kind == "process"
    status, state = await alice.state(game_id)
    assert status == 200
    full = engines.get("alak").load((await world.services.store.get_game(game_id)).snapshot)
    names = [p["name"] for p in state["players"]]
    png = base64.b64decode(state["board"]["image"].split(",", 1)[1])
    assert png == render.board("alak", full, viewer=0, players=names)
    assert [r[1] for r in state["board"]["hits"]["regions"]] == list("abcdefg")
    worker = await boards.run(os.getpid)
    assert worker != os.getpid()
    assert await boards.run(loaded, "bot.web.board")
    assert not await boards.run(loaded, "bot.web.server")
