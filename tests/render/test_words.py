"""The words of the images: every key in both languages with the same fields, French
typography, plural rules, and language tags."""

from __future__ import annotations

import re
import string

import pytest

from render.words import EN, FR, NBSP, Words, language, words

FIELDS = string.Formatter()


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in FIELDS.parse(template) if name}


def test_both_languages_have_every_key():
    assert set(EN) == set(FR)


@pytest.mark.parametrize("key", sorted(EN))
def test_a_translation_uses_the_same_fields(key):
    assert fields(EN[key]) == fields(FR[key]), key


@pytest.mark.parametrize("key", sorted(FR))
def test_french_puts_a_no_break_space_before_colons_and_semicolons(key):
    text = FR[key]
    for match in re.finditer(r"[:;]", text):
        before = text[match.start() - 1] if match.start() else ""
        assert before == NBSP, (key, text)


def test_language_tags():
    assert language("fr") == language("fr-FR") == language("fr_CA") == "fr"
    assert language("en-GB") == language("de") == language(None) == "en"
    assert words("FR-fr").lang == "fr"


def test_plural_rules():
    fr, en = words("fr"), words("en")
    assert fr.count("lppg.cards", 0) == "0 carte"
    assert fr.count("lppg.cards", 1) == "1 carte"
    assert fr.count("lppg.cards", 2) == "2 cartes"
    assert en.count("lppg.cards", 0) == "0 cards"
    assert en.count("lppg.cards", 1) == "1 card"


def test_the_counted_words_of_the_score_and_hand_lines_agree_with_one():
    """Kolory's cards left and Polygo's score line, as their boards write them."""
    fr, en = words("fr"), words("en")
    assert en.count("kolory.cards_left", 1) == "1 card left"
    assert fr.count("kolory.cards_left", 1) == "1 carte en main"
    assert en("polygo.score", points=en.count("polygo.points", -1), territory=0,
              prisoners=en.count("polygo.prisoners", 1)) == "-1 point: 0 territory − 1 prisoner"
    assert fr.count("polygo.prisoners", 1) == "1 prisonnier"


def test_seat_names_translate_and_unknown_names_pass_through():
    fr = Words("fr")
    assert fr.seat("Black") == "Noir"
    assert fr.seat("North") == "Nord"
    assert fr.seat("Player 1") == "Joueur 1"
    assert fr.seat("Somebody") == "Somebody"


def test_a_key_missing_from_a_language_falls_back_to_english(monkeypatch):
    fr = Words("fr")
    monkeypatch.setattr(fr, "table", {})
    assert fr("header.move", n=3) == "move 3"
