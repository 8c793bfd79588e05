"""AI players entered in a tournament by its organiser (issue 31 §5): their seat ids, who may
enter them, their games (played through the same path as anyone's, never rated)."""

from __future__ import annotations

import random

import pytest

from bot.services.aiseats import ai_level, ai_user_id, is_ai
from bot.services.tournaments import TournamentError
from tests.bot.services.test_tournaments import ORGANISER, signed_up


async def test_the_organiser_enters_ai_players_each_with_its_own_seat(tsv):
    t = await signed_up(tsv, "round_robin", [1], game="alak")
    t, first = await tsv.tournaments.signup.add_ai(t.id, ORGANISER, "hard")
    t, second = await tsv.tournaments.signup.add_ai(t.id, ORGANISER, "hard")
    assert first == ai_user_id("hard", 0) and second == ai_user_id("hard", 1)
    assert ai_level(first) == ai_level(second) == "hard"
    assert t.players == (1, first, second)
    with pytest.raises(TournamentError) as refused:
        await tsv.tournaments.signup.add_ai(t.id, 1, "easy")  # a player, not the organiser
    assert refused.value.key == "errors.tournament.not_manager"
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    with pytest.raises(TournamentError) as closed:
        await tsv.tournaments.signup.add_ai(t.id, ORGANISER, "easy")
    assert closed.value.key == "errors.tournament.signup_closed"
    assert len((await tsv.tournaments.reading.get(t.id)).players) == 3


async def test_games_with_an_ai_entrant_count_for_the_tournament_not_the_ratings(tsv):
    t = await signed_up(tsv, "round_robin", [1], game="alak")
    t, ai = await tsv.tournaments.signup.add_ai(t.id, ORGANISER, "easy")
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    (board,) = await tsv.tournaments.reading.pairings(t.id)
    game = await tsv.services.games.get_game(board.game_id)
    assert set(game.seats) == {1, ai}
    rng = random.Random(4)
    while (game := await tsv.services.games.get_game(board.game_id)).status == "active":
        mover = game.user_to_move()  # the AI's moves go through the same service call
        await tsv.services.play.move(game.id, mover, rng.choice(
            await tsv.services.games.legal_moves(game.id, mover)))
    assert await tsv.ratings.on_game_over(game.id) is False, "never rated"
    await tsv.tournaments.rounds.on_game_over(game.id)
    assert (await tsv.tournaments.reading.get(t.id)).status == "finished"
    table = await tsv.tournaments.reading.standings(t.id)
    assert {row.user_id for row in table.rows} == {1, ai}
    assert any(is_ai(row.user_id) for row in table.rows)
    assert (await tsv.ratings.glicko_of("alak", [1]))[1].games == 0
