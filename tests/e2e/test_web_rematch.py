"""Rematch on the web board: what Discord's Rematch button does (the same service call and
refusals, in the player's words), said in the game's thread as the button says it, the new
game posted in Discord as ever, and the page then offers the new game."""

from __future__ import annotations

from bot.core.i18n import t
from bot.discord.views.game import rematch_said
from bot.services.rematches import Rematch
from tests.e2e.test_web import alak, signed_in


async def rematch(client, game_id: int, lang: str = "en") -> tuple[int, dict]:
    async with client.session.post(f"{client.base}/api/games/{game_id}/rematch", json={},
                                   headers={"Accept-Language": lang}) as answer:
        return answer.status, await answer.json()


async def test_a_rematch_asked_and_accepted_on_the_web(web_world):
    world = web_world
    emu = world.emu
    game_id, thread = await alak(world)
    alice, bob, carol = await signed_in(world, "alice", "bob", "carol")
    # While the game runs there is none: the page offers none, the service refuses.
    _, state = await alice.state(game_id)
    assert state["rematch"] is None
    status, answer = await rematch(alice, game_id)
    assert status == 400, answer
    assert answer["error"] == t("errors.rematch_not_offered", "en", game_id=game_id)
    await world.resign("bob", thread)
    _, state = await alice.state(game_id)
    assert state["rematch"] == {"asked": False, "new_game": None}
    assert state["words"]["rematch"] == "Rematch"
    status, _ = await rematch(carol, game_id)
    assert status == 403

    # Alice asks: the thread is told as the button tells it, Bob pinged.
    mark = emu.mark()
    status, answer = await rematch(alice, game_id)
    assert status == 200 and answer == {"new_game": None}
    said = await emu.wait_for_message(lambda m: "rematch" in m.content, channel_id=thread,
                                      since=mark)
    asked = await world.services.rematches.rematch_state(game_id)
    assert asked == ((emu.user("alice").id,), None)
    assert emu.user("bob").id in said.notified  # pinged, as the button pings
    _, state = await alice.state(game_id)
    assert state["rematch"] == {"asked": True, "new_game": None}
    status, answer = await rematch(alice, game_id)
    assert status == 400 and answer["error"] == t("errors.rematch_already", "en")

    # Bob accepts: the new game starts, seats turned, its board posted in its own thread.
    mark = emu.mark()
    status, answer = await rematch(bob, game_id)
    new_id = answer["new_game"]
    assert status == 200 and isinstance(new_id, int)
    new_game = await world.services.games.get_game(new_id)
    assert new_game.seats == (emu.user("bob").id, emu.user("alice").id)
    board = await emu.wait_for_message(lambda m: bool(m.files), channel_id=new_game.thread_id,
                                       since=mark)
    assert emu.user("bob").mention in board.content
    game = await world.services.games.get_game(game_id)
    expected, _ = rematch_said(Rematch(game, (1, 2), (), new_game), emu.user("bob").id, "en")
    assert f"is game #{new_id}" in expected
    await emu.wait_for_message(lambda m: m.content == expected, channel_id=thread, since=mark)
    # Both pages now offer the new game; a late press is refused in the player's words.
    for client in (alice, bob):
        _, state = await client.state(game_id)
        assert state["rematch"]["new_game"] == new_id
    status, answer = await rematch(alice, game_id, "fr")
    assert status == 400
    assert answer["error"] == t("errors.rematch_started", "fr", game_id=game_id,
                                new_game_id=new_id)
