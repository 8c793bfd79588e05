"""The database fixtures shared by the store and service tests."""

import pytest

from bot.store import open_store


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "bot.sqlite3"


@pytest.fixture
async def store(db_path):
    opened = await open_store(str(db_path))
    yield opened
    await opened.close()
