"""Storage: the only package with SQL (docs/architecture.md).

``await open_store(target)`` opens a database, applies the numbered migrations in
``bot/store/migrations/`` and returns a ``Store``: the repository interface of
``bot.store.base`` (reads of committed data, ``transaction()`` for writes). ``target`` chooses
the backend: a file path or ``sqlite:///path`` (SQLite, one process; the default) or
``postgresql://user:password@host:port/database`` (PostgreSQL, shared by several processes).
"""

from __future__ import annotations

from bot.core.database_url import is_postgres
from bot.store.base import (
    ChallengeRow,
    GameRow,
    GameUpdate,
    MoveRow,
    NewGame,
    OutboxRow,
    Reads,
    Scope,
    Store,
    TransactionConflict,
    Writes,
)
from bot.store.migrate import MigrationError
from bot.store.postgres import POOL_SIZE, StoreUnavailable, open_postgres
from bot.store.sqlite import open_sqlite


async def open_store(
    target: str, *, synchronous: str = "NORMAL", pool_size: int | None = None
) -> Store:
    """Open the database at a file path, ``sqlite:///path`` or ``postgresql://`` URL, migrated
    to the latest schema. ``synchronous`` is SQLite's durability level (see ``open_sqlite``);
    on PostgreSQL durability is the server's ``synchronous_commit`` setting. ``pool_size``:
    PostgreSQL's connections per process (default ``POOL_SIZE``); SQLite has two."""
    if is_postgres(target):
        return await open_postgres(target, pool_size=pool_size or POOL_SIZE)
    return await open_sqlite(target, synchronous=synchronous)


__all__ = [
    "ChallengeRow",
    "GameRow",
    "GameUpdate",
    "MigrationError",
    "MoveRow",
    "NewGame",
    "OutboxRow",
    "Reads",
    "Scope",
    "Store",
    "StoreUnavailable",
    "TransactionConflict",
    "Writes",
    "open_store",
]
