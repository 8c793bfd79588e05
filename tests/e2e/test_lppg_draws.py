"""LPPG's two draws at the end of a turn (`draw a` / `draw b`, one at a time) as buttons on the
public board: after the placement, and again after the first draw, since which pile to draw
from tells nothing of the drawer's cards."""

from __future__ import annotations

from emulator import Message
from tests.e2e.buttons import move_buttons


async def test_both_draws_of_a_turn_are_buttons(world):
    emu = world.emu
    first = await world.start_game("alice", "lppg", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    mover, moves = await world.turn(game.id)
    placement = next(m for m in moves if m.startswith("play"))
    placed: Message = await (await emu.slash(mover, "move", {"text": placement},
                                             channel=thread)).reply()
    if [b["label"] for b in move_buttons(placed)] != ["draw a", "draw b"]:
        # The placement closed a region: the marker first, then the draws.
        mover, moves = await world.turn(game.id)
        placed = await (await emu.slash(mover, "move", {"text": moves[0]},
                                        channel=thread)).reply()
    assert [b["label"] for b in move_buttons(placed)] == ["draw a", "draw b"]
    drawn = await (await emu.click(mover, placed, label="draw a")).reply()
    assert (await world.services.games.get_game(game.id)).user_to_move() == mover.id
    assert [b["label"] for b in move_buttons(drawn)] == ["draw a", "draw b"]
    second = await (await emu.click(mover, drawn, label="draw b")).reply()
    assert (await world.services.games.get_game(game.id)).user_to_move() != mover.id
    assert not move_buttons(second), "the next player's placements would tell their cards"
