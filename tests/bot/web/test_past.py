"""Past positions (``bot.web.past``): rebuilt from the stored moves, seen from the viewer's
seat only, with the stored result on the last position."""

from __future__ import annotations

import pytest

import engines
import render
from bot.services.clocks import ReplaySource
from bot.web.past import draw_past, past_state, past_view

NAMES = ["Ann", "Bob"]


def source_of(name: str, plies: int, forced: dict | None = None) -> tuple[ReplaySource, list]:
    game = engines.get(name)
    state = game.new(players=2, seed=5)
    moves = []
    for _ in range(plies):
        move = str(game.legal_moves(state)[0])
        moves.append(move)
        state = game.play(state, move)
    source = ReplaySource(1, 1, name, 2, 5, {}, tuple(moves), forced)
    return source, game.replay(2, 5, {}, moves)


def test_a_past_lppg_position_holds_the_viewers_cards_and_no_others():
    source, states = source_of("lppg", 3)
    lppg = engines.get("lppg")
    seen = past_view(source, 2, 0)
    assert seen == lppg.view(states[2], 0)
    assert seen.hands[0] == states[2].hands[0]
    assert seen.hands[1] != states[2].hands[1]  # the other hand of the time stays hidden
    drawn = draw_past(source, 2, 0, NAMES, "en", "dark")
    assert drawn["hand"] == render.hand("lppg", seen, 0, players=NAMES)
    assert render.hand("lppg", states[2], 1, players=NAMES) not in drawn.values()


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_every_game_draws_its_past_with_the_move_that_made_it(name):
    source, states = source_of(name, 2)
    game = engines.get(name)
    drawn = draw_past(source, 1, 1, NAMES, "en", "light")
    assert drawn["board"] == render.board(name, game.view(states[1], 1), viewer=1,
                                          players=NAMES, theme="light", last_move=source.moves[0])
    assert (drawn["hand"] is not None) == render.has_hands(name)
    shown = past_state(drawn, 1, source.moves)
    assert shown["last_move"] == source.moves[0] and "hits" not in shown["board"]


def test_the_last_position_carries_the_stored_result_and_none_lies_beyond():
    resigned = {"outcome": {"winners": [1], "scores": [0, 1], "reason": "Ann resigned."}}
    source, _ = source_of("alak", 2, resigned)
    assert past_view(source, 2, 0).outcome is not None
    assert past_view(source, 1, 0).outcome is None
    with pytest.raises(ValueError):
        past_view(source, 3, 0)
