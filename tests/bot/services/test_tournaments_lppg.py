"""The LPPG match to 10 points (the rule sheet's "Tournoi") as a tournament format."""

from __future__ import annotations

import random

import pytest

from bot.services.tournaments import TournamentError
from engines.lppg import LppgMatch
from tests.bot.services.tourney import outbox_kinds, play_randomly, round_games

ORGANISER = 100


async def lppg_match(s, players):
    t = await s.tournaments.signup.create(ORGANISER, "lppg", "lppg_match")
    for user in players:
        await s.tournaments.signup.join(t.id, user)
    return await s.tournaments.signup.start(t.id, ORGANISER)


async def replayed_match(s, tournament_id, players):
    """The match rebuilt from the games' outcomes, checking each game's seating."""
    match = LppgMatch(tuple(players))
    for boards in await s.tournaments.reading.bracket(tournament_id):
        (board,) = boards
        game = await s.services.games.get_game(board.game_id)
        assert game.seats == match.seating()
        match = match.record(game.outcome)
    return match


@pytest.mark.parametrize("players", [(1, 2), (1, 2, 3, 4)])
async def test_a_whole_match_to_ten_points(tsv, players):
    rng = random.Random(len(players))
    t = await lppg_match(tsv, players)
    games = 0
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        (game_id,) = await round_games(tsv, t.id)
        await play_randomly(tsv, game_id, rng)
        games += 1
        assert games < 200
    match = await replayed_match(tsv, t.id, players)
    assert match.finished and len(match.rounds) == games
    table = await tsv.tournaments.reading.standings(t.id)
    points = match.points()
    assert {r.user_id: r.points for r in table.rows} == points
    assert table.rows[0].points >= 10 and table.rows[0].user_id in match.winners
    if len(players) == 4:  # partners (0 and 2, 1 and 3) always score together
        assert points[1] == points[3] and points[2] == points[4]
    kinds = [k for k, p in await outbox_kinds(tsv) if p.get("tournament_id") == t.id]
    assert kinds == ["tournament_round"] * games + ["tournament_finished"]


async def test_a_match_needs_two_or_four_players(tsv):
    t = await tsv.tournaments.signup.create(ORGANISER, "lppg", "lppg_match")
    for user in (1, 2, 3):
        await tsv.tournaments.signup.join(t.id, user)
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.signup.start(t.id, ORGANISER)
    assert error.value.key == "errors.tournament.lppg_players"


async def test_withdrawing_ends_the_match_for_the_other_side(tsv):
    t = await lppg_match(tsv, (1, 2))
    (game_id,) = await round_games(tsv, t.id)
    t = (await tsv.tournaments.signup.leave(t.id, 2)).tournament
    assert t.status == "finished"
    game = await tsv.services.games.get_game(game_id)
    assert game.status == "finished" and game.outcome.winners == {game.seats.index(1)}
    table = await tsv.tournaments.reading.standings(t.id)
    assert [(r.user_id, r.withdrawn) for r in table.rows] == [(1, False), (2, True)]
