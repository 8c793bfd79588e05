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


def _samples(name: str, players: int, options: dict | None, games: int,
             every: int) -> list[tuple[float, float]]:
    game = engines.get(name)
    pairs = []
    for index in range(games):
        a, b = PAIRINGS[index % len(PAIRINGS)]
        levels = (a, b) if index % 2 == 0 else (b, a)
        state = game.new(players, seed=100 + index, options=options)
        states = [state]
        while state.to_move is not None:
            seat = state.to_move
            move = ai.choose(name, game.view(state, seat), seat, level=levels[seat],
                             seed=index, budget_s=THINK)
            state = game.play(state, move)
            states.append(state)
        for ply in range(0, len(states) - 1, every):
            seat = (ply // every) % players
            value = ai.evaluate(name, game.view(states[ply], seat), seat, budget_s=EVALUATE)
            pairs.append((value, ai.result_score(name, state.outcome, players, seat)))
    return pairs


@pytest.mark.parametrize(("name", "players", "options", "games", "every"), CASES,
                         ids=[case[0] for case in CASES])
def test_the_evaluation_predicts_results_better_than_any_constant(
        name: str, players: int, options: dict | None, games: int, every: int) -> None:
    pairs = _samples(name, players, options, games, every)
    assert len(pairs) >= 20
    results = [r for _, r in pairs]
    best_constant = statistics.fmean(results)
    constant = statistics.fmean((best_constant - r) ** 2 for r in results)
    ours = statistics.fmean((v - r) ** 2 for v, r in pairs)
    assert ours < constant, f"{name}: Brier {ours:.3f} against {constant:.3f} for a constant"
