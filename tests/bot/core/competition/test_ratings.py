import pytest

from bot.core.competition.ratings import (
    Glicko,
    Skill,
    glicko2_update,
    rate_multiplayer_game,
    rate_two_player_game,
)


def test_glickmans_published_example():
    # Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against three opponents.
    player = Glicko(1500, 200, 0.06)
    after = glicko2_update(
        player, [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_shifting_every_rating_shifts_the_result_only():
    # Glicko-2 depends on rating differences only; a known bug in a popular package breaks this.
    base = glicko2_update(Glicko(1500, 200), [(Glicko(1400, 30), 1.0), (Glicko(1700, 300), 0.0)])
    shifted = glicko2_update(Glicko(1900, 200), [(Glicko(1800, 30), 1.0), (Glicko(2100, 300), 0.0)])
    assert shifted.rating - 400 == pytest.approx(base.rating, abs=1e-6)
    assert shifted.rd == pytest.approx(base.rd, abs=1e-6)
    assert shifted.volatility == pytest.approx(base.volatility, abs=1e-9)


def test_a_win_raises_and_a_loss_lowers_and_a_draw_between_equals_keeps():
    a, b = rate_two_player_game(Glicko(), Glicko(), 1.0)
    assert a.rating > 1500 > b.rating
    c, d = rate_two_player_game(Glicko(), Glicko(), 0.5)
    assert c.rating == pytest.approx(1500) == d.rating
    assert a.games == b.games == 1


def test_inactivity_only_widens_the_deviation():
    after = glicko2_update(Glicko(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.rd > 100


def test_provisional_until_enough_games_and_a_narrow_deviation():
    assert Glicko().provisional
    assert not Glicko(1500, 80, 0.06, games=10).provisional
    assert Glicko(1500, 80, 0.06, games=2).provisional
    assert Skill().provisional and not Skill(games=5).provisional


def test_multiplayer_winner_gains_and_ties_are_equal():
    teams = [[Skill()], [Skill()], [Skill()]]
    rated = rate_multiplayer_game(teams, [0, 1, 1])
    assert rated[0][0].mu > 25 > rated[1][0].mu
    assert rated[1][0].mu == pytest.approx(rated[2][0].mu)
    assert rated[0][0].shown[0] > Skill().shown[0]  # the rating shown goes up


def test_teams_of_two_move_together():
    rated = rate_multiplayer_game([[Skill(), Skill()], [Skill(), Skill()]], [1, 0])
    assert rated[1][0].mu > 25 and rated[1][1].mu > 25 and rated[0][0].mu < 25
