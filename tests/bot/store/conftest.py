import pytest

from tests.bot.conftest import BACKENDS


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Every store test runs on SQLite and on PostgreSQL."""
    return request.param
