"""The bot stops in one order (``bot.shutdown``): background tasks stop before the pools they
draw in close, and every interaction it received is answered before it is gone."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading

import pytest

from bot.emulator import running_emulator
from bot.emulator.botprocess import BotProcess
from bot.rules import diagrams

WRONG = ("Traceback", "ERROR", "WARNING", "no rules diagram", "pool is closed",
         "never retrieved")


async def test_a_sigterm_while_the_rules_diagrams_are_drawn_logs_no_error(tmp_path):
    """The first /rules starts drawing every rules diagram in the background, in the heavy
    worker pool; a SIGTERM stops that drawing before the pool closes, so a clean stop logs
    nothing wrong."""
    async with running_emulator() as emu:
        bot = BotProcess(emu, tmp_path / "bot.db", tmp_path / "bot.log")
        try:
            await bot.start()
            # Palago's overview waits for its picture, drawn once the worker process has
            # started; the twelve pictures of every game (~0.2 s each) are drawn meanwhile.
            answer = await emu.slash("alice", "rules", {"game": "palago"})
            picture = await answer.reply(lambda m: bool(m.files), timeout=30)
            assert "Palago" in picture.data["embeds"][0]["title"]
            assert await bot.signal(signal.SIGTERM, timeout=15) == 0
        finally:
            await bot.stop()
    log = (tmp_path / "bot.log").read_text()
    for wrong in WRONG:
        assert wrong not in log, wrong
    stopping = log[log.index("stop signal received"):]
    assert stopping.index("stopping: rules diagrams") < stopping.index("stopping: heavy pool")


@pytest.mark.parametrize("backend", ["sqlite"])  # nothing here touches the database twice
@pytest.mark.bot_config(heavy_pool="thread")
async def test_the_rules_diagrams_stop_before_their_pool_closes(world, caplog, monkeypatch):
    """A stop while a diagram is being drawn: the drawing in the background is over before the
    heavy pool closes, and no diagram is asked of the closed pool."""
    drawing = threading.Event()
    release = threading.Event()
    real_png = diagrams.png

    def slow_png(*args):
        drawing.set()
        release.wait(10)  # drawn until the pool closes
        return real_png(*args)

    monkeypatch.setattr(diagrams, "png", slow_png)
    rules = world.bot.get_cog("Rules")
    pool = world.bot.heavy.pool
    seen_at_close: list[bool] = []
    close = pool.close

    def closing() -> None:
        seen_at_close.append(rules._warming is not None and rules._warming.done())
        close()
        release.set()

    monkeypatch.setattr(pool, "close", closing)
    reply = await (await world.emu.slash("alice", "rules", {"game": "alak"})).reply()
    assert reply.data["embeds"]
    assert await asyncio.to_thread(drawing.wait, 10), "the warm-up draws in the background"
    await world.stop()
    assert seen_at_close == [True], "the warm-up had stopped when its pool closed"
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == []
