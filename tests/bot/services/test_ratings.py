"""Ratings of finished games: Glicko-2 for two players, openskill for more, exactly once."""

from __future__ import annotations

import pytest

from bot.competition.ratings import (
    PROVISIONAL_GAMES,
    Glicko,
    Skill,
    rate_multiplayer_game,
    rate_two_player_game,
)
from bot.services.ratings import side_ranks, two_player_score
from bot.store import open_store
from engines import Outcome
from tests.bot.services.conftest import start_game
from tests.bot.services.tourney import processed, services


async def verdict_game(s, first, second, verdict):
    challenge = await s.games.challenge("verdict", first, opponent_id=second)
    game = await s.games.accept(challenge.id, second)
    await s.games.move(game.id, first, verdict)
    return game.id


async def test_a_two_player_game_updates_both_glicko_ratings_once(tsv, verdict):
    game_id = await verdict_game(tsv, 1, 2, "win")
    assert await tsv.ratings.on_game_over(game_id) is True
    assert await tsv.ratings.on_game_over(game_id) is False
    assert await tsv.ratings.sync_finished_games() == 0
    winner, loser = rate_two_player_game(Glicko(), Glicko(), 1.0)
    ratings = await tsv.ratings.glicko_of("verdict", [1, 2, 3])
    assert ratings[1].rating == pytest.approx(winner.rating)
    assert ratings[2].rating == pytest.approx(loser.rating)
    assert ratings[1].rating > 1500 > ratings[2].rating
    assert ratings[1].games == ratings[2].games == 1
    assert ratings[3] == Glicko()  # unrated users get the default


async def test_draws_and_seat_order(tsv, verdict):
    await tsv.ratings.on_game_over(await verdict_game(tsv, 1, 2, "draw"))
    ratings = await tsv.ratings.glicko_of("verdict", [1, 2])
    assert ratings[1].rating == pytest.approx(1500) and ratings[2].rating == pytest.approx(1500)
    # Seat 1 winning is a loss for seat 0.
    await tsv.ratings.on_game_over(await verdict_game(tsv, 3, 4, "loss"))
    ratings = await tsv.ratings.glicko_of("verdict", [3, 4])
    assert ratings[4].rating > ratings[3].rating
    assert two_player_score(Outcome(frozenset({1}), (0, 1), "")) == 0.0
    assert two_player_score(Outcome(frozenset({0, 1}), (1, 1), "")) == 0.5


async def test_unfinished_and_self_play_games_are_not_rated(tsv, verdict):
    challenge = await tsv.games.challenge("verdict", 1, opponent_id=2)
    running = await tsv.games.accept(challenge.id, 2)
    assert await tsv.ratings.on_game_over(running.id) is False
    solo = await tsv.games.create_game("verdict", (5, 5))
    await tsv.games.move(solo.id, 5, "win")
    assert await tsv.ratings.on_game_over(solo.id) is False
    assert (await tsv.ratings.profile(5)).ratings == ()


async def test_kolory_with_three_players_uses_openskill(tsv):
    game = await start_game(tsv.games, "kolory", (1, 2, 3))
    await tsv.games.resign(game.id, 3)  # 1 and 2 share the win
    assert await tsv.ratings.on_game_over(game.id)
    board = await tsv.ratings.leaderboard("kolory")
    assert board.glicko == ()
    assert {e.user_id for e in board.skill} == {1, 2, 3}
    expected = rate_multiplayer_game([[Skill()], [Skill()], [Skill()]], [0, 0, 1])
    by_user = {e.user_id: e for e in board.skill}
    assert by_user[3].value == pytest.approx(expected[2][0].ordinal)
    assert by_user[1].value > by_user[3].value
    assert all(e.provisional and e.system == "skill" for e in board.skill)


async def test_team_games_rate_partners_together(tsv, tally):
    game = await start_game(tsv.games, "tally", (1, 2, 3, 4))
    await tsv.games.resign(game.id, 2)  # team 1+3 (seats 1, 3) loses
    await tsv.ratings.on_game_over(game.id)
    skills = {e.user_id: e for e in (await tsv.ratings.leaderboard("tally")).skill}
    assert skills[1].value == pytest.approx(skills[3].value)
    assert skills[2].value == pytest.approx(skills[4].value)
    assert skills[1].value > skills[2].value


def test_side_ranks_put_winners_first_then_scores():
    outcome = Outcome(frozenset({2}), (3.0, 5.0, 9.0, 3.0), "")
    assert side_ranks(outcome, [(0,), (1,), (2,), (3,)]) == [2, 1, 0, 2]


async def test_leaderboard_order_and_provisional_marks(tsv, verdict):
    for _ in range(PROVISIONAL_GAMES):
        await tsv.ratings.on_game_over(await verdict_game(tsv, 1, 2, "win"))
    await tsv.ratings.on_game_over(await verdict_game(tsv, 3, 2, "win"))
    board = await tsv.ratings.leaderboard("verdict")
    values = [e.value for e in board.glicko]
    assert values == sorted(values, reverse=True)
    by_user = {e.user_id: e for e in board.glicko}
    assert by_user[3].provisional and by_user[3].games == 1
    assert by_user[1].games == PROVISIONAL_GAMES
    assert by_user[1].provisional == (by_user[1].deviation > 110)
    profile = await tsv.ratings.profile(2)
    assert [(e.game, e.system, e.games) for e in profile.ratings] == [
        ("verdict", "glicko", PROVISIONAL_GAMES + 1)]


async def test_sync_rates_missed_games_in_the_order_they_ended(db, clock, verdict):
    store = await open_store(db.url)
    s = services(store, clock)
    first = await verdict_game(s, 1, 2, "win")
    second = await verdict_game(s, 2, 1, "win")
    await store.close()
    store = await open_store(db.url)
    try:
        s = services(store, clock)
        assert await s.ratings.sync_finished_games() == 2
        assert await s.ratings.sync_finished_games() == 0
        assert await processed(s, "rating") == 2
        a, b = rate_two_player_game(Glicko(), Glicko(), 1.0)  # game 1: user 1 wins
        b, a = rate_two_player_game(b, a, 1.0)  # game 2: user 2 wins
        ratings = await s.ratings.glicko_of("verdict", [1, 2])
        assert ratings[1].rating == pytest.approx(a.rating)
        assert ratings[2].rating == pytest.approx(b.rating)
        assert first < second
    finally:
        await store.close()
