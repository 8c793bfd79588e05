from collections import Counter
from itertools import combinations

import pytest

from bot.core.competition import round_robin


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9])
def test_everyone_meets_everyone_exactly_once(n):
    players = list(range(100, 100 + n))
    rounds = round_robin.schedule(players)
    met = Counter(
        frozenset((p.first, p.second)) for rnd in rounds for p in rnd if p.second is not None
    )
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_each_player_plays_at_most_once_per_round_and_odd_fields_rotate_the_bye(n):
    players = list(range(n))
    rounds = round_robin.schedule(players)
    byes = Counter()
    for number, rnd in enumerate(rounds, start=1):
        seen = [p.first for p in rnd] + [p.second for p in rnd if p.second is not None]
        assert len(seen) == len(set(seen))
        assert all(p.round == number for p in rnd)
        byes.update(p.first for p in rnd if p.second is None)
    if n % 2:
        assert byes == Counter({p: 1 for p in players})
    else:
        assert not byes


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8, 10, 12, 16])
def test_first_seat_is_shared_fairly(n):
    rounds = round_robin.schedule(list(range(n)))
    firsts = Counter(p.first for rnd in rounds for p in rnd)
    assert max(firsts.values()) - min(firsts.get(p, 0) for p in range(n)) <= 1


def test_needs_two_players():
    with pytest.raises(ValueError):
        round_robin.schedule([1])
