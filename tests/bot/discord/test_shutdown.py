"""The stop order (``bot.discord.shutdown``) on its own, and the bot's: every background task stops
before what it uses closes."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.core.events import EVENT_TYPES
from bot.core.settings import Config
from bot.discord import host
from bot.discord.client import BoardGamesBot, extensions
from bot.discord.shutdown import STAGES, StopOrder, cancel_and_wait, finish_in_flight
from bot.services import Services


async def test_stops_run_stage_by_stage_whatever_order_they_were_added_in():
    order = StopOrder()
    ran: list[str] = []

    async def pool_user() -> None:
        await asyncio.sleep(0)
        ran.append("rules diagrams")

    order.add("pools", "heavy pool", lambda: ran.append("heavy pool"))
    order.add("pool users", "rules diagrams", pool_user)
    order.add("producers", "scheduler", lambda: ran.append("scheduler"))
    await order.run()
    assert ran == ["scheduler", "rules diagrams", "heavy pool"]
    assert order.names() == [("producers", "scheduler"), ("pool users", "rules diagrams"),
                             ("pools", "heavy pool")]
    await order.run()
    assert len(ran) == 3, "a second close stops nothing twice"


async def test_a_stop_that_fails_is_logged_and_the_later_ones_still_run(caplog):
    order = StopOrder()
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("boom")

    order.add("producers", "broken", broken)
    order.add("pools", "pool", lambda: ran.append("pool"))
    with caplog.at_level(logging.ERROR):
        await order.run()
    assert ran == ["pool"]
    assert "stopping broken failed" in caplog.text


def test_a_stage_must_be_one_of_the_order():
    with pytest.raises(ValueError, match="no stop stage"):
        StopOrder().add("whenever", "x", lambda: None)


async def test_cancel_and_wait_ends_a_task_and_ignores_none_or_done():
    task = asyncio.create_task(asyncio.sleep(60))
    await cancel_and_wait(task)
    assert task.cancelled()
    await cancel_and_wait(None)
    await cancel_and_wait(task)


async def test_work_in_flight_is_waited_for_up_to_the_timeout():
    quick = asyncio.create_task(asyncio.sleep(0.05), name="background-quick")
    stuck = asyncio.create_task(asyncio.sleep(60), name="background-stuck")
    other = asyncio.create_task(asyncio.sleep(60), name="not-ours")
    loop = asyncio.get_running_loop()
    started = loop.time()
    await finish_in_flight(timeout=0.3)
    assert quick.done() and not stuck.done() and not other.done()
    assert 0.25 <= loop.time() - started < 2
    for task in (stuck, other):
        await cancel_and_wait(task)


@pytest.fixture
async def the_bot(tmp_path, store):
    bot = BoardGamesBot(Config(database=str(tmp_path / "bot.db")), Services(store))
    for extension in extensions():
        await bot.load_extension(extension)
    yield bot
    await bot.close()


async def test_the_bot_stops_its_background_tasks_before_the_pools_they_use(the_bot):
    names = the_bot.stop_order.names()
    assert [stage for stage, _ in names] == sorted((s for s, _ in names), key=STAGES.index)
    position = {name: i for i, (_, name) in enumerate(names)}
    assert names[0] == ("refuse", "new interactions")
    for user in ("AI player", "outbox delivery and boards' warm-up", "rules diagrams",
                 "post-game reviews", "interactions and their background work"):
        assert position[user] < position["heavy pool"] < position["gateway"]
        assert position[user] < position["board workers"]
        assert position[user] < position["AI workers"] < position["gateway"]
    assert position["correspondence scheduler"] < position[
        "interactions and their background work"]
    assert names[-1] == ("gateway", "answers to the last interactions")


async def test_the_bot_has_what_its_cogs_and_buttons_rely_on(the_bot):
    """``bot.discord.host``'s protocols are what cogs and views may use of the bot: the bot has
    it."""
    for protocol in (host.Host, host.CogHost):
        members = set(protocol.__annotations__) | {
            name for name in vars(protocol) if not name.startswith("_")}
        assert members
        for name in members:
            assert hasattr(the_bot, name), name
    for name in ("register", "on_game_over", "send", "board_file", "flush", "act",
                 "strip_buttons", "language"):
        assert callable(getattr(the_bot.delivery, name)), name
    assert the_bot.ai_player.pool is not None


async def test_every_event_type_is_posted_once_the_cogs_are_loaded(the_bot):
    """The game delivery posts the game's own events and each feature's cog registers its
    posters: no event type is left without one."""
    assert the_bot.delivery.posted == set(EVENT_TYPES)
