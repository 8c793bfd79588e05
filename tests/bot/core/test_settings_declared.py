"""Each setting is declared once (``bot.core.settings.setting``): the example file is written from
the declarations, and no code reads a setting's environment variable that is not declared."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

import pytest

from bot.core.settings import (
    CONFIG_FILE_VARIABLE,
    SECRET_VARIABLES,
    Config,
    ConfigError,
    example_file,
    load_config,
    settings,
)

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "config.example.toml"
#: Environment variables the code reads that are not settings of the bot: where Python finds
#: our packages (the drawing process passes it on).
NOT_SETTINGS = {"PYTHONPATH"}


def test_the_example_file_is_written_from_the_declarations():
    assert EXAMPLE.read_text(encoding="utf-8") == example_file(), (
        "config.example.toml differs from the settings declared in bot/core/settings.py: "
        "run `python -m bot.core.settings > config.example.toml`")


def test_the_example_documents_every_setting_its_variable_and_its_default():
    text = EXAMPLE.read_text(encoding="utf-8")
    for each, declared in settings():
        table = text.split(f"\n[{declared.section}]\n")[1].split("\n[")[0]
        # A secret read from the environment only is documented, never given a value.
        assert (f"\n{declared.key} = " in table) != declared.env_only, each.name
        if declared.variable:
            assert f"[{declared.variable}" in table, each.name
    assert load_config(EXAMPLE, env={}) == Config()


def test_every_setting_has_its_own_key_and_variable():
    places = [(s.section, s.key) for _, s in settings()]
    variables = [s.variable for _, s in settings() if s.variable]
    assert len(set(places)) == len(places) == len(fields(Config))
    assert len(set(variables)) == len(variables)
    assert CONFIG_FILE_VARIABLE not in variables
    assert {"DISCORD_TOKEN", "DISCORD_CLIENT_SECRET", "BOT_DATABASE"} == SECRET_VARIABLES


def environment_names_in(path: Path) -> set[str]:
    """Names the module reads from the environment (``os.environ[...]``, ``.get(...)``,
    ``os.getenv(...)``), and every name shaped like one of ours (``BOT_...``, ``DISCORD_...``)
    used as a key or given to a call (an environment it builds for another process, ``env.get``)."""
    found: set[str] = set()

    def names(*nodes: ast.AST | None) -> set[str]:
        return {n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)}

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Subscript) and "environ" in ast.unparse(node.value):
            found |= names(node.slice)
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith(
                ("environ.get", "getenv", "environ.pop")):
            found |= names(*node.args[:1])
        keys: set[str] = set()
        if isinstance(node, ast.Subscript):
            keys = names(node.slice)
        elif isinstance(node, ast.Dict):
            keys = names(*node.keys)
        elif isinstance(node, ast.Call):
            keys = names(*node.args[:1])
        found |= {k for k in keys if k.startswith(("BOT_", "DISCORD_")) and k.isupper()}
    return found


def test_every_environment_variable_the_code_reads_is_a_declared_setting():
    declared = {s.variable for _, s in settings() if s.variable} | {CONFIG_FILE_VARIABLE}
    read = {
        (name, str(path.relative_to(ROOT)))
        for package in ("bot", "engines", "render", "ai", "emulator")
        for path in (ROOT / package).rglob("*.py")
        for name in environment_names_in(path)
    }
    assert {"DISCORD_TOKEN", "PYTHONPATH"} <= {name for name, _ in read}
    assert sorted((name, where) for name, where in read
                  if name not in declared | NOT_SETTINGS) == []


def test_the_scan_sees_a_variable_read_in_each_way(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('import os\nos.environ["A"]\nos.environ.get("B")\nos.getenv("C")\n'
                      'child = {"BOT_SOMETHING": "1"}\nenv.get("DISCORD_OTHER")\n'
                      '__all__ = ["BOT_PERMISSIONS"]\n')
    assert environment_names_in(module) == {"A", "B", "C", "BOT_SOMETHING", "DISCORD_OTHER"}


@pytest.mark.parametrize("variable", sorted(s.variable for _, s in settings() if s.variable))
def test_each_variable_reaches_its_setting(variable, tmp_path):
    """A value the setting cannot take is refused under the setting's name: the variable is
    read, and for that setting."""
    name = next(each.name for each, s in settings() if s.variable == variable)
    # Any text is a token, a secret, an id Discord gave, or an address.
    if name in ("token", "api_base", "gateway_url", "client_id", "client_secret", "web_host"):
        assert getattr(load_config(tmp_path / "none", env={variable: "x"}), name) == "x"
        return
    with pytest.raises(ConfigError, match=name):
        load_config(tmp_path / "none", env={variable: "nonsense://x"})
