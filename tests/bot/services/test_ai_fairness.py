"""Fair use of the AI in the game service: one person plays at most ``ai_games_per_user``
games against the AI at once; beyond, ``/play level:`` and a lobby's "+ AI" are refused with a
reason (in English and French) and write nothing; a game that ends frees its place."""

from __future__ import annotations

import pytest

from bot.core.i18n import t
from bot.services.aiseats import AiGamesLimit, ai_user_id
from tests.bot.services.conftest import start_game


async def test_a_person_plays_at_most_the_limit_of_games_against_the_ai(service):
    service.aiseats.ai_games_per_user = 3
    await start_game(service, "alak", (7, 9))  # a game between people is not counted
    games = [await service.aiseats.play_ai("alak", 7, level)
             for level in ("easy", "medium", "hard")]
    await service.aiseats.play_ai("alak", 8, "hard")  # another person is not counted with them
    for _ in range(2):
        with pytest.raises(AiGamesLimit) as refused:
            await service.aiseats.play_ai("polygo", 7, "hard")
        assert refused.value.params == {"count": 3}
    assert len(await service.games.games_of(7)) == 4, "a refused start writes nothing"
    # The reason, in both languages, its noun agreeing with the count.
    assert t(refused.value.key, "en", **refused.value.params) == (
        "You already have 3 games against the AI going: finish or resign one before you start "
        "another.")
    assert t(refused.value.key, "fr", count=1).startswith(
        "Vous avez déjà 1 partie contre l'IA en cours\u00a0: terminez-la")
    # A game that ends frees its place.
    await service.play.resign(games[0].id, 7)
    again = await service.aiseats.play_ai("polygo", 7, "hard")
    assert again.seats == (7, ai_user_id("hard"))


async def test_the_host_of_a_lobby_adds_no_ai_beyond_the_limit(service):
    service.aiseats.ai_games_per_user = 1
    await service.aiseats.play_ai("alak", 1, "easy")
    lobby = await service.challenges.challenge("kolory", 1, players=3)
    with pytest.raises(AiGamesLimit):
        await service.aiseats.add_ai(lobby.id, 1, "medium")
    assert (await service.challenges.get_challenge(lobby.id)).joined == (1,)
