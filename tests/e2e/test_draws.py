"""Draw offers and aborts through the emulator (issue 31 §1), in English and French: an offer
is a new message that pings the opponent, with Accept/Decline; the answer is said publicly; an
offer lapses when the game goes on; a game that cannot be drawn refuses; the AI answers at
once; until everyone has moved, Abort ends a game with no result."""

from __future__ import annotations

import asyncio

from bot.core.i18n import t
from emulator import EPHEMERAL
from tests.e2e.test_ai import AI_PATIENCE, assert_no_ai_reached, delivered


async def start(world, locale: str = "en-US"):
    """Alice (in ``locale``) challenges Bob to Alak, he accepts: (thread, game, first board)."""
    emu = world.emu
    challenge = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                       locale=locale)).reply()
    mark = emu.mark()
    await emu.click("bob", challenge, label="Accepter" if locale == "fr" else "Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    thread = board.channel_id
    return thread, await world.services.games.game_for_thread(thread), board


async def offer(world, user: str, thread: int, locale: str = "en-US"):
    """``user`` types /draw: (their private answer, the public offer in the thread)."""
    emu = world.emu
    mark = emu.mark()
    answer = await (await emu.slash(user, "draw", channel=thread, locale=locale)).reply()
    posted = await emu.wait_for_message(lambda m: bool(m.buttons()), channel_id=thread,
                                        since=mark)
    return answer, posted


async def test_an_accepted_draw_ends_the_game_drawn_and_rated_as_one(world):
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    thread, game, _ = await start(world)
    await (await emu.slash("alice", "move", {"text": "c"}, channel=thread)).reply()
    answer, posted = await offer(world, "alice", thread)
    assert answer.flags & EPHEMERAL and "draw offer in game" in answer.content
    assert "offers a draw" in posted.content and alice.mention in posted.content
    assert posted.notified == {bob.id}, "a new message that pings the opponent only"
    assert [b["label"] for b in posted.buttons()] == ["Accept the draw", "Decline"]

    mark = emu.mark()
    accepted = await (await emu.click("bob", posted, label="Accept the draw")).reply()
    assert accepted.flags & EPHEMERAL and "You accepted" in accepted.content
    said = await emu.wait_for_message(lambda m: not m.ephemeral and "accepted" in m.content,
                                      channel_id=thread, since=mark)
    assert alice.mention in said.content and bob.mention in said.content
    assert said.notified == {alice.id}, "the one who offered learns the answer"
    result = await emu.wait_for_message(lambda m: "draw agreed" in m.content,
                                        channel_id=thread, since=mark)
    # Said once: not "a draw (draw agreed)".
    assert result.content.startswith("Game over: draw agreed."), result.content
    await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == posted.id
                       and not e.data.buttons(), since=mark)
    after = await world.services.games.get_game(game.id)
    assert after.status == "finished" and after.outcome.scores == (0.5, 0.5)
    assert not after.outcome.winners
    await delivered(world, game.id)
    ratings = await world.bot.get_cog("Tournaments").ratings.glicko_of("alak", [alice.id, bob.id])
    assert ratings[alice.id].games == ratings[bob.id].games == 1
    assert ratings[alice.id].rating == ratings[bob.id].rating  # a draw between equals


async def test_a_declined_offer_is_said_publicly_in_french_and_answers_once(world):
    world.refusals_expected = False
    emu = world.emu
    alice, bob = emu.user("alice"), emu.user("bob")
    thread, game, _ = await start(world, locale="fr")
    answer, posted = await offer(world, "alice", thread, locale="fr")
    assert "proposition de nulle" in answer.content
    assert "propose la nulle" in posted.content and posted.notified == {bob.id}
    assert [b["label"] for b in posted.buttons()] == ["Accepter la nulle", "Refuser"]

    mark = emu.mark()
    presses = await asyncio.gather(*(emu.click("bob", posted, label="Refuser", locale="fr")
                                     for _ in range(2)))
    answers = sorted([(await press.reply()).content for press in presses])
    assert any("Vous avez refusé" in text for text in answers)
    assert any("n'a plus cours" in text for text in answers), answers
    said = await emu.wait_for_message(lambda m: "refuse la nulle" in m.content,
                                      channel_id=thread, since=mark)
    assert said.notified == {alice.id}, "the refusal pings the one who offered"
    await delivered(world, game.id)
    assert len([m for m in emu.channel_messages(thread) if "refuse la nulle" in m.content]) == 1
    assert (await world.services.games.get_game(game.id)).status == "active"


async def test_an_offer_lapses_when_the_opponent_plays_on(world):
    emu = world.emu
    thread, game, _ = await start(world)
    _, posted = await offer(world, "alice", thread)  # on her turn: her move keeps it
    await (await emu.slash("alice", "move", {"text": "c"}, channel=thread)).reply()
    assert emu.messages[posted.id].buttons(), "still open after the sender's own move"
    mark = emu.mark()
    await (await emu.slash("bob", "move", {"text": "f"}, channel=thread)).reply()
    lapsed = await emu.wait_for_message(lambda m: "lapsed" in m.content, channel_id=thread,
                                        since=mark)
    assert lapsed.notified == frozenset()
    await emu.wait_for(lambda e: e.kind == "edit" and e.data.id == posted.id
                       and not e.data.buttons(), since=mark)
    assert await world.services.draws.pending_draw_offers(game.id) == []


async def test_a_game_that_cannot_be_drawn_refuses_clearly(world):
    emu = world.emu
    for locale, expected in (("en-US", "cannot end in a draw by agreement"),
                             ("fr", "ne peut pas finir ici par une nulle")):
        challenge = await (await emu.slash("alice", "play lppg", {"opponent": "bob"})).reply()
        board = await world.accept("bob", challenge)
        mark = emu.mark()
        refused = await (await emu.slash("bob", "draw", channel=board.channel_id,
                                         locale=locale)).reply()
        assert refused.flags & EPHEMERAL and expected in refused.content
        assert not [e for e in emu.events[mark:] if e.kind == "message"
                    and not e.data.ephemeral], "nothing posted"


async def test_offer_a_draw_beside_resign(world):
    emu = world.emu
    bob = emu.user("bob")
    thread, game, _ = await start(world)
    question = await (await emu.slash("alice", "resign", channel=thread)).reply()
    assert [b["label"] for b in question.buttons()] == ["Resign", "Offer a draw"]
    mark = emu.mark()
    await (await emu.click("alice", question, label="Offer a draw")).reply()
    posted = await emu.wait_for_message(lambda m: "offers a draw" in m.content,
                                        channel_id=thread, since=mark)
    assert posted.notified == {bob.id}
    assert (await world.services.games.get_game(game.id)).status == "active"


async def test_the_ai_answers_a_draw_offer_at_once(world):
    emu = world.emu
    thread = await world.play_ai("alice", "alak")
    game = await world.services.games.game_for_thread(thread)
    mark = emu.mark()
    answer = await (await emu.slash("alice", "draw", channel=thread)).reply()
    assert answer.flags & EPHEMERAL
    said = await emu.wait_for_message(
        lambda m: "draw offer" in m.content and ("accepted" in m.content
                                                 or "declined" in m.content),
        channel_id=thread, since=mark, timeout=AI_PATIENCE)
    assert "AI (easy)" in said.content
    offered = [m for m in emu.channel_messages(thread) if "offers AI (easy) a draw" in m.content]
    assert offered and not offered[0].buttons(), "nobody to press: the AI answers itself"
    after = await world.services.games.get_game(game.id)
    if "accepted" in said.content:
        assert after.status == "finished" and after.outcome.scores == (0.5, 0.5)
    else:
        assert after.status == "active" and said.notified == {emu.user("alice").id}
    assert await world.services.draws.pending_draw_offers(game.id) == []
    assert_no_ai_reached(emu)


async def test_abort_before_everyone_moved_and_not_after(world):
    emu = world.emu
    alice = emu.user("alice")
    thread, game, board = await start(world)
    assert "Abort" in [b["label"] for b in board.buttons()], "on the first board"
    await (await emu.slash("alice", "move", {"text": "c"}, channel=thread)).reply()
    second = await emu.wait_for_message(lambda m: bool(m.files) and "c" in m.content,
                                        channel_id=thread)
    mark = emu.mark()
    aborted = await (await emu.click("bob", emu.messages[second.id], label="Abort")).reply()
    assert aborted.flags & EPHEMERAL and "aborted" in aborted.content
    notice = await emu.wait_for_message(
        lambda m: not m.ephemeral and "aborted this game" in m.content,
        channel_id=thread, since=mark)
    assert notice.notified == {alice.id}
    after = await world.services.games.get_game(game.id)
    assert after.status == "aborted" and after.outcome is None
    await delivered(world, game.id)
    ratings = world.bot.get_cog("Tournaments").ratings
    assert (await ratings.glicko_of("alak", [alice.id]))[alice.id].games == 0

    # A second game: once both have moved, neither the button nor /abort is there.
    thread, game, board = await start(world, locale="fr")
    assert "Interrompre" in [b["label"] for b in board.buttons()]
    await (await emu.slash("alice", "move", {"text": "c"}, channel=thread)).reply()
    mark = emu.mark()
    last = await (await emu.slash("bob", "move", {"text": "f"}, channel=thread)).reply()
    assert "Interrompre" not in [b["label"] for b in last.buttons()]
    refused = await (await emu.slash("alice", "abort", channel=thread, locale="fr")).reply()
    assert refused.flags & EPHEMERAL and "ne peut plus être interrompue" in refused.content
    assert (await world.services.games.get_game(game.id)).status == "active"
    assert t("draws.abort_button", "fr") == "Interrompre"


async def test_an_offer_survives_a_restart(world):
    """The offer is in the database and its buttons name it: after a restart Bob's Accept
    still ends the game drawn."""
    emu = world.emu
    thread, game, _ = await start(world)
    _, posted = await offer(world, "alice", thread)
    await world.restart()
    mark = emu.mark()
    await (await emu.click("bob", posted, label="Accept the draw")).reply()
    await emu.wait_for_message(lambda m: "draw agreed" in m.content, channel_id=thread,
                               since=mark)
    assert (await world.services.games.get_game(game.id)).outcome.scores == (0.5, 0.5)


async def test_an_offer_to_the_ai_made_before_a_restart_is_answered_after_it(world):
    """The pending offer is read from the database: a bot stopped before its AI answered
    answers after the start, once."""
    emu = world.emu
    mark = emu.mark()
    await (await emu.slash("alice", "play alak", {"level": "hard"})).reply()
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)

    async def never(game_id: int) -> int:
        await asyncio.Event().wait()
        return 0

    world.bot.ai_player.answer_draw_offers = never  # this run never answers
    await (await emu.slash("alice", "draw", channel=thread)).reply()
    assert len(await world.services.draws.pending_draw_offers(game.id)) == 1
    mark = emu.mark()
    await world.restart()
    said = await emu.wait_for_message(
        lambda m: "draw offer" in m.content and "AI (hard)" in m.content
        and ("accepted" in m.content or "declined" in m.content),
        channel_id=thread, since=mark, timeout=AI_PATIENCE)
    assert said.notified == {emu.user("alice").id}
    assert await world.services.draws.pending_draw_offers(game.id) == []
    await delivered(world, game.id)
    answers = [m for m in emu.channel_messages(thread) if "draw offer" in m.content
               and ("accepted" in m.content or "declined" in m.content)]
    assert len(answers) == 1, "answered once"
