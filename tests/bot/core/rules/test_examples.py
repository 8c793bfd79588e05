"""Every move shown in the rule texts is real notation for its game's engine."""

from __future__ import annotations

import pytest

import engines
from bot.core import i18n, rules
from engines.core import normalize_text

CASES = [
    pytest.param(game, section_id, example, id=f"{game}-{section_id}-{example.move}")
    for game in rules.GAMES
    for section_id in rules.SECTIONS
    for example in rules.examples(game, section_id)
]


def position_for(game: engines.Game, example: rules.Example):
    """A fresh game with the example's options and player count, after its ``after`` moves."""
    players = example.players or game.allowed_player_counts()[0]
    state = game.new(players, seed=1234, options=dict(example.options))
    for move in example.after:
        state = game.play(state, move)
    return state


def test_there_are_examples_for_every_game():
    assert {case.values[0] for case in CASES} == set(rules.GAMES)


@pytest.mark.parametrize(("game_name", "section_id", "example"), CASES)
def test_example_parses_in_canonical_form(game_name, section_id, example):
    game = engines.get(game_name)
    state = position_for(game, example)
    move = game.parse_move(example.move, state)
    # The texts teach players the notation, so they show it the way the bot writes it back.
    assert normalize_text(str(move)) == normalize_text(example.move)


@pytest.mark.parametrize(
    ("game_name", "section_id", "example"),
    [case for case in CASES if not case.values[2].parse_only],
)
def test_example_is_legal_in_its_position(game_name, section_id, example):
    game = engines.get(game_name)
    state = position_for(game, example)
    after = game.play(state, example.move)
    assert after != state


@pytest.mark.parametrize("game_name", rules.GAMES)
def test_variants_mention_every_engine_option(game_name):
    """A player reading *Variants* learns every option `/play` offers for the game."""
    game = engines.get(game_name)
    for language in rules.LANGUAGES:
        texts = i18n.catalog(language)
        body = rules.section(game_name, "variants", language).body
        for option in (o for o in game.options if not o.hidden):
            # The option as the reader sees it in Discord: localised when the catalog says so.
            shown = texts.get(f"commands.play.{game_name}.options.{option.name}.name", option.name)
            assert f"`{shown}`" in body, (language, shown)
