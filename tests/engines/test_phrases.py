"""Phrases: what engines say to players, as a key plus parameters with an English sentence."""

from __future__ import annotations

import pytest

import engines
from engines import IllegalMove, Outcome, Phrase
from engines.core import dump_outcome, load_outcome
from engines.phrases import ENGLISH, define, english


def test_str_is_the_english_sentence_with_nested_phrases_translated():
    phrase = Phrase("outcome.resigned", seat=Phrase("seat.white"))
    assert str(phrase) == "White resigned"
    assert english(phrase) == str(phrase)


def test_phrases_are_values():
    a = Phrase("outcome.timeout", seat=Phrase("seat.black"))
    b = Phrase("outcome.timeout", seat=Phrase("seat.black"))
    assert a == b and hash(a) == hash(b)
    assert a != Phrase("outcome.timeout", seat=Phrase("seat.white"))
    with pytest.raises(AttributeError):
        a.key = "other"  # type: ignore[misc]


def test_dump_and_load_round_trip_nested_phrases():
    phrase = Phrase("outcome.resigned", seat=Phrase("seat.north"))
    assert Phrase.load(phrase.dump()) == phrase


def test_plural_templates_follow_count():
    define({"test.stones": {"one": "{count} stone", "other": "{count} stones"}})
    assert [str(Phrase("test.stones", count=n)) for n in (0, 1, 2)] == [
        "0 stones", "1 stone", "2 stones",
    ]


def test_a_key_cannot_be_defined_twice_with_different_english():
    define({"test.same": "same"})
    define({"test.same": "same"})  # harmless
    with pytest.raises(ValueError):
        define({"test.same": "different"})


def test_unknown_key_is_an_error_not_a_silent_blank():
    with pytest.raises(KeyError):
        str(Phrase("no.such.key"))


def test_illegal_move_carries_code_params_and_english_reason():
    error = IllegalMove(Phrase("outcome.resigned", seat=Phrase("seat.black")))
    assert error.code == "outcome.resigned"
    assert error.params == {"seat": Phrase("seat.black")}
    assert error.reason == str(error) == "Black resigned"


def test_protocol_refusals_have_codes():
    game = engines.get("alak")
    state = game.new(2, seed=1)
    with pytest.raises(IllegalMove) as caught:
        game.parse_move("   ", state)
    assert caught.value.code == "illegal.empty"


def test_outcome_phrase_survives_dump_and_load():
    outcome = Outcome.said(frozenset({1}), (0.0, 1.0),
                           Phrase("outcome.timeout", seat=Phrase("seat.black")))
    assert outcome.reason == "Black ran out of time"
    assert load_outcome(dump_outcome(outcome)) == outcome


def test_outcomes_stored_before_phrases_still_load():
    old = {"winners": [0], "scores": [1.0, 0.0], "reason": "Black wins"}
    assert load_outcome(old) == Outcome(frozenset({0}), (1.0, 0.0), "Black wins")


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_every_seat_name_is_a_phrase_with_english(name):
    game = engines.get(name)
    state = game.new(game.allowed_player_counts()[-1], seed=3)
    for seat in range(state.players):
        phrase = game.seat_phrase(state, seat)
        assert phrase.key in ENGLISH
        assert game.seat_name(state, seat) == str(phrase)
