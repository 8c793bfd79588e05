"""The real discord.py bot against the local emulator, in-process, with a temporary database:
every test runs twice, on an SQLite file and on a new database of the session's PostgreSQL
server (a test tied to one database parametrizes ``backend`` itself)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from bot.core.settings import Config
from bot.runtime.app import RunningBot, launch
from bot.runtime.endpoints import use_endpoints
from emulator import Emulator, EmuUser, Message
from tests.bot.conftest import (
    BACKENDS,
    postgres_cluster,  # noqa: F401  (the session's PostgreSQL)
)

#: A token shaped like a real one, so a leak would be found by the log check.
TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMA.GhIjKl.e2e-secret-token-never-logged-0123456789"


#: Loggers left at INFO while a test captures at DEBUG: aiosqlite logs every statement it runs
#: (about a thousand lines a test, a sixth of the e2e suite's CPU), and none of it is ours.
QUIET_LOGGERS = ("aiosqlite",)


def capture_logs(caplog: pytest.LogCaptureFixture) -> None:
    """Capture every log line at DEBUG, the most verbose level, for the secrets check."""
    caplog.set_level(logging.DEBUG)
    for name in QUIET_LOGGERS:
        # A test that set the logger's level itself wants its lines (the hidden-logs checks).
        if logging.getLogger(name).level == logging.NOTSET:
            caplog.set_level(logging.INFO, logger=name)


def assert_no_secret_logged(caplog: pytest.LogCaptureFixture, *secrets: str) -> None:
    """No line logged in the test's setup, its call or its teardown so far holds a secret
    (``caplog.records`` alone is the current phase's: the teardown, where this runs)."""
    for when in ("setup", "call", "teardown"):
        for record in caplog.get_records(when):
            message = record.getMessage()
            for secret in secrets:
                assert secret not in message, f"a secret was logged in the {when}"


@dataclass
class World:
    emu: Emulator
    config: Config
    running: RunningBot | None = None
    restarts: int = 0
    log_records: list[logging.LogRecord] = field(default_factory=list)
    #: Set by a test that provokes refusals on purpose (the fixture checks there are none).
    refusals_expected: bool = False

    @property
    def bot(self):
        assert self.running is not None
        return self.running.bot

    @property
    def services(self):
        return self.bot.services

    async def start(self) -> None:
        self.running = await launch(self.config, guild_ready_timeout=0.01)
        await self.emu.wait_until_connected()

    async def stop(self) -> None:
        if self.running is not None:
            await self.running.stop()
            self.running = None

    async def restart(self) -> None:
        await self.stop()
        self.restarts += 1
        await self.start()

    async def challenge(self, host: str, game: str, options: dict) -> Message:
        interaction = await self.emu.slash(host, f"play {game}", options)
        return await interaction.reply()

    async def accept(self, guest: str, challenge: Message) -> Message:
        """``guest`` presses the challenge's Accept: the game's first board (in its thread)."""
        mark = self.emu.mark()
        await self.emu.click(guest, challenge, label="Accept")
        return await self.emu.wait_for_message(lambda m: bool(m.files), since=mark)

    async def start_game(self, host: str, game: str, guest: str,
                         options: dict | None = None) -> Message:
        """``host`` challenges ``guest``, who accepts: the game's first board."""
        challenge = await self.challenge(host, game, {"opponent": guest, **(options or {})})
        return await self.accept(guest, challenge)

    async def play_ai(self, user: str, game: str, level: str = "easy") -> int:
        """``user`` starts ``game`` against the AI: the thread its first board is posted in."""
        mark = self.emu.mark()
        await (await self.emu.slash(user, f"play {game}", {"level": level})).reply()
        first = await self.emu.wait_for_message(lambda m: bool(m.files), since=mark)
        return first.channel_id

    async def resign(self, user: str | EmuUser, thread: int) -> Message:
        """``user`` types /resign in the game's thread and confirms with the button: the
        public notice of the resignation in the thread."""
        emu = self.emu
        question = await (await emu.slash(user, "resign", {}, channel=thread)).reply()
        assert question.ephemeral, question.content
        mark = emu.mark()
        confirmed = await emu.click(user, question, label="Resign")
        assert "You resigned" in (await confirmed.reply()).content
        return await emu.wait_for_message(lambda m: "resigned." in m.content,
                                          channel_id=thread, since=mark)

    def thread_id(self) -> int:
        return int(self.emu.threads()[-1]["id"])

    async def turn(self, game_id: int) -> tuple[EmuUser | None, list[str]]:
        """The user to move in the game and their legal moves (None, [] once it is over)."""
        game = await self.services.games.get_game(game_id)
        mover = game.user_to_move()
        if game.status != "active" or mover is None:
            return None, []
        user = next(u for u in self.emu.users.values() if u.id == mover)
        return user, await self.services.games.legal_moves(game_id, mover)


def make_config(emu: Emulator, tmp_path: Path, database: str | None = None) -> Config:
    return Config(
        token=emu.token,
        api_base=emu.api_base,
        gateway_url=emu.gateway_url,
        database=database or str(tmp_path / "bot.db"),
        sync_on_start="global",
        owner_ids=(emu.user("alice").id,),
        # Boards drawn in a thread: a worker process per test's bot would cost each test a
        # second; tests that use one say so (``@pytest.mark.bot_config(board_pool="process")``).
        board_pool="thread",
    )


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def e2e_database(backend, request):
    """None (an SQLite file of the test's), or a new PostgreSQL database's URL."""
    if backend == "sqlite":
        yield None
        return
    cluster = request.getfixturevalue("postgres_cluster")
    url = cluster.create_database("e2e")
    yield url
    cluster.drop_database(url)


@pytest.fixture
async def world(request, tmp_path, caplog, e2e_database):
    """The bot connected to a fresh emulator; ``@pytest.mark.emulator(rest_delay=...)`` passes
    options to the emulator, ``@pytest.mark.bot_config(...)`` settings to the bot."""
    capture_logs(caplog)
    marker = request.node.get_closest_marker("emulator")
    emu = Emulator(token=TOKEN, **(marker.kwargs if marker else {}))
    await emu.start()
    config = make_config(emu, tmp_path, e2e_database)
    settings = request.node.get_closest_marker("bot_config")
    if settings:
        config = replace(config, **settings.kwargs)
    world = World(emu, config)
    try:
        await world.start()
        yield world
    finally:
        await world.stop()
        await emu.close()
        use_endpoints(None, None)
        # Whatever happened, the token never reached a log line.
        assert_no_secret_logged(caplog, TOKEN)
    # Nothing the bot sent would have been refused by Discord (limits, permissions, timing).
    if not world.refusals_expected:
        assert emu.refusals == []


@pytest.fixture
async def web_world(request, tmp_path, caplog, e2e_database):
    """The bot with its web board on, against a fresh emulator that registered the board's
    redirect (``@pytest.mark.bot_config(...)`` as for ``world``); every log line is checked
    for the token and the client secret."""
    # Here, not at the top: those helpers build on this module's World.
    from tests.e2e.web import WebClient, web_config, web_emulator
    from tests.ports import free_port

    capture_logs(caplog)
    port = free_port()
    options = request.node.get_closest_marker("emulator")
    emu = web_emulator(port, **(options.kwargs if options else {}))
    await emu.start()
    config = web_config(emu, tmp_path, port, e2e_database)
    settings = request.node.get_closest_marker("bot_config")
    if settings:
        config = replace(config, **settings.kwargs)
    world = World(emu, config)
    clients: list[WebClient] = []
    world.client = lambda user: clients.append(WebClient(world, user)) or clients[-1]
    try:
        await world.start()
        yield world
    finally:
        for client in clients:
            await client.close()
        await world.stop()
        await emu.close()
        use_endpoints(None, None)
        assert_no_secret_logged(caplog, TOKEN, emu.client_secret)
    if not world.refusals_expected:
        assert emu.refusals == []


@pytest.fixture
async def browser():
    """Headless Chromium driven by Playwright, for the tests that import
    ``tests.e2e.browsing`` (which skips them without Playwright or Chromium)."""
    from tests.e2e.browsing import chromium

    async with chromium() as launched:
        yield launched
