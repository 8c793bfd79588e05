"""Spectators on the web board: a member of a game's server who can see its channel watches
the public board (no hand, nothing to click, every change refused); anyone else is refused
with the reason."""

from __future__ import annotations

import asyncio
import base64

import engines
import render
from tests.e2e.test_web import alak, signed_in


def png(picture: dict) -> bytes:
    return base64.b64decode(picture["image"].split(",", 1)[1])


def regions(state: dict) -> list:
    return [r for name in ("board", "hand", "choices") if state.get(name)
            for r in state[name]["hits"]["regions"]]


async def test_a_member_who_sees_the_channel_watches_and_changes_nothing(web_world):
    world = web_world
    game_id, _ = await alak(world)
    alice, carol = await signed_in(world, "alice", "carol")
    async with carol.session.get(f"{carol.base}/games/{game_id}") as page:
        assert page.status == 200
    status, state = await carol.state(game_id)
    assert status == 200
    assert state["watching"] and state["seat"] is None and not state["your_turn"]
    assert state["legal"] == [] and regions(state) == []
    assert state["offers"]["actions"] == [] and not state["hint"] and state["rematch"] is None
    assert state["words"]["watching"] == "You are watching this game."
    _, mine = await alice.state(game_id)
    assert not mine["watching"] and mine["legal"]
    move = mine["legal"][0][0]
    before = await world.services.games.get_game(game_id)
    only = f"You are watching game #{game_id}: only its players can do that."
    for path, body in ((f"/api/games/{game_id}/move", {"move": move, "ply": 0}),
                       (f"/api/games/{game_id}/resign", {"ply": 0}),
                       (f"/api/games/{game_id}/offers", {"action": "offer_draw", "ply": 0}),
                       (f"/api/games/{game_id}/offers", {"action": "claim", "ply": 0}),
                       (f"/api/games/{game_id}/hint", {}),
                       (f"/api/games/{game_id}/rematch", {})):
        status, answer = await carol.post(path, body)
        assert (status, answer) == (403, {"error": only}), path
    after = await world.services.games.get_game(game_id)
    assert (after.ply, after.version, after.status) == (before.ply, before.version, before.status)
    assert await world.services.draws.pending_draw_offers(game_id) == []
    # Live, like the players: a move is heard, then the page sees it.
    base = world.config.web_public_url.replace("http", "ws")
    async with carol.session.ws_connect(f"{base}/api/games/{game_id}/live") as live:
        await alice.move(game_id, move, 0)
        assert await asyncio.wait_for(live.receive_json(), 30) == {"changed": game_id}
    _, state = await carol.state(game_id)
    assert state["moves"] == [move] and regions(state) == []
    async with carol.session.get(f"{carol.base}/api/games/{game_id}/past/0") as answer:
        assert answer.status == 200 and (await answer.json())["hand"] is None


async def test_a_member_who_cannot_see_the_channel_is_refused(web_world):
    world = web_world
    game_id, _ = await alak(world)
    await world.emu.hide_channel("carol", world.emu.channel_id)
    (carol,) = await signed_in(world, "carol")
    said = (f"You cannot see the channel where game #{game_id} is played, so you cannot watch "
            "it here.")
    for _ in range(2):  # the answer is the same when remembered
        status, answer = await carol.state(game_id)
        assert (status, answer) == (403, {"error": said})
    async with carol.session.get(f"{carol.base}/games/{game_id}") as page:
        assert page.status == 403 and said in await page.text()
    status, answer = await carol.move(game_id, "a", 0)
    assert (status, answer) == (403, {"error": said})
    assert (await world.services.games.get_game(game_id)).ply == 0


async def test_a_visitor_who_is_not_a_member_of_the_server_is_refused(web_world):
    world = web_world
    game_id, _ = await alak(world)
    world.emu.leave("carol")
    (carol,) = await signed_in(world, "carol")
    said = (f"Game #{game_id} is played in a server you are not a member of: only its members "
            "can watch it here.")
    status, answer = await carol.state(game_id)
    assert (status, answer) == (403, {"error": said})
    async with carol.session.get(f"{carol.base}/api/games/{game_id}/past/0") as answer:
        assert answer.status == 403
    base = world.config.web_public_url.replace("http", "ws")
    async with carol.session.get(f"{base.replace('ws', 'http', 1)}/api/games/{game_id}/live",
                                 headers={"Connection": "Upgrade", "Upgrade": "websocket",
                                          "Sec-WebSocket-Version": "13",
                                          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
                                 ) as live:
        assert live.status == 403
    # The French visitor reads it in French.
    async with carol.session.get(f"{carol.base}/api/games/{game_id}",
                                 headers={"Accept-Language": "fr"}) as answer:
        assert (await answer.json())["error"].startswith(f"La partie n°{game_id} se joue sur")


async def test_a_spectator_of_lppg_sees_no_hand(web_world):
    world = web_world
    board = await world.start_game("alice", "lppg", "bob")
    game = await world.services.games.game_for_thread(board.channel_id)
    (carol,) = await signed_in(world, "carol")
    lppg = engines.get("lppg")
    full = lppg.load((await world.services.store.get_game(game.id)).snapshot)
    async with carol.session.get(f"{carol.base}/api/games/{game.id}") as answer:
        assert answer.status == 200
        text = await answer.text()
        state = await answer.json()
    names = [p["name"] for p in state["players"]]
    assert state["hand"] is None and state["legal"] == [] and regions(state) == []
    # The public board, exactly: drawn for no seat.
    assert png(state["board"]) == render.board("lppg", lppg.view(full, None), viewer=None,
                                               players=names, last_move=game.last_move)
    # Neither hand's picture, nor a hand's cards in the JSON: the cards' numbers of each hand,
    # in order, are nowhere in the answer (a view keeps no hidden hand).
    hands = [render.hand("lppg", full, seat, players=names) for seat in (0, 1)]
    pictures = [png(state[name]) for name in ("board", "choices") if state.get(name)]
    assert not any(hand in pictures for hand in hands)
    assert all(base64.b64encode(hand).decode()[:200] not in text for hand in hands)
    assert all(str(list(cards)) not in text.replace(" ", "") for cards in full.hands if cards)
    async with carol.session.get(f"{carol.base}/api/games/{game.id}/past/0") as answer:
        seen = await answer.json()
    assert seen["hand"] is None
    assert png(seen["board"]) == render.board("lppg", lppg.view(full, None), viewer=None,
                                              players=names)
