"""LPPG's cards (RULES.md §5, Material): 76 cards of 2×3 squares, 19 white-patterns in each of
four colours, their ids (``R1``..``Y19``), their squares at each rotation, and the placeholders
a view puts where a card is hidden.

A card is an integer 0..75: colour ``n // 19`` (red, blue, green, yellow), pattern
``n % 19 + 1``. Square colours are codes: 0 white, 1..4 the card colours in that order.
"""

from __future__ import annotations

WHITE = 0
#: Colour codes: 0 white, then 1..4 for the card colours in this order.
COLOUR_LETTERS = "RBGY"
COLOUR_NAMES = ("white", "red", "blue", "green", "yellow")

#: The 19 white-patterns (RULES.md §5), squares as (row, col) of the upright 2×3 card.
PATTERNS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0),), ((0, 1),), ((0, 2),), ((1, 0),), ((1, 1),), ((1, 2),),
    ((0, 0), (0, 1)), ((0, 1), (0, 2)), ((1, 0), (1, 1)), ((1, 1), (1, 2)),
    ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((0, 2), (1, 2)),
    ((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (1, 2)), ((0, 0), (0, 1), (1, 0)),
    ((0, 1), (1, 0), (1, 1)), ((0, 1), (0, 2), (1, 2)), ((0, 1), (1, 1), (1, 2)),
)
PER_COLOUR = len(PATTERNS)
DECK_SIZE = 4 * PER_COLOUR
#: Card ``n`` (0..75) is ``CARD_IDS[n]``: colour ``n // 19``, pattern ``n % 19 + 1``.
CARD_IDS: tuple[str, ...] = tuple(f"{c}{p}" for c in COLOUR_LETTERS for p in range(1, 20))
_CARD_INDEX = {card_id: n for n, card_id in enumerate(CARD_IDS)}
ROTATIONS = (0, 90, 180, 270)

#: Placeholders in views: a card nobody may see, and one whose colour only is visible (a card
#: back: the top of a draw pile, another seat's hand): ``-2 - (colour - 1)``, so ``R?`` is -2.
HIDDEN = -1
_HIDDEN_TEXT = "?"


def card_colour(card: int) -> int:
    """Colour code (1..4) of card ``card``."""
    return card // PER_COLOUR + 1


def visible_colour(card: int) -> int | None:
    """The colour code anyone may see of a card or placeholder: a card's colour, a card back's
    colour, None for a fully hidden card."""
    if card >= 0:
        return card_colour(card)
    if card == HIDDEN:
        return None
    return -1 - card


def card_back(card: int) -> int:
    """The placeholder for a card seen from its back: its colour only (``R?``). A placeholder
    stays as it is, so viewing a view changes nothing."""
    if card < 0:
        return card
    return -1 - card_colour(card)


def card_id(card: int) -> str:
    """``R7``-style id of a card; ``?`` or ``R?`` for the placeholders of a view."""
    if card >= 0:
        return CARD_IDS[card]
    if card == HIDDEN:
        return _HIDDEN_TEXT
    return COLOUR_LETTERS[-2 - card] + _HIDDEN_TEXT


def card_from_id(text: str) -> int:
    text = text.strip().upper()
    if text == _HIDDEN_TEXT:
        return HIDDEN
    if len(text) == 2 and text[1] == _HIDDEN_TEXT and text[0] in COLOUR_LETTERS:
        return -2 - COLOUR_LETTERS.index(text[0])
    try:
        return _CARD_INDEX[text]
    except KeyError:
        raise ValueError(
            f"{text!r} is not a card id (R1..R19, B1..B19, G1..G19, Y1..Y19)"
        ) from None


def _rotate(row: int, col: int, rot: int) -> tuple[int, int]:
    """(row', col') of square (row, col) once the card is turned ``rot`` degrees clockwise."""
    if rot == 0:
        return row, col
    if rot == 90:
        return col, 1 - row
    if rot == 180:
        return 1 - row, 2 - col
    return 2 - col, row


def _card_squares(card: int, rot: int) -> tuple[tuple[int, int, int], ...]:
    whites = set(PATTERNS[card % PER_COLOUR])
    colour = card_colour(card)
    out = []
    for row in range(2):
        for col in range(3):
            r2, c2 = _rotate(row, col, rot)
            out.append((c2, r2, WHITE if (row, col) in whites else colour))
    return tuple(sorted(out, key=lambda s: (s[1], s[0])))


#: ``CARD_SQUARES[card][r]``: the (dx, dy, colour) of the card's 6 squares at rotation
#: ``ROTATIONS[r]``, relative to the top-left of its box (rendering uses this too).
CARD_SQUARES: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...] = tuple(
    tuple(_card_squares(card, rot) for rot in ROTATIONS) for card in range(DECK_SIZE)
)


def card_squares(card: int, rot: int) -> tuple[tuple[int, int, int], ...]:
    """(dx, dy, colour code) of each square of ``card`` turned ``rot`` degrees clockwise."""
    return CARD_SQUARES[card][ROTATIONS.index(rot)]
