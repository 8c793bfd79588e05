"""What the images say: every word in the reader's language, the caller's status and clock
lines, names without glyphs the font lacks."""

from __future__ import annotations

import re

import pytest

import engines
import render
import render.surface
from render import kolory as kolory_render
from render.gallery import SAMPLE_NAMES, phases, player_counts, playout
from render.header import LINE_HEIGHT
from render.surface import Canvas, printable
from render.words import EN, FR
from tests.render.helpers import decode

GAMES = render.supported_games()


@pytest.fixture
def drawn(monkeypatch):
    """Every text drawn on an image while the fixture is active (cached layers included:
    the caches are emptied first so layers are drawn again)."""
    texts: list[str] = []
    for module_name in ("surface", "alak", "polygo", "palago", "palam", "lppg", "kolory",
                        "primitives"):
        module = getattr(render, module_name)
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()
    real_sprite = render.surface.text_sprite
    real_canvas_text = Canvas.text

    def sprite(text, *args, **kwargs):
        texts.append(text)
        return real_sprite(text, *args, **kwargs)

    def canvas_text(self, x, y, text, *args, **kwargs):
        texts.append(text)
        return real_canvas_text(self, x, y, text, *args, **kwargs)

    monkeypatch.setattr(render.surface, "text_sprite", sprite)
    monkeypatch.setattr(Canvas, "text", canvas_text)
    return texts


def english_only_fragments() -> set[str]:
    """Pieces of English sentences (three letters or more, between the fields) that French
    says differently."""
    found = set()
    for key, english in EN.items():
        if english == FR[key]:
            continue
        for part in re.split(r"\{[^}]*\}", english):
            part = part.strip(" :;.,·()/")
            if re.search(r"[A-Za-z]{3}", part) and part not in FR[key]:
                found.add(part)
    return found


@pytest.mark.parametrize("game_name", GAMES)
def test_a_french_image_writes_no_english(game_name, drawn):
    english = [re.compile(rf"\b{re.escape(part)}\b") for part in english_only_fragments()]
    for theme in ("dark", "light"):
        render.palette(game_name, theme)  # built from English samples: not part of the test
    drawn.clear()
    for count in player_counts(game_name):
        states = playout(game_name, count, seed=4)
        for state in phases(states).values():
            render.board(game_name, state, players=SAMPLE_NAMES[:count], lang="fr")
        if hasattr(render._module(game_name), "draw_hand"):
            render.hand(game_name, states[0], 0, players=SAMPLE_NAMES[:count], lang="fr")
    leaks = {(text, part.pattern) for text in drawn for part in english if part.search(text)}
    assert not leaks


@pytest.mark.parametrize("game_name", GAMES)
def test_french_and_english_images_differ_and_tags_are_read(game_name):
    state = playout(game_name, player_counts(game_name)[0], seed=4)[1]
    english = render.board(game_name, state)
    french = render.board(game_name, state, lang="fr")
    assert english != french
    assert render.board(game_name, state, lang="fr-FR") == french
    assert render.board(game_name, state, lang="xx") == english


def test_the_callers_status_replaces_the_headline_and_its_reason_follows(drawn):
    state = playout("alak", 2, seed=4)[-1]
    render.palette("alak")
    drawn.clear()
    render.board("alak", state, players=["Ann", "Bob"], lang="fr",
                 status="Ann gagne\nBob a abandonné.")
    assert "Ann gagne" in drawn
    assert "Bob a abandonné." in drawn
    assert not any(text.startswith("Partie terminée") for text in drawn)


def test_an_empty_status_keeps_the_images_own_headline_over_the_callers_reason(drawn):
    state = playout("alak", 2, seed=4)[-1]
    render.palette("alak")
    drawn.clear()
    render.board("alak", state, players=["Ann", "Bob"], lang="fr", status="\nBob a abandonné.")
    assert "Bob a abandonné." in drawn
    assert any(text.startswith("Partie terminée") for text in drawn), drawn


def test_the_engines_english_reason_is_not_written_on_a_french_image(drawn):
    state = playout("alak", 2, seed=4)[-1]
    assert state.outcome.reason
    render.palette("alak")
    drawn.clear()
    render.board("alak", state, lang="fr")
    assert not any(state.outcome.reason[1:] in text for text in drawn)
    drawn.clear()
    render.board("alak", state)
    assert any(state.outcome.reason[1:] in text for text in drawn)


@pytest.mark.parametrize("game_name", GAMES)
def test_the_clock_line_is_written_in_the_header(game_name, drawn):
    state = playout(game_name, player_counts(game_name)[0], seed=4)[1]
    plain = decode(render.board(game_name, state))
    clock = "due Mon 14:00 UTC · bank 2d 4h"
    timed = decode(render.board(game_name, state, clock=clock))
    assert clock in drawn
    assert timed.height == plain.height + LINE_HEIGHT


def test_names_lose_glyphs_the_font_lacks():
    assert printable("Ann 🎉") == "Ann"
    assert printable("🎉🎉") == "?"
    assert printable("Chloé ★") == "Chloé ★"
    state = engines.get("alak").new(2, seed=1)
    assert render.board("alak", state, players=["🎉 Ann", "Bob"]) == render.board(
        "alak", state, players=["Ann", "Bob"])


def test_kolory_order_of_play_follows_the_round(drawn):
    game = engines.get("kolory")
    state = game.new(4, seed=3)
    state = game.play(state, game.legal_moves(state)[0])
    order = kolory_render.play_order(state)
    first = state.round_first
    assert [seat for seat, _ in order] == [(first + i) % 4 for i in range(4)]
    assert [played for _, played in order] == [True, False, False, False]
    assert order[1][0] == state.to_move
    names = ["Ann", "Bob", "Cy", "Di"]
    render.board("kolory", state, players=names)
    shown = [text for text in drawn if text.lstrip("✓ ") in names]
    expected = [("✓ " if played else "") + names[seat] for seat, played in order]
    assert shown[-4:] == expected  # after the header's own names, the strip in play order
    final = playout("kolory", 3, seed=2)[-1]
    drawn.clear()
    render.board("kolory", final, players=names[:3])
    assert not any(text.startswith("Round") for text in drawn)
