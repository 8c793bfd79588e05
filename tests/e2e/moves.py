"""How a move's post says who played what: once ("@alice played **e**." or, when the engine has
more to say, its sentence naming the player: "@alice plays f and captures 1 stone.")."""

from __future__ import annotations


def move_said(content: str, mover: str, move: str) -> bool:
    """Whether the post (its first line) says that ``mover`` played ``move``, once."""
    first = content.splitlines()[0] if content else ""
    if first == f"{mover} played **{move}**.":
        return True
    return (first.startswith(f"{mover} ") and "played" not in first and first.endswith(".")
            and f"**{move}**" not in first)
