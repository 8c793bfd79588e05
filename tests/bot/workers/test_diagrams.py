"""The rule pictures: every recipe still plays with its engine and shows what its caption says."""

from __future__ import annotations

import pytest

import engines
from bot.core import i18n, rules
from bot.workers import diagrams


def test_sections_point_at_existing_recipes():
    for (game, section_id), key in diagrams.SECTION_DIAGRAMS.items():
        assert game in rules.GAMES
        assert section_id in rules.SECTIONS
        assert (game, key) in diagrams.RECIPES


def test_the_issue_pictures_are_all_there():
    """Palago tile and a creature; Polygo walls; Palam duel parity; LPPG territories; Kolory
    overlap."""
    assert set(diagrams.RECIPES) >= {
        ("palago", "tile"),
        ("palago", "creature"),
        ("polygo", "walls"),
        ("palam", "duel"),
        ("lppg", "territory"),
        ("kolory", "overlap"),
    }


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_picture_has_a_caption(language):
    for game, key in diagrams.RECIPES:
        assert i18n.t(f"rules.diagram.{game}.{key}", language)


@pytest.mark.parametrize(("game", "key"), sorted(diagrams.RECIPES))
def test_recipe_plays_with_the_engine(game, key):
    engines.get(game)
    state = diagrams.position(game, key)
    assert state is not None


def test_palago_creature_is_won_by_blue():
    engines.get("palago")
    state = diagrams.position("palago", "creature")
    assert state.outcome is not None
    assert state.outcome.winners == frozenset({1})
    assert "creature" in state.outcome.reason


def test_palago_tile_shows_the_opening_pair():
    engine = engines.get("palago")
    state = diagrams.position("palago", "tile")
    assert state.outcome is None and state.to_move == 1
    assert engine.legal_moves(state)


def test_polygo_walls_capture_the_centre_stone():
    engine = engines.get("polygo")
    state = diagrams.position("polygo", "walls")
    assert state.outcome is None
    # Black (seat 0) has taken exactly one prisoner: White's stone on i9.
    assert list(engine.dump(state)["captures"]) == [1, 0]


def test_palam_duel_waits_for_the_answer():
    engine = engines.get("palam")
    state = diagrams.position("palam", "duel")
    # Anubis attacked, so the other seat must answer with a column letter.
    moves = [str(m) for m in engine.legal_moves(state)]
    assert moves and all(len(m) == 1 for m in moves)


def test_lppg_territory_is_marked_and_the_turn_goes_on_to_drawing():
    engine = engines.get("lppg")
    state = diagrams.position("lppg", "territory")
    moves = [str(m) for m in engine.legal_moves(state)]
    assert moves and all(m.startswith("draw") for m in moves)


def test_lppg_deck_is_a_full_deck_with_the_region_cards_first():
    deck = diagrams._lppg_deck()
    assert len(deck) == len(set(deck)) == 76
    assert deck[:2] == ("R5", "B2")


def test_kolory_last_card_covers_four_different_cards():
    engines.get("kolory")
    before = diagrams.RECIPES[("kolory", "overlap")]
    assert before.moves[-1] == "0,0"
    state = diagrams.position("kolory", "overlap")
    assert state.outcome is None


def test_every_picture_renders_as_png():
    for game, key in sorted(diagrams.RECIPES):
        assert diagrams.available(game, key)
        data = diagrams.png(game, key)
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
