"""Settings of the database and of sharding: PostgreSQL URLs (their password never shown),
the outbox history, the shards a process runs."""

from __future__ import annotations

import pytest

from bot.core.settings import Config, ConfigError, load_config

PASSWORD = "pg-Secret-Passw0rd-for-tests"
URL = f"postgresql://bot:{PASSWORD}@db.example:5432/boardgames"


def test_a_postgres_url_is_taken_from_the_file_or_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(f'[database]\npath = "{URL}"\noutbox_history_days = 7\n')
    config = load_config(path, env={})
    assert (config.database, config.outbox_history_days) == (URL, 7)
    short = "postgres://bot@localhost/boardgames"
    config = load_config(path, env={"BOT_DATABASE": short, "BOT_OUTBOX_HISTORY_DAYS": "90"})
    assert (config.database, config.outbox_history_days) == (short, 90)


def test_the_pool_size_is_a_setting_of_the_file_or_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[database]\npool_size = 25\n")
    assert load_config(path, env={}).database_pool_size == 25
    assert load_config(path, env={"BOT_DATABASE_POOL_SIZE": "40"}).database_pool_size == 40
    assert load_config(tmp_path / "none.toml", env={}).database_pool_size == 10
    for wrong in ("1", "0", "many", "5000"):
        with pytest.raises(ConfigError, match="database_pool_size"):
            load_config(path, env={"BOT_DATABASE_POOL_SIZE": wrong})


def test_the_database_password_is_a_secret_kept_out_of_the_repr():
    config = Config(token="t" * 40, database=URL)
    assert PASSWORD not in repr(config)
    assert set(config.secrets) == {"t" * 40, PASSWORD}  # what the log filter redacts
    assert Config(database="data/x.db").secrets == ()


@pytest.mark.parametrize("value", [f"mysql://bot:{PASSWORD}@db/x", "", "   "])
def test_an_unknown_database_is_refused_without_repeating_it(tmp_path, value):
    path = tmp_path / "config.toml"
    path.write_text(f'[database]\npath = "{value}"\n')
    with pytest.raises(ConfigError, match="postgresql://user:password@host") as caught:
        load_config(path, env={})
    assert PASSWORD not in str(caught.value)


@pytest.mark.parametrize("days", ["0", "-3", "soon", "40000"])
def test_a_bad_outbox_history_is_refused(days):
    with pytest.raises(ConfigError, match="outbox_history_days"):
        load_config("/nonexistent/config.toml", env={"BOT_OUTBOX_HISTORY_DAYS": days})


def test_shards_from_the_environment_and_the_file(tmp_path):
    config = load_config("/nonexistent/config.toml",
                         env={"BOT_SHARD_COUNT": "4", "BOT_SHARD_IDS": "3,1"})
    assert (config.shard_count, config.shard_ids) == (4, (1, 3))
    path = tmp_path / "config.toml"
    path.write_text("[discord]\nshard_count = 2\nshard_ids = [0]\n")
    assert load_config(path, env={}).shard_ids == (0,)
    assert load_config("/nonexistent/config.toml", env={}).shard_count == 0  # not sharded


@pytest.mark.parametrize(
    "env",
    [{"BOT_SHARD_COUNT": "2", "BOT_SHARD_IDS": "2"},
     {"BOT_SHARD_COUNT": "2", "BOT_SHARD_IDS": "1,1"},
     {"BOT_SHARD_IDS": "0"},
     {"BOT_SHARD_COUNT": "-1"},
     {"BOT_SHARD_COUNT": "two"}],
)
def test_impossible_shards_are_refused(env):
    with pytest.raises(ConfigError, match="shard"):
        load_config("/nonexistent/config.toml", env=env)
