"""The local console: typed lines become slash commands and clicks; replies come back as text
and images as files whose paths are printed."""

from __future__ import annotations

import re
from pathlib import Path

from bot.emulator.console import Console


async def test_a_console_session(world, tmp_path):
    lines: list[str] = []
    console = Console(world.emu, tmp_path, output=lines.append)

    async def type_(line: str) -> list[str]:
        start = len(lines)
        assert await console.handle(line)
        console.show_new_events()
        return lines[start:]

    shown = await type_("/play alak @bob length:9")
    assert any("@alice challenges @bob" in line and "(length 9)" in line for line in shown)
    assert any("[Accept] [Decline]" in line for line in shown)

    await type_("/as bob")
    shown = await type_("/click accept")
    images = [Path(m[1]) for line in shown if (m := re.search(r"image: (.+)", line))]
    assert len(images) == 1 and images[0].read_bytes().startswith(b"\x89PNG")
    assert console.channel_id == world.thread_id(), "the console follows the new game thread"

    shown = await type_("/move a")  # Bob, out of turn: told privately
    assert any("(only you)" in line and "not your turn" in line.lower() for line in shown)
    await type_("/as alice")
    shown = await type_("/move ?")
    assert shown == ["  suggestions for text: a b c d e f g h i"]
    shown = await type_("/move e")
    assert any("@alice played **e**" in line for line in shown)
    assert any(line.strip().startswith("image: ") for line in shown)
    await type_("/as bob")
    shown = await type_("/click d")
    assert any("@bob played **d**" in line for line in shown)

    assert "No button" in (await type_("/click nonsense"))[0]
    assert "no command /nope" in (await type_("/nope"))[0]
    assert await console.handle("/quit") is False
