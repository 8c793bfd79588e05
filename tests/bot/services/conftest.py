import pytest

import engines
from bot.services import Services
from tests.bot.conftest import BACKENDS
from tests.bot.services.fakegame import TALLY
from tests.bot.store.dbutil import FakeClock

SEED = 987_654_321_987_654_321  # distinctive, so a leak would show in any text


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Every service test runs on SQLite and on PostgreSQL."""
    return request.param


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def service(store, clock):
    return Services(store, clock=clock, seeds=lambda: SEED)


@pytest.fixture
def tally(monkeypatch):
    """Register the test-only multi-player game for one test."""
    monkeypatch.setitem(engines.GAMES, TALLY.name, TALLY)
    return TALLY


async def start_game(service, game="alak", users=(1, 2), options=None):
    """A started game between ``users`` (seat order = users order)."""
    host, *others = users
    if len(users) == 2:
        challenge = await service.challenges.challenge(game, host, opponent_id=others[0],
                                                       options=options)
        return await service.challenges.accept(challenge.id, others[0])
    challenge = await service.challenges.challenge(game, host, players=len(users), options=options)
    for user in others:
        await service.challenges.join(challenge.id, user)
    return await service.challenges.start(challenge.id, host)


@pytest.fixture
def verdict(monkeypatch):
    """Register the test-only game whose first move decides the result (draws included)."""
    from tests.bot.services.verdictgame import VERDICT

    monkeypatch.setitem(engines.GAMES, VERDICT.name, VERDICT)
    return VERDICT


@pytest.fixture
def tsv(store, clock):
    """Game, rating and tournament services on one store."""
    from tests.bot.services.tourney import services

    return services(store, clock)
