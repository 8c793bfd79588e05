"""The database fixtures shared by the store and service tests.

``db`` is the test's database, empty, and ``store`` the store opened on it. They use SQLite
unless a folder's conftest parametrizes ``backend`` with ``BACKENDS`` (the store and service
suites do): then every test there runs on SQLite and on PostgreSQL. PostgreSQL is a throwaway
server started once per session (``tests.pgcluster``); without PostgreSQL installed those runs
are skipped, with the command that installs it (they fail instead when
``BOT_REQUIRE_POSTGRES`` is set, as ``.ci/run`` does).

On SQLite ``db`` is a new file. On PostgreSQL it is one database of the session, emptied before
each test (migrated once, every row deleted, ids numbered from 1 again), which is much faster
than creating one; ``empty_db`` is a brand-new database that was never migrated, for the
migration tests.
"""

import os

import pytest

from bot.store import open_store
from tests.bot.store.dbutil import PostgresDatabase, SqliteDatabase
from tests.pgcluster import PostgresCluster, PostgresUnavailable

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_cluster():
    try:
        cluster = PostgresCluster.start(fast=True)
    except PostgresUnavailable as error:
        if os.environ.get("BOT_REQUIRE_POSTGRES"):  # CI installs it: never skip there
            pytest.fail(str(error))
        pytest.skip(str(error))
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def postgres_test_database(postgres_cluster):
    database = PostgresDatabase(postgres_cluster.create_database("tests"))
    yield database
    database.close()


@pytest.fixture
def backend():
    return "sqlite"


@pytest.fixture
def db(backend, tmp_path, request):
    if backend == "sqlite":
        return SqliteDatabase(tmp_path / "bot.sqlite3")
    database = request.getfixturevalue("postgres_test_database")
    database.empty()
    return database


@pytest.fixture
def empty_db(backend, tmp_path, request):
    if backend == "sqlite":
        yield SqliteDatabase(tmp_path / "new.sqlite3")
        return
    cluster = request.getfixturevalue("postgres_cluster")
    database = PostgresDatabase(cluster.create_database("empty"))
    yield database
    database.close()
    cluster.drop_database(database.url)


@pytest.fixture
async def store(db):
    opened = await open_store(db.url)
    yield opened
    await opened.close()
