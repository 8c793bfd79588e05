"""The bot as production runs it, ``python -m bot`` in its own process, pointed at an emulator:
for the tests and benchmarks that stop it the hard way (SIGTERM, SIGKILL) and start it again."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

from emulator.events import PATIENCE
from emulator.server import Emulator

#: Seconds a bot process has to connect.
START_TIMEOUT = 60.0


class BotProcess:
    """One ``python -m bot`` process at a time, on one database (a file, or a PostgreSQL URL),
    against ``emu``; ``shard`` (number, count) runs it as that one shard, as one of several
    processes. Its log lines (stderr) go to ``log_path``; ``wait_for_log`` waits for one."""

    def __init__(self, emu: Emulator, database: Path | str, log_path: Path,
                 log_level: str = "INFO", *, shard: tuple[int, int] | None = None) -> None:
        self.emu = emu
        self.database = database
        self.log_path = log_path
        self.log_level = log_level
        self.shard = shard
        self.process: asyncio.subprocess.Process | None = None
        self._log_lines: list[str] = []
        self._reader: asyncio.Task | None = None
        self._new_line = asyncio.Event()

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DISCORD_", "BOT_"))}
        env.update({
            "DISCORD_TOKEN": self.emu.token,
            "DISCORD_API_BASE": self.emu.api_base,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "BOT_DATABASE": str(self.database),
            "BOT_SYNC_ON_START": "global",
            "BOT_LOG_LEVEL": self.log_level,
            "BOT_CONFIG": str(self.log_path.with_suffix(".no-config.toml")),
            "PYTHONUNBUFFERED": "1",
        })
        if self.shard is not None:
            env["BOT_SHARD_IDS"], env["BOT_SHARD_COUNT"] = map(str, self.shard)
        return env

    async def start(self) -> None:
        """Start the bot and wait until it has connected to the emulator (its shard's
        session, if it runs one)."""
        mark = self.emu.mark()
        self._log_lines = []
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=self.environment(),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        self._reader = asyncio.create_task(self._read_log(self.process))

        def connected(event: Any) -> bool:
            return event.kind == "identified" and (
                self.shard is None or tuple(event.data["shard"]) == self.shard)

        await self.emu.wait_for(connected, since=mark, timeout=START_TIMEOUT)

    async def _read_log(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        with self.log_path.open("a", encoding="utf-8") as log:
            while line := await process.stderr.readline():
                text = line.decode("utf-8", "replace")
                log.write(text)
                self._log_lines.append(text)
                self._new_line.set()

    async def wait_for_log(self, fragment: str, timeout: float = PATIENCE) -> str:
        """The first log line of this run that contains ``fragment`` (waiting for it)."""

        async def seen() -> str:
            while True:
                for line in self._log_lines:
                    if fragment in line:
                        return line
                self._new_line.clear()
                await self._new_line.wait()

        return await asyncio.wait_for(seen(), timeout)

    async def signal(self, signum: int, timeout: float = PATIENCE) -> int:
        """Send ``signum`` and wait for the process to end; its exit status (negative: the
        signal that ended it)."""
        assert self.process is not None
        self.process.send_signal(signum)
        return await self.wait(timeout)

    async def wait(self, timeout: float = PATIENCE) -> int:
        assert self.process is not None
        code = await asyncio.wait_for(self.process.wait(), timeout)
        if self._reader is not None:
            await self._reader
        return code

    async def kill(self) -> int:
        return await self.signal(signal.SIGKILL)

    async def stop(self) -> None:
        """Make sure no process is left (tests' clean-up)."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.wait()
