"""The bot where the app has Activities (the emulator's ``activities=True``: the ``EMBEDDED``
flag and the Entry Point command Discord creates): the global sync keeps the Entry Point
command (a bulk overwrite without it is refused with 50240), and with the web board on, boards'
**Open board** launches the board as the Activity (callback ``LAUNCH_ACTIVITY``) while the link
stays for browsers."""

from __future__ import annotations

import pytest

from emulator.activities import LAUNCH_ACTIVITY, PRIMARY_ENTRY_POINT

ACTIVITIES = pytest.mark.emulator(activities=True)


def global_commands(emu) -> list[dict]:
    return emu.commands.get(None, [])


@ACTIVITIES
async def test_the_global_sync_keeps_the_entry_point_command(world):
    emu = world.emu
    entry_point = dict(emu.entry_point())
    # The world started with sync_on_start = "global": a bulk overwrite that left the Entry
    # Point command out was refused (400 / 50240) and the bot did not start.
    names = {c["name"] for c in global_commands(emu)}
    assert {"play", "move", "resign", "launch"} <= names
    assert emu.entry_point()["id"] == entry_point["id"]
    assert [c for c in global_commands(emu) if c.get("type") == PRIMARY_ENTRY_POINT] \
        == [entry_point]
    # A sync asked for later (/sync) works the same, and keeps the same command.
    assert await world.bot.sync_commands("global") == ["global"]
    assert emu.entry_point()["id"] == entry_point["id"]
    assert {c["name"] for c in global_commands(emu)} == names
    # The App Launcher still offers it: Discord launches the Activity.
    instance = await emu.launch("alice")
    assert instance.channel_id == emu.channel_id
    # Without the web board there is no Activity to launch from boards: nothing changes.
    assert not world.bot.launches_activity()
    assert emu.refusals == []


async def test_without_activities_the_sync_and_boards_are_as_before(web_world):
    world = web_world
    emu = world.emu
    assert emu.entry_point() is None and not emu.activities_enabled
    assert not world.bot.launches_activity()
    board = await world.start_game("alice", "alak", "bob", {"length": 7})
    game_id = (await world.services.games.game_for_thread(board.channel_id)).id
    assert [b.get("custom_id") for b in board.buttons()
            if str(b.get("custom_id", "")).startswith("bg:board:")] == []
    assert [(b["label"], b["url"]) for b in board.buttons() if b.get("style") == 5] == [
        ("Open board", f"{world.config.web_public_url}/games/{game_id}")]


@ACTIVITIES
async def test_open_board_launches_the_board_as_the_activity(web_world):
    world = web_world
    emu = world.emu
    assert world.bot.launches_activity()
    board = await world.start_game("alice", "alak", "bob", {"length": 7})
    thread = board.channel_id
    game_id = (await world.services.games.game_for_thread(thread)).id
    buttons = board.buttons()
    launch = [b for b in buttons if b.get("custom_id") == f"bg:board:{game_id}"]
    assert [b["label"] for b in launch] == ["Open board"]
    assert [(b["label"], b["url"]) for b in buttons if b.get("style") == 5] == [
        ("In a browser", f"{world.config.web_public_url}/games/{game_id}")]
    rows = board.data["components"]
    assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)

    interaction = await emu.click("bob", board, f"bg:board:{game_id}")
    assert await interaction.acknowledged() == LAUNCH_ACTIVITY
    [instance] = [i for i in emu.activity_instances.values() if i.channel_id == thread]
    assert instance.launched_by == emu.user("bob")
    # The Activity will open this game for bob in this thread.
    assert world.bot.web.launches.game(emu.user("bob").id, thread) == game_id
    assert emu.refusals == []


@ACTIVITIES
async def test_the_activitys_api_lists_the_players_games_and_the_one_to_open(web_world):
    world = web_world
    emu = world.emu
    board = await world.start_game("alice", "alak", "bob", {"length": 7})
    thread = board.channel_id
    game_id = (await world.services.games.game_for_thread(thread)).id
    alice = world.client("alice")
    await alice.sign_in()
    async with alice.session.get(f"{alice.base}/api/games",
                                 params={"channel_id": str(thread)}) as answer:
        found = await answer.json()
    assert answer.status == 200
    assert found["open"] == game_id  # the game of the thread it was launched in
    assert [(g["id"], g["title"], g["your_turn"]) for g in found["games"]] == [
        (game_id, f"Game #{game_id}: Alak", True)]
    # Elsewhere, nothing to open; the page then lists the games.
    async with alice.session.get(f"{alice.base}/api/games",
                                 params={"channel_id": str(emu.channel_id)}) as answer:
        assert (await answer.json())["open"] is None
    # Discord opens the Activity at the mapping's root with frame_id and instance_id: the
    # Activity's page, not the signed-in home page (no redirect to sign in).
    async with alice.session.get(f"{alice.base}/", params={"frame_id": "f", "instance_id": "i"},
                                 allow_redirects=False) as answer:
        page = await answer.text()
    assert answer.status == 200 and 'id="activity"' in page
    assert f'data-client="{emu.client_id}"' in page
