"""Draw offers, their answers and players' aborts lock their game only, as moves do: on
PostgreSQL they go ahead while a transaction about another game is open (SQLite has one
writer for the whole file, so there everything waits its turn anyway)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from tests.bot.services.conftest import start_game

#: Generous: the point is that these never wait for the other game's transaction at all.
PATIENCE = 10.0


@asynccontextmanager
async def another_game_busy(service) -> AsyncIterator[None]:
    """A transaction about another game, open until the block ends."""
    other = await start_game(service, users=(7, 8))
    opened, release = asyncio.Event(), asyncio.Event()

    async def holding() -> None:
        async with service.store.transaction(games=[other.id]) as tx:
            await tx.get_game(other.id)
            opened.set()
            await release.wait()

    holder = asyncio.create_task(holding())
    await opened.wait()
    try:
        yield
    finally:
        release.set()
        await holder


@pytest.fixture
def postgres_only(backend):
    if backend == "sqlite":
        pytest.skip("PostgreSQL only: SQLite has one writer for the whole file, so a "
                    "transaction about another game always waits there")


async def test_offers_and_answers_do_not_wait_for_another_games_transaction(service,
                                                                            postgres_only):
    info = await start_game(service)
    async with another_game_busy(service):
        offer = await asyncio.wait_for(service.draws.offer_draw(info.id, 1), PATIENCE)
        await asyncio.wait_for(
            service.draws.answer_draw(info.id, 2, offer.offer_id, False), PATIENCE)
        offer = await asyncio.wait_for(service.draws.offer_draw(info.id, 2), PATIENCE)
        agreed = await asyncio.wait_for(
            service.draws.answer_draw(info.id, 1, offer.offer_id, True), PATIENCE)
    assert agreed.agreed and agreed.game.status == "finished"


async def test_an_abort_does_not_wait_for_another_games_transaction(service, postgres_only):
    info = await start_game(service)
    async with another_game_busy(service):
        aborted = await asyncio.wait_for(service.draws.abort_by_player(info.id, 1), PATIENCE)
    assert aborted.status == "aborted"
