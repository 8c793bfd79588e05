"""The folder is the layer. Every module of ``bot`` lives in one floor folder, and a floor
imports only from itself and the floors below it (``FLOORS``, lowest first); no module
imports, even for type hints only or inside a function, a module that imports it back. Above
``bot``, the packages point one way too: ``words`` <- ``engines`` <- ``ai``, ``render`` <-
``bot`` <- ``bench``; the emulator stands alone."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

#: The floors of ``bot``, lowest first.
FLOORS = (
    # Pure domain, no I/O: settings, texts and names, seats, models and errors, time controls,
    # tournament mathematics, rule texts, the analysis of a review.
    "core",
    # The database: the only floor with SQL.
    "store",
    # The bot without Discord: games, clocks, tournaments... as plain async Python.
    "services",
    # Work away from the event loop: worker pools, boards and heavy drawing, reviews being
    # made, the AI player.
    "workers",
    # The web board: sign-in with Discord, game pages played by clicks, their API; calls
    # the services as the commands do, and gets names and posting from the bot above it.
    "web",
    # discord.py's side: the client, cogs, buttons, the outbox delivery, replies.
    "discord",
    # The process: start, event loop, logs, the local console.
    "runtime",
)
#: Modules of ``bot`` outside the floors: the package itself and ``python -m bot``.
ENTRY = {"bot", "bot.__main__"}
#: Floors that never touch Discord or the network.
WITHOUT_DISCORD = ("core", "store", "services", "workers")
#: What the pure floor does without: I/O, the event loop, drawing.
NOT_IN_CORE = ("discord", "aiohttp", "aiosqlite", "asyncpg", "asyncio", "render",
               "multiprocessing", "subprocess", "socket")
#: Top-level packages of the project and the packages each may import.
PACKAGES = {
    "words": set(),
    "engines": {"words"},
    "ai": {"engines", "words"},
    "render": {"engines", "words"},
    "bot": {"render", "ai", "engines", "words", "emulator"},
    "emulator": set(),
    "bench": {"bot", "render", "ai", "engines", "words", "emulator"},
}


def floor_of(module: str) -> int:
    """The floor of a module of ``bot`` (its folder); the entry is above every floor."""
    if module in ENTRY:
        return len(FLOORS)
    parts = module.split(".")
    if len(parts) < 2 or parts[1] not in FLOORS:
        raise ValueError(f"{module} is in no floor: put it in bot/<floor>/")
    return FLOORS.index(parts[1])


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(package: str) -> dict[str, Path]:
    root = Path(importlib.import_module(package).__file__).parent
    return {module_name(p, root): p for p in root.rglob("*.py")}


def imported(path: Path) -> set[str]:
    """Every name ``path`` imports, wherever the import statement is (top level, ``if
    TYPE_CHECKING:``, inside a function): ``import m`` gives ``m``, ``from p import n`` gives
    ``p.n`` (a module, or a name in ``p``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (``from p import n`` is an
    import of ``p.n`` when that is a module, else of ``p``)."""
    modules = modules_of(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {target if target in modules else target.rpartition(".")[0]
                   for target in imported(path)}
        graph[name] = (targets & set(modules)) - {name}
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the list of its modules, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in sorted(graph.get(name, ())):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target in graph and target not in state and (found := visit(target)):
                return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := visit(name)):
            return found
    return None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a module to a module of a higher floor."""
    shown = (*FLOORS, "entry")
    return sorted(
        f"{name} ({shown[floor_of(name)]}) -> {target} ({shown[floor_of(target)]})"
        for name, targets in graph.items() for target in targets
        if floor_of(target) > floor_of(name)
    )


def test_every_module_of_the_bot_is_in_a_floor():
    loose = []
    for name in modules_of("bot"):
        try:
            floor_of(name)
        except ValueError:
            loose.append(name)
    assert loose == []
    floors = {name.split(".")[1] for name in modules_of("bot") if name not in ENTRY}
    assert floors == set(FLOORS)


def test_each_floor_imports_only_the_floors_below_it():
    graph = import_graph("bot")
    assert {"bot.runtime.app", "bot.discord.delivery", "bot.core.settings"} <= set(graph)
    assert upward_imports(graph) == []


def test_the_bot_package_has_no_import_cycle():
    graph = import_graph("bot")
    assert a_cycle(graph) is None, " -> ".join(a_cycle(graph) or [])


def test_the_ai_package_has_no_import_cycle():
    graph = import_graph("ai")
    assert {"ai.palam", "ai.palam_draft", "ai.palam_rules"} <= set(graph)
    assert a_cycle(graph) is None, " -> ".join(a_cycle(graph) or [])


@pytest.mark.parametrize("floor", WITHOUT_DISCORD)
def test_the_floors_below_discord_know_nothing_of_it(floor):
    for name, path in modules_of("bot").items():
        if name.split(".")[1:2] == [floor]:
            tops = {target.split(".")[0] for target in imported(path)}
            assert not tops & {"discord", "aiohttp"}, (name, tops & {"discord", "aiohttp"})


def test_the_web_board_speaks_http_not_discord_py():
    """The web board serves pages with aiohttp; Discord's side (discord.py, the cogs,
    delivery) is given to it by the bot, never imported."""
    found = False
    for name, path in modules_of("bot").items():
        if name.split(".")[1:2] == ["web"]:
            found = True
            tops = {target.split(".")[0] for target in imported(path)}
            assert "discord" not in tops, name
    assert found


def test_the_core_is_pure():
    for name, path in modules_of("bot").items():
        if name.split(".")[1:2] == ["core"]:
            tops = {target.split(".")[0] for target in imported(path)}
            assert not tops & set(NOT_IN_CORE), (name, tops & set(NOT_IN_CORE))


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_the_packages_point_one_way(package):
    """Each top-level package imports only those below it (``PACKAGES``)."""
    ours = set(PACKAGES)
    root = Path(__file__).resolve().parents[2] / package
    wrong = set()
    for path in root.rglob("*.py"):
        for target in imported(path):
            top = target.split(".")[0]
            if top in ours and top != package and top not in PACKAGES[package]:
                wrong.add(f"{path.relative_to(root.parent)} -> {target}")
    assert sorted(wrong) == []


def test_the_floor_of_a_module_is_its_folder():
    assert floor_of("bot.core.settings") == floor_of("bot.core") == 0
    assert floor_of("bot.discord.cogs.game") == FLOORS.index("discord")
    assert floor_of("bot.__main__") > floor_of("bot.runtime.app")
    for loose in ("bot.config", "bot.cogs.game", "bot.somewhere.x"):
        with pytest.raises(ValueError):
            floor_of(loose)


def test_the_cycle_finder_finds_one():
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b"}, "b": set()}) is None


def test_the_floor_check_finds_an_import_running_up():
    assert upward_imports({"bot.discord.cogs.game": {"bot.runtime.app"}}) == [
        "bot.discord.cogs.game (discord) -> bot.runtime.app (runtime)"]
    assert upward_imports({"bot.services.games": {"bot.discord.replies"}})
    assert upward_imports({"bot.core.names": {"bot.store.base"}})
    assert upward_imports({"bot.runtime.app": {"bot.discord.client", "bot.core.settings"}}) == []


def test_the_import_reader_sees_imports_anywhere(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from bot.store import base\n"
                      "def f():\n    import bot.core.names\n")
    assert {"bot.store.base", "bot.core.names", "typing.TYPE_CHECKING"} <= imported(module)
