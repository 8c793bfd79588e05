"""The in-process stream of committed events (``bot.core.events.stream``): a listener hears each
transaction's events once it has committed, in the order written; nothing of a transaction
rolled back; a listener that fails disturbs neither the commit nor the other listeners. The
store part runs on both databases."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.events import ChallengeExpired, Committed, EventStream, GameEnded, TournamentRound
from bot.store import NewGame
from tests.bot.conftest import BACKENDS

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


def test_a_listener_hears_every_batch_until_it_stops():
    stream = EventStream()
    heard: list[list[Committed]] = []
    stop = stream.subscribe(lambda batch: heard.append(list(batch)))
    first = [Committed(1, GameEnded(game_id=1), NOW)]
    stream.publish(first)
    stream.publish([])  # nothing committed: nobody is called
    stop()
    stream.publish([Committed(2, GameEnded(game_id=2), NOW)])
    assert heard == [first]
    stop()  # twice is harmless


def test_a_failing_listener_does_not_stop_the_others(caplog):
    stream = EventStream()
    heard: list[int] = []

    def failing(batch):
        raise RuntimeError("listener bug")

    stream.subscribe(failing)
    stream.subscribe(lambda batch: heard.extend(c.outbox_id for c in batch))
    stream.publish([Committed(1, GameEnded(game_id=1), NOW)])
    assert heard == [1]
    assert "an event listener failed" in caplog.text


async def new_game(tx) -> int:
    await tx.ensure_user(1, NOW)
    return await tx.insert_game(NewGame(
        game="alak", options={}, seed=5, seats=(1,), status="active", to_move=0,
        snapshot={}, challenge_id=None, guild_id=None, channel_id=None, created_at=NOW,
    ))


async def test_a_store_publishes_a_transaction_s_events_once_it_commits(store):
    heard: list[list[Committed]] = []
    store.events.subscribe(lambda batch: heard.append(list(batch)))
    async with store.transaction() as tx:
        game_id = await new_game(tx)
        over = await tx.insert_outbox(GameEnded(game_id=game_id), NOW)
        round_ = await tx.insert_outbox(TournamentRound(tournament_id=1, round=2), NOW)
        assert heard == []  # not before the commit
    assert heard == [[Committed(over, GameEnded(game_id=game_id), NOW),
                      Committed(round_, TournamentRound(tournament_id=1, round=2), NOW)]]
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.insert_outbox(ChallengeExpired(challenge_id=3), NOW)
            raise RuntimeError("rolled back")
    async with store.transaction() as tx:  # a transaction that writes no event
        await tx.ensure_user(2, NOW)
    async with store.single_write() as tx:
        alone = await tx.insert_outbox(ChallengeExpired(challenge_id=4), NOW)
    assert heard[1:] == [[Committed(alone, ChallengeExpired(challenge_id=4), NOW)]]


async def test_a_failing_listener_leaves_the_commit_made(store):
    def failing(batch):
        raise RuntimeError("listener bug")

    store.events.subscribe(failing)
    async with store.transaction() as tx:
        await tx.insert_outbox(ChallengeExpired(challenge_id=3), NOW)
    assert [r.kind for r in await store.pending_outbox(10)] == ["challenge_expired"]
