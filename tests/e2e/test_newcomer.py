"""What a new user found playing (issue 26 §2), seen as they see it: through the emulator."""

from __future__ import annotations

import re

import render
from emulator import EPHEMERAL
from render import palam as palam_render
from tests.e2e.test_ai import until_human_turn


def plain(text: str) -> str:
    """``text`` with French no-break spaces as plain ones."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


async def test_undo_against_the_ai_says_why_first(world):
    emu = world.emu
    thread = await world.play_ai("alice", "alak")
    game = await world.services.games.game_for_thread(thread)
    alice = emu.user("alice").id
    # Right after her own move (the AI still to answer or answered): the AI is the reason.
    move = (await world.services.games.legal_moves(game.id, alice))[0]
    await (await emu.slash("alice", "move", {"text": move}, channel=thread)).reply()
    await until_human_turn(world.services, game.id)
    refused = await (await emu.slash("alice", "undo", {}, channel=thread)).reply()
    assert refused.flags & EPHEMERAL
    assert refused.content == "Moves cannot be taken back in a game against the AI."


async def test_a_palam_board_after_a_resignation_mid_duel(world, monkeypatch):
    subtitles: list[str] = []
    real = palam_render.draw_header

    def header(*args, **kwargs):
        subtitles.append(kwargs["subtitle"])
        return real(*args, **kwargs)

    monkeypatch.setattr(palam_render, "draw_header", header)
    emu = world.emu
    first = await world.start_game("alice", "palam", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    chooser, _ = await world.turn(game.id)
    await (await emu.slash(chooser.name, "move", {"text": "camp isis"}, channel=thread)).reply()
    attacker, _ = await world.turn(game.id)
    await (await emu.slash(attacker.name, "move", {"text": "a"}, channel=thread)).reply()
    answerer, _ = await world.turn(game.id)
    await world.resign(answerer, thread)
    subtitles.clear()
    board = await (await emu.slash("alice", "board", {}, channel=thread)).reply()
    # No duel was fought (the board used to say "12 duels"), and the attack still shows.
    assert board.files and subtitles == ["duels: 0/12"]


async def resign_in(world, user: str, thread: int):
    """``user`` resigns with /resign and the confirming button: the game's result post."""
    emu = world.emu
    question = await (await emu.slash(user, "resign", {}, channel=thread)).reply()
    mark = emu.mark()
    await emu.click(user, question, label="Resign")
    return await emu.wait_for_message(lambda m: "Partie terminée" in m.content
                                      or "Game over" in m.content,
                                      channel_id=thread, since=mark)


async def test_a_team_result_in_french_names_both_winners(world):
    emu = world.emu
    mark = emu.mark()
    await (await emu.slash("alice", "play lppg", {"level": "medium", "players": 4},
                           locale="fr")).reply()
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    # Three AI players of one level: numbered, here and in every later post.
    for n in (1, 2, 3):
        assert f"IA {n} (moyen)" in first.content, first.content
    result = await resign_in(world, "alice", first.channel_id)
    # Seats 1 and 3 (both AI) win against Alice's side: two names, joined, and a plural verb.
    assert "Partie terminée : IA 1 (moyen) et IA 3 (moyen) gagnent (" in plain(
        result.content), result.content


async def test_a_move_that_captures_is_said_once(world):
    emu = world.emu
    first = await world.start_game("alice", "alak", "bob")
    thread = first.channel_id
    alice = emu.user("alice")
    posts = []
    for user, move in (("alice", "d"), ("bob", "e"), ("alice", "f")):
        posts.append(await (await emu.slash(user, "move", {"text": move},
                                            channel=thread)).reply())
    # A plain move: who played what.
    assert posts[1].content.startswith(f"{emu.user('bob').mention} played **e**.")
    # A capture: the engine's sentence names the player, once, and the move once.
    said = posts[2].content.splitlines()[0]
    assert said == f"{alice.mention} plays f and captures 1 stone.", said
    assert said.count(" f ") == 1 and "played" not in said and "Black" not in said


async def test_clock_texts_read_well(world, monkeypatch):
    clocks: list[str] = []
    real = render.board

    def board(*args, **kwargs):
        clocks.append(kwargs.get("clock"))
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "board", board)
    emu = world.emu
    offer = await (await emu.slash("alice", "play alak",
                                   {"opponent": "bob", "time_control": "3d+1d"})).reply()
    first = await world.accept("bob", offer)
    thread = first.channel_id
    # A new game's banks are whole: 3 days each, not "2d 23h" a second after the start.
    assert clocks[-1] is not None and clocks[-1].endswith("banks: Alice 3d, Bob 3d"), clocks[-1]
    # Claiming too early: a sentence that reads with Discord's "in 3 days".
    early = await (await emu.slash("bob", "claim", {}, channel=thread)).reply()
    assert early.flags & EPHEMERAL
    assert re.fullmatch(r"The clock of game #\d+ has not run out yet: it runs out <t:\d+:R>\.",
                        early.content), early.content
    early = await (await emu.slash("bob", "claim", {}, channel=thread, locale="fr")).reply()
    assert re.search(r"n'est pas encore écoulée\u00a0: le temps sera écoulé <t:\d+:R>\.$",
                     early.content), early.content
    # Seconds of vacation cost a started hour, said in days and hours, not "29.9 days" (a
    # player of a timed game: with no clock to pause, no vacation starts).
    await (await emu.slash("bob", "vacation", {"days": 3})).reply()
    back = await (await emu.slash("bob", "vacation", {"days": 0}, locale="fr")).reply()
    assert "Il vous reste 29 jours et 23 heures de vacances sur 30 jours" in back.content, (
        back.content)
