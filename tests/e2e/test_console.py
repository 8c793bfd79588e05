"""The local console: typed lines become slash commands and clicks; replies come back as text
and images as files whose paths are printed."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.discord.cogs import _review
from emulator.console import Console
from emulator.console_io import CLEAR_LINE, Screen, run_folder
from tests.e2e.moves import move_said
from tests.e2e.test_ai import AI_PATIENCE, until_human_turn
from tests.e2e.test_review import PATIENCE


class Printed:
    """What the console printed, and a wait for a line to come."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._new = asyncio.Event()

    def __call__(self, line: str) -> None:
        self.lines.append(line)
        self._new.set()

    async def until(self, wanted: Callable[[str], bool], start: int = 0,
                    timeout: float = 30) -> None:
        """Wait until a line printed from ``start`` on is ``wanted``."""
        try:
            async with asyncio.timeout(timeout):
                while not any(wanted(line) for line in self.lines[start:]):
                    self._new.clear()
                    await self._new.wait()
        except TimeoutError:
            raise AssertionError(f"never printed; printed: {self.lines[start:]}") from None


@pytest.fixture
async def console_of(tmp_path):
    """``console_of(emu)``: a console printing events as they arrive (its ``watch`` runs, as
    beside the prompt), what it printed, and ``type_(line, until=...)``: what it printed
    for a typed line, up to the first line ``until`` wants when given."""
    watching: list[asyncio.Task] = []

    def make(emu):
        printed = Printed()
        console = Console(emu, tmp_path, output=printed)
        watching.append(asyncio.create_task(console.watch()))

        async def type_(line: str, until: Callable[[str], bool] | None = None) -> list[str]:
            start = len(printed.lines)
            assert await console.handle(line)
            console.show_new_events()
            if until is not None:
                await printed.until(until, start)
            return printed.lines[start:]

        return console, printed, type_

    yield make
    for task in watching:
        task.cancel()


def console_for(make, emu):
    console, _, type_ = make(emu)
    return console, type_


def is_image(line: str) -> bool:
    return line.strip().startswith("image: ")


async def test_a_console_session(world, console_of):
    console, type_ = console_for(console_of, world.emu)

    shown = await type_("/play alak @bob length:9")
    assert any("@alice challenges @bob" in line and "(length 9)" in line for line in shown)
    assert any("[Accept] [Decline]" in line for line in shown)

    await type_("/as bob")
    shown = await type_("/click accept", until=is_image)
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


async def test_the_console_shows_pings_follows_only_its_users_threads_and_reads_whole_moves(
    world, console_of
):
    emu = world.emu
    console, type_ = console_for(console_of, emu)

    # Other people's game: its thread appears, the console stays where it is.
    await world.start_game("carol", "alak", "dave")
    console.show_new_events()
    assert console.channel_id == emu.channel_id

    shown = await type_("/play lppg @bob")
    assert any("🔔 pinged: @bob" in line for line in shown), shown
    await type_("/as bob")
    shown = await type_("/click accept", until=lambda line: line.strip().startswith(
        "🔔 pinged:") and "@alice" in line)
    assert console.channel_id != emu.channel_id, "Bob's own game thread is entered"
    await type_("/as alice")
    game = await world.services.games.game_for_thread(console.channel_id)
    move = (await world.services.games.legal_moves(game.id, emu.user("alice").id))[0]
    assert " " in move
    shown = await type_(f"/move {move}")  # no quotes: the last text option takes the rest
    assert any(move_said(line.split("] ", 1)[-1], "@alice", move) for line in shown), shown
    after = await world.services.games.get_game(game.id)
    to_move = next(u.name for u in emu.users.values() if u.id == after.user_to_move())
    assert any(f"🔔 pinged: @{to_move}" in line for line in shown), shown

    shown = await type_("/record")
    assert any(line.strip().startswith("file: ") and line.endswith(".txt") for line in shown)
    assert not any(line.strip().startswith("image: ") and ".txt" in line for line in shown)

    shown = await type_("/help")
    assert any("/play" in line for line in shown), "the bot's own /help answers"
    assert shown[-1].startswith("Console:")
    assert any("/as <user>" in line for line in await type_("/console"))


def test_each_run_writes_to_a_folder_of_its_own_and_clears_earlier_runs(tmp_path):
    (tmp_path / "run-20240101-000000-1").mkdir()
    (tmp_path / "run-20240101-000000-1" / "3-alak-1-0.png").write_bytes(b"old")
    (tmp_path / "17-alak-1-0.png").write_bytes(b"older")
    (tmp_path / "notes.txt").write_text("not ours")
    folder = run_folder(tmp_path)
    assert folder.parent == tmp_path and folder.is_dir() and not any(folder.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([folder.name, "notes.txt"])


async def test_french_command_option_and_choice_names_work_as_the_french_help_lists_them(
    world, console_of
):
    _, type_ = console_for(console_of, world.emu)
    assert (await type_("/lang fr"))[0].endswith(": fr")

    shown = await type_("/aide")
    assert any("Bot de jeux de plateau" in line for line in shown), shown
    assert any("/règles jeu:" in line for line in shown), "the French help names /règles"

    shown = await type_("/règles jeu:alak rubrique:Un tour",
                        until=lambda line: "Alak — Un tour" in line)
    assert any("Alak — Un tour" in line for line in shown), shown

    shown = await type_("/jouer alak adversaire:@bob")
    assert any("[Accepter] [Refuser]" in line or "buttons:" in line for line in shown), shown
    challenge = next(m for m in reversed(world.emu.channel_messages(world.emu.channel_id))
                     if m.buttons())
    assert str(world.emu.user("bob").id) in challenge.content
    # The English names still work for a French user, as the bot's own names.
    assert any("Bot de jeux de plateau" in line for line in await type_("/help"))


async def test_lang_changes_only_the_current_users_language(world, console_of):
    _, type_ = console_for(console_of, world.emu)
    await type_("/lang fr")
    await type_("/as bob")
    shown = await type_("/help")
    assert any("Board games bot" in line for line in shown), "Bob's client is still English"
    assert "no command /aide" in (await type_("/aide"))[0], "Bob sees English names"
    await type_("/as alice")
    assert any("Bot de jeux de plateau" in line for line in await type_("/help"))


async def test_a_named_text_value_may_hold_spaces_without_quotes(world, console_of):
    _, type_ = console_for(console_of, world.emu)
    shown = await type_("/rules game:alak section:A turn",
                        until=lambda line: "Alak — A turn" in line)
    assert any("Alak — A turn" in line for line in shown), shown
    shown = await type_("/rules alak section:special cases private:true",
                        until=lambda line: "Alak — Special cases" in line)
    assert any("(only you)" in line and "Alak — Special cases" in line for line in shown), shown


async def test_the_console_plays_where_the_bot_is_not(world, console_of):
    """/install, a DM with a friend who installed nothing, moves by the Move… form; a group DM
    and a server without the bot, where an uninstalled app's commands are not offered."""
    console, type_ = console_for(console_of, world.emu)
    refused = await type_("/dm bob")
    assert refused == ["Now in DM alice+bob."]
    assert any("not offered" in line for line in await type_("/play alak @bob"))
    assert await type_("/install") == ["alice added the app to their account."]
    shown = await type_("/play alak @bob")
    assert any("[Accept] [Decline]" in line for line in shown)
    await type_("/as bob")
    shown = await type_("/click accept", until=lambda line: "[Move…] [Undo] [Resign]" in line)
    assert any(line.startswith("    image: ") for line in shown)
    game = await world.services.games.game_for_thread(console.channel_id)
    mover, moves = await world.turn(game.id)
    await type_(f"/as {mover.name}")
    shown = await type_("/click move…")
    assert any("(form: Your move in game #" in line and "For example: " in line
               for line in shown)
    shown = await type_(f"/form {moves[0]}")
    assert any(f"played **{moves[0]}**" in line for line in shown)
    assert (await world.services.games.get_game(game.id)).ply == 1

    assert (await type_("/group carol dave"))[-1].startswith("Now in group ")
    shown = await type_("/server Friends")
    assert shown[-1] == "Now in #general." and world.emu.bot_guild_ids != set(world.emu.guilds)
    await type_("/uninstall")
    assert any("not offered" in line for line in await type_("/games"))


async def finished_game(world):
    """A game of Alak between Alice and Bob, four moves long, that Alice resigned."""
    board = await world.start_game("alice", "alak", "bob")
    game = await world.services.games.game_for_thread(board.channel_id)
    for _ in range(4):
        mover, moves = await world.turn(game.id)
        await world.services.play.move(game.id, mover.id, moves[0])
    await world.resign("alice", board.channel_id)
    return game


async def test_what_happens_between_commands_is_printed_as_it_comes(world, console_of):
    """The AI's move after ours is printed with no other line typed (the console's prompt
    does not hold it back until the next line)."""
    emu = world.emu
    console, printed, type_ = console_of(emu)
    await type_("/play alak level:easy", until=is_image)
    game = await until_human_turn(world.services, (
        await world.services.games.game_for_thread(console.channel_id)).id)
    move = (await world.services.games.legal_moves(game.id, emu.user("alice").id))[0]
    start = len(printed.lines)
    assert await console.handle(f"/move {move}")
    # Nothing more is typed: the AI's board, which pings Alice, shows all the same.
    await printed.until(lambda line: "🔔 pinged: @alice" in line, start, timeout=AI_PATIENCE)


async def test_a_private_answer_for_another_local_user_is_printed_as_theirs(
        world, console_of, monkeypatch):
    """Bob asks for a review and switches to Alice before it is ready: the review, Bob's
    alone, is printed all the same, marked as Bob's."""
    emu = world.emu
    _, printed, type_ = console_of(emu)
    game = await finished_game(world)
    release = asyncio.Event()
    real_follow = _review.follow

    async def held_follow(job, report):
        await release.wait()
        return await real_follow(job, report)

    monkeypatch.setattr(_review, "follow", held_follow)
    await type_("/as bob")
    await type_(f"/review {game.id}")
    await type_("/as alice")
    start = len(printed.lines)
    release.set()
    await printed.until(lambda line: "(only bob)" in line
                        and f"Review of game #{game.id}" in line, start, timeout=PATIENCE)
    assert not any("(only you)" in line for line in printed.lines[start:])


@pytest.mark.slow(9)
async def test_the_prompt_does_not_wait_for_a_review(world, console_of, monkeypatch):
    """Once the bot has acknowledged /review ("thinking…"), the typed line is done: the
    console comes back at once, not when the review is ready."""
    emu = world.emu
    console, printed, _ = console_of(emu)
    game = await finished_game(world)
    release = asyncio.Event()
    real_follow = _review.follow

    async def held_follow(job, report):
        await release.wait()  # the review takes as long as the test wants
        return await real_follow(job, report)

    monkeypatch.setattr(_review, "follow", held_follow)
    mark = emu.mark()
    typing = asyncio.create_task(console.handle(f"/review {game.id}"))
    await emu.wait_for(lambda e: e.kind == "callback", since=mark)
    # Acknowledged: the console needs no more time, only a few turns of the event loop.
    for _ in range(50):
        if typing.done():
            break
        await asyncio.sleep(0)
    assert typing.done() and not release.is_set(), "the console waited for the review"
    assert typing.result() is True
    release.set()
    await printed.until(lambda line: "(only you)" in line
                        and f"Review of game #{game.id}" in line, timeout=PATIENCE)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream, cleared", [(io.StringIO, "\n"), (Terminal, CLEAR_LINE)])
def test_lines_printed_while_the_prompt_waits_take_its_place(stream, cleared):
    """What arrives while a line is being typed is printed under a cleared prompt line (on a
    terminal; a new line elsewhere), then the prompt is shown again, where the console is
    now."""
    where = ["alice #games> "]
    out = stream()
    screen = Screen(lambda: where[0], out)
    screen.print("Welcome.")
    screen.show_prompt()
    where[0] = "alice Alak #1> "
    screen.print("[Alak #1] AI (easy) played **c**.")
    screen.print("    🔔 pinged: @alice")
    screen.restore_prompt()
    screen.line_typed()
    screen.print("[Alak #1] @alice played **d**.")
    screen.restore_prompt()  # no prompt waits: nothing to restore
    assert out.getvalue() == (
        "Welcome.\nalice #games> " + cleared + "[Alak #1] AI (easy) played **c**.\n"
        "    🔔 pinged: @alice\nalice Alak #1> [Alak #1] @alice played **d**.\n")


async def test_typing_slips_the_console_reads_or_names_plainly(world, console_of):
    """Three dots for the ellipsis of **Move…**; an option the command does not have named as
    such (not blamed on the next option); choices and suggestions whose names hold spaces or
    commas told apart."""
    emu = world.emu
    console, _, type_ = console_of(emu)

    shown = await type_("/play alak level:easy players:3")
    assert len(shown) == 1 and shown[0].startswith("/play alak has no option players (its "
                                                   "options: "), shown
    assert "time_control" in shown[0] and "must be" not in shown[0]

    shown = await type_("/play alak time_control:fortnightly")
    assert len(shown) == 1 and "option time_control must be one of:" in shown[0], shown
    assert '"bank of 3 days, +1 day per move" (3d+1d)' in shown[0]
    assert '"untimed", "1 day per move" (1d)' in shown[0]

    board = await world.start_game("alice", "alak", "bob")
    await world.start_game("alice", "palago", "carol")
    shown = await type_("/board ?")
    assert shown[0] == "  suggestions for game:" and len(shown) == 3, shown
    assert all(line.startswith("    #") for line in shown[1:]), shown

    game = await world.services.games.game_for_thread(board.channel_id)
    mover, _ = await world.turn(game.id)
    await type_(f"/as {mover.name}")
    console.channel_id = board.channel_id
    shown = await type_("/click move...")
    assert any("(form: Your move in game #" in line for line in shown), shown
