"""What a game's page is drawn from (``bot.web.board``): in every game, each legal move of
the seat to move can be clicked, pick by pick, on the pictures that seat is sent; the other
seat gets the same board without a single region."""

from __future__ import annotations

import orjson
import pytest

import engines
import render
from bot.web.board import draw_pictures

NAMES = ["Ann", "Bob"]


def regions(pictures: dict, picks: list[str]) -> set[str]:
    """The parts of every region the page may make active after ``picks``."""
    found = set()
    for drawn in pictures.values():
        if drawn is None:
            continue
        hits = render.HitMap.from_json(drawn[1])
        found |= {r.part for r in hits.regions if not r.after or r.after in picks}
    return found


def later(game, state, plies: int):
    for _ in range(plies):
        if state.to_move is None:
            break
        state = game.play(state, game.legal_moves(state)[0])
    return state


@pytest.mark.parametrize("name", sorted(engines.GAMES))
@pytest.mark.parametrize("plies", [0, 3])
def test_every_legal_move_can_be_clicked_by_the_seat_to_move(name, plies):
    game = engines.get(name)
    state = later(game, game.new(players=2, seed=11), plies)
    seat = state.to_move
    view = game.dump(game.view(state, seat))
    pictures = draw_pictures(name, view, seat, NAMES, "en", "dark", None)
    buttons = render.button_parts(name)
    for move in game.legal_moves(state):
        parts = render.split_move(name, str(move))
        for index, part in enumerate(parts):
            assert part in regions(pictures, parts[:index]) | buttons, (str(move), part)


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_the_seat_not_to_move_gets_the_board_and_nothing_to_click(name):
    game = engines.get(name)
    state = game.new(players=2, seed=11)
    other = 1 - state.to_move
    pictures = draw_pictures(name, game.dump(game.view(state, other)), other, NAMES, "en",
                             "dark", None)
    assert pictures["board"][0] == render.board(name, state, viewer=other, players=NAMES)
    assert orjson.loads(pictures["board"][1])["regions"] == []
    assert pictures["choices"] is None
    if render.has_hands(name):
        assert pictures["hand"][0] == render.hand(name, state, other, players=NAMES)
    else:
        assert pictures["hand"] is None
