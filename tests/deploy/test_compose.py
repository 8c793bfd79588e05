"""docker-compose.yml: PostgreSQL and one bot process per shard, each with settings the bot
accepts. (No Docker engine runs the tests: the file is read, and each bot's environment goes
through the bot's own configuration loader.)"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bot.core.database_url import is_postgres
from bot.core.settings import load_config

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


def substituted(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME:?message}`` interpolation, for the test's values."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda m: env[m.group(1)], value)


def test_two_bot_processes_share_one_postgres_database_one_shard_each():
    compose = yaml.safe_load(COMPOSE.read_text())
    services = compose["services"]
    assert "pgdata" in compose["volumes"]
    assert any(volume.startswith("pgdata:") for volume in services["db"]["volumes"])
    bots = {name: service for name, service in services.items() if name.startswith("bot-")}
    env = {"DISCORD_TOKEN": "token-for-the-test-0123456789", "POSTGRES_PASSWORD": "0a1b2c3d4e"}
    shards = []
    databases = set()
    for service in bots.values():
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        settings = {k: substituted(str(v), env) for k, v in service["environment"].items()}
        config = load_config("/nonexistent/config.toml", env=settings)
        assert is_postgres(config.database) and config.shard_count == len(bots)
        shards += config.shard_ids
        databases.add(config.database)
    assert sorted(shards) == [0, 1]  # every shard run, by one process each
    assert len(databases) == 1  # on one database, with the password of the db service
    assert env["POSTGRES_PASSWORD"] in databases.pop()
    assert services["db"]["environment"]["POSTGRES_USER"] == "boardgames"
