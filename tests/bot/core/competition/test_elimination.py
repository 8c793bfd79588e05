import pytest

from bot.core.competition import elimination


def test_seed_order_keeps_top_seeds_apart_until_the_final():
    assert elimination.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = elimination.seed_order(16)
    assert order.index(1) < 8 <= order.index(2)


def test_byes_go_to_the_best_seeds():
    players = [10, 20, 30, 40, 50, 60]  # by seed
    first = elimination.first_round(players)
    assert len(first) == 4
    byes = {p.first for p in first if p.second is None}
    assert byes == {10, 20}


def test_winners_advance_and_the_bracket_ends_with_a_final():
    players = list(range(1, 9))
    rnd = elimination.first_round(players)
    assert elimination.rounds_needed(8) == 3
    # The better seed (smaller number) always wins.
    for _ in range(2):
        winners = {(p.round, i): min(p.first, p.second) for i, p in enumerate(rnd)}
        rnd = elimination.next_round(rnd, winners)
    assert [(p.first, p.second) for p in rnd] == [(1, 2)]
    with pytest.raises(ValueError):
        elimination.next_round(rnd, {(3, 0): 1})


def test_next_round_refuses_a_board_without_a_winner():
    rnd = elimination.first_round([1, 2, 3, 4])
    with pytest.raises(ValueError):
        elimination.next_round(rnd, {(1, 0): 1})


def test_a_winner_who_did_not_play_the_board_is_refused():
    rnd = elimination.first_round([1, 2, 3, 4])
    with pytest.raises(ValueError):
        elimination.next_round(rnd, {(1, 0): 3, (1, 1): 2})
