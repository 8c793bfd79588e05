"""Two bot processes, shards 0 and 1 of two, on one PostgreSQL database, each answering the
server of its shard: games in both servers go on in parallel; one process is killed (SIGKILL)
while it answers a move and started again. Every board is posted exactly once, each reminder
once, and both games end with the right result. Games against the AI too: a process plays the
AI turns of its own servers only (the other's wait for their process), each once."""

from __future__ import annotations

import asyncio
import signal
from datetime import UTC, datetime, timedelta

import pytest

from bench.crash import Report, check, settle
from bot.core.sharding import shard_of
from bot.services import Services
from bot.services.aiseats import is_ai
from bot.store import open_store
from bot.store.sql import time_text
from emulator import Emulator
from emulator.botprocess import BotProcess
from tests.bot.conftest import postgres_cluster  # noqa: F401  (the session's PostgreSQL)
from tests.bot.store.dbutil import PostgresDatabase, query
from tests.e2e.test_ai import until_human_turn

#: Moves played in each game before the kill, and then while one process is down.
BEFORE_KILL = 3
WHILE_DOWN = 2


class Server:
    """One Discord server of the emulator, its channel, and the test's view of its games."""

    def __init__(self, emu: Emulator, service: Services, channel_id: int) -> None:
        self.emu = emu
        self.service = service
        self.channel_id = channel_id

    async def start_game(self, host: str, guest: str, time_control: str | None = None):
        options = {"opponent": guest} | ({"time_control": time_control} if time_control else {})
        challenge = await (await self.emu.slash(host, "play alak", options,
                                                channel=self.channel_id)).reply()
        mark = self.emu.mark()
        await self.emu.click(guest, challenge, label="Accept")
        board = await self.emu.wait_for_message(lambda m: bool(m.files), since=mark,
                                                timeout=30)
        return await self.service.games.game_for_thread(board.channel_id)

    async def start_ai_game(self, host: str):
        """``host`` plays Alak against the easy AI, started at once (no Accept)."""
        mark = self.emu.mark()
        await (await self.emu.slash(host, "play alak", {"level": "easy"},
                                    channel=self.channel_id)).reply()
        board = await self.emu.wait_for_message(lambda m: bool(m.files), since=mark,
                                                timeout=30)
        return await self.service.games.game_for_thread(board.channel_id)

    async def human_turn(self, game_id: int):
        """The game once its person is to move (or it is over): the AI's turns played."""
        return await until_human_turn(self.service, game_id)

    async def send_move(self, game_id: int):
        """The player to move plays their first legal move: the interaction."""
        game = await self.service.games.get_game(game_id)
        mover = next(u for u in self.emu.users.values() if u.id == game.user_to_move())
        moves = await self.service.games.legal_moves(game_id, mover.id)
        return await self.emu.slash(mover, "move", {"text": moves[0]}, channel=game.thread_id)

    async def play(self, game_id: int, count: int) -> None:
        for _ in range(count):
            game = await self.service.games.get_game(game_id)
            if game.status != "active":
                return
            answer = await (await self.send_move(game_id)).reply()
            # The board, as the answer itself; or, when the machine is so slow that another
            # delivery of the game held it past the handler's patience, a private "Done."
            # (the board is posted all the same: ``check`` counts them).
            assert answer.files or (answer.ephemeral and answer.content == "Done."), (
                answer.content)


@pytest.mark.slow(21)
async def test_two_processes_one_killed_each_board_and_reminder_once(
    tmp_path, postgres_cluster  # noqa: F811
):
    url = postgres_cluster.create_database("shards")
    emu = Emulator(shards=2, rest_delay=0.05)
    await emu.start()
    second_guild, second_channel = emu.add_guild("Other games")
    assert shard_of(emu.guild_id, 2) == 0 and shard_of(second_guild, 2) == 1
    bots = [BotProcess(emu, url, tmp_path / f"shard{n}.log", shard=(n, 2)) for n in (0, 1)]
    store = None
    try:
        for bot in bots:
            await bot.start()
        store = await open_store(url)
        service = Services(store)
        first, second = Server(emu, service, emu.channel_id), Server(emu, service, second_channel)
        # Timed, so that their moves wake their process's scheduler (an untimed game's moves
        # move no deadline and wake nobody): the reminder below is found when they play.
        game_a = await first.start_game("alice", "bob", "3d")
        game_b = await second.start_game("carol", "dave", "3d")
        # A timed game waiting for its first move in each server, for the reminders.
        waiting_a = await first.start_game("bob", "alice", "3d")
        waiting_b = await second.start_game("dave", "carol", "3d")
        # A game against the AI in each server, the AI's first answer given by its process.
        ai_a = await first.start_ai_game("alice")
        ai_b = await second.start_ai_game("carol")
        for server, game in ((first, ai_a), (second, ai_b)):
            await server.play(game.id, 1)
            assert (await server.human_turn(game.id)).ply == 2
        await settle(service)
        await asyncio.gather(first.play(game_a.id, BEFORE_KILL),
                             second.play(game_b.id, BEFORE_KILL))

        # Both waiting games' "due in 24 hours" falls due now (as if two days had passed).
        now = datetime.now(UTC)
        database = PostgresDatabase(url)
        try:
            query(database, "UPDATE game_clocks SET turn_started = ?, deadline = ? "
                            "WHERE game_id IN (?, ?)",
                  (time_text(now - timedelta(days=2)), time_text(now + timedelta(hours=1)),
                   waiting_a.id, waiting_b.id))
        finally:
            database.close()

        # Shard 1's process dies while it answers a move (committed, its answer on its way).
        mark = emu.mark()
        move = await second.send_move(game_b.id)
        await emu.wait_for(lambda e: e.kind == "request" and e.interaction_id == move.id,
                           since=mark)
        assert await bots[1].kill() == -signal.SIGKILL
        # A move in shard 1's AI game is written meanwhile (as by a process of no shard): the
        # AI is to move there, and only shard 1's process may play it.
        carol = emu.user("carol").id
        moves = await service.games.legal_moves(ai_b.id, carol)
        await service.play.move(ai_b.id, carol, moves[0])
        # The other server plays on meanwhile; its moves wake its scheduler (its reminder) and
        # its AI runner, which answers its own server's game and leaves shard 1's alone.
        await first.play(game_a.id, WHILE_DOWN)
        await emu.wait_for_message(lambda m: "is due" in m.content,
                                   channel_id=waiting_a.thread_id)
        await first.play(ai_a.id, 1)
        assert (await first.human_turn(ai_a.id)).ply == 4
        waiting_ai = await service.games.get_game(ai_b.id)
        assert waiting_ai.ply == 3 and is_ai(waiting_ai.user_to_move())

        await bots[1].start()  # takes its shard back at once: catches up its rows, reminders
        await bots[1].wait_for_log("holding shard 1 of 2")
        await emu.wait_for_message(lambda m: "is due" in m.content,
                                   channel_id=waiting_b.thread_id)
        assert (await second.human_turn(ai_b.id)).ply == 4, "the restart plays its AI turn"
        await asyncio.gather(first.play(game_a.id, 2), second.play(game_b.id, 2))
        # Each game ends by a resignation: the other player wins.
        resigners = {}
        for game in (game_a, game_b):
            current = await service.games.get_game(game.id)
            resigner = next(u for u in emu.users.values() if u.id == current.user_to_move())
            resigners[game.id] = resigner.id
            question = await (await emu.slash(resigner, "resign",
                                              channel=current.thread_id)).reply()
            confirmed = await emu.click(resigner, question, label="Resign")  # /resign asks first
            assert "You resigned" in (await confirmed.reply()).content
        await settle(service)
        games = [await service.games.get_game(g.id)
                 for g in (game_a, game_b, waiting_a, waiting_b, ai_a, ai_b)]
        ai_records = [await service.games.record(g.id) for g in (ai_a, ai_b)]
        for bot in bots:
            assert await bot.signal(signal.SIGTERM) == 0
    finally:
        for bot in bots:
            await bot.stop()
        if store is not None:
            await store.close()
        await emu.close()
        postgres_cluster.drop_database(url)

    report = Report()
    check(emu, games, report)
    assert report.duplicates == [] and report.missing == [] and report.extra_threads == []
    for game in games[:2]:
        assert game.status == "finished" and game.resigned_seat is not None
        assert game.seats[game.resigned_seat] == resigners[game.id]
        assert game.outcome is not None
        assert {game.seats[seat] for seat in game.outcome.winners} == (
            set(game.seats) - {resigners[game.id]})
    for record in ai_records:  # each AI turn played once (every board once: checked above)
        assert [m.seat for m in record.moves] == [0, 1, 0, 1]
    for game in games[2:4]:
        reminders = [m for m in emu.channel_messages(game.thread_id) if "is due" in m.content]
        assert len(reminders) == 1, [m.content for m in reminders]
    assert emu.refusals == []
    for bot in bots:
        assert "Traceback" not in bot.log_path.read_text()


async def test_a_standby_takes_over_the_shard_of_a_killed_process(
    tmp_path, postgres_cluster  # noqa: F811
):
    """A second process started for a shard already held waits without connecting (two
    sessions of one shard would both answer); when the holder is killed it takes over: it
    posts what was left and answers the next move."""
    url = postgres_cluster.create_database("standby")
    emu = Emulator(shards=2)
    await emu.start()
    holder = BotProcess(emu, url, tmp_path / "holder.log", shard=(0, 2))
    standby = BotProcess(emu, url, tmp_path / "standby.log", shard=(0, 2))
    store = None
    try:
        await holder.start()
        store = await open_store(url)
        service = Services(store)
        server = Server(emu, service, emu.channel_id)
        game = await server.start_game("alice", "bob")
        starting = asyncio.create_task(standby.start())
        await standby.wait_for_log("waiting for shard 0 of 2")
        assert emu.identified_count == 1 and not starting.done()
        await server.play(game.id, 1)
        await holder.kill()
        await asyncio.wait_for(starting, 30)  # connected once it held the shard
        await server.play(game.id, 1)
        await settle(service)
        game = await service.games.get_game(game.id)
        assert await standby.signal(signal.SIGTERM) == 0
    finally:
        for bot in (holder, standby):
            await bot.stop()
        if store is not None:
            await store.close()
        await emu.close()
        postgres_cluster.drop_database(url)
    report = Report()
    check(emu, [game], report)
    assert game.ply == 2
    assert report.duplicates == [] and report.missing == [] and report.extra_threads == []
