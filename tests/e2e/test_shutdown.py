"""The bot stops in one order (``bot.discord.shutdown``): background tasks stop before the pools
they draw in close, and every interaction it received is answered before it is gone."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading

import pytest

from bot.discord.client import BoardGamesBot
from bot.runtime.app import launch
from bot.runtime.endpoints import use_endpoints
from bot.workers import diagrams
from emulator import running_emulator
from emulator.botprocess import BotProcess
from tests.e2e.conftest import make_config

#: How long before the emulator saw the gateway close an interaction may have been on its way
#: to a bot that had already sent its close frame.
ON_THE_WIRE = 0.05
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
            picture = await answer.reply(lambda m: bool(m.files))
            assert "Palago" in picture.data["embeds"][0]["title"]
            assert await bot.signal(signal.SIGTERM) == 0
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


async def test_a_sigterm_under_load_answers_every_interaction_it_received(tmp_path):
    """Commands keep coming from three users (/games and /rules) when the SIGTERM comes: every
    interaction the bot received is answered (its reply, or the "restarting" notice) within
    Discord's 3 s, and no answer is cut off when the bot closes its connections (which used
    to fail in a task nobody awaited: "Task exception was never retrieved")."""
    async with running_emulator() as emu:
        bot = BotProcess(emu, tmp_path / "bot.db", tmp_path / "bot.log")
        sent: list = []
        try:
            await bot.start()
            await started_game(emu)

            async def flood(user: str) -> None:
                while True:
                    try:
                        sent.append(await emu.slash(user, "games", {}))
                        sent.append(await emu.slash(user, "rules", {"game": "alak"}))
                    except ConnectionError:  # the gateway is closed: nothing reaches the bot
                        return
                    await asyncio.sleep(0.03)

            users = ("alice", "bob", "carol")
            floods = [asyncio.create_task(flood(user)) for user in users]
            await asyncio.sleep(1.0)
            # A slow network from now on: answers are on their way while the bot closes.
            emu.rest_delay = 0.3
            bot.process.send_signal(signal.SIGTERM)
            assert await bot.wait() == 0
            await asyncio.wait_for(asyncio.gather(*floods), 5)
        finally:
            await bot.stop()
    (closed,) = [event.at for event in emu.events if event.kind == "gateway_closed"]
    # What crossed the bot's close frame on the wire never reached it (Discord tells those
    # users the bot did not respond): the last moments before the emulator saw the close.
    received = [i for i in sent if i.sent_at < closed - ON_THE_WIRE]
    assert len(received) > 100
    late = [(round(i.sent_at - closed, 3), i.callback_at and round(i.callback_at - i.sent_at, 3))
            for i in received if i.callback_at is None or i.callback_at - i.sent_at > 3.0]
    # (Seconds before the gateway closed, and how long the answer took: None for none. An
    # answer the emulator refused as too late is among its refusals.)
    assert late == [], (f"{len(late)} of {len(received)} interactions got no answer in time",
                        late, [(r.path, r.code) for r in emu.refusals])
    # Whether a command lands between the SIGTERM and the gateway's close (and gets the
    # "restarting" notice rather than its reply) depends on the moment: both are answers, and
    # both are counted above; the test below turns one away deterministically.
    log = (tmp_path / "bot.log").read_text()
    for wrong in WRONG:
        assert wrong not in log, wrong


@pytest.mark.parametrize("backend", ["sqlite"])  # nothing here touches the database
async def test_an_interaction_read_while_the_bot_closes_is_answered_before_it_is_gone(world):
    """A command read in the last stages of a stop (the pools are closing) is turned away,
    and its notice, slow to reach Discord, is waited for before the bot's HTTP session
    closes (it used to be cut off there)."""
    emu = world.emu
    late = []
    handlers: list[asyncio.Task] = []

    async def a_late_command() -> None:
        emu.rest_delay = 0.5  # the notice is on its way for a while
        late.append(await emu.slash("bob", "games", {}))
        await emu.wait_for(lambda e: e.kind == "request" and e.interaction_id == late[0].id)
        handlers.extend(task for task in asyncio.all_tasks()
                        if task.get_name() == "CommandTree-invoker")

    world.bot.stop_order.add("pools", "test: a command comes", a_late_command)
    await world.stop()
    assert late[0].callback_type == 4, "answered before the bot was gone"
    notice = await late[0].reply(timeout=0)
    assert notice.ephemeral and "restarting" in notice.content
    assert handlers and all(task.done() for task in handlers)
    assert [task.exception() for task in handlers] == [None] * len(handlers)


async def started_game(emu) -> int:
    """Alice challenges Bob to Alak, he accepts: the game's thread."""
    challenge = await (await emu.slash("alice", "play alak", {"opponent": "bob"})).reply()
    mark = emu.mark()
    await emu.click("bob", challenge, label="Accept")
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    return board.channel_id


async def test_a_stop_before_on_ready_runs_never_starts_the_background_tasks(
        tmp_path, caplog, monkeypatch):
    """A SIGTERM while ``on_ready`` is pending: ``on_ready`` then runs in the middle of the
    stop, and must start nothing (the AI player, the scheduler or the delivery would run on
    pools the stop closes)."""
    caplog.set_level(logging.INFO)
    reached, resume = asyncio.Event(), asyncio.Event()
    real_on_ready = BoardGamesBot.on_ready

    async def held_on_ready(self):
        reached.set()
        await resume.wait()
        await real_on_ready(self)

    monkeypatch.setattr(BoardGamesBot, "on_ready", held_on_ready)
    async with running_emulator() as emu:
        running = await launch(make_config(emu, tmp_path), guild_ready_timeout=0.01)
        try:
            await reached.wait()
            # on_ready goes on as soon as the stop has begun (its first stage).
            running.bot.stop_order.add("refuse", "let on_ready go on", resume.set)
        finally:
            await running.stop()
            use_endpoints(None, None)
    background = ("ai-player", "correspondence-scheduler", "outbox-delivery", "board-warm-up")
    left = [t.get_name() for t in asyncio.all_tasks() if t.get_name() in background]
    assert left == []
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == []
    assert "ready while stopping" in caplog.text, "on_ready ran, during the stop"
