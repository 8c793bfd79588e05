"""The services are composed, not inherited: no class of ``bot.services`` inherits from another
of its classes (refusals excepted: they are ``ServiceError``s), and no code there reaches
another object's private members, so a feature calls another only through its public methods,
which the constructors in ``bot.services.wiring`` show."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import bot.services

ROOT = Path(bot.services.__file__).parent


def inherited_classes(package: str) -> list[str]:
    """Every class of ``package`` (exceptions aside) that has a class of ``package`` among
    its ancestors, as ``module.Class <- module.Base``."""
    root = importlib.import_module(package)
    names = [package, *(m.name for m in pkgutil.walk_packages(root.__path__, package + "."))]
    found = []
    for name in names:
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or issubclass(cls, BaseException):
                continue
            for base in cls.__mro__[1:]:
                if base.__module__ == package or base.__module__.startswith(package + "."):
                    found.append(f"{name}.{cls.__name__} <- {base.__module__}.{base.__name__}")
    return found


def foreign_private_uses(root: Path) -> list[str]:
    """Every ``x._name`` under ``root`` where ``x`` is not ``self`` or ``cls``: a private
    member of another object (another service's helper, say)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if not own and not node.attr.startswith("__"):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_class_of_the_services_inherits_from_another():
    assert inherited_classes("bot.services") == []


def test_the_services_use_no_other_objects_private_members():
    assert foreign_private_uses(ROOT) == []


def test_the_checks_find_a_mixin_and_a_reach_into_another_service(tmp_path, monkeypatch):
    package = tmp_path / "hallway"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "base.py").write_text(
        "class Base:\n    def _helper(self):\n        return 1\n", encoding="utf-8")
    (package / "feature.py").write_text(
        "from hallway.base import Base\n\n"
        "class Feature(Base):\n    pass\n\n"
        "class Refused(Exception):\n    pass\n\n"
        "class Other:\n    def __init__(self, base):\n        self._base = base\n\n"
        "    def call(self):\n        return self._base._helper()\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert inherited_classes("hallway") == ["hallway.feature.Feature <- hallway.base.Base"]
        assert foreign_private_uses(package) == ["feature.py:14: self._base._helper"]
    finally:
        for name in [n for n in sys.modules if n == "hallway" or n.startswith("hallway.")]:
            del sys.modules[name]
