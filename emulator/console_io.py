"""What the local console reads and writes outside itself: the lines typed on the terminal,
and the folder of each run's files (``emulator.console``; ``bot.console`` wires them up)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import sys
import threading
import time
from pathlib import Path

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
