"""Settings from config.toml and the environment; the token stays out of logs and reprs."""

from __future__ import annotations

import logging

import pytest

from bot.core.settings import Config, ConfigError, load_config
from bot.runtime.logs import REDACTED, RedactSecrets

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.fake-token-for-tests-0123456789abcdef"


def test_file_then_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[discord]\ntoken = "from-file"\nowner_ids = [1, 2]\nguild_ids = [7]\n'
        '[database]\npath = "x.db"\n[bot]\nlog_level = "debug"\ndefault_language = "fr"\n'
    )
    config = load_config(path, env={})
    assert (config.token, config.owner_ids, config.guild_ids) == ("from-file", (1, 2), (7,))
    assert (config.database, config.log_level, config.default_language) == ("x.db", "DEBUG", "fr")
    env = {"DISCORD_TOKEN": TOKEN, "BOT_DATABASE": "y.db", "BOT_GUILD_IDS": "8, 9",
           "DISCORD_API_BASE": "http://127.0.0.1:1/api/v10"}
    config = load_config(path, env=env)
    assert (config.token, config.database, config.guild_ids) == (TOKEN, "y.db", (8, 9))
    assert config.api_base == "http://127.0.0.1:1/api/v10"


def test_no_file_no_token_means_the_emulator(tmp_path):
    config = load_config(tmp_path / "missing.toml", env={})
    assert config == Config() and not config.has_token


@pytest.mark.parametrize(
    "text",
    ['[bot]\nlog_level = "loud"\n', '[discord]\nsync_on_start = "always"\n',
     '[bot]\ndefault_language = "de"\n', '[discord]\nowner_ids = ["me"]\n'],
)
def test_bad_values_are_named(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError):
        load_config(path, env={})


def test_token_is_not_in_the_repr():
    assert TOKEN not in repr(Config(token=TOKEN))


def test_log_filter_redacts_the_token_in_messages_args_and_tracebacks():
    redact = RedactSecrets([TOKEN])
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "login with %s", (TOKEN,), None)
    assert redact.filter(record)
    assert TOKEN not in record.getMessage() and REDACTED in record.getMessage()
    try:
        raise RuntimeError(f"bad token {TOKEN}")
    except RuntimeError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    redact.filter(record)
    assert TOKEN not in record.exc_text and REDACTED in record.exc_text


def test_python_m_bot_never_prints_the_token(tmp_path):
    """A real run with a token against a server that refuses it: the error path is logged and
    printed, and the token is nowhere in the output."""
    import subprocess
    import sys

    env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
           "BOT_DATABASE": str(tmp_path / "t.db"), "BOT_LOG_LEVEL": "DEBUG",
           "BOT_CONFIG": str(tmp_path / "none.toml"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=120,
        cwd=str(__import__("pathlib").Path(__file__).resolve().parents[3]),
    )
    assert done.returncode == 1
    output = done.stdout + done.stderr
    assert "cannot reach the Discord API (http://127.0.0.1:9/api/v10)" in output
    assert TOKEN not in output


@pytest.mark.parametrize("where", ["env", "file"])
def test_a_token_pasted_into_another_setting_is_never_echoed(tmp_path, where):
    """The error names the setting, but neither the token nor its upper-cased copy."""
    path = tmp_path / "config.toml"
    if where == "env":
        path.write_text("")
        env = {"DISCORD_TOKEN": TOKEN, "BOT_LOG_LEVEL": TOKEN}
    else:
        path.write_text(f'[discord]\ntoken = "{TOKEN}"\n[bot]\nlog_level = "{TOKEN}"\n')
        env = {}
    with pytest.raises(ConfigError) as error:
        load_config(path, env=env)
    message = str(error.value)
    assert message.startswith("log_level must be")
    assert "not shown" in message
    for copy in (TOKEN, TOKEN.upper(), TOKEN.lower(), TOKEN.split(".")[0]):
        assert copy not in message and copy.upper() not in message


def test_a_token_shaped_value_is_hidden_even_when_it_is_not_our_token(tmp_path):
    other = "ODg4ODg4ODg4ODg4ODg4ODg4.Xyzabc.another-bots-token-abcdefghij0123"
    with pytest.raises(ConfigError) as error:
        load_config(tmp_path / "none.toml", env={"BOT_LOG_LEVEL": other})
    assert other.upper() not in str(error.value) and "not shown" in str(error.value)


def test_a_short_typo_is_still_quoted_to_help_fix_it(tmp_path):
    with pytest.raises(ConfigError) as error:
        load_config(tmp_path / "none.toml", env={"BOT_LOG_LEVEL": "loud"})
    assert "'loud'" in str(error.value)


def test_library_debug_records_keep_their_shape_but_lose_their_payloads():
    from bot.runtime.logs import HIDDEN, HidePayloads

    guard = HidePayloads()
    snapshot = {"seed": 987_654_321_987, "pile_a": ["R19", "G19", "G5"]}
    record = logging.LogRecord("discord.http", logging.DEBUG, __file__, 1,
                               "%s %s with %s has returned %s",
                               ("POST", "https://x/interactions/1/tok/callback", snapshot, 200),
                               None)
    assert guard.filter(record)
    assert record.getMessage() == f"POST {HIDDEN} with {HIDDEN} has returned 200"
    info = logging.LogRecord("aiosqlite", logging.INFO, __file__, 1, "closing %s", ("db",), None)
    guard.filter(info)
    assert info.getMessage() == "closing db"  # only DEBUG records carry payloads


def test_heavy_work_and_board_settings(tmp_path):
    config = load_config(tmp_path / "none.toml",
                         env={"BOT_HEAVY_WORKERS": "2", "BOT_HEAVY_POOL": "Thread",
                              "BOT_BOARD_WORKERS": "3", "BOT_BOARD_POOL": "THREAD"})
    assert (config.heavy_workers, config.heavy_pool) == (2, "thread")
    assert (config.board_workers, config.board_pool) == (3, "thread")
    defaults = load_config(tmp_path / "none.toml", env={})
    assert (defaults.board_workers, defaults.board_pool) == (1, "process")
    for env in ({"BOT_HEAVY_WORKERS": "0"}, {"BOT_HEAVY_WORKERS": "many"},
                {"BOT_HEAVY_POOL": "fiber"}, {"BOT_BOARD_WORKERS": "0"},
                {"BOT_BOARD_POOL": "fiber"}):
        with pytest.raises(ConfigError):
            load_config(tmp_path / "none.toml", env=env)


def test_ai_fair_use_settings(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[bot]\nai_games_per_user = 8\n")
    config = load_config(path, env={"BOT_AI_HINTS_PER_USER": "2"})
    assert (config.ai_games_per_user, config.ai_hints_per_user) == (8, 2)
    defaults = load_config(tmp_path / "none.toml", env={})
    assert (defaults.ai_games_per_user, defaults.ai_hints_per_user) == (5, 1)
    for env in ({"BOT_AI_GAMES_PER_USER": "0"}, {"BOT_AI_HINTS_PER_USER": "lots"}):
        with pytest.raises(ConfigError):
            load_config(tmp_path / "none.toml", env=env)


def test_the_local_console_keeps_its_database_only_when_asked(tmp_path):
    path = tmp_path / "config.toml"
    assert load_config(path, env={}).keep_local_database is False
    path.write_text("[emulator]\nkeep_database = true\n")
    assert load_config(path, env={}).keep_local_database is True
    assert load_config(path, env={"BOT_KEEP_LOCAL_DATABASE": "no"}).keep_local_database is False
    with pytest.raises(ConfigError, match="keep_database"):
        load_config(path, env={"BOT_KEEP_LOCAL_DATABASE": "perhaps"})
