"""No class of the project is a hallway: one over ``MAX_LINES`` lines says at its top why it is
longer ("Longer than 300 lines on purpose: …"). Every package is read, the tests excepted."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("words", "engines", "ai", "render", "emulator", "bot", "bench")
MAX_LINES = 300
REASON = "Longer than 300 lines on purpose"


def long_classes_without_a_reason(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_LINES and REASON not in (ast.get_docstring(node) or ""):
                    found.append(f"{path.relative_to(root)}: {node.name} ({lines} lines)")
    return found


def test_every_package_is_read():
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert packages == set(PACKAGES)


def test_every_long_class_says_why():
    found = [f"{package}/{line}" for package in PACKAGES
             for line in long_classes_without_a_reason(ROOT / package)]
    assert found == []


def test_a_long_class_without_a_reason_is_found(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES + 1))
    (tmp_path / "hallway.py").write_text(f"class Hallway:\n{body}\n", encoding="utf-8")
    (tmp_path / "room.py").write_text(
        f'class Room:\n    """A room. {REASON}: it is one room."""\n{body}\n', encoding="utf-8")
    assert long_classes_without_a_reason(tmp_path) == [
        f"hallway.py: Hallway ({MAX_LINES + 2} lines)"]
