"""Correspondence play through the real bot and the emulator: a timed /play shows its deadline,
the scheduler posts reminders in the thread (and by DM to a player who opted in), /claim ends
a game whose time ran out, /vacation tells the opponents, and /games, /record, /replay,
/watch answer. Time moves by replacing the clock service's clock: nothing sleeps for days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.correspondence.texts import control_text
from bot.services.records import parse_record
from emulator import EPHEMERAL


def skew_clock(world, ahead: timedelta) -> None:
    """Make the bot's clock service (and its scheduler) live ``ahead`` in the future."""
    world.bot.clocks.clock = lambda: datetime.now(UTC) + ahead


async def start_timed(world, time_control: str, host="alice", guest="bob"):
    challenge = await world.challenge(host, "alak",
                                      {"opponent": guest, "time_control": time_control})
    # In words, as players read it ("1d": "1 day per move").
    assert "Time control: " + control_text(time_control, "en") in challenge.content
    board = await world.accept(guest, challenge)
    game = await world.services.games.game_for_thread(board.channel_id)
    return game, board


async def test_timed_game_shows_its_deadline_and_claim_ends_it_after_the_time_is_up(world):
    emu = world.emu
    game, board = await start_timed(world, "1d")
    deadline = await world.bot.clocks.deadline(game.id)
    assert f"Move due <t:{int(deadline.timestamp())}:R> (1 day per move)" in board.content
    thread = board.channel_id

    early = await emu.slash("bob", "claim", {}, channel=thread)
    answer = await early.reply()
    assert answer.flags & EPHEMERAL and "not run out yet" in answer.content

    skew_clock(world, timedelta(days=1, hours=1))
    own = await emu.slash("alice", "claim", {}, channel=thread)
    assert "opponent of the player to move" in (await own.reply()).content
    mark = emu.mark()
    claim = await emu.slash("bob", "claim", {}, channel=thread)
    reply = await claim.reply()
    assert not reply.ephemeral and reply.channel_id == thread
    assert reply.content.startswith("Game over") and emu.user("bob").mention in reply.content
    notice = await emu.wait_for_message(lambda m: "ran out of time" in m.content,
                                        channel_id=thread, since=mark)
    assert f"{emu.user('bob').mention} claimed the win" in notice.content
    final = await world.services.games.get_game(game.id)
    assert final.status == "finished" and final.timed_out_seat == 0


async def test_scheduler_posts_reminders_in_the_thread_and_by_dm_once(world):
    emu = world.emu
    settings = await emu.slash("alice", "settings", {"dm_reminders": True})
    assert "on" in (await settings.reply()).content
    game, board = await start_timed(world, "3d")
    thread = board.channel_id
    deadline = await world.bot.clocks.deadline(game.id)
    mark = emu.mark()
    skew_clock(world, deadline - datetime.now(UTC) - timedelta(hours=23))
    world.bot.scheduler.poke()  # what its timer would do when the time comes
    reminder = await emu.wait_for_message(lambda m: "is due" in m.content,
                                          channel_id=thread, since=mark)
    assert reminder.content.startswith(emu.user("alice").mention)
    dm = await emu.wait_for_message(lambda m: m.content.startswith("Your move in Alak"),
                                    since=mark)
    assert dm.channel_id != thread and f"/{thread}" in dm.content

    # A restart catches up without repeating: the same reminder is not sent again.
    await world.restart()
    skew_clock(world, deadline - datetime.now(UTC) - timedelta(hours=22))
    world.bot.scheduler.poke()
    await world.bot.scheduler.run_once()
    assert [m for m in emu.channel_messages(thread) if "is due" in m.content] == [reminder]


async def test_vacation_is_announced_and_games_record_replay_watch_answer(world):
    emu = world.emu
    game, board = await start_timed(world, "3d+1d")
    thread = board.channel_id
    mark = emu.mark()
    vacation = await emu.slash("bob", "vacation", {"days": 5})
    answer = await vacation.reply()
    assert answer.flags & EPHEMERAL and "25 vacation days left of 30" in answer.content
    notice = await emu.wait_for_message(lambda m: "on vacation" in m.content,
                                        channel_id=thread, since=mark)
    assert emu.user("bob").mention in notice.content

    games = await emu.slash("alice", "games", {})
    assert "paused (vacation)" in (await games.reply()).content

    played = await emu.slash("alice", "move", {"text": "c"}, channel=thread)
    assert "Clock paused" in (await played.reply()).content

    shown = await emu.slash("carol", "board", {"game": game.id})
    assert "Move due <t:" in (await shown.reply()).content

    record = await emu.slash("carol", "record", {"game": game.id})
    reply = await record.reply()
    assert reply.files and reply.files[0].filename.endswith(".txt")
    parsed = parse_record(reply.files[0].data.decode("utf-8"))
    assert parsed.moves == ("c",) and parsed.tags["TimeControl"] == "3d+1d"

    replay = await emu.slash("carol", "replay", {"game": game.id})
    gif = (await replay.reply()).files[0]
    assert gif.filename.endswith(".gif") and gif.data[:6] in (b"GIF87a", b"GIF89a")

    watch = await emu.slash("carol", "watch", {"game": game.id})
    watched = await watch.reply()
    assert watched.flags & EPHEMERAL and f"<#{thread}>" in watched.content
    assert watched.files and watched.files[0].is_png


async def test_back_from_vacation_the_clock_runs_again_unless_another_player_is_away(world):
    emu = world.emu
    game, board = await start_timed(world, "3d")
    thread = board.channel_id
    for name in ("alice", "bob"):
        await (await emu.slash(name, "vacation", {"days": 3})).reply()

    mark = emu.mark()
    bob_back = await (await emu.slash("bob", "vacation", {"days": 0})).reply()
    assert bob_back.flags & EPHEMERAL and "run again" not in bob_back.content
    assert "Your game with a clock stays paused while another of its players is on vacation"\
        in bob_back.content
    notice = await emu.wait_for_message(lambda m: "back from vacation" in m.content,
                                        channel_id=thread, since=mark)
    assert notice.content == (f"{emu.user('bob').mention} is back from vacation; the clock "
                              "stays paused while another player of this game is on vacation.")

    mark = emu.mark()
    alice_back = await (await emu.slash("alice", "vacation", {"days": 0})).reply()
    assert alice_back.content.startswith("Welcome back: your clocks run again.")
    notice = await emu.wait_for_message(lambda m: "back from vacation" in m.content,
                                        channel_id=thread, since=mark)
    assert notice.content == (f"{emu.user('alice').mention} is back from vacation: the clock "
                              "runs again.")
    assert (await world.bot.clocks.clock_info(game.id)).paused_by == ()
