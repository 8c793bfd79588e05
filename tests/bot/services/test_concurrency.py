"""Optimistic locking under concurrent clicks: one move per ply, never a lost or double move."""

from __future__ import annotations

import asyncio
import contextlib
import random

from bot.services import BoardChanged, GameOver, NotYourTurn
from tests.bot.services.conftest import start_game
from tests.bot.services.test_replay import independent_replay_matches
from tests.bot.store.dbutil import query


async def test_two_moves_for_the_same_ply_one_wins(service, db):
    info = await start_game(service)
    results = await asyncio.gather(
        service.play.move(info.id, 1, "a", expected_version=info.version),
        service.play.move(info.id, 1, "k", expected_version=info.version),
        return_exceptions=True,
    )
    wins = [r for r in results if not isinstance(r, Exception)]
    losses = [r for r in results if isinstance(r, Exception)]
    assert len(wins) == 1 and len(losses) == 1
    assert isinstance(losses[0], BoardChanged)
    assert query(db, "SELECT ply, text FROM moves") == [(1, wins[0].move)]


async def test_200_concurrent_conflicting_moves_on_several_games(service, db):
    games = [await start_game(service, users=(2 * i + 1, 2 * i + 2), options={"length": 26})
             for i in range(4)]
    rng = random.Random(7)
    rounds = 6
    for _ in range(rounds):
        attempts = []
        for info in games:
            current = await service.games.get_game(info.id)
            if current.status != "active":
                continue
            user = current.user_to_move()
            legal = await service.games.legal_moves(info.id, user)
            # 50 clicks on this board at once, for different (legal) points.
            attempts += [
                (info.id, service.play.move(info.id, user, rng.choice(legal),
                                            expected_version=current.version))
                for _ in range(200 // len(games))
            ]
        assert len(attempts) == 200
        results = await asyncio.gather(*(call for _, call in attempts), return_exceptions=True)
        for info in games:
            mine = [r for (gid, _), r in zip(attempts, results, strict=True) if gid == info.id]
            wins = [r for r in mine if not isinstance(r, Exception)]
            assert len(wins) == 1, [type(r).__name__ for r in mine]
            assert all(isinstance(r, BoardChanged) for r in mine if r is not wins[0])
    for info in games:
        plies = [p for (p,) in query(
            db, "SELECT ply FROM moves WHERE game_id = ? ORDER BY ply", (info.id,)
        )]
        assert plies == list(range(1, rounds + 1))  # no duplicate ply, no gap
        assert independent_replay_matches(db, info.id)
        (version,) = query(db, "SELECT version FROM games WHERE id = ?", (info.id,))[0]
        assert version == rounds
        outbox_moves = query(
            db, "SELECT COUNT(*) FROM outbox WHERE game_id = ? AND kind = 'move'",
            (info.id,),
        )
        assert outbox_moves == [(rounds,)]


async def test_racing_clicks_without_a_version_lose_cleanly(service, db):
    """Without ``expected_version`` a late click is judged on the new board: it is no longer
    that player's turn. Either way exactly one move lands."""
    info = await start_game(service)
    results = await asyncio.gather(
        *(service.play.move(info.id, 1, point) for point in "abcdefghijk"), return_exceptions=True
    )
    wins = [r for r in results if not isinstance(r, Exception)]
    assert len(wins) == 1
    assert all(isinstance(r, BoardChanged | NotYourTurn) for r in results if r is not wins[0])
    assert query(db, "SELECT COUNT(*) FROM moves") == [(1,)]


async def test_resign_racing_a_move_always_lands(service, db):
    """A resignation is retried when a move lands first; the move may land or find the game
    over, but the board stays consistent."""
    info = await start_game(service)
    move, resigned = await asyncio.gather(
        service.play.move(info.id, 1, "c"), service.play.resign(info.id, 2), return_exceptions=True
    )
    assert not isinstance(resigned, Exception)
    assert not isinstance(move, Exception) or isinstance(move, GameOver)
    final = await service.games.get_game(info.id)
    assert final.status == "finished" and final.outcome.winners == frozenset({0})
    expected_moves = 0 if isinstance(move, Exception) else 1
    assert query(db, "SELECT COUNT(*) FROM moves") == [(expected_moves,)]
    assert independent_replay_matches(db, info.id)


async def test_moves_cancelled_at_any_point_leave_a_consistent_game(service, db):
    """A caller cancelled anywhere (waiting for the read, the lock, BEGIN, a statement or
    COMMIT) leaves either the whole move or nothing, and the store keeps working."""
    info = await start_game(service, options={"length": 26})
    for steps in range(60):
        current = await service.games.get_game(info.id)
        if current.status != "active":
            break
        user = current.user_to_move()
        legal = await service.games.legal_moves(info.id, user)
        task = asyncio.create_task(service.play.move(info.id, user, legal[steps % len(legal)]))
        for _ in range(steps % 20):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        after = await service.games.get_game(info.id)
        assert after.ply in (current.ply, current.ply + 1)
        assert independent_replay_matches(db, info.id)
        moves = query(db, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (info.id,))
        outbox = query(db, "SELECT COUNT(*) FROM outbox WHERE kind = 'move'")
        assert moves == outbox == [(after.ply,)]
