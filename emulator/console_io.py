"""What the local console reads and writes outside itself: the lines typed on the terminal,
the screen its lines are printed on (around the prompt), and the folder of each run's files
(``emulator.console``; ``bot.runtime.console`` wires them up)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

#: Folders of earlier runs (and files of the console's first versions, named <id>-<name>).
OLD_OUTPUT = re.compile(r"run-[\w.-]+|\d+-.+")


def run_folder(root: Path) -> Path:
    """A new folder for this run's files under ``root``, after removing earlier runs' output
    (only what the console itself wrote there)."""
    root.mkdir(parents=True, exist_ok=True)
    for old in root.iterdir():
        if OLD_OUTPUT.fullmatch(old.name):
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink(missing_ok=True)
    folder = root / f"run-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    folder.mkdir()
    return folder


#: Back to the line's start and clear it (a terminal's escape sequence).
CLEAR_LINE = "\r\x1b[2K"


class Screen:
    """Where the console prints. Lines printed while the prompt waits for a line (the bot's
    answers as they arrive) take the prompt's place, and the prompt is shown again under
    them; on a terminal the prompt's line is cleared first, elsewhere (a pipe, a file) the
    lines start on a new line."""

    def __init__(self, prompt: Callable[[], str], stream: TextIO | None = None) -> None:
        self._prompt = prompt
        self._stream = stream or sys.stdout
        self._waiting = False  # the prompt is shown, and no line typed yet
        self._covered = False  # lines were printed over the prompt since it was shown

    def print(self, line: str) -> None:
        if self._waiting and not self._covered:
            self._stream.write(CLEAR_LINE if self._stream.isatty() else "\n")
            self._covered = True
        self._stream.write(line + "\n")
        self._stream.flush()

    def show_prompt(self) -> None:
        """Show the prompt: a line may be typed now."""
        self._stream.write(self._prompt())
        self._stream.flush()
        self._waiting, self._covered = True, False

    def restore_prompt(self) -> None:
        """After lines printed over the waiting prompt: show it again (where the console is
        now: a thread it followed, say)."""
        if self._waiting and self._covered:
            self.show_prompt()

    def line_typed(self) -> None:
        self._waiting = False


def typed_lines() -> asyncio.Queue[str | None]:
    """What the user types, line by line (None once input ends). A daemon thread reads the
    file descriptor itself (no buffered object whose lock it would hold), so a stop signal
    never waits for a line that is not coming, nor trips the interpreter's shutdown."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def put(line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody reads any more
            loop.call_soon_threadsafe(queue.put_nowait, line)

    def read() -> None:
        pending = b""
        while chunk := os.read(sys.stdin.fileno(), 4096):
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                put(raw.decode("utf-8", "replace"))
        if pending:
            put(pending.decode("utf-8", "replace"))
        put(None)

    threading.Thread(target=read, name="console-input", daemon=True).start()
    return queue


async def next_line(lines: asyncio.Queue[str | None], stop: asyncio.Event) -> str | None:
    """The next typed line, or None when input ends or a stop signal (SIGTERM, ^C) came."""
    reading = asyncio.ensure_future(lines.get())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
    for task in (reading, stopping):
        task.cancel()
    return reading.result() if reading.done() and not reading.cancelled() else None
