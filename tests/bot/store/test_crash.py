"""Crash safety: a process killed with SIGKILL mid-burst loses no acknowledged move (on both
backends: the PostgreSQL server ends the dead process's transaction and frees its locks)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.services import Services
from bot.store import open_store
from tests.bot.services.test_replay import independent_replay_matches
from tests.bot.store.dbutil import query

ROOT = Path(__file__).resolve().parents[3]
ACKS_BEFORE_KILL = 300


def run_and_kill(database: str) -> list[tuple[int, int, str]]:
    """Start the worker, wait for enough acknowledgements, SIGKILL it; return every ACK."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.store.crash_worker", database],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )
    acks = []
    try:
        assert worker.stdout.readline().strip() == "READY"
        while len(acks) < ACKS_BEFORE_KILL:
            line = worker.stdout.readline()
            assert line, "the worker stopped before being killed"
            acks.append(line)
        worker.send_signal(signal.SIGKILL)  # mid-burst: transactions are in flight
        acks += worker.stdout.readlines()  # whatever it acknowledged before dying counts too
    finally:
        worker.kill()
        worker.wait()
    assert worker.returncode == -signal.SIGKILL
    parsed = []
    for line in acks:
        tag, game_id, ply, move = line.split()
        assert tag == "ACK"
        parsed.append((int(game_id), int(ply), move))
    return parsed


async def test_sigkill_loses_no_acknowledged_move(db):
    acks = await asyncio.to_thread(run_and_kill, db.url)
    assert len(acks) >= ACKS_BEFORE_KILL

    store = await open_store(db.url)  # SQLite recovers its WAL; PostgreSQL freed the locks
    try:
        service = Services(store)
        if db.backend == "sqlite":
            assert query(db, "PRAGMA integrity_check") == [("ok",)]
        stored = set(query(db, "SELECT game_id, ply, text FROM moves"))
        missing = [ack for ack in acks if ack not in stored]
        assert not missing
        game_ids = [gid for (gid,) in query(db, "SELECT id FROM games")]
        for game_id in game_ids:
            assert independent_replay_matches(db, game_id)
            assert await service.games.replay_matches(game_id)
        pending = await service.outbox.pending_outbox(limit=100_000)
        assert pending  # nothing was delivered: the sender will find every message on start
        pending_moves = {
            (item.payload["game_id"], item.payload["ply"], item.payload["move"])
            for item in pending if item.kind == "move"
        }
        assert pending_moves == stored  # one outbox row per committed move, none without
        # The database keeps working after the crash.
        active = [g for user in range(1, 13) for g in await service.games.games_of(user)]
        assert active
        info = active[0]
        user = info.user_to_move()
        await service.play.move(info.id, user, (await service.games.legal_moves(info.id, user))[0])
    finally:
        await store.close()
