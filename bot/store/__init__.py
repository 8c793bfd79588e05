"""Storage: the only package with SQL (DESIGN.md §6).

``await open_store(path_or_url)`` opens a database, applies the numbered migrations in
``bot/store/migrations/`` (tracked with ``PRAGMA user_version``) and returns a ``Store``: the
repository interface of ``bot.store.base`` (reads of committed data, ``transaction()`` for
writes). SQLite (aiosqlite, WAL, foreign keys on, busy timeout) is the only backend so far; a
PostgreSQL one would implement the same interface and be chosen here by the URL scheme.
"""

from __future__ import annotations

from bot.store.base import (
    ChallengeRow,
    GameRow,
    GameUpdate,
    MoveRow,
    NewGame,
    OutboxRow,
    Reads,
    Store,
    Writes,
)
from bot.store.sqlite import MigrationError, open_sqlite


async def open_store(path_or_url: str, *, synchronous: str = "NORMAL") -> Store:
    """Open the database at a file path or ``sqlite:///path`` URL, migrated to the latest
    schema. ``synchronous`` is SQLite's durability level (see ``open_sqlite``)."""
    if path_or_url.startswith(("postgres://", "postgresql://")):
        raise NotImplementedError("only SQLite is supported so far (no PostgreSQL backend yet)")
    return await open_sqlite(path_or_url, synchronous=synchronous)


__all__ = [
    "ChallengeRow",
    "GameRow",
    "GameUpdate",
    "MigrationError",
    "MoveRow",
    "NewGame",
    "OutboxRow",
    "Reads",
    "Store",
    "Writes",
    "open_store",
]
