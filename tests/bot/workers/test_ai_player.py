"""The AI players' runner (``bot.workers.ai_player``): turns found in the database, thought in a
worker pool and played once even when two processes think about the same turn; with several
processes each plays the turns of its shards' servers only, and is woken by another process's
commit. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.core.settings import Config
from bot.core.sharding import EVERY_SERVER, SHARD_SHIFT, Shards
from bot.discord.client import BoardGamesBot
from bot.services import Services
from bot.workers.ai_player import AiPlayer
from bot.workers.pool import WorkerPool
from tests.bot.conftest import BACKENDS
from tests.bot.store.dbutil import other_process

#: Servers on shard 0 and on shard 1 of two.
GUILD_0 = 4 << SHARD_SHIFT
GUILD_1 = 5 << SHARD_SHIFT


@pytest.fixture(params=BACKENDS)
def backend(request):
    """The runner's guarantees hold on both databases (several processes need PostgreSQL)."""
    return request.param


class Delivered:
    """The delivery as the runner uses it: which games it was asked to post."""

    def __init__(self) -> None:
        self.games: list[int] = []

    async def flush(self, game_id: int, interaction: object = None,
                    written: object = None) -> bool:
        self.games.append(game_id)
        return False


def runner(store, shards: Shards = EVERY_SERVER) -> tuple[AiPlayer, Delivered]:
    """An AI runner of its own (as in another process) on the shared database, playing for
    the servers of ``shards``."""
    delivery = Delivered()
    bot = SimpleNamespace(services=Services(store), delivery=delivery)
    return AiPlayer(bot, WorkerPool("ai-test", kind="thread"), shards=shards), delivery


async def ai_to_move(service: Services, guild_id: int | None) -> int:
    """A game of person 7 against the easy AI in ``guild_id``, the AI to move."""
    info = await service.aiseats.play_ai("alak", 7, "easy", guild_id=guild_id)
    await service.play.move(info.id, 7, (await service.games.legal_moves(info.id, 7))[0])
    return info.id


@pytest.fixture
async def two_runners(store):
    first, second = runner(store), runner(store)
    yield first, second
    for player, _ in (first, second):
        await player.stop()
        player.close()


async def test_two_processes_thinking_about_one_turn_play_it_once(store, two_runners):
    (first, first_posts), (second, second_posts) = two_runners
    service = Services(store)
    info = await service.aiseats.play_ai("alak", 7, "easy")
    await service.play.move(info.id, 7, (await service.games.legal_moves(info.id, 7))[0])
    played = await asyncio.gather(first.play_turn(info.id), second.play_turn(info.id))
    assert sorted(played) == [False, True], "one move lands, the other finds the board changed"
    after = await service.games.get_game(info.id)
    assert after.ply == 2 and after.user_to_move() == 7
    assert first_posts.games + second_posts.games == [info.id], "the winner posts the move"
    assert await first.play_turn(info.id) is False, "nothing to do once a person is to move"


async def test_a_round_finds_the_turns_left_waiting(store, two_runners):
    (player, posts), _ = two_runners
    service = Services(store)
    waiting = []
    for _ in range(3):
        info = await service.aiseats.play_ai("alak", 7, "easy")
        await service.play.move(info.id, 7, (await service.games.legal_moves(info.id, 7))[0])
        waiting.append(info.id)
    assert await player.play_round() == 3
    await asyncio.gather(*list(player._thinking.values()))
    assert sorted(posts.games) == waiting
    assert await service.aiseats.ai_turns() == []


async def test_each_process_plays_the_ai_turns_of_its_own_servers_once(store, db):
    service = Services(store)
    on_0, on_1, direct = (await ai_to_move(service, GUILD_0), await ai_to_move(service, GUILD_1),
                          await ai_to_move(service, None))
    async with other_process(db) as other:
        (zero, zero_posts), (one, one_posts) = (runner(store, Shards(2, (0,))),
                                                runner(other, Shards(2, (1,))))
        try:
            # The same filter as the outbox: a direct message's game is shard 0's.
            assert [t.game_id for t in await service.aiseats.ai_turns(shards=zero.shards)] == [on_0,
                                                                                        direct]
            assert [t.game_id for t in await service.aiseats.ai_turns(shards=one.shards)] == [on_1]
            assert await asyncio.gather(zero.play_round(), one.play_round()) == [2, 1]
            await asyncio.gather(*zero._thinking.values(), *one._thinking.values())
            assert sorted(zero_posts.games) == [on_0, direct] and one_posts.games == [on_1]
        finally:
            await zero.stop()
            zero.close()
            await one.stop()
            one.close()
    for game_id in (on_0, on_1, direct):
        after = await service.games.get_game(game_id)
        assert after.ply == 2 and after.user_to_move() == 7, "each AI turn played once"
        kinds = [item.kind for item in await service.outbox.pending_outbox(game_id=game_id)]
        assert kinds == ["game_started", "move", "move"]
    # The AI's move rows carry their game's server, like a person's: its shard delivers them.
    rows = await service.outbox.pending_outbox(game_id=on_1)
    assert {item.guild_id for item in rows} == {GUILD_1}


async def test_another_process_s_commit_wakes_the_ai_runner_of_the_owner(store, db):
    if db.backend != "postgresql":
        pytest.skip("PostgreSQL only: one SQLite process is woken by its own changes")
    # Not connected (the plain bot class: discord.py's sharded one closes only once logged in).
    bot = BoardGamesBot(Config(database=db.url, shard_count=2, shard_ids=(1,)),
                        Services(store))
    claim = store.claim_shards(bot.own_shards)
    assert await claim.try_acquire() is None
    bot.hold(claim)
    try:
        assert bot.ai_player.shards == Shards(2, (1,))
        async with other_process(db) as other:
            service = Services(other)
            info = await service.aiseats.play_ai("alak", 7, "easy", guild_id=GUILD_0)
            await service.play.move(info.id, 7, (await service.games.legal_moves(info.id, 7))[0])
            await asyncio.sleep(0.3)
            assert not bot.ai_player._wake.is_set(), "another shard's game wakes nobody here"
            await ai_to_move(service, GUILD_1)  # the person's move, in the other process
            async with asyncio.timeout(10):
                while not bot.ai_player._wake.is_set():
                    await asyncio.sleep(0.05)
    finally:
        await bot.close()
        await claim.release()


class NoTurns:
    """Services with no AI turn to play, counting the rounds that looked."""

    def __init__(self) -> None:
        self.rounds = 0
        # The runner asks the draws service and the AI seats' service by name.
        self.draws = self.aiseats = self

    async def ai_draw_offers(self, *args, **kwargs):
        self.rounds += 1
        return []

    async def ai_turns(self, *args, **kwargs):
        return []


async def test_a_poke_at_the_moment_of_the_stop_does_not_keep_the_runner_going():
    """The runner waits for a poke; a poke and the stop's cancellation landing together (a
    move committed as the bot stops) once let it swallow the cancellation and go on looking
    for turns, with pools then closed."""
    services = NoTurns()
    player = AiPlayer(SimpleNamespace(services=services),
                      WorkerPool("ai-test", kind="thread"))
    player.start()
    while services.rounds == 0:  # the first round is over: it waits for a poke
        await asyncio.sleep(0)
    await asyncio.sleep(0)
    player.poke()
    stopping = asyncio.create_task(player.stop())
    for _ in range(50):  # the stop needs no time, only a few turns of the event loop
        if stopping.done():
            break
        await asyncio.sleep(0)
    runner_task = player._task
    if runner_task is not None:  # the runner went on: end it, and say so
        runner_task.cancel()
        runner_task.cancel()
        await asyncio.gather(stopping, return_exceptions=True)
    assert runner_task is None and stopping.done(), "the runner went on after the stop"
