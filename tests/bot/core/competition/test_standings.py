from bot.core.competition import standings
from bot.core.competition.results import Result, bye


def test_swiss_order_points_then_buchholz_then_sonneborn_berger():
    # 1 and 2 both score 1; 1 beat a strong player (3, who then won), 2 beat a weak one (4).
    results = [
        Result(1, 1, 3, 1.0), Result(1, 2, 4, 1.0),
        Result(2, 3, 4, 1.0), Result(2, 1, 2, 0.5),
    ]
    table = standings.swiss([1, 2, 3, 4], results)
    assert [s.player for s in table] == [1, 2, 3, 4]
    first, second = table[0], table[1]
    assert first.points == second.points == 1.5
    assert first.tiebreaks[0] > second.tiebreaks[0]  # Buchholz decides


def test_sonneborn_berger_breaks_equal_buchholz():
    # 1 and 2 have equal points and equal Buchholz; 1's points came from the stronger opponent.
    results = [
        Result(1, 1, 3, 1.0), Result(1, 2, 4, 1.0),
        Result(2, 1, 4, 0.0), Result(2, 2, 3, 0.0),
        Result(3, 3, 5, 1.0), Result(3, 4, 6, 0.0),
    ]
    table = standings.swiss([1, 2, 3, 4, 5, 6], results)
    by_player = {s.player: s for s in table}
    assert by_player[1].points == by_player[2].points
    assert by_player[1].tiebreaks[0] == by_player[2].tiebreaks[0]
    assert by_player[1].tiebreaks[1] > by_player[2].tiebreaks[1]
    assert by_player[1].rank < by_player[2].rank


def test_round_robin_head_to_head_before_sonneborn_berger():
    # 1 and 2 both score 2. Sonneborn–Berger favours 1 (wins over 3 and 4, who scored 3 and 1)
    # over 2 (wins over 1 and 5, who scored 2 and 0), but 2 won their own game.
    results = [
        Result(1, 2, 1, 1.0),
        Result(1, 1, 3, 1.0),
        Result(2, 1, 4, 1.0),
        Result(2, 2, 5, 1.0),
        Result(3, 3, 2, 1.0),
        Result(3, 3, 4, 1.0),
        Result(4, 3, 5, 1.0),
        Result(4, 4, 5, 1.0),
    ]
    table = standings.round_robin([1, 2, 3, 4, 5], results)
    by_player = {s.player: s for s in table}
    assert by_player[1].points == by_player[2].points == 2.0
    assert by_player[1].tiebreaks[1] > by_player[2].tiebreaks[1]  # SB says 1 ...
    assert [s.player for s in table] == [3, 2, 1, 4, 5]  # ... head to head says 2


def test_equal_everything_shares_the_rank_and_counts_records():
    results = [Result(1, 1, 2, 0.5)]
    table = standings.swiss([1, 2], results)
    assert [s.rank for s in table] == [1, 1]
    assert table[0].draws == 1 and table[0].played == 1


def test_a_bye_scores_but_adds_no_buchholz():
    results = [bye(1, 1), Result(1, 2, 3, 1.0)]
    table = {s.player: s for s in standings.swiss([1, 2, 3], results)}
    assert table[1].points == 1.0
    assert table[1].tiebreaks[0] == 0.0
    assert table[1].played == 0


def test_a_bye_counts_in_the_won_drawn_lost_record_by_its_score():
    """Ruling: a full-point bye is shown as a win, so the record adds up to the points; it is
    still not a game played."""
    results = [bye(1, 1), Result(1, 2, 3, 1.0), Result(2, 1, 2, 0.5), Result(2, 3, None, 0.0)]
    table = {s.player: s for s in standings.swiss([1, 2, 3], results)}
    assert (table[1].wins, table[1].draws, table[1].losses, table[1].played) == (1, 1, 0, 1)
    assert table[1].points == table[1].wins + 0.5 * table[1].draws
    # A bye worth nothing (a withdrawn player's) is a loss.
    assert (table[3].wins, table[3].losses, table[3].played) == (0, 2, 1)
