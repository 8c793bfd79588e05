"""Random sequences of player actions, good and bad, on every engine: a refused action never
changes the database, an accepted one always leaves a game that replays to its snapshot."""

from __future__ import annotations

import random

import pytest

import engines
from bot.services import ServiceError, Services
from bot.store import open_store
from tests.bot.services.conftest import start_game
from tests.bot.services.fakegame import TALLY
from tests.bot.services.test_replay import independent_replay_matches
from tests.bot.store.dbutil import db_dump

ACTIONS = 80
OUTSIDER = 999

CASES = [(name, engines.get(name).allowed_player_counts()[0]) for name in sorted(engines.GAMES)]
CASES += [("tally", 3), ("tally", 4)]


async def random_action(service, rng, info, users):
    user = rng.choice([*users, OUTSIDER])
    roll = rng.random()
    if roll < 0.55:
        mover = info.user_to_move() if rng.random() < 0.8 else user
        legal = await service.games.legal_moves(info.id, mover) if mover is not None else []
        if legal and rng.random() < 0.8:
            text = rng.choice(legal)
        else:
            text = rng.choice(["", "zz", "a", "1", "play 9 9,9 0", "pass", "??", "e5"])
        version = info.version if rng.random() < 0.9 else info.version - 1
        return await service.play.move(info.id, mover, text, expected_version=version)
    if roll < 0.7:
        return await service.play.request_undo(info.id, user)
    if roll < 0.9:
        return await service.play.answer_undo(info.id, user, rng.random() < 0.7)
    if roll < 0.93:
        return await service.play.resign(info.id, user)
    return await service.games.legal_moves(info.id, user)


@pytest.mark.parametrize("name,players", CASES)
async def test_random_actions_keep_the_database_consistent(db, monkeypatch, name, players):
    monkeypatch.setitem(engines.GAMES, TALLY.name, TALLY)
    store = await open_store(db.url)
    try:
        rng = random.Random(f"fuzz:{name}:{players}")
        service = Services(store, seeds=lambda: rng.randrange(2**63))
        users = tuple(range(1, players + 1))
        info = await start_game(service, game=name, users=users)
        refused = accepted = 0
        for _ in range(ACTIONS):
            before = db_dump(db)
            try:
                await random_action(service, rng, info, users)
            except ServiceError as error:
                refused += 1
                assert error.key.startswith("errors.")
                assert db_dump(db) == before, error.key
            else:
                accepted += 1
                assert independent_replay_matches(db, info.id)
            info = await service.games.get_game(info.id)
            if info.status != "active":
                info = await start_game(service, game=name, users=users)
        assert refused and accepted  # the sequence exercised both paths
    finally:
        await store.close()
