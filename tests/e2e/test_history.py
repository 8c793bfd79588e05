"""A player's record through the real bot: the /profile picture (drawn once, redrawn after
the next rated game) and /history's pages (Previous / Next, turned only by the one who asked),
in English and in French."""

from __future__ import annotations

import io

from PIL import Image

from bot.services.history import PAGE_SIZE
from emulator import EPHEMERAL
from render.profile import HEIGHT
from render.surface import WIDTH
from render.theme import GAME_COLOURS


async def finished_game(world, winner: str, loser: str, game: str = "alak") -> int:
    """A game of this server between the two, lost by ``loser``'s resignation, rated."""
    emu = world.emu
    ids = emu.user(winner).id, emu.user(loser).id
    info = await world.services.challenges.create_game(game, ids, guild_id=emu.guild_id,
                                                       channel_id=emu.channel_id)
    await world.services.play.resign(info.id, ids[1])
    await world.bot.get_cog("Tournaments").ratings.on_game_over(info.id)
    return info.id


def drawings(world) -> list:
    """Count what is drawn in the heavy pool from now on."""
    pool = world.bot.heavy.pool
    submitted = []
    real = pool.submit

    def counting(fn, *args, **kwargs):
        submitted.append(fn.__name__)
        return real(fn, *args, **kwargs)

    pool.submit = counting
    return submitted


async def test_profile_shows_the_chart_cached_until_the_next_rated_game(world):
    emu = world.emu
    await finished_game(world, "alice", "bob")
    await finished_game(world, "alice", "bob", "palago")
    drawn = drawings(world)
    # A player with no finished game gets no picture.
    plain = await (await emu.slash("dave", "profile", {})).reply()
    assert plain.files == [] and "No rated game yet" in plain.content
    first = await (await emu.slash("carol", "profile", {"user": "alice"})).reply()
    assert not first.flags & EPHEMERAL
    assert "Ratings of" in first.content
    (picture,) = first.files
    image = Image.open(io.BytesIO(picture.data))
    assert image.size == (WIDTH, HEIGHT)
    assert drawn == ["profile_png"]
    # The same picture again, from the cache: nothing is drawn.
    second = await (await emu.slash("dave", "profile", {"user": "alice"})).reply()
    assert second.files[0].data == picture.data
    assert drawn == ["profile_png"]
    # Somebody else's rated game changes nothing of Alice's picture.
    await finished_game(world, "carol", "dave")
    third = await (await emu.slash("bob", "profile", {"user": "alice"})).reply()
    assert third.files[0].data == picture.data and drawn == ["profile_png"]
    # Alice's next rated game: drawn again, with the new step.
    await finished_game(world, "bob", "alice")
    fourth = await (await emu.slash("carol", "profile", {"user": "alice"})).reply()
    assert drawn == ["profile_png", "profile_png"]
    assert fourth.files[0].data != picture.data


async def test_the_profile_picture_speaks_french_and_private_stays_private(world):
    emu = world.emu
    await finished_game(world, "alice", "bob")
    drawn = drawings(world)
    french = await (await emu.slash("alice", "profile", {}, locale="fr")).reply()
    assert "Classements de" in french.content and french.files
    english = await (await emu.slash("alice", "profile", {"private": True})).reply()
    assert english.flags & EPHEMERAL and english.files
    # One picture per language.
    assert drawn == ["profile_png", "profile_png"]
    image = Image.open(io.BytesIO(french.files[0].data)).convert("RGB")
    colour = GAME_COLOURS["alak"]
    data = image.tobytes()
    assert any(all(abs(data[i + c] - colour[c]) <= 6 for c in range(3))
               for i in range(0, len(data), 3))


async def history_pages(world, locale: str, words: dict[str, str]) -> None:
    emu = world.emu
    games = [await finished_game(world, "alice", "bob") for _ in range(PAGE_SIZE + 2)]
    mark = emu.mark()
    answer = await (await emu.slash("alice", "history", {}, locale=locale)).reply()
    assert not answer.flags & EPHEMERAL
    assert emu.pings("bob", since=mark) == []  # the opponents' mentions notify nobody
    assert answer.content.startswith(words["header"]), answer.content
    lines = answer.content.splitlines()[1:]
    assert len(lines) == PAGE_SIZE
    newest = games[-1]
    assert f"{words['number']}{newest} **Alak**" in lines[0]
    assert words["won"] in lines[0] and f"<@{emu.user('bob').id}>" in lines[0]
    assert len(answer.content) <= 2000
    assert answer.button(words["previous"])["disabled"]
    assert not answer.button(words["next"]).get("disabled")

    # Bob may not turn Alice's pages: a private note in his language, nothing changes.
    mark = emu.mark()
    refused = await (await emu.click("bob", answer, label=words["next"])).reply()
    assert refused.flags & EPHEMERAL
    assert refused.content.startswith("These pages turn for"), refused.content
    assert [e for e in emu.events[mark:] if e.kind == "edit"] == []

    turned = await (await emu.click("alice", answer, label=words["next"],
                                    locale=locale)).reply()
    assert turned.id == answer.id  # the same message, edited
    lines = turned.content.splitlines()
    assert words["page2"] in lines[0]
    assert [line.split("**")[0] for line in lines[1:]] == [
        f"• {words['number']}{g} " for g in games[1::-1]]
    assert turned.button(words["next"])["disabled"]
    back = await (await emu.click("alice", turned, label=words["previous"],
                                  locale=locale)).reply()
    assert back.content == answer.content


async def test_history_pages_in_english(world):
    await history_pages(world, "en-US", {
        "header": "Finished games of", "number": "#", "won": "won against",
        "previous": "◀ Previous", "next": "Next ▶", "page2": "page 2"})


async def test_history_pages_in_french(world):
    await history_pages(world, "fr", {
        "header": "Parties terminées de", "number": "n°", "won": "gagnée contre",
        "previous": "◀ Précédente", "next": "Suivante ▶", "page2": "page 2"})


async def test_history_of_one_game_links_the_thread_and_shows_the_rating(world):
    emu = world.emu
    board = await world.start_game("alice", "palago", "bob")
    await world.resign("bob", board.channel_id)
    await finished_game(world, "alice", "bob")  # an Alak game, left out below
    answer = await (await emu.slash("carol", "history", {"user": "alice",
                                                         "game": "palago"})).reply()
    (line,) = answer.content.splitlines()[1:]
    assert f"<#{board.channel_id}>" in line
    assert "rating 1" in line and "(+" in line
    assert answer.buttons() == []  # one page: no buttons
    empty = await (await emu.slash("dave", "history", {})).reply()
    assert "No finished game to show." in empty.content


async def test_private_pages_stay_private_and_turn_after_a_restart(world):
    emu = world.emu
    games = [await finished_game(world, "bob", "alice") for _ in range(PAGE_SIZE + 1)]
    answer = await (await emu.slash("alice", "history", {"private": True})).reply()
    assert answer.flags & EPHEMERAL
    assert f"#{games[-1]} **Alak** · lost to <@{emu.user('bob').id}>" in answer.content
    await world.restart()  # the buttons carry their query: nothing to remember
    turned = await (await emu.click("alice", answer, label="Next ▶")).reply()
    assert turned.id == answer.id and turned.flags & EPHEMERAL
    assert turned.content.splitlines()[1].startswith(f"• #{games[0]} **Alak**")


async def test_a_french_server_hears_french_pages_and_a_stranger_his_own_note(world):
    emu = world.emu
    saved = await (await emu.slash("alice", "admin settings", {"language": "fr"})).reply()
    assert saved.flags & EPHEMERAL
    for _ in range(PAGE_SIZE + 1):
        await finished_game(world, "alice", "bob")
    answer = await (await emu.slash("bob", "history", {})).reply()  # Bob's client: English
    assert answer.content.startswith("Parties terminées de"), answer.content
    refused = await (await emu.click("carol", answer, label="Suivante ▶")).reply()
    assert refused.flags & EPHEMERAL and refused.content.startswith("These pages turn for")
    turned = await (await emu.click("bob", answer, label="Suivante ▶")).reply()
    assert "page 2" in turned.content.splitlines()[0]
    assert "perdue contre" in turned.content


async def test_when_the_pool_is_full_the_profile_says_so_without_a_picture(world):
    emu = world.emu
    await finished_game(world, "alice", "bob")
    world.bot.heavy.max_jobs = 0  # as if the pool held all it may
    shown = await (await emu.slash("alice", "profile", {})).reply()
    assert shown.files == []
    assert "Ratings of" in shown.content and "No picture this time" in shown.content
