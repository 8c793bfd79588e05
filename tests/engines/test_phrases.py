"""Phrases: what engines say to players, as a key plus parameters with an English sentence."""

from __future__ import annotations

import random

import pytest

import engines
from engines import IllegalMove, Outcome, Phrase
from engines.core import dump_outcome, load_outcome
from engines.phrases import ENGLISH, define, english
from tests.engines.refusals import assert_translatable, refusal


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


def _candidate_texts(rng: random.Random, stale: list[str]) -> list[str]:
    """Move texts of every shape the Go-like and card games read, mostly wrong here: points,
    cells with and without walls, marks, words, placements, and moves that were legal before."""
    letters = "abcdefghijklmnopqrstuvwxyz"

    def cell() -> str:
        return f"{rng.choice(letters)}{rng.randrange(0, 20)}"

    return [
        *GARBAGE,
        rng.choice(letters),
        cell(),
        f"{cell()} {cell()}",
        f"{cell()} {cell()} {cell()}",
        f"{rng.choice(['dead', 'alive'])} {cell()}",
        rng.choice(["pass", "accept", "resume", "dead", "pass i9"]),
        f"{rng.randrange(-6, 7)},{rng.randrange(-6, 7)}",
        f"{rng.randrange(-600, 600)},{rng.randrange(-600, 600)}",
        *rng.sample(stale, min(3, len(stale))),
    ]


GARBAGE = ["", "   ", "zz99", "pass pass pass", "1,2,3/9", "💥", "a" * 200, "-5", "(1,"]


@pytest.mark.parametrize("name", ["alak", "polygo", "kolory"])
def test_every_refusal_move_description_and_result_is_a_phrase_of_the_game(name):
    game = engines.get(name)
    palam = engines.get("palam")
    other_game_move = palam.legal_moves(palam.new(2, seed=1))[0]
    codes: set[str] = set()
    for seed in range(8):
        rng = random.Random(seed)
        counts = game.allowed_player_counts()
        options = {"board": ("star", "hex5", "square9")[seed % 3]} if name == "polygo" else None
        state = game.new(counts[seed % len(counts)], seed=seed, options=options)
        stale: list[str] = []
        while state.to_move is not None:
            legal = list(game.legal_moves(state))
            for attempt in [*_candidate_texts(rng, stale), 42, None, other_game_move]:
                if game.is_legal(state, attempt):
                    continue
                error = refusal(game, state, attempt)
                assert_translatable(error, game)
                assert all(part.key in ENGLISH for part in error.phrase)
                codes.add(error.code)
            move = rng.choice(legal)
            explained = game.explain(state, move)
            assert explained.key.startswith(f"{name}.") or explained.key == "move.plain"
            assert game.describe(state, move) == str(explained)
            stale.append(str(move))
            state = game.play(state, move)
        assert state.outcome.phrase is not None
        assert state.outcome.phrase.key.startswith(f"{name}.")
        assert state.outcome.reason == str(state.outcome.phrase)
    assert len(codes) >= 4  # the inputs really reach the game's own refusals
