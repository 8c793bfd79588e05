"""LPPG in French: what the engine says reads as French, with French plurals and typography."""

from __future__ import annotations

import pytest

import engines
from bot.core.i18n import say
from engines import IllegalMove, Phrase
from engines.lppg import CARD_IDS, DrawMove, MarkMove

GAME = engines.get("lppg")


def deck(*first: str) -> list[str]:
    return [*first, *(c for c in CARD_IDS if c not in first)]


def test_a_placement_and_its_consequence_in_french():
    state = GAME.new(2, seed=1, options={"deck": deck("R5", "R2", "R15", "B8")})
    move = GAME.parse_move("play 1 0,-1 180")
    assert say(GAME.explain(state, move), "fr") == (
        "Nord pose la carte R15 en 0,-1, tournée de 180°\u00a0: "
        "la plus grande région fermée (2 cases) est à marquer"
    )
    marked = GAME.play(state, move)
    assert say(GAME.explain(marked, MarkMove("p", 1, 1)), "fr") == (
        "Nord pose son marqueur permanent sur la région en 1,1\u00a0: "
        "elle devient un territoire de 2 cases"
    )


@pytest.mark.parametrize(
    ("count", "french"),
    [(0, "un territoire de 0 case"), (1, "un territoire de 1 case"),
     (2, "un territoire de 2 cases")],
)
def test_french_plurals_at_zero_one_two(count, french):
    assert say(Phrase("lppg.territory_of", count=count), "fr").endswith(french)


def test_a_drawn_card_is_named_by_its_colour_in_the_feminine():
    state = GAME.new(2, seed=1, options={"deck": deck("R5", "R2", "R15", "B8")})
    state = GAME.play(GAME.play(state, "play 1 0,-1 180"), "mark o 1,1")
    top = state.pile_a[0]
    colour = {1: "rouge", 2: "bleue", 3: "verte", 4: "jaune"}[top // 19 + 1]
    assert say(GAME.explain(state, DrawMove("a")), "fr") == (
        f"Nord pioche une carte {colour} dans la pioche A"
    )


def test_refusals_in_french_with_a_no_break_space_before_the_colon():
    state = GAME.new(2, seed=1)
    with pytest.raises(IllegalMove) as refused:
        GAME.play(state, "draw a")
    assert say(refused.value.phrase, "fr") == (
        "c'est le moment de poser une carte (`play …`) ou de passer (`pass`)"
    )
    with pytest.raises(IllegalMove) as refused:
        GAME.play(state, "jouer")
    assert "\u00a0: essayez" in say(refused.value.phrase, "fr")
