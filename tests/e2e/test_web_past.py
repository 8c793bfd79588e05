"""Past positions on the web board: the board as it stood after a move, drawn by the bot for
the viewer from the stored moves, never with another seat's cards of the time."""

from __future__ import annotations

import base64

import engines
import render
from tests.e2e.test_web import alak, signed_in


def png(picture: dict) -> bytes:
    return base64.b64decode(picture["image"].split(",", 1)[1])


async def past(client, game_id: int, ply: int) -> tuple[int, dict]:
    async with client.session.get(f"{client.base}/api/games/{game_id}/past/{ply}") as answer:
        return answer.status, await answer.json()


async def play_first_legal(world, client, game_id: int, user: str) -> str:
    user_id = world.emu.user(user).id
    move = (await world.services.games.legal_moves(game_id, user_id))[0]
    ply = (await world.services.games.get_game(game_id)).ply
    status, answer = await client.move(game_id, move, ply)
    assert status == 200, answer
    return move


async def test_a_past_position_shows_the_viewers_own_cards_of_the_time_only(web_world):
    world = web_world
    board = await world.start_game("alice", "lppg", "bob")
    game = await world.services.games.game_for_thread(board.channel_id)
    alice, bob = await signed_in(world, "alice", "bob")
    players = {0: ("alice", alice), 1: ("bob", bob)}
    first = await play_first_legal(world, alice, game.id, "alice")
    # Whoever moves next (an LPPG turn may take the same player two moves).
    to_move = (await world.services.games.get_game(game.id)).to_move
    second = await play_first_legal(world, players[to_move][1], game.id, players[to_move][0])
    row = await world.services.store.get_game(game.id)
    lppg = engines.get("lppg")
    states = lppg.replay(2, row.seed, row.options, [first, second])
    _, now = await alice.state(game.id)
    names = [p["name"] for p in now["players"]]
    assert now["moves"] == [first, second]

    status, seen = await past(alice, game.id, 1)
    assert status == 200
    # Exactly the board and hand Alice had after the first move, and nothing to click.
    assert set(seen) == {"ply", "last_move", "board", "hand"}
    assert seen["ply"] == 1 and seen["last_move"] == first
    assert "hits" not in seen["board"] and "hits" not in seen["hand"]
    assert png(seen["board"]) == render.board("lppg", lppg.view(states[1], 0), viewer=0,
                                              players=names, last_move=first)
    assert png(seen["hand"]) == render.hand("lppg", lppg.view(states[1], 0), 0, players=names)
    # Bob's hand of that time reaches neither Alice's board nor her hand, and the other way.
    theirs = render.hand("lppg", states[1], 1, players=names)
    assert theirs not in (png(seen["hand"]), png(seen["board"]))
    assert theirs != png(seen["hand"])
    _, bobs = await past(bob, game.id, 1)
    assert png(bobs["hand"]) == theirs
    assert render.hand("lppg", states[1], 0, players=names) not in (png(bobs["hand"]),
                                                                    png(bobs["board"]))
    # The setup and the present are positions too; beyond them there is none.
    status, start = await past(alice, game.id, 0)
    assert status == 200 and start["last_move"] is None
    assert png(start["hand"]) == render.hand("lppg", lppg.view(states[0], 0), 0, players=names)
    status, latest = await past(alice, game.id, 2)
    assert status == 200 and latest["last_move"] == second
    status, _ = await past(alice, game.id, 3)
    assert status == 404
    # Looking back changes nothing.
    assert (await world.services.games.get_game(game.id)).ply == 2


async def test_only_those_who_may_watch_look_back_and_within_their_rate(web_world):
    world = web_world
    game_id, _ = await alak(world)
    world.emu.leave("carol")
    alice, carol = await signed_in(world, "alice", "carol")
    await play_first_legal(world, alice, game_id, "alice")
    status, answer = await past(carol, game_id, 0)
    assert status == 403
    assert answer["error"].startswith(f"Game #{game_id} is played in a server you are not")
    nobody = world.client("dave")
    status, _ = await past(nobody, game_id, 0)
    assert status == 401
    # Past positions are reads (each a replay, drawn by the board workers): counted with
    # the page's other reads, refused alike once the burst is spent.
    reads = world.bot.web.limits["GET"]
    reads.clock = lambda: 1000.0  # time stands still: nothing refills
    reads.burst = 4
    statuses = [(await past(alice, game_id, 1))[0] for _ in range(reads.burst + 1)]
    assert statuses == [200] * reads.burst + [429]
    assert (await alice.state(game_id))[0] == 429
