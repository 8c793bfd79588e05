"""Test helpers: read a whole database file directly (tests may use SQL; the app may not)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path


def db_dump(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order: equal dumps mean nothing changed."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {
            table: sorted(map(tuple, conn.execute(f"SELECT * FROM {table}")), key=repr)
            for table in tables
        }
    finally:
        conn.close()


def query(path: Path, sql: str, params: tuple = ()) -> list[tuple]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [tuple(row) for row in conn.execute(sql, params)]
    finally:
        conn.close()


class FakeClock:
    """A clock that moves one second forward at each reading (injected into the service)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        self.readings: list[datetime] = []

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        self.readings.append(self.now)
        return self.now
