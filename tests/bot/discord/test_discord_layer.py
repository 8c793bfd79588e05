"""Pure parts of the Discord layer: move buttons and /play parameters from engine metadata."""

from __future__ import annotations

import random

import engines
from bot.discord.delivery import MAX_MOVE_BUTTONS, button_moves, description_text, outcome_text
from engines import Outcome, Phrase


def test_few_moves_all_get_buttons():
    assert button_moves(list("abcdefghijk")) == list("abcdefghijk")
    assert button_moves([]) == []


def test_one_word_moves_among_many_get_buttons_when_a_fair_share():
    columns = list("abcdef")
    swaps = [f"{a}1 {b}1" for a in "abcdef" for b in "abcdef" if a < b] * 4
    assert button_moves(columns + swaps) == columns
    # Two lone one-word moves among thousands are no "fair share" (Palago's endings).
    assert button_moves(["x"] * 2 + ["p q"] * 300) == []
    # Too many one-word moves to show: none.
    assert button_moves([f"m{i}" for i in range(30)] + ["p q"] * 10) == []


def test_on_the_real_engines():
    """Alak: every point; Palam: its column drops; Palago and Polygo: none (typed)."""
    for name, expect_buttons in (("alak", True), ("palam", True), ("palago", False),
                                 ("polygo", False)):
        game = engines.get(name)
        state = game.new(2, seed=7)
        rng = random.Random(7)
        for _ in range(4):
            moves = game.legal_moves(state)
            shown = button_moves(moves)
            assert bool(shown) == expect_buttons, (name, len(moves))
            assert len(shown) <= MAX_MOVE_BUTTONS
            assert set(shown) <= {str(m) for m in moves}
            state = game.play(state, rng.choice(list(moves)))


def test_option_parameters_from_engine_metadata():
    from discord import app_commands

    from bot.discord.cogs.play import _option_parameter
    from engines import Option

    _, few_choices = _option_parameter(Option("length", 11, tuple(range(7, 27))))
    assert [c.value for c in few_choices] == list(range(7, 27))
    many, many_choices = _option_parameter(Option("size", 10, tuple(range(1, 41))))
    assert many_choices is None
    transformer = app_commands.transformers.annotation_to_parameter(many.annotation, many)
    assert (transformer.min_value, transformer.max_value) == (1, 40)
    _, word_choices = _option_parameter(Option("board", "star", ("star", "hex")))
    assert [c.value for c in word_choices] == ["star", "hex"]
    flag, flag_choices = _option_parameter(Option("tiebreak", False, (False, True)))
    assert flag_choices is None and flag.default is None


# ----- what the engine said, in the post's language ---------------------------------------------


def test_a_move_row_says_what_the_move_did_in_the_posts_language():
    said = Phrase("alak.plays_and_captures", seat=Phrase("seat.white"), point="f", count=2)
    assert description_text(said, "f", "en") == "White plays f and captures 2 stones"
    assert description_text(said, "f", "fr") == "Blanc joue f et prend 2 pierres"
    # A move that says no more than itself gets no description.
    assert description_text(Phrase("move.plain", move="f"), "f", "fr") == ""


def test_move_rows_written_before_phrases_still_post_their_text():
    assert description_text("Anubis attacks with E3", "E3", "fr") == "Anubis attacks with E3"
    assert description_text("f", "f", "fr") == ""
    assert description_text(None, "f", "en") == ""


def test_result_reasons_in_the_posts_language():
    outcome = Outcome.said(frozenset({0}), (3.0, 1.0), Phrase(
        "alak.wins", seat=Phrase("seat.black"), count=3, other=1))
    assert outcome_text(outcome, "en") == "Black wins with 3 stones to 1"
    assert outcome_text(outcome, "fr") == "Noir gagne avec 3 pierres contre 1"
    # An outcome without a phrase keeps the engine's words.
    assert outcome_text(Outcome(frozenset(), (0.0, 0.0), "agreed"), "fr") == "agreed"


def test_move_buttons_payload_is_what_move_button_objects_would_send():
    """Boards carry their buttons as a ready payload; a press is dispatched by
    ``MoveButton``'s template, so the payload must be exactly its buttons, five to a row."""
    import discord

    from bot.discord.views.game import BUTTONS_PER_ROW, MoveButton, move_view

    moves = ["a1", "b 2", "c3", "a1", "d4", "e5", "f6", "g7"]  # a repeat goes once
    texts = list(dict.fromkeys(moves))
    built = discord.ui.View(timeout=None)
    for index, text in enumerate(texts):
        built.add_item(MoveButton(12, 34, text, row=index // BUTTONS_PER_ROW))
    view = move_view(12, 34, moves)
    assert view is not None
    assert view.to_components() == built.to_components()
    assert [len(row["components"]) for row in view.to_components()] == [5, 2]
    item = view.to_components()[1]["components"][0]
    assert MoveButton.__discord_ui_compiled_template__.fullmatch(item["custom_id"])["move"] == "f6"
    assert move_view(12, 34, []) is None
    assert move_view(12, 34, ["x" * 81]) is None  # a label Discord would refuse
