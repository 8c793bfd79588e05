"""Polygo's scoring phase on the web board: the page may toggle every group it may mark dead
(``together``, from the server, in the order a move names them) and send them as one move,
which the server checks whole."""

from __future__ import annotations

import engines
from engines.polygo import EMPTY, geometry
from tests.e2e.test_web import signed_in


async def to_the_scoring(world) -> int:
    """A Polygo game on hex5 after four turns of a stone and a wall and two passes, in the
    scoring phase: its id."""
    board = await world.start_game("alice", "polygo", "bob", {"board": "hex5"})
    game_id = (await world.services.games.game_for_thread(board.channel_id)).id
    for ply in range(6):
        user, moves = await world.turn(game_id)
        move = next(m for m in moves if " " in m) if ply < 4 else "pass"
        await world.services.play.move(game_id, user.id, move)
    return game_id


async def test_several_groups_are_marked_dead_in_one_move(web_world):
    world = web_world
    game_id = await to_the_scoring(world)
    clients = dict(zip(("alice", "bob"), await signed_in(world, "alice", "bob"), strict=True))
    user, moves = await world.turn(game_id)
    page = clients[user.name]
    _, state = await page.state(game_id)
    together = state["together"]
    dead = [m for m in moves if m.startswith("dead ")]
    assert together == {"word": "dead", "parts": dead} and len(dead) >= 2
    # The other player's page has none: it is not their turn.
    other = clients[next(n for n in clients if n != user.name)]
    assert (await other.state(game_id))[1]["together"] is None
    # Two groups named in the server's order (the page's): the engine's canonical text.
    first, second = (part.split(" ", 1)[1] for part in dead[:2])
    move = f"dead {first} {second}"
    row = await world.services.store.get_game(game_id)
    polygo = engines.get("polygo")
    before = polygo.load(row.snapshot)
    assert str(polygo.parse_move(f"dead {second} {first}", before)) == move
    # An illegal whole (a cell without a stone) is refused with the engine's words.
    names = geometry("hex5").names
    empty = next(names[p] for p, value in enumerate(before.board) if value == EMPTY)
    status, refused = await page.move(game_id, f"dead {first} {empty}", state["ply"])
    assert status == 422, refused
    assert refused["error"].startswith("That move is not allowed"), refused
    assert f"there is no stone on {empty}" in refused["error"]
    status, played = await page.move(game_id, move, state["ply"])
    assert status == 200 and played["move"] == move, played
    record = await world.services.games.record(game_id)
    assert record.moves[-1].text == move
    after = polygo.load((await world.services.store.get_game(game_id)).snapshot)
    marked = {polygo.parse_move(f"dead {cell}", before).cells[0] for cell in (first, second)}
    assert marked <= after.dead and len(after.dead) > len(before.dead)
