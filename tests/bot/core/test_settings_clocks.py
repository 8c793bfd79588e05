import pytest

from bot.core.settings import ConfigError, load_config


def test_vacation_allowance_from_the_file_and_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[correspondence]\nvacation_days_per_year = 12\n", encoding="utf-8")
    assert load_config(path, env={}).vacation_days_per_year == 12
    assert load_config(path, env={"BOT_VACATION_DAYS": "40"}).vacation_days_per_year == 40
    assert load_config(tmp_path / "missing.toml", env={}).vacation_days_per_year == 30


@pytest.mark.parametrize("value", ["many", "-1", "400"])
def test_a_bad_vacation_allowance_is_refused(tmp_path, value):
    with pytest.raises(ConfigError, match="vacation_days_per_year"):
        load_config(tmp_path / "missing.toml", env={"BOT_VACATION_DAYS": value})


def test_challenge_expiry_from_the_file_and_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[correspondence]\nchallenge_expiry_days = 3\n", encoding="utf-8")
    assert load_config(path, env={}).challenge_expiry_days == 3
    assert load_config(path, env={"BOT_CHALLENGE_EXPIRY_DAYS": "10"}).challenge_expiry_days == 10
    assert load_config(tmp_path / "missing.toml", env={}).challenge_expiry_days == 7


@pytest.mark.parametrize("value", ["0", "366", "a week"])
def test_a_bad_challenge_expiry_is_refused(tmp_path, value):
    with pytest.raises(ConfigError, match="challenge_expiry_days"):
        load_config(tmp_path / "missing.toml", env={"BOT_CHALLENGE_EXPIRY_DAYS": value})
