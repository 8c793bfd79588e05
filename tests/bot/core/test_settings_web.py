"""The web board's settings: off unless a port is set; a port needs the public address and
the client secret, which is read from the environment only and never shown."""

from __future__ import annotations

import pytest

from bot.core.settings import Config, ConfigError, load_config

SECRET = "a-client-secret-that-must-never-be-shown"


def test_the_web_board_is_off_by_default(tmp_path):
    config = load_config(tmp_path / "none", env={})
    assert not config.web_enabled and config.web_port == 0


def test_a_port_needs_the_public_address_and_the_secret(tmp_path):
    with pytest.raises(ConfigError, match="web_public_url"):
        load_config(tmp_path / "none", env={"BOT_WEB_PORT": "8080",
                                            "DISCORD_CLIENT_SECRET": SECRET})
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_SECRET"):
        load_config(tmp_path / "none", env={"BOT_WEB_PORT": "8080",
                                            "BOT_WEB_PUBLIC_URL": "https://b.example.org"})
    config = load_config(tmp_path / "none", env={
        "BOT_WEB_PORT": "8080", "BOT_WEB_PUBLIC_URL": "https://b.example.org/",
        "DISCORD_CLIENT_SECRET": SECRET})
    assert config.web_enabled and config.web_public_url == "https://b.example.org"
    assert config.client_secret == SECRET and SECRET in config.secrets
    assert SECRET not in repr(config)


def test_the_client_secret_is_never_read_from_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(f'[discord]\nclient_secret = "{SECRET}"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_SECRET") as refused:
        load_config(path, env={})
    assert SECRET not in str(refused.value)


def test_a_public_address_is_an_http_one(tmp_path):
    with pytest.raises(ConfigError, match="web_public_url"):
        load_config(tmp_path / "none", env={"BOT_WEB_PUBLIC_URL": "boards.example.org"})
    with pytest.raises(ConfigError, match="no path"):
        load_config(tmp_path / "none", env={"BOT_WEB_PUBLIC_URL": "https://x.org/board"})
    assert Config().web_public_url == ""
