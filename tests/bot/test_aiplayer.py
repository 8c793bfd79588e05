"""The AI players' runner (``bot.aiplayer``): turns found in the database, thought in a worker
pool and played once even when two processes think about the same turn."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.aiplayer import AiPlayer
from bot.services import GameService
from bot.workers import WorkerPool


class Delivered:
    """The delivery as the runner uses it: which games it was asked to post."""

    def __init__(self) -> None:
        self.games: list[int] = []

    async def flush(self, game_id: int, interaction: object = None) -> bool:
        self.games.append(game_id)
        return False


def runner(store) -> tuple[AiPlayer, Delivered]:
    """An AI runner of its own (as in another process) on the shared database."""
    delivery = Delivered()
    bot = SimpleNamespace(services=GameService(store), delivery=delivery)
    return AiPlayer(bot, WorkerPool("ai-test", kind="thread")), delivery


@pytest.fixture
async def two_runners(store):
    first, second = runner(store), runner(store)
    yield first, second
    for player, _ in (first, second):
        await player.stop()


async def test_two_processes_thinking_about_one_turn_play_it_once(store, two_runners):
    (first, first_posts), (second, second_posts) = two_runners
    service = GameService(store)
    info = await service.play_ai("alak", 7, "easy")
    await service.move(info.id, 7, (await service.legal_moves(info.id, 7))[0])
    played = await asyncio.gather(first.play_turn(info.id), second.play_turn(info.id))
    assert sorted(played) == [False, True], "one move lands, the other finds the board changed"
    after = await service.get_game(info.id)
    assert after.ply == 2 and after.user_to_move() == 7
    assert first_posts.games + second_posts.games == [info.id], "the winner posts the move"
    assert await first.play_turn(info.id) is False, "nothing to do once a person is to move"


async def test_a_round_finds_the_turns_left_waiting(store, two_runners):
    (player, posts), _ = two_runners
    service = GameService(store)
    waiting = []
    for _ in range(3):
        info = await service.play_ai("alak", 7, "easy")
        await service.move(info.id, 7, (await service.legal_moves(info.id, 7))[0])
        waiting.append(info.id)
    assert await player.play_round() == 3
    await asyncio.gather(*list(player._thinking.values()))
    assert sorted(posts.games) == waiting
    assert await service.ai_turns() == []
