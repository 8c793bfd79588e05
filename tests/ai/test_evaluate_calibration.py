"""ai.evaluate is calibrated: on positions from games between the AI levels, it predicts the
final result better than any constant (Brier score against the best constant in hindsight,
the mean result of the same positions). Fixed seeds and small games, so it is quick; the full
table (start, middle and end of longer games) is bench/evaluate.py's."""

from __future__ import annotations

import statistics

import pytest

import ai
import engines

#: (game, players, options, games, evaluate every k-th ply)
CASES = [
    ("alak", 2, {"length": 9}, 6, 1),
    ("palam", 2, None, 4, 2),
    ("palago", 2, None, 8, 1),
    ("polygo", 2, {"board": "hex5"}, 4, 6),
    ("kolory", 2, None, 4, 2),
    ("lppg", 2, None, 4, 3),
]
PAIRINGS = (("easy", "medium"), ("medium", "hard"), ("easy", "hard"))
THINK = 0.02
EVALUATE = 0.02


def _samples(name: str, players: int, options: dict | None, games: int, every: int,
             think: float = THINK, evaluate: float = EVALUATE) -> list[tuple[float, float, int]]:
    """(value, result, phase) of every ``every``-th position of ``games`` games between the
    levels; the phase is the third of the game (0 start, 1 middle, 2 end)."""
    game = engines.get(name)
    pairs = []
    for index in range(games):
        a, b = PAIRINGS[index % len(PAIRINGS)]
        levels = [a if (seat + index) % 2 == 0 else b for seat in range(players)]
        state = game.new(players, seed=100 + index, options=options)
        states = [state]
        while state.to_move is not None:
            seat = state.to_move
            move = ai.choose(name, game.view(state, seat), seat, level=levels[seat],
                             seed=index, budget_s=think)
            state = game.play(state, move)
            states.append(state)
        for ply in range(0, len(states) - 1, every):
            seat = (ply // every) % players
            value = ai.evaluate(name, game.view(states[ply], seat), seat, budget_s=evaluate)
            pairs.append((value, ai.result_score(name, state.outcome, players, seat),
                          min(2, 3 * ply // (len(states) - 1))))
    return pairs


@pytest.mark.parametrize(("name", "players", "options", "games", "every"), CASES,
                         ids=[case[0] for case in CASES])
@pytest.mark.slow(12)
def test_the_evaluation_predicts_results_better_than_any_constant(
        name: str, players: int, options: dict | None, games: int, every: int) -> None:
    pairs = _samples(name, players, options, games, every)
    assert len(pairs) >= 20
    ours, constant = _briers(pairs)
    assert ours < constant, f"{name}: Brier {ours:.3f} against {constant:.3f} for a constant"


def _briers(samples: list[tuple[float, float, int]]) -> tuple[float, float]:
    """The Brier score of the evaluation and of the best constant in hindsight."""
    results = [r for _, r, _ in samples]
    best_constant = statistics.fmean(results)
    constant = statistics.fmean((best_constant - r) ** 2 for r in results)
    return statistics.fmean((v - r) ** 2 for v, r, _ in samples), constant


@pytest.mark.slow(22)
def test_kolory_with_three_players_beats_a_constant_overall_and_at_the_end() -> None:
    # With three players the last cards decide (a seat that cannot win cuts the leader's
    # patch), which the search alone misjudged: worse than a constant overall and at the end
    # (issue 30). Every position of six games, seats in turn.
    samples = _samples("kolory", 3, None, 6, 1, think=0.05, evaluate=0.05)
    end = [s for s in samples if s[2] == 2]
    assert len(samples) >= 150 and len(end) >= 50
    for part, group in (("all", samples), ("end", end)):
        ours, constant = _briers(group)
        assert ours < constant, f"{part}: Brier {ours:.3f} against {constant:.3f} for a constant"
