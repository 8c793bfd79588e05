"""Hidden information never reaches the logs, at any level: a whole LPPG game played through
the emulator with the bot's logging at DEBUG (and discord.py's and aiosqlite's own DEBUG turned
on, as an operator chasing a bug would) writes neither the game's secret seed, nor a hand, nor
any run of the piles' order. And the same with the bot as it is deployed, ``python -m bot``
with ``BOT_LOG_LEVEL=DEBUG``: its log does have DEBUG lines, and none of them tells a card."""

from __future__ import annotations

import io
import logging
import random
import re
import signal

import pytest

import engines
from bot.runtime.logs import PAYLOAD_LOGGERS, HidePayloads, setup_logging
from bot.services import Services
from bot.store import open_store
from emulator import running_emulator
from emulator.botprocess import BotProcess
from tests.e2e.conftest import TOKEN

#: Moves are chosen at random among the suggestions; LPPG ends long before this.
MAX_PLIES = 1500


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        self.texts.append(text)


@pytest.fixture
def debug_logs():
    """The bot's own logging set-up at DEBUG, writing to a buffer; every record also kept."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    libraries = {name: logging.getLogger(name).level for name in ("discord", "aiosqlite")}
    setup_logging("DEBUG", secrets=[TOKEN])
    output = io.StringIO()
    root.handlers[0].setStream(output)
    records = Records()
    root.addHandler(records)
    for name in libraries:
        logging.getLogger(name).setLevel(logging.DEBUG)
    yield output, records
    root.handlers[:], root.level = saved
    for name, level in libraries.items():
        logging.getLogger(name).setLevel(level)
    for name in PAYLOAD_LOGGERS:
        logger = logging.getLogger(name)
        for guard in [f for f in logger.filters if isinstance(f, HidePayloads)]:
            logger.removeFilter(guard)


def hidden_patterns(snapshot: dict) -> set[str]:
    """Regular expressions for what this position hides: each hand, and every run of three
    cards of a pile in its order (a card alone is no secret once it is played)."""
    patterns = set()
    runs = [list(hand) for hand in snapshot["hands"] if len(hand) >= 2]
    for pile in (snapshot["pile_a"], snapshot["pile_b"]):
        runs += [pile[i:i + 3] for i in range(len(pile) - 2)]
    for run in runs:
        patterns.add(r"\W{1,4}".join(re.escape(card) for card in run))
    return patterns


async def test_a_whole_lppg_game_at_debug_logs_no_hidden_information(debug_logs, world,
                                                                    backend):
    output, records = debug_logs
    emu = world.emu
    first = await world.start_game("alice", "lppg", "bob")
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    store = world.services.store
    row = await store.get_game(game.id)
    seed = row.seed
    patterns = hidden_patterns(row.snapshot)
    users = {u.id: u for u in emu.users.values()}
    rng = random.Random(4)
    for _ in range(MAX_PLIES):
        game = await world.services.games.get_game(game.id)
        if game.status != "active":
            break
        mover = users[game.user_to_move()]
        await emu.slash(mover, "hand", channel=thread)  # a private image, now and then
        suggestions = await emu.autocomplete(mover, "move", {"text": ""}, "text", channel=thread)
        move = rng.choice(suggestions)["value"]
        reply = await (await emu.slash(mover, "move", {"text": move}, channel=thread)).reply()
        assert not reply.ephemeral, reply.content
        row = await store.get_game(game.id)
        if row.status == "active":
            patterns |= hidden_patterns(row.snapshot)
    assert (await world.services.games.get_game(game.id)).status == "finished"
    assert engines.get("lppg").load(row.snapshot).outcome is not None

    texts = [*records.texts, output.getvalue()]
    assert len(records.texts) > 100, "DEBUG logging was on"
    if backend == "sqlite":  # asyncpg logs no queries; aiosqlite does, at DEBUG
        assert any("executing" in text for text in records.texts), "aiosqlite logged queries"
    combined = re.compile("|".join(f"(?:{p})" for p in patterns))
    for text in texts:
        assert str(seed) not in text
        found = combined.search(text)
        assert found is None, f"hidden cards {found.group(0)!r} logged in: {text[:300]}"


#: A DEBUG line of the bot's own loggers, as ``bot.runtime.logs.setup_logging`` formats it.
BOT_DEBUG_LINE = re.compile(r"^\d\d:\d\d:\d\d DEBUG +bot\.")


async def test_a_bot_process_at_debug_logs_debug_lines_and_no_hidden_information(tmp_path):
    async with running_emulator() as emu:
        bot = BotProcess(emu, tmp_path / "bot.db", tmp_path / "bot.log", log_level="DEBUG")
        store = None
        try:
            await bot.start()
            challenge = await (await emu.slash("alice", "play lppg", {"opponent": "bob"})).reply()
            mark = emu.mark()
            await emu.click("bob", challenge, label="Accept")
            first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
            thread = first.channel_id
            store = await open_store(str(tmp_path / "bot.db"))
            service = Services(store)
            game = await service.games.game_for_thread(thread)
            row = await store.get_game(game.id)
            seed, patterns = row.seed, hidden_patterns(row.snapshot)
            users = {u.id: u for u in emu.users.values()}
            rng = random.Random(5)
            for _ in range(MAX_PLIES):
                game = await service.games.get_game(game.id)
                if game.status != "active":
                    break
                mover = users[game.user_to_move()]
                await emu.slash(mover, "hand", channel=thread)
                suggestions = await emu.autocomplete(mover, "move", {"text": ""}, "text",
                                                     channel=thread)
                move = rng.choice(suggestions)["value"]
                reply = await (await emu.slash(mover, "move", {"text": move},
                                               channel=thread)).reply()
                assert not reply.ephemeral, reply.content
                row = await store.get_game(game.id)
                if row.status == "active":
                    patterns |= hidden_patterns(row.snapshot)
            assert (await service.games.get_game(game.id)).status == "finished"
            assert await bot.signal(signal.SIGTERM) == 0
        finally:
            if store is not None:
                await store.close()
            await bot.stop()
    lines = (tmp_path / "bot.log").read_text().splitlines()
    debug = [line for line in lines if BOT_DEBUG_LINE.match(line)]
    # The level works: the bot's own DEBUG lines are there (commands, boards, deliveries).
    assert len(debug) > 100, f"{len(debug)} DEBUG lines of the bot in {len(lines)}"
    assert any("drawn" in line for line in debug) and any("delivered" in line for line in debug)
    assert not any("Traceback" in line for line in lines)
    combined = re.compile("|".join(f"(?:{p})" for p in patterns))
    for line in lines:
        assert str(seed) not in line
        found = combined.search(line)
        assert found is None, f"hidden cards {found.group(0)!r} logged in: {line[:300]}"
