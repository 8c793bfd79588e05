"""A transaction the database ends to break a deadlock (``TransactionConflict``) is run again,
from its reads, a few times without the player noticing; after that the player is told to try
again, and nothing of the call is written (``bot.services.base.retrying``)."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest

from bot.core import i18n
from bot.core.errors import TryAgain
from bot.services import Services
from bot.services.base import CONFLICT_ATTEMPTS
from bot.store import TransactionConflict
from tests.bot.services.conftest import SEED, start_game
from tests.bot.store.dbutil import query


class ConflictingStore:
    """The test's store, whose next ``failures`` transactions lose a deadlock at their very
    end: after their writes, before the commit (the worst moment)."""

    def __init__(self, store, failures: int) -> None:
        self._store = store
        self.failures = failures
        self.scopes: list[dict] = []

    def __getattr__(self, name):
        return getattr(self._store, name)

    @asynccontextmanager
    async def transaction(self, **scope):
        self.scopes.append(scope)
        async with self._store.transaction(**scope) as tx:
            yield tx
            if self.failures > 0:
                self.failures -= 1
                raise TransactionConflict("deadlock detected (injected by the test)")


async def test_a_move_that_loses_a_deadlock_is_played_again_unnoticed(store, clock, db):
    info = await start_game(Services(store, clock=clock, seeds=lambda: SEED))
    conflicting = ConflictingStore(store, failures=CONFLICT_ATTEMPTS - 1)
    service = Services(conflicting, clock=clock, seeds=lambda: SEED)
    result = await service.play.move(info.id, 1, "a", expected_version=info.version)
    assert result.game.version == info.version + 1
    assert query(db, "SELECT ply, text FROM moves") == [(1, "a")]  # once, not four times
    assert len(query(db, "SELECT id FROM outbox WHERE kind = 'move'")) == 1
    assert conflicting.scopes == [{"games": [info.id]}] * CONFLICT_ATTEMPTS


async def test_after_the_last_attempt_the_player_is_told_to_try_again(store, clock, db):
    info = await start_game(Services(store, clock=clock, seeds=lambda: SEED))
    service = Services(ConflictingStore(store, failures=CONFLICT_ATTEMPTS), clock=clock,
                          seeds=lambda: SEED)
    with pytest.raises(TryAgain) as refused:
        await service.play.move(info.id, 1, "a", expected_version=info.version)
    assert query(db, "SELECT COUNT(*) FROM moves") == [(0,)]  # nothing half-written
    assert query(db, "SELECT COUNT(*) FROM outbox WHERE kind = 'move'") == [(0,)]
    assert (await store.get_game(info.id)).version == info.version
    for language in ("en", "fr"):
        text = i18n.t(refused.value.key, language)
        assert text and text != refused.value.key
    # The next try goes through.
    assert (await service.play.move(info.id, 1, "a")).game.version == info.version + 1
