"""Schema migrations shared by the backends: the numbered SQL files of
``bot/store/migrations/`` (0001_initial.sql, ...), applied in order, all pending ones in one
transaction, each once.

Each backend keeps the version its own way (SQLite: ``PRAGMA user_version``; PostgreSQL: the
``schema_migrations`` table, under an advisory lock so processes starting together apply them
once) and calls ``pending`` to know what to run. The files are written in the SQL both
backends read; PostgreSQL's column types are mapped in ``bot.store.postgres.postgres_ddl``.
"""

from __future__ import annotations

import re
import sqlite3
from importlib import resources

_MIGRATION_NAME = re.compile(r"^(\d{4})_[\w-]+\.sql$")


class MigrationError(RuntimeError):
    """The migration files or the database's schema version are not what this code expects."""


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration file, in order; numbers run 1, 2, 3…"""
    found = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise MigrationError(f"migration files must be numbered 0001, 0002, ...: {numbers}")
    return found


def pending(current: int, files: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """The files to apply to a database at schema version ``current``; refuses a database
    newer than this code (an older bot must not write to a schema it does not know)."""
    if current > len(files):
        raise MigrationError(
            f"the database has schema version {current}, newer than this code "
            f"({len(files)}): upgrade the bot"
        )
    return files[current:]


def split_statements(script: str) -> list[str]:
    """The statements of an SQL script (``sqlite3.complete_statement`` understands comments,
    strings and trigger bodies, unlike a split on ';')."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current.strip())
            current = ""
    if current.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in current.splitlines()
    ):
        raise MigrationError(f"unterminated SQL statement: {current.strip()[:80]!r}")
    return statements
