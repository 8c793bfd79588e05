"""``python -m bot`` without a token: the local Discord emulator (``emulator``), this bot
connected to it, and the console (``emulator.console``) to play through it.

This is the one place the bot imports the emulator; the emulator imports nothing of the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import socket
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from bot.core.settings import Config
from bot.runtime.app import launch
from emulator import Emulator
from emulator.console import Console
from emulator.console_io import Screen, next_line, run_folder, typed_lines


async def run_console(config: Config) -> None:
    """The emulator, the bot against it, and the console, until /quit, end of input or a stop
    signal. The run's database is removed at exit unless ``keep_local_database``."""
    images_dir = run_folder(Path(config.images_dir))
    # A fresh database each run: the emulator keeps no threads or messages between runs, so
    # games from an earlier run would point at threads that no longer exist.
    folder = Path(tempfile.mkdtemp(prefix="boardgames-local-"))
    try:
        await play(config, images_dir, folder / "local.db")
    finally:
        if config.keep_local_database:
            print(f"This run's database is kept in {folder}/.", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now, for the local web board."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


async def play(config: Config, images_dir: Path, database: Path) -> None:
    # The web board runs too, on this host: the emulator signs its visitors in (its
    # authorize page) and knows its redirect; /web prints a link signed in as a local user.
    # It is also the app's Activity (the URL mapping's target): /activity opens it in the
    # emulated Discord client, and boards' Open board launches it.
    port = config.web_port or free_port()
    web = f"http://127.0.0.1:{port}"
    emu = Emulator(users=config.emulator_users, redirect_uris=[f"{web}/auth/callback"],
                   activity_url=web, activities=True)
    await emu.start()
    try:
        local = replace(
            config, token=emu.token, api_base=emu.api_base, gateway_url=emu.gateway_url,
            database=str(database), sync_on_start="global", owner_ids=(emu.owner.id,),
            web_port=port, web_host="127.0.0.1", web_public_url=web,
            client_secret=emu.client_secret, client_id="",
        )
        running = await launch(local, guild_ready_timeout=0.1)
        try:
            await converse(emu, images_dir, web)
        finally:
            print("\nStopping.", file=sys.stderr)
            await running.stop()
    finally:
        await emu.close()


async def converse(emu: Emulator, images_dir: Path, web: str) -> None:
    """Typed lines to the console, and what happens printed as it happens (the prompt does not
    wait for it), until the user or a signal stops it."""
    console = Console(emu, images_dir)
    screen = Screen(console.prompt)
    console.output = screen.print
    console.show_new_events()
    screen.print(f"Local Discord emulator at {emu.api_base}: no token given, nothing leaves "
                 "this host.")
    screen.print(f"Users: {', '.join(emu.users)}. Images go to {images_dir.resolve()}/. "
                 "Type /help.")
    screen.print(f"Web board at {web}/ (/web [user]: a link signed in as a user; "
                 "/activity [user]: the board as a Discord Activity).")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    lines = typed_lines()
    watching = asyncio.create_task(console.watch(screen.restore_prompt), name="console-watch")
    try:
        while True:
            screen.show_prompt()
            line = await next_line(lines, stop)
            screen.line_typed()
            if line is None:
                break
            if not await console.handle(line):
                break
            console.show_new_events()
    finally:
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
