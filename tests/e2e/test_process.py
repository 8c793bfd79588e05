"""The bot in its own process, stopped as Docker and a crash stop it.

SIGTERM (``docker stop``; Python is PID 1 there and would otherwise ignore it) and SIGINT: new
interactions are turned away, the one in flight finishes, the gateway closes normally (1000),
the database closes, and the process exits 0. SIGKILL at any moment: after the restart, nothing
is posted twice and nothing is lost (``bench.crash`` runs the full hundred kills)."""

from __future__ import annotations

import signal

import pytest

from bench.crash import drill
from bot.services import Services
from bot.store import open_store
from emulator import EPHEMERAL, running_emulator
from emulator.botprocess import BotProcess


async def start_game(emu) -> tuple[int, int]:
    challenge = await (await emu.slash("alice", "play alak", {"opponent": "bob"})).reply()
    mark = emu.mark()
    await emu.click("bob", challenge, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    return board.channel_id, board


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_finishes_the_move_in_flight_and_exits_0(tmp_path, signum):
    async with running_emulator() as emu:
        bot = BotProcess(emu, tmp_path / "bot.db", tmp_path / "bot.log")
        try:
            await bot.start()
            thread, _ = await start_game(emu)
            # A slow network: Alice's answer is still on its way when the signal comes.
            emu.rest_delay = 1.0
            mark = emu.mark()
            move = await emu.slash("alice", "move", {"text": "c"}, channel=thread)
            await emu.wait_for(lambda e: e.kind == "request" and e.interaction_id == move.id,
                               since=mark)
            bot.process.send_signal(signum)
            await bot.wait_for_log("stop signal received")
            # Bob comes too late: turned away, politely, and nothing changes.
            late = await emu.slash("bob", "move", {"text": "f"}, channel=thread)
            refused = await late.reply()
            assert refused.flags & EPHEMERAL and "restarting" in refused.content
            # Alice's move was answered with its board before the process ended.
            board = await move.reply()
            assert board.files and "played **c**" in board.content
            # It ends by itself, cleanly: its stop allows 3 s for the work in flight, within
            # Docker's 10 s (how long a stop takes depends on the machine; not timed here).
            assert await bot.wait() == 0
        finally:
            await bot.stop()
        assert emu.gateway_closes[-1] == 1000, "the gateway was closed normally"
        assert emu.refusals == []
    store = await open_store(str(tmp_path / "bot.db"))
    try:
        service = Services(store)
        game = await service.games.game_for_thread(thread)
        assert game.ply == 1 and game.last_move == "c"
        assert await service.outbox.pending_outbox() == [], "every row was delivered and marked"
    finally:
        await store.close()
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log


@pytest.mark.slow(19)
async def test_kill_9_at_any_moment_posts_nothing_twice_and_loses_nothing(tmp_path):
    report = await drill(cycles=4, workdir=tmp_path, seed=7)
    assert report.cycles == 4 and report.moves >= 2
    assert report.duplicates == [], report.duplicates
    assert report.missing == [], report.missing
    assert report.extra_threads == []
