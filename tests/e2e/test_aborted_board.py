"""``/board`` of an aborted game: its text says who aborted it (a player before everyone had
moved, or a server admin), and its picture shows nobody to play."""

from __future__ import annotations

import pytest

import render.header
from emulator import MANAGE_GUILD

#: The /board text of a game Bob aborted, in each language.
ABORTED = {
    "en-US": ("Accept", "Alak #{id} was aborted by {player} before every player had moved: "
                        "no result, not rated."),
    "fr": ("Accepter", "Alak n°{id} a été interrompue par {player} avant que chaque joueur "
                       "ait joué : pas de résultat, pas de classement."),
}


@pytest.fixture
def headlines(monkeypatch) -> list[str]:
    """The headline (whose turn, or who won) of every board picture drawn from now on."""
    drawn: list[str] = []
    real = render.header.status_line

    def status_line(*args, **kwargs):
        drawn.append(real(*args, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(render.header, "status_line", status_line)
    return drawn


async def start(world, locale: str):
    """Alice challenges Bob to Alak and he accepts: (thread, game)."""
    emu = world.emu
    accept, _ = ABORTED[locale]
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                   locale=locale)).reply()
    mark = emu.mark()
    await emu.click("bob", offer, label=accept)
    board = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    return board.channel_id, await world.services.games.game_for_thread(board.channel_id)


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_the_board_of_a_game_a_player_aborted(world, headlines, locale):
    emu = world.emu
    thread, game = await start(world, locale)
    await (await emu.slash("alice", "move", {"text": "c"}, channel=thread)).reply()
    aborted = await (await emu.slash("bob", "abort", channel=thread, locale=locale)).reply()
    assert aborted.ephemeral
    await world.bot.delivery.background.warmed_up()  # its sample boards are drawn
    headlines.clear()
    board = await (await emu.slash("carol", "board", {}, channel=thread)).reply()
    _, text = ABORTED[locale]
    bob = emu.user("bob").mention
    assert board.content.replace("\u00a0", " ") == text.format(id=game.id, player=bob)
    assert board.files and headlines == [""], "nobody to play on the picture"


async def test_the_board_of_a_game_an_admin_aborted(world, headlines):
    emu = world.emu
    thread, game = await start(world, "en-US")
    emu.grant("dave", MANAGE_GUILD)
    await (await emu.slash("dave", "admin abort", {"game": game.id})).reply()
    await world.bot.delivery.background.warmed_up()  # its sample boards are drawn
    headlines.clear()
    board = await (await emu.slash("carol", "board", {}, channel=thread)).reply()
    assert board.content == f"Alak #{game.id} was ended by a server admin, with no result."
    assert board.files and headlines == [""], "nobody to play on the picture"
