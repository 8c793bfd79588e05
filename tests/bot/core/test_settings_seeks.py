import pytest

from bot.core.settings import ConfigError, load_config


def test_seek_expiry_from_the_file_and_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[correspondence]\nseek_expiry_days = 3\n", encoding="utf-8")
    assert load_config(path, env={}).seek_expiry_days == 3
    assert load_config(path, env={"BOT_SEEK_EXPIRY_DAYS": "10"}).seek_expiry_days == 10
    assert load_config(tmp_path / "missing.toml", env={}).seek_expiry_days == 7


@pytest.mark.parametrize("value", ["0", "366", "a week"])
def test_a_bad_seek_expiry_is_refused(tmp_path, value):
    with pytest.raises(ConfigError, match="seek_expiry_days"):
        load_config(tmp_path / "missing.toml", env={"BOT_SEEK_EXPIRY_DAYS": value})
