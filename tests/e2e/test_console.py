"""The local console: typed lines become slash commands and clicks; replies come back as text
and images as files whose paths are printed."""

from __future__ import annotations

import re
from pathlib import Path

from emulator.console import Console
from emulator.console_io import run_folder
from tests.e2e.moves import move_said


def console_for(emu, folder: Path):
    """A console and ``type_(line)``: what it prints for a typed line."""
    lines: list[str] = []
    console = Console(emu, folder, output=lines.append)

    async def type_(line: str) -> list[str]:
        start = len(lines)
        assert await console.handle(line)
        console.show_new_events()
        return lines[start:]

    return console, type_


async def test_a_console_session(world, tmp_path):
    console, type_ = console_for(world.emu, tmp_path)

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


async def test_the_console_shows_pings_follows_only_its_users_threads_and_reads_whole_moves(
    world, tmp_path
):
    emu = world.emu
    console, type_ = console_for(emu, tmp_path)

    # Other people's game: its thread appears, the console stays where it is.
    await world.start_game("carol", "alak", "dave")
    console.show_new_events()
    assert console.channel_id == emu.channel_id

    shown = await type_("/play lppg @bob")
    assert any("🔔 pinged: @bob" in line for line in shown), shown
    await type_("/as bob")
    shown = await type_("/click accept")
    assert console.channel_id != emu.channel_id, "Bob's own game thread is entered"
    assert any(line.strip().startswith("🔔 pinged:") and "@alice" in line for line in shown)
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
    world, tmp_path
):
    _, type_ = console_for(world.emu, tmp_path)
    assert (await type_("/lang fr"))[0].endswith(": fr")

    shown = await type_("/aide")
    assert any("Bot de jeux de plateau" in line for line in shown), shown
    assert any("/règles jeu:" in line for line in shown), "the French help names /règles"

    shown = await type_("/règles jeu:alak rubrique:Un tour")
    assert any("Alak — Un tour" in line for line in shown), shown

    shown = await type_("/jouer alak adversaire:@bob")
    assert any("[Accepter] [Refuser]" in line or "buttons:" in line for line in shown), shown
    challenge = next(m for m in reversed(world.emu.channel_messages(world.emu.channel_id))
                     if m.buttons())
    assert str(world.emu.user("bob").id) in challenge.content
    # The English names still work for a French user, as the bot's own names.
    assert any("Bot de jeux de plateau" in line for line in await type_("/help"))


async def test_lang_changes_only_the_current_users_language(world, tmp_path):
    _, type_ = console_for(world.emu, tmp_path)
    await type_("/lang fr")
    await type_("/as bob")
    shown = await type_("/help")
    assert any("Board games bot" in line for line in shown), "Bob's client is still English"
    assert "no command /aide" in (await type_("/aide"))[0], "Bob sees English names"
    await type_("/as alice")
    assert any("Bot de jeux de plateau" in line for line in await type_("/help"))


async def test_a_named_text_value_may_hold_spaces_without_quotes(world, tmp_path):
    _, type_ = console_for(world.emu, tmp_path)
    shown = await type_("/rules game:alak section:A turn")
    assert any("Alak — A turn" in line for line in shown), shown
    shown = await type_("/rules alak section:special cases private:true")
    assert any("(only you)" in line and "Alak — Special cases" in line for line in shown), shown


async def test_the_console_plays_where_the_bot_is_not(world, tmp_path):
    """/install, a DM with a friend who installed nothing, moves by the Move… form; a group DM
    and a server without the bot, where an uninstalled app's commands are not offered."""
    console, type_ = console_for(world.emu, tmp_path)
    refused = await type_("/dm bob")
    assert refused == ["Now in DM alice+bob."]
    assert any("not offered" in line for line in await type_("/play alak @bob"))
    assert await type_("/install") == ["alice added the app to their account."]
    shown = await type_("/play alak @bob")
    assert any("[Accept] [Decline]" in line for line in shown)
    await type_("/as bob")
    shown = await type_("/click accept")
    assert any(line.startswith("    image: ") for line in shown)
    assert any("[Move…] [Undo] [Resign]" in line for line in shown)
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
