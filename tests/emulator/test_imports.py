"""The emulator is a local Discord of its own: it imports nothing of the bot, and the bot imports
it only where it starts the local console (``bot.runtime.console``)."""

from __future__ import annotations

import ast
from pathlib import Path

import bot
import emulator


def imported_packages(root: Path) -> dict[str, set[str]]:
    """Each module file under ``root`` (relative path) -> the top-level packages it imports,
    type-checking imports included."""
    found: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
        found[str(path.relative_to(root.parent))] = names
    return found


def test_the_emulator_imports_nothing_of_the_bot():
    modules = imported_packages(Path(emulator.__file__).parent)
    assert "emulator/__init__.py" in modules
    offenders = sorted(name for name, imports in modules.items() if "bot" in imports)
    assert offenders == []


def test_the_bot_imports_the_emulator_only_to_start_the_local_console():
    modules = imported_packages(Path(bot.__file__).parent)
    assert "bot/runtime/app.py" in modules
    importers = sorted(name for name, imports in modules.items() if "emulator" in imports)
    assert importers == ["bot/runtime/console.py"]
