"""The state is always rebuildable from (seed, options, moves): random games through the
service, for every registered engine and player count, including undo and resignation."""

from __future__ import annotations

import json
import random

import pytest

import engines
from bot.services import Services
from bot.services.gamestate import rebuild
from tests.bot.services.conftest import start_game
from tests.bot.services.fakegame import TALLY
from tests.bot.store.dbutil import query

MAX_PLIES = 400  # long engines are cut short: the check holds at every ply anyway

CASES = [
    (name, players)
    for name in sorted(engines.GAMES)
    for players in engines.get(name).allowed_player_counts()
] + [("tally", players) for players in TALLY.allowed_player_counts()]


def independent_replay_matches(db, game_id: int) -> bool:
    """Rebuild from the raw rows (not through the service) and compare with the snapshot."""
    ((name, seed, options, seats, snapshot, forced),) = query(
        db,
        "SELECT game, seed, options, seats, snapshot, forced_outcome FROM games WHERE id = ?",
        (game_id,),
    )
    texts = [t for (t,) in query(
        db, "SELECT text FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
    )]
    plies = [p for (p,) in query(
        db, "SELECT ply FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
    )]
    assert plies == list(range(1, len(plies) + 1))
    state = rebuild(name, len(json.loads(seats)), seed, json.loads(options), texts,
                    None if forced is None else json.loads(forced))
    dumped = json.loads(json.dumps(engines.get(name).dump(state)))
    return dumped == json.loads(snapshot)


@pytest.mark.parametrize("name,players", CASES)
async def test_random_games_replay_to_their_snapshot(store, db, monkeypatch, name,
                                                     players):
    monkeypatch.setitem(engines.GAMES, TALLY.name, TALLY)
    rng = random.Random(f"{name}:{players}")
    service = Services(store, seeds=lambda: rng.randrange(2**63))
    users = tuple(range(100, 100 + players))
    for round_number in range(3):
        info = await start_game(service, game=name, users=users)
        plies = 0
        while info.status == "active" and plies < MAX_PLIES:
            user = info.user_to_move()
            choice = rng.random()
            if choice < 0.05 and info.ply > 0 and round_number == 1:
                # Undo the last move: its author asks, everybody else agrees.
                last = (await service.games.record(info.id)).moves[-1]
                author = info.seats[last.seat]
                await service.play.request_undo(info.id, author)
                for other in users:
                    if other != author:
                        info = await service.play.answer_undo(info.id, other, True)
                continue
            if choice < 0.01 and round_number == 2:
                info = await service.play.resign(info.id, rng.choice(users))
                break
            legal = await service.games.legal_moves(info.id, user)
            assert legal, "a running game offers its player a move"
            info = (await service.play.move(info.id, user, rng.choice(legal))).game
            plies += 1
            if plies % 25 == 0:
                assert await service.games.replay_matches(info.id)
        assert await service.games.replay_matches(info.id)
        assert independent_replay_matches(db, info.id)
        assert info == await service.games.get_game(info.id)
