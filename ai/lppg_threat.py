"""LPPG: what a view hides from its seat, and which cards end the game on a board.

The cards in another hand are hidden, but their colours are not: a hidden card of a colour is
equally likely to be any card of that colour the viewer has not seen (``unseen_by_colour``,
``hand_colours``).

A seat with two markers down ends the game by closing a region: its third marker goes there,
and the rules allow that only when its side then wins. Whether a card ends the game is found
with the engine's own search (``placement_codes``, which applies every rule, the third-marker
one included); whether a legal placement closes a region is read from the engine's
``Surroundings`` of its box when the card touches no territory, and by playing it otherwise (a
territory it grows or opens changes the count of markers).
"""

from __future__ import annotations

import dataclasses

from engines.lppg import DECK_SIZE, GAME, LppgState, PlayMove, card_colour, visible_colour
from engines.lppg_cards import ROTATIONS
from engines.lppg_terrain import WHITE_BITS, placement_codes, xy


def unseen_by_colour(view: LppgState) -> dict[int, list[int]]:
    """The cards ``view`` does not show (other hands, piles, discard), by colour (1..4)."""
    seen = {card for card, _, _, _ in view.placed}
    for cards in (*view.hands, view.pile_a, view.pile_b, view.discard):
        seen.update(card for card in cards if card >= 0)
    out: dict[int, list[int]] = {colour: [] for colour in range(1, 5)}
    for card in range(DECK_SIZE):
        if card not in seen:
            out[card_colour(card)].append(card)
    return out


def hand_colours(view: LppgState, seat: int) -> list[int]:
    """The colours of ``seat``'s hidden cards as the view shows them (their backs)."""
    return [visible_colour(card) for card in view.hands[seat] if card < 0 and visible_colour(card)]


def markers_down(state: LppgState, seat: int) -> int:
    return sum(1 for owner, _, _, _ in state.markers if owner == seat)


def with_hand(state: LppgState, seat: int, hand: tuple[int, ...]) -> LppgState:
    """``state`` at the start of ``seat``'s turn, holding ``hand``; the terrain's caches are
    shared (the placed cards and markers are the same)."""
    hands = tuple(hand if s == seat else cards for s, cards in enumerate(state.hands))
    ready = dataclasses.replace(state, hands=hands, turn_seat=seat, to_move=seat,
                                pending="play", keeps=(), last_move=None)
    ready.__dict__["geometry"] = state.geometry
    ready.__dict__["board"] = state.board
    return ready


def card_ends_game(state: LppgState, seat: int, card: int) -> bool:
    """Whether ``seat``, holding ``card``, has a placement in ``state`` that ends the game (it
    then wins: the rules forbid a third marker that does not). ``state``'s decisions of the
    current turn must be over; its hands are ignored."""
    board = state.board
    if markers_down(state, seat) != 2:
        return False
    for code in placement_codes(board, (card,), seat, state.players):
        r = code & 3
        white = WHITE_BITS[card][r]
        around = board.surroundings(code >> 3, r & 1)
        if not white & around.territory_bits:
            if around.largest_closed_after(white):
                return True
            continue
        # The card grows or opens a territory: play it and see whether a third marker follows.
        if _played_ends(state, seat, card, code):
            return True
    return False


def _played_ends(state: LppgState, seat: int, card: int, code: int) -> bool:
    ready = with_hand(state, seat, (card,))
    x, y = xy(code >> 3)
    after = GAME.play(ready, PlayMove(1, x, y, ROTATIONS[code & 3]))
    while after.pending == "keep":
        after = GAME.play(after, GAME.legal_moves(after)[0])
    return after.pending == "mark" and markers_down(after, seat) == 2
