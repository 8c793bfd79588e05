"""One language per game thread: every public post of a game (texts, what the engine said, the
board image) speaks the language fixed when the game started (the server's setting, else the
challenger's), whoever acts; private answers speak each user's own language."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import render
from bot.core import i18n
from bot.workers.heavy import HeavyWork
from emulator import MANAGE_GUILD


@pytest.fixture
def drawn(monkeypatch) -> list[dict[str, Any]]:
    """The keyword arguments of every board the bot draws."""
    calls: list[dict[str, Any]] = []
    real = render.board

    def board(*args: Any, **kwargs: Any) -> bytes:
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "board", board)
    return calls


def plain(text: str) -> str:
    """``text`` with French no-break spaces as plain ones."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


async def play(world, user: str, move: str, thread: int, locale: str = "en-US") -> Any:
    return await (await world.emu.slash(user, "move", {"text": move}, channel=thread,
                                        locale=locale)).reply()


async def test_a_french_challengers_game_speaks_french_whoever_acts(world, drawn):
    emu = world.emu
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                   locale="fr")).reply()
    assert "défie" in offer.content
    mark = emu.mark()
    # Bob's client is English: the game is still Alice's language.
    await emu.click("bob", offer, label="Accepter")
    first = await emu.wait_for_message(lambda m: bool(m.files), since=mark)
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    assert game.locale == "fr"
    assert "Une partie d'Alak commence" in first.content  # "de" elided before the vowel
    assert "à vous de jouer" in first.content
    assert drawn[-1]["lang"] == "fr"
    # Alice now uses an English client; Bob always did. The thread stays French, and the
    # capture is said in French ("joue f et prend 1 pierre").
    for user, move in (("alice", "d"), ("bob", "e"), ("alice", "f")):
        await play(world, user, move, thread)
    posts = [plain(m.content) for m in emu.channel_messages(thread) if m.files]
    assert "a joué **e**." in posts[2]
    assert "joue f et prend 1 pierre" in posts[3], posts[3]
    assert not any("your turn" in post or "captures" in post for post in posts)
    assert {call["lang"] for call in drawn} == {"fr"}
    # /board, which everyone in the thread sees, speaks the game's language too.
    board = await (await emu.slash("bob", "board", channel=thread)).reply()
    # Three moves were played: the fourth is to play, as the image says.
    assert "coup 4 :" in plain(board.content) and drawn[-1]["lang"] == "fr"


async def test_the_servers_language_wins_and_refusals_stay_private_and_own(world, drawn):
    emu = world.emu
    await world.services.settings.set_guild_settings(emu.guild_id, locale="en-US")
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                   locale="fr")).reply()
    assert "challenges" in offer.content  # the server's language, not Alice's
    first = await world.accept("bob", offer)
    thread = first.channel_id
    assert (await world.services.games.game_for_thread(thread)).locale == "en"
    assert drawn[-1]["lang"] == "en"
    await play(world, "alice", "d", thread, locale="fr")
    assert "your turn" in emu.channel_messages(thread)[-1].content
    # A refusal only Bob sees: in his French, the engine's reason included.
    refused = await play(world, "bob", "d", thread, locale="fr")
    assert refused.ephemeral
    assert plain(refused.content) == "Ce coup n'est pas permis : le point d est déjà occupé"


async def test_timed_boards_carry_their_clock_line(world, drawn):
    offer = await (await world.emu.slash(
        "alice", "play alak", {"opponent": "bob", "time_control": "3d+1d"}, locale="fr",
    )).reply()
    await world.emu.click("bob", offer, label="Accepter")
    await world.emu.wait_for_message(lambda m: bool(m.files))
    clock = drawn[-1]["clock"]
    # The due time and the remaining bank, in French.
    assert clock.startswith("coup attendu avant le ") and "réserves" in clock, clock


async def test_a_french_challenge_names_its_options_in_french(world):
    offer = await (await world.emu.slash(
        "alice", "play palago", {"opponent": "bob", "tiebreak": True}, locale="fr")).reply()
    assert "(départage activé)" in offer.content
    offer = await (await world.emu.slash(
        "alice", "play alak", {"opponent": "carol", "length": 13}, locale="fr")).reply()
    assert "(longueur 13)" in offer.content


async def test_a_hand_is_drawn_in_its_readers_language(world, monkeypatch):
    languages: list[str] = []
    real = render.hand

    def hand(*args: Any, **kwargs: Any) -> bytes:
        languages.append(kwargs["lang"])
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "hand", hand)
    first = await world.start_game("alice", "lppg", "bob")
    french = await (await world.emu.slash("alice", "hand", channel=first.channel_id,
                                          locale="fr")).reply()
    english = await (await world.emu.slash("alice", "hand", channel=first.channel_id)).reply()
    assert languages == ["fr", "en"]
    assert french.files[0].data != english.files[0].data


async def test_a_replay_is_drawn_in_the_games_language(world, monkeypatch):
    drawn_in: list[str] = []

    def replay(source, names, lang):
        drawn_in.append(lang)
        return b"GIF89a drawn"

    world.bot.heavy.close()
    world.bot.heavy = HeavyWork.create(kind="thread")  # the recorder runs in this process
    cog_module = sys.modules[type(world.bot.get_cog("Clocks")).__module__]
    monkeypatch.setattr(cog_module, "replay_gif", replay)
    offer = await (await world.emu.slash("alice", "play alak", {"opponent": "bob"},
                                         locale="fr")).reply()
    await world.emu.click("bob", offer, label="Accepter")
    first = await world.emu.wait_for_message(lambda m: bool(m.files))
    game = await world.services.games.game_for_thread(first.channel_id)
    await play(world, "alice", "d", first.channel_id)
    # Carol's client is English; the replay is public, in the game's French.
    shown = await (await world.emu.slash("carol", "replay", {"game": game.id})).reply()
    assert drawn_in == ["fr"]
    assert shown.content == i18n.t("clocks.replay_ready", "fr", game="Alak", id=game.id)


async def test_reminders_by_dm_speak_the_players_language_the_thread_the_games(world):
    emu = world.emu
    await (await emu.slash("bob", "settings", {"dm_reminders": True}, locale="fr")).reply()
    offer = await world.challenge("bob", "alak", {"opponent": "alice", "time_control": "3d"})
    first = await world.accept("alice", offer)
    await play(world, "bob", "d", first.channel_id)
    await play(world, "alice", "e", first.channel_id)
    game = await world.services.games.game_for_thread(first.channel_id)
    deadline = await world.bot.clocks.deadline(game.id)
    mark = emu.mark()
    ahead = deadline - datetime.now(UTC) - timedelta(hours=23)
    world.bot.clocks.clock = lambda: datetime.now(UTC) + ahead
    world.bot.scheduler.poke()
    reminder = await emu.wait_for_message(lambda m: "is due" in m.content,
                                          channel_id=first.channel_id, since=mark)
    assert reminder.content.startswith(emu.user("bob").mention)
    dm = await emu.wait_for_message(lambda m: m.content.startswith("Votre coup dans Alak"),
                                    since=mark)
    assert dm.channel_id != first.channel_id


async def french_game(world, host: str = "alice", guest: str = "bob") -> Any:
    """A game ``host`` challenged ``guest`` to from a French client (``guest``'s is English):
    its first board."""
    offer = await (await world.emu.slash(host, "play alak", {"opponent": guest},
                                         locale="fr")).reply()
    mark = world.emu.mark()
    await world.emu.click(guest, offer, label="Accepter")
    return await world.emu.wait_for_message(lambda m: bool(m.files), since=mark)


async def test_resigning_and_the_rematch_speak_the_games_language(world):
    """The confirmation is private (the resigner's language); the result, the Rematch button,
    the proposal and the start of the rematch are public (the game's); the rematch keeps the
    game's language although the server has none and whoever presses speaks English."""
    emu = world.emu
    first = await french_game(world)
    thread = first.channel_id
    game = await world.services.games.game_for_thread(thread)
    question = await (await emu.slash("bob", "resign", {}, channel=thread)).reply()
    assert question.ephemeral and question.content.startswith("Resign Alak")
    mark = emu.mark()
    done = await (await emu.click("bob", question, label="Resign")).reply()
    assert "You resigned" in done.content
    over = await emu.wait_for_message(lambda m: bool(m.buttons()), channel_id=thread, since=mark)
    assert [b["label"] for b in over.buttons()] == ["Revanche"]
    assert "abandonne" in over.content
    asked = await (await emu.click("bob", over, label="Revanche")).reply()
    assert not asked.ephemeral and "demande une revanche" in asked.content
    twice = await (await emu.click("bob", over, label="Revanche")).reply()
    assert twice.ephemeral and "already asked" in twice.content  # private: Bob's English
    started = await (await emu.click("alice", over, label="Revanche")).reply()
    assert "Tout le monde est d'accord" in plain(started.content)
    rematch = await world.services.games.get_game(game.id + 1)
    assert rematch.locale == "fr" and rematch.seats == tuple(reversed(game.seats))
    board = await emu.wait_for_message(lambda m: bool(m.files) and m.channel_id != thread,
                                       since=mark)
    assert "à vous de jouer" in board.content


async def test_an_admins_abort_is_told_in_the_games_language(world):
    emu = world.emu
    first = await french_game(world)
    game = await world.services.games.game_for_thread(first.channel_id)
    emu.grant("carol", MANAGE_GUILD)
    mark = emu.mark()
    done = await (await emu.slash("carol", "admin abort", {"game": game.id})).reply()
    assert done.ephemeral and "is ended with no result" in done.content  # Carol's English
    notice = await emu.wait_for_message(lambda m: "administrateur" in m.content,
                                        channel_id=first.channel_id, since=mark)
    assert "a mis fin à cette partie d'Alak" in notice.content  # "de" elided


async def test_a_french_table_and_its_expiry_are_said_in_french(world):
    emu = world.emu
    table = await (await emu.slash("alice", "play lppg", {"players": 4}, locale="fr")).reply()
    assert "peut aussi lancer la partie à 2 joueurs" in table.content
    assert [b["label"] for b in table.buttons()] == [
        "Rejoindre", "Quitter", "Commencer", "Annuler",
        "+ IA (facile)", "+ IA (moyen)", "+ IA (difficile)"]
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                   locale="fr")).reply()
    assert [b["label"] for b in offer.buttons()][-1] == "Retirer"
    ahead = timedelta(days=8)
    world.bot.clocks.clock = lambda: datetime.now(UTC) + ahead
    world.services.context.clock = lambda: datetime.now(UTC) + ahead
    await world.bot.scheduler.run_once()
    await world.bot.delivery.flush(None)
    edited = emu.messages[offer.id]
    assert "a expiré : personne" in plain(edited.content) and not edited.buttons()
    assert "a expiré" in emu.messages[table.id].content


async def test_the_admins_language_setting_is_the_one_games_read(world):
    """``/admin settings language:`` writes what ``public_language`` reads: a French
    challenger's game on an English server is in English."""
    emu = world.emu
    emu.grant("dave", MANAGE_GUILD)
    await (await emu.slash("dave", "admin settings", {"language": "en"}, locale="fr")).reply()
    offer = await (await emu.slash("alice", "play alak", {"opponent": "bob"},
                                   locale="fr")).reply()
    assert "challenges" in offer.content
    first = await world.accept("bob", offer)
    assert (await world.services.games.game_for_thread(first.channel_id)).locale == "en"
    assert "your turn" in first.content
