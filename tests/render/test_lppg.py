"""LPPG images: the terrain in its card colours, markers on territories, and above all no hidden
card ever reaching an image it should not: hands and pile order stay out of every board image,
and a seat's hand image shows that seat's cards only."""

from __future__ import annotations

import dataclasses

import pytest

import engines
import render
from engines.lppg import CARD_IDS, card_colour, card_squares, terrain, territories
from render import lppg as lppg_render
from render.gallery import playout
from tests.render.helpers import close, decode, pixel

GAME = engines.get("lppg")


def deck_with_swap(first: int, second: int) -> list[str]:
    """A fixed dealing order, with two positions exchanged."""
    order = list(CARD_IDS)
    order[first], order[second] = order[second], order[first]
    return order


def same_colour_partner(order: list[str], position: int, start: int) -> int:
    """A later position holding a card of the same colour as ``order[position]``."""
    colour = order[position][0]
    return next(i for i in range(start, len(order)) if order[i][0] == colour)


def test_hidden_cards_never_change_a_board_image():
    # Two players: terrain = cards 0-1, hands = 2-3 (seat 0) and 4-5 (seat 1), piles after.
    base = list(CARD_IDS)
    deep = same_colour_partner(base, 2, 10)  # deep inside pile A, never a pile top
    one = GAME.new(2, seed=1, options={"deck": base})
    other = GAME.new(2, seed=1, options={"deck": deck_with_swap(2, deep)})
    assert one.hands[0] != other.hands[0]  # the states really differ, in hidden cards only
    for viewer in (None, 0, 1):
        for theme in ("dark", "light"):
            assert render.board("lppg", one, viewer=viewer, theme=theme) == render.board(
                "lppg", other, viewer=viewer, theme=theme
            )
    # Seat 0's own hand image does show the difference; seat 1's does not.
    assert render.hand("lppg", one, 0) != render.hand("lppg", other, 0)
    assert render.hand("lppg", one, 1) == render.hand("lppg", other, 1)


def test_pile_order_below_the_top_is_not_drawn():
    base = list(CARD_IDS)
    # Pile A starts at position 6 (two players); swap two cards below its top.
    a, b = 8, 20
    one = GAME.new(2, seed=1, options={"deck": base})
    other = GAME.new(2, seed=1, options={"deck": deck_with_swap(a, b)})
    assert one.pile_a != other.pile_a
    assert render.board("lppg", one) == render.board("lppg", other)
    # A different top colour is public, and shows.
    top_swap = next(i for i in range(7, 40) if base[i][0] != base[6][0])
    changed = GAME.new(2, seed=1, options={"deck": deck_with_swap(6, top_swap)})
    assert render.board("lppg", one) != render.board("lppg", changed)


def test_terrain_squares_have_their_card_colour():
    state = GAME.new(2, seed=3)
    view = lppg_render.layout(state)
    image = decode(render.board("lppg", state))
    squares = terrain(state)
    assert squares
    for (x, y), colour in squares.items():
        cx, cy = view.center(x, y)
        assert close(pixel(image, (cx + view.cell * 0.3, cy + view.cell * 0.3)),
                     lppg_render.CARD_COLOURS[colour]), (x, y)


def test_markers_sit_on_their_territories():
    states = playout("lppg", 2, seed=7)
    state = next(s for s in states if s.markers)
    view = lppg_render.layout(state)
    image = decode(render.board("lppg", state))
    for seat, _kind, x, y in state.markers:
        cx, cy = view.center(x, y)
        # Just off the middle, where the territory size is written.
        spot = (cx - view.cell * 0.22, cy)
        assert close(pixel(image, spot), lppg_render._seat_colour(state, seat), 30)
    owned = {square for _, _, region in territories(state) for square in region}
    marker_squares = {(x, y) for _, _, x, y in state.markers}
    tinted = next(iter(owned - marker_squares), None)
    if tinted is not None:  # a territory of more than one square: the others are tinted
        colour = terrain(state)[tinted]
        cx, cy = view.center(*tinted)
        assert not close(pixel(image, (cx, cy)), lppg_render.CARD_COLOURS[colour], 8)


def test_hand_shows_both_cards_in_four_rotations():
    state = GAME.new(2, seed=5)
    image = decode(render.hand("lppg", state, 0, players=["Ann", "Bob"], theme="light"))
    assert image.width == 800
    assert image.height >= 300
    card = state.hands[0][0]
    # Slot 1, rotation 0: the first card drawn on the first row.
    unit = lppg_render.HAND_UNIT
    x0, y0 = lppg_render.HAND_LEFT, lppg_render.HAND_TOP + 4
    for dx, dy, colour in card_squares(card, 0):
        spot = (x0 + dx * unit + unit / 2, y0 + dy * unit + unit / 2)
        assert close(pixel(image, spot), lppg_render.CARD_COLOURS[colour]), (dx, dy)
    assert card_colour(card) in (1, 2, 3, 4)


def test_hand_refuses_games_without_hands():
    state = engines.get("alak").new(2, seed=1)
    with pytest.raises(ValueError):
        render.hand("alak", state, 0)


def test_cancelled_territories_are_crossed_at_the_end():
    from collections import Counter

    from render.theme import DARK

    for seed in range(40):
        final = playout("lppg", 4, seed)[-1]
        sizes = Counter(len(region) for _, _, region in territories(final))
        if final.outcome is not None and any(n > 1 for n in sizes.values()):
            break
    else:
        pytest.fail("no finished game with two territories of one size in 40 seeded games")
    view = lppg_render.layout(final)
    image = decode(render.board("lppg", final))
    for seat, kind, x, y in final.markers:
        size = next(len(r) for s, k, r in territories(final)
                    if s == seat and k == kind and (x, y) in r)
        cx, cy = view.center(x, y)
        # On the cross's diagonal, just outside the marker disc (the line is thin: also a
        # pixel closer in along the diagonal, so rounding cannot miss it; not further out,
        # where the last move's ring lies).
        spots = [(cx + view.cell * 0.39 + d, cy + view.cell * 0.39 + d) for d in (-1, 0)]
        crossed = any(close(pixel(image, spot), DARK.highlight, 40) for spot in spots)
        assert crossed == (sizes[size] > 1), (seat, kind, size)


def _pile_panel_top(view_state) -> float:
    grid = lppg_render.layout(view_state)
    return grid.top + grid.pixel_height + 14


def test_a_public_view_shows_pile_tops_and_hand_backs():
    # Built by hand, as the bot stores it: the public view of a fresh game. Rendering it again
    # (render applies the view once more) must keep the colours the view shows.
    from engines.lppg import HIDDEN, card_colour

    state = GAME.new(2, seed=6)
    public = GAME.view(state, None)
    top_colour = card_colour(state.pile_a[0])
    assert public.pile_a[0] == -2 - (top_colour - 1)  # the colour placeholder
    assert all(card < HIDDEN for hand in public.hands for card in hand)
    image = decode(render.board("lppg", public))
    top = _pile_panel_top(public)
    cy = top + lppg_render.PILES_HEIGHT / 2
    spot = (lppg_render.MARGIN + 8, cy - 12)  # the card back of pile A, beside its "?"
    assert close(pixel(image, spot), lppg_render.CARD_COLOURS[top_colour])
    # Hand backs: the same view with every hand card fully hidden draws differently.
    blank = dataclasses.replace(public, hands=tuple((HIDDEN,) * len(h) for h in public.hands))
    assert render.board("lppg", blank) != render.board("lppg", public)
    # And a seat's own view rendered for everyone is the public image.
    assert render.board("lppg", GAME.view(state, 0)) == render.board("lppg", public)


def test_public_view_keeps_placeholders_when_the_engine_view_would_blank_them():
    from engines.lppg import HIDDEN

    state = GAME.new(2, seed=6)
    public = GAME.view(state, None)
    seen = lppg_render.public_view(GAME, public, None)
    assert seen.pile_a[0] == public.pile_a[0] != HIDDEN
    assert seen.hands == public.hands


def test_four_players_names_in_the_hands_panel_are_never_cut(monkeypatch):
    """Two columns of hands leave little room: a long name is set smaller or on two lines,
    never cut ("IA (m…" was all a French table showed of its AI players)."""
    from render.surface import Frame

    drawn: list[str] = []
    real = Frame.text

    def text(self, x, y, value, *args, **kwargs):
        drawn.append(value)
        return real(self, x, y, value, *args, **kwargs)

    monkeypatch.setattr(Frame, "text", text)
    names = ["alice", "IA 1 (moyen)", "IA 2 (moyen)", "IA 3 (moyen)"]
    render.board("lppg", GAME.new(4, seed=3), players=names, lang="fr")
    assert not [value for value in drawn if "…" in value]
    # Each AI name is there whole: on one line, or as its two halves one above the other.
    for name in names[1:]:
        first, second = name.split(" (")
        assert name in drawn or (first in drawn and f"({second}" in drawn), drawn


def test_fit_name_shrinks_then_wraps_then_cuts():
    from render.surface import fit_name, text_width

    assert fit_name("alice", 16, 62) == (["alice"], 16)
    lines, size = fit_name("IA 1 (moyen)", 16, 62)
    assert lines == ["IA 1", "(moyen)"] and all(text_width(x, size) <= 62 for x in lines)
    lines, size = fit_name("Bartholomew-Longname the Third", 16, 62)
    assert len(lines) == 2 and lines[0].endswith("…") and size == 11
