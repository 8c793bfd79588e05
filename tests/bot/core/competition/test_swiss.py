import random

from bot.core.competition import standings, swiss
from bot.core.competition.results import Result, bye, have_met, points


def play_round(pairings, rng, strength):
    results = []
    for p in pairings:
        if p.second is None:
            results.append(bye(p.round, p.first))
            continue
        sa, sb = strength[p.first], strength[p.second]
        roll = rng.random()
        score = 0.5 if abs(sa - sb) < 1 and roll < 0.3 else (1.0 if sa + rng.random() > sb else 0.0)
        results.append(Result(p.round, p.first, p.second, score))
    return results


def simulate(n_players, n_rounds, seed):
    rng = random.Random(seed)
    players = list(range(1, n_players + 1))
    strength = {p: rng.uniform(0, 5) for p in players}
    results: list[Result] = []
    all_pairings = []
    for number in range(1, n_rounds + 1):
        ranking = [s.player for s in standings.swiss(players, results)]
        pairings = swiss.pair_round(number, ranking, results)
        all_pairings.append(pairings)
        results += play_round(pairings, rng, strength)
    return players, results, all_pairings


def test_no_rematch_in_an_eight_player_five_round_swiss():
    for seed in range(20):
        _, results, _ = simulate(8, 5, seed)
        games = [frozenset((r.first, r.second)) for r in results if r.second is not None]
        assert len(games) == len(set(games)) == 20


def test_each_round_pairs_everyone_once():
    players, _, rounds = simulate(9, 4, 3)
    for pairings in rounds:
        seated = [p.first for p in pairings] + [p.second for p in pairings if p.second]
        assert sorted(seated) == players


def test_bye_goes_to_the_lowest_score_who_has_not_had_one():
    players, results, rounds = simulate(7, 6, 11)
    byes = [p.first for pairings in rounds for p in pairings if p.second is None]
    assert len(byes) == len(set(byes)) == 6
    # Re-check each choice against the results known when it was made.
    for number, pairings in enumerate(rounds, start=1):
        before = [r for r in results if r.round < number]
        had = {r.first for r in before if r.is_bye}
        score = points(before)
        chosen = next(p.first for p in pairings if p.second is None)
        eligible = [p for p in players if p not in had]
        assert chosen in eligible
        assert score.get(chosen, 0.0) == min(score.get(p, 0.0) for p in eligible)


def test_score_groups_pair_together():
    # After one round, 4 winners and 4 losers: winners meet winners, losers meet losers.
    players = list(range(1, 9))
    results = [Result(1, a, b, 1.0) for a, b in [(1, 5), (2, 6), (3, 7), (4, 8)]]
    ranking = [s.player for s in standings.swiss(players, results)]
    pairings = swiss.pair_round(2, ranking, results)
    winners = {1, 2, 3, 4}
    for p in pairings:
        assert (p.first in winners) == (p.second in winners)


def test_rematch_only_when_unavoidable():
    # Three players, three rounds: everybody has met everybody after round 3 of a round robin;
    # with four players who all met, a fourth round must repeat a pairing.
    players = [1, 2, 3, 4]
    results = [
        Result(1, 1, 2, 1.0), Result(1, 3, 4, 1.0),
        Result(2, 1, 3, 1.0), Result(2, 2, 4, 1.0),
        Result(3, 1, 4, 1.0), Result(3, 2, 3, 1.0),
    ]
    pairings = swiss.pair_round(4, players, results)
    assert len(pairings) == 2  # still pairs everyone
    assert all(frozenset((p.first, p.second)) in have_met(results) for p in pairings)


def test_the_player_who_moved_first_less_often_gets_seat_zero():
    # Round 1: 1 won from seat 1, 3 won from seat 0; 2 lost from seat 0, 4 lost from seat 1.
    results = [Result(1, 2, 1, 0.0), Result(1, 3, 4, 1.0)]
    pairings = swiss.pair_round(2, [1, 3, 2, 4], results)
    assert {(p.first, p.second) for p in pairings} == {(1, 3), (4, 2)}
