"""Heavy commands through the real bot: a replay is drawn once and then reused, and a user
asking for several at once is told privately to wait a moment while the first is drawn."""

from __future__ import annotations

import sys
import threading

from bot.workers.heavy import HeavyWork
from emulator import EPHEMERAL


async def played_game(world, host: str, guest: str, moves: int = 2):
    board = await world.start_game(host, "alak", guest)
    game = await world.services.games.game_for_thread(board.channel_id)
    for _ in range(moves):
        game = await world.services.games.get_game(game.id)
        user = game.user_to_move()
        await world.services.play.move(game.id, user, (await world.services.games.legal_moves(
            game.id, user))[0])
    return game


async def test_a_replay_is_drawn_once_then_sent_again_from_the_cache(world):
    emu = world.emu
    game = await played_game(world, "alice", "bob")
    first = await (await emu.slash("carol", "replay", {"game": game.id})).reply()
    second = await (await emu.slash("dave", "replay", {"game": game.id})).reply()
    assert first.files[0].data[:6] == b"GIF89a"
    assert second.files[0].data == first.files[0].data
    assert len(world.bot.heavy.cache) == 1
    # A new move is a new position: a new replay.
    info = await world.services.games.get_game(game.id)
    mover = info.user_to_move()
    await world.services.play.move(game.id, mover, (await world.services.games.legal_moves(
        game.id, mover))[0])
    third = await (await emu.slash("carol", "replay", {"game": game.id})).reply()
    assert third.files[0].data != first.files[0].data
    assert len(world.bot.heavy.cache) == 2


async def test_a_second_replay_while_the_first_is_drawn_is_asked_to_wait(world, monkeypatch):
    emu = world.emu
    games = [await played_game(world, "alice", "bob"), await played_game(world, "bob", "alice")]
    # Drawings that wait for the test, in threads (the real ones take a fraction of a second;
    # this makes "while the first is drawn" certain).
    release = threading.Event()

    def held_replay(source, names, lang):
        release.wait(30)
        return b"GIF89a held"

    world.bot.heavy.close()
    world.bot.heavy = HeavyWork.create(kind="thread")
    # The module discord.py loaded the cog from (an extension is imported afresh).
    cog_module = sys.modules[type(world.bot.get_cog("Clocks")).__module__]
    monkeypatch.setattr(cog_module, "replay_gif", held_replay)
    first = await emu.slash("carol", "replay", {"game": games[0].id})
    await first.acknowledged()  # carol's first drawing has started
    refused = await (await emu.slash("carol", "replay", {"game": games[1].id})).reply()
    assert refused.flags & EPHEMERAL
    assert refused.content.startswith("Your previous picture is still being drawn")
    other = await emu.slash("dave", "replay", {"game": games[1].id})
    await other.acknowledged()  # another user is not held up by carol's limit
    release.set()
    assert (await first.reply()).files[0].data == b"GIF89a held"
    assert (await other.reply()).files[0].data == b"GIF89a held"
    again = await (await emu.slash("carol", "replay", {"game": games[1].id})).reply()
    assert not again.flags & EPHEMERAL and again.files  # drawn for dave: from the cache
