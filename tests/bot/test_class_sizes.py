"""No class of ``bot`` is a hallway: one over ``MAX_LINES`` lines says at its top why it is
longer ("Longer than 300 lines on purpose: …")."""

from __future__ import annotations

import ast
from pathlib import Path

import bot

ROOT = Path(bot.__file__).parent
MAX_LINES = 300
REASON = "Longer than 300 lines on purpose"


def long_classes_without_a_reason(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if "emulator" in path.relative_to(root).parts:  # a Discord of its own, not the bot
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_LINES and REASON not in (ast.get_docstring(node) or ""):
                    found.append(f"{path.relative_to(root)}: {node.name} ({lines} lines)")
    return found


def test_every_long_class_of_the_bot_says_why():
    assert long_classes_without_a_reason(ROOT) == []


def test_a_long_class_without_a_reason_is_found(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES + 1))
    (tmp_path / "hallway.py").write_text(f"class Hallway:\n{body}\n", encoding="utf-8")
    (tmp_path / "room.py").write_text(
        f'class Room:\n    """A room. {REASON}: it is one room."""\n{body}\n', encoding="utf-8")
    assert long_classes_without_a_reason(tmp_path) == [
        f"hallway.py: Hallway ({MAX_LINES + 2} lines)"]
