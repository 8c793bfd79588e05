"""Palam images: pieces on their cells (light background for the 11-point pieces), each camp's
column letters from its owner's left, the attacking piece on the duel row."""

from __future__ import annotations

import dataclasses

import engines
import render
from engines.palam import EMPTY, LIGHT_PIECES, cells
from render import palam as palam_render
from render.theme import DARK
from tests.render.helpers import close, decode, pixel

GAME = engines.get("palam")


def corner_of(center, size):
    """A point inside a piece but away from its symbol and label."""
    return (center[0] - size * 0.38, center[1] - size * 0.38)


def test_every_piece_background_matches_its_value():
    state = GAME.new(2, seed=9)
    geo = palam_render.layout(state)
    image = decode(render.board("palam", state))
    seen_light = 0
    for cell in cells(state):
        assert cell.piece != EMPTY
        center = geo.cell_center(state, cell.seat, cell.row, cell.column)
        colour = pixel(image, corner_of(center, palam_render.PIECE))
        if cell.piece in LIGHT_PIECES:
            seen_light += 1
            assert close(colour, palam_render.LIGHT_PIECE), cell
        else:
            assert close(colour, palam_render.DARK_PIECE), cell
    assert seen_light == 4


def test_anubis_columns_run_from_his_own_left():
    state = GAME.new(2, seed=9)
    geo = palam_render.layout(state)
    anubis_a = geo.cell_center(state, state.anubis, 1, 0)
    anubis_f = geo.cell_center(state, state.anubis, 1, 5)
    isis_a = geo.cell_center(state, state.isis, 1, 0)
    isis_f = geo.cell_center(state, state.isis, 1, 5)
    assert anubis_a[0] > anubis_f[0]  # his a is at the east end
    assert isis_a[0] < isis_f[0]
    assert anubis_a[1] < isis_a[1]  # Anubis sits north
    # Half a column apart, so no two duelling pieces are equally far from a symbol.
    assert abs(anubis_f[0] - isis_a[0]) == palam_render.CELL / 2


def test_attack_shows_the_piece_on_the_duel_row_and_empties_its_cell():
    state = GAME.play(GAME.new(2, seed=9), "camp isis")
    attacker = state.to_move
    front = state.piece_at(attacker, 1, 2)
    state = GAME.play(state, "c")
    geo = palam_render.layout(state)
    image = decode(render.board("palam", state))
    duel = geo.duel_center(state, attacker, 2)
    background = palam_render.LIGHT_PIECE if front in LIGHT_PIECES else palam_render.DARK_PIECE
    assert close(pixel(image, corner_of(duel, palam_render.DUEL_PIECE)), background)
    # The cell it left is ringed as the last move.
    cx, cy = geo.cell_center(state, attacker, 1, 2)
    ring = (cx, cy - palam_render.PIECE / 2 - 2)
    assert close(pixel(image, ring), DARK.highlight, 40)


def test_draft_start_renders_the_pool():
    state = GAME.new(2, seed=9, options={"setup": "draft"})
    image = decode(render.board("palam", state, players=["Ann", "Bob"]))
    assert image.width == 800
    assert len(state.pool) == 12


def test_draft_hidden_batch_never_changes_the_image():
    import dataclasses

    state = GAME.new(2, seed=9, options={"setup": "draft"})
    assert state.unrevealed  # the second batch is still face down
    shuffled = dataclasses.replace(state, unrevealed=tuple(reversed(state.unrevealed)))
    for viewer in (None, 0, 1):
        assert render.board("palam", state, viewer=viewer) == render.board(
            "palam", shuffled, viewer=viewer
        )


def resigned_mid_duel(seed: int = 9):
    """Camp chosen, one attack on the duel row, then the one to answer resigns (the bot ends
    the game as ``bot.services.gamestate.apply_forced_outcome`` does: nobody to move)."""
    state = GAME.play(GAME.play(GAME.new(2, seed=seed), "camp isis"), "a")
    answerer = state.to_move
    outcome = engines.Outcome(frozenset({1 - answerer}),
                              tuple(0.0 if s == answerer else 1.0 for s in range(2)), "resigned")
    return dataclasses.replace(state, to_move=None, outcome=outcome), 1 - answerer


def test_a_resignation_mid_duel_keeps_the_attacking_piece_and_counts_the_duels(monkeypatch):
    state, attacker = resigned_mid_duel()
    subtitles: list[str] = []
    real = palam_render.draw_header

    def header(*args, **kwargs):
        subtitles.append(kwargs["subtitle"])
        return real(*args, **kwargs)

    monkeypatch.setattr(palam_render, "draw_header", header)
    geo = palam_render.layout(state)
    image = decode(render.board("palam", state))
    # No duel was fought: the header does not claim twelve.
    assert subtitles == ["duels: 0/12"]
    render.board("palam", state, lang="fr")
    assert subtitles[-1] == "duels\u00a0: 0/12"
    # The attacking piece still stands on the duel row, where it was played.
    piece = state.attack[1]
    duel = geo.duel_center(state, attacker, state.attack[0])
    background = palam_render.LIGHT_PIECE if piece in LIGHT_PIECES else palam_render.DARK_PIECE
    assert close(pixel(image, corner_of(duel, palam_render.DUEL_PIECE)), background)
    # The replay's last frame is the same board.
    render.replay("palam", [GAME.new(2, seed=9), state])
    assert subtitles[-1] == "duels: 0/12"


def test_the_attacker_survives_a_dump_round_trip():
    state, attacker = resigned_mid_duel()
    assert state.attacker == attacker
    assert GAME.load(GAME.dump(state)) == state
    # A dump written before the field names the attacker through the seat to move.
    active = GAME.play(GAME.play(GAME.new(2, seed=9), "camp isis"), "a")
    old = GAME.dump(active)
    del old["attacker"]
    assert GAME.load(old).attacker == 1 - active.to_move
