"""Imports point one way: no module imports, even for type hints only or inside a function, a
module that imports it back (in ``bot``, and in ``ai``), and inside ``bot`` no import runs back
up the layers (``LAYERS``: services below the Discord layer, cogs below the bot that loads them
by name)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

#: The layers of ``bot``, lowest first: a module imports from its own layer or lower ones.
#: A module is in the layer of the longest prefix listed; any other is in the Discord layer.
LAYERS = {
    # What everything speaks: texts, seat ids, time controls and clocks as values, pairings.
    "base": 0,
    "storage": 1,
    "services": 2,
    # discord.py's side: replies, buttons, the outbox delivery, drawing, the AI runner.
    "discord": 3,
    "cogs": 4,
    # The bot that wires it all and loads the cogs by name; its start and stop.
    "bot": 5,
}
PLACES = {
    "bot.i18n": "base", "bot.sharding": "base", "bot.endpoints": "base", "bot.logs": "base",
    "bot.runner": "base", "bot.seats": "base", "bot.names": "base", "bot.competition": "base",
    "bot.rules": "base", "bot.correspondence": "base", "bot.events": "base",
    "bot.store": "storage", "bot.config": "storage",
    "bot.services": "services",
    "bot.cogs": "cogs",
    "bot": "bot", "bot.app": "bot", "bot.client": "bot",
    "bot.__main__": "bot", "bot.console": "bot",
}


def layer_of(module: str) -> int:
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        place = PLACES.get(".".join(parts[:end]))
        if place is not None and (end > 1 or len(parts) == 1):
            return LAYERS[place]
    return LAYERS["discord"]


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, package: str) -> set[str]:
    """The modules of ``package`` (or names in them) that ``path`` imports, wherever the
    import statement is (top level, ``if TYPE_CHECKING:``, inside a function)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (
                node.module == package or (node.module or "").startswith(package + ".")):
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names
                         if a.name == package or a.name.startswith(package + "."))
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (``from p import m`` counts as
    importing ``p.m`` when that is a module, else ``p``)."""
    root = Path(importlib.import_module(package).__file__).parent
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for target in imports_of(path, package):
            if target in modules:
                graph[name].add(target)
            elif target.rpartition(".")[0] in modules:
                graph[name].add(target.rpartition(".")[0])
        graph[name].discard(name)
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
    """Every import from a module to a module of a higher layer."""
    return sorted(
        f"{name} (layer {layer_of(name)}) -> {target} (layer {layer_of(target)})"
        for name, targets in graph.items() for target in targets
        if layer_of(target) > layer_of(name)
    )


def test_the_bot_package_has_no_import_cycle():
    graph = import_graph("bot")
    assert {"bot.app", "bot.delivery", "bot.views.game", "bot.host"} <= set(graph)
    assert a_cycle(graph) is None, " -> ".join(a_cycle(graph) or [])


def test_the_ai_package_has_no_import_cycle():
    graph = import_graph("ai")
    assert {"ai.palam", "ai.palam_draft", "ai.palam_rules"} <= set(graph)
    assert a_cycle(graph) is None, " -> ".join(a_cycle(graph) or [])


def test_no_import_runs_back_up_the_layers_of_bot():
    graph = import_graph("bot")
    assert upward_imports(graph) == []


@pytest.mark.parametrize("package", ["bot.services", "bot.store", "bot.correspondence"])
def test_the_core_knows_nothing_of_discord(package):
    """Services, storage and correspondence play import neither discord.py nor a module of
    the Discord layer (``bot.layers``)."""
    root = Path(importlib.import_module(package).__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                assert name.split(".")[0] not in ("discord", "aiohttp"), (path, name)
                if name.startswith("bot."):
                    assert layer_of(name) <= LAYERS["services"], (path, name)


def test_the_cycle_finder_finds_one():
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b"}, "b": set()}) is None


def test_the_layer_check_finds_an_import_running_up():
    assert upward_imports({"bot.cogs.game": {"bot.app"}}) == [
        "bot.cogs.game (layer 4) -> bot.app (layer 5)"]
    assert upward_imports({"bot.services.games": {"bot.replies"}})
    assert upward_imports({"bot.correspondence.texts": {"bot.services.clocks"}})
    assert upward_imports({"bot.app": {"bot.cogs.game", "bot.services"}}) == []

