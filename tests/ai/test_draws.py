"""The AI's answer to a draw offer (ai/draws.py): it refuses where it is sure to win, accepts
where it is sure to lose or where the game is even, and answers the same every time. Its
estimate is ai.evaluate's value."""

from __future__ import annotations

import ai
import engines
from ai.draws import ACCEPT_AT_MOST, accepts_draw, expected_score

ALAK = engines.get("alak")


def alak_view(board: str, to_move: int, banned: list[int], captures: list[int], ply: int):
    """An Alak position of length 7 (found by exhaustive search: every line from it ends the
    same way)."""
    state = ALAK.load({"game": "alak", "players": 2, "seed": 1, "length": 7, "board": board,
                       "to_move": to_move, "banned": banned, "captures": captures, "ply": ply,
                       "last_move": None, "outcome": None})
    return ALAK.view(state, to_move)


def test_the_ai_refuses_a_draw_it_is_sure_to_win_and_takes_one_it_is_sure_to_lose():
    won = alak_view("wbbb.bw", 1, [], [1, 0], 7)  # White to move wins whatever is played
    assert expected_score("alak", won, 1) >= 0.8
    assert not accepts_draw("alak", won, 1)
    assert accepts_draw("alak", won, 0)  # its opponent, lost, takes it
    lost = alak_view(".bbww.w", 0, [5], [0, 1], 6)  # Black to move loses whatever is played
    assert expected_score("alak", lost, 0) <= 0.2
    assert accepts_draw("alak", lost, 0)


def test_an_even_opening_is_accepted_and_the_answer_is_deterministic():
    for name in ("alak", "palago", "palam", "polygo", "kolory"):
        game = engines.get(name)
        view = game.view(game.new(players=2, seed=7), 1)
        first = expected_score(name, view, 1, seed=3, budget_s=0.02)
        assert first == ai.evaluate(name, view, 1, seed=3, budget_s=0.02)
        assert expected_score(name, game.dump(view), 1, seed=3, budget_s=0.02) == first
    alak = ALAK.view(ALAK.new(players=2, seed=7), 1)
    assert expected_score("alak", alak, 1) <= ACCEPT_AT_MOST and accepts_draw("alak", alak, 1)


def test_a_finished_view_is_scored_by_its_outcome():
    state = ALAK.new(players=2, seed=1, options={"length": 7})
    while state.outcome is None:
        state = ALAK.play(state, ALAK.legal_moves(state)[0])
    for seat in (0, 1):
        expected = 1.0 if state.outcome.winners == {seat} else (
            0.5 if not state.outcome.winners else 0.0)
        assert expected_score("alak", state, seat) == expected
