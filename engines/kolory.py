"""Kolory (Aurélien Piet): overlapping 2×2 cards, biggest patch of your colour wins. RULES.md §6.

Board
    Card 0 is the white start card on (0,0)..(1,1); card ``n`` (n >= 1) is the n-th placement.
    ``state.cards[n]`` says whose card it is, where its top-left square is, and which cards it
    covered (the stack). ``visible_squares(state)`` maps every occupied square to the card seen on
    top of it. Squares are (x, y), x to the right, y downward, unbounded.

Notation
    ``x,y``: the top-left square of the card placed (``-1,2``). Spaces and parentheses are ignored.

Turn order
    Each round every seat places one card. The first seat of round ``n`` (1..10) is
    ``rng_for(seed, "round", n).randrange(players)``; the others follow in increasing seat order,
    wrapping around. The draw for a round is made when the round begins, so future first players
    are unknown to anyone who cannot see the seed (views hide it while the game runs).

Rulings (each has a test in tests/engines/test_kolory.py)
    1. "Covered squares belong to different cards" is judged on the visible cards: each square of
       the new card lies over nothing or over the top card of that square, and no card may have
       two of its visible squares covered by one placement.
    2. While a white square is visible the new card covers exactly one white square (it may also
       cover squares of other cards, each of a different card). Once no white square is visible
       it must cover at least one square; a card lying next to others without overlap is refused.
    3. A card may cover squares of its owner's own cards (the sheets only ask for different cards).
    4. Rounds are drawn independently: the same seat may open several rounds, and the last seat of
       a round may also open the next one, placing two cards in a row.
    5. There is always a legal placement (a card can always be put with one corner over a corner
       square of the picture's bounding box), so no pass exists.
    6. Scores are the largest orthogonally connected group of visible squares of the seat's
       colour; every seat with the best score wins (a shared win). ``scores`` are those sizes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from engines import register
from engines.core import (
    Game,
    IllegalMove,
    LazyMoves,
    Move,
    Outcome,
    dump_outcome,
    fast_init,
    load_outcome,
    rng_for,
)
from engines.phrases import Phrase, and_list
from engines.squaregrid import Square, components

COLOURS = ("Red", "Blue", "Green", "Yellow", "Orange")

WHITE = -1  # owner of the start card
CARDS_PER_PLAYER = 10
ROUNDS = CARDS_PER_PLAYER

# Squares are packed into ints on the hot path: key = (x + OFFSET) * STRIDE + (y + OFFSET).
# Every card overlaps an earlier one, so the picture grows by at most one square per card in each
# direction: 50 cards keep |x|, |y| <= 52, far inside the packing range.
OFFSET = 512
STRIDE = 1024


def pack(x: int, y: int) -> int:
    return (x + OFFSET) * STRIDE + (y + OFFSET)


def unpack(key: int) -> Square:
    return (key // STRIDE - OFFSET, key % STRIDE - OFFSET)


# The four squares of a card relative to its top-left key: (0,0) (1,0) (0,1) (1,1).
CARD_OFFSETS = (0, STRIDE, 1, STRIDE + 1)
# Top-left keys of the cards that would include a given square.
TOP_LEFTS_OVER = (0, -STRIDE, -1, -STRIDE - 1)


@dataclass(frozen=True, slots=True)
class KoloryMove(Move):
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.x},{self.y}"


_MOVES: dict[int, KoloryMove] = {}


def _move_for(key: int) -> KoloryMove:
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = KoloryMove(*unpack(key))
    return move


@dataclass(frozen=True)
class Card:
    """A placed card: its owner (a seat, or WHITE), its top-left square, and the cards it covered
    (one entry per covered square, in the order (0,0) (1,0) (0,1) (1,1) of the card)."""

    owner: int
    x: int
    y: int
    covers: tuple[int, ...] = ()

    @property
    def squares(self) -> tuple[Square, Square, Square, Square]:
        x, y = self.x, self.y
        return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


START_CARD = Card(WHITE, 0, 0)


@fast_init
@dataclass(frozen=True, slots=True)
class KoloryState:
    players: int
    seed: int | str | None
    to_move: int | None
    #: Every card on the table in placement order; cards[0] is the white start card.
    cards: tuple[Card, ...]
    #: 1..10; the first seat of this round and how many cards were placed in it so far.
    round: int
    round_first: int
    placed_in_round: int
    outcome: Outcome | None = None
    last_move: KoloryMove | None = None
    #: Visible top card per occupied square (packed key -> card index). Derived from ``cards``
    #: (so left out of equality and hashing); a read-only view, so the state stays immutable.
    top: Mapping[int, int] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, hash=False, repr=False
    )
    #: How many white squares are still visible (derived likewise).
    white_visible: int = field(default=4, compare=False, hash=False, repr=False)
    #: The packed top-left keys of the legal placements, sorted (derived likewise, filled in
    #: when first needed).
    legal_keys: tuple[int, ...] | None = field(
        default=None, init=False, compare=False, hash=False, repr=False
    )
    #: After a placement with no white square visible, before and after: the previous
    #: state's legal keys and where the card went, from which ``legal_keys`` is updated when
    #: first needed (derived likewise).
    legal_before: tuple[tuple[int, ...], int] | None = field(
        default=None, init=False, compare=False, hash=False, repr=False
    )

    def cards_left(self, seat: int) -> int:
        placed = sum(1 for card in self.cards if card.owner == seat)
        return CARDS_PER_PLAYER - placed


def visible_squares(state: KoloryState) -> dict[Square, int]:
    """Every occupied square and the index of the card seen on top of it."""
    return {unpack(key): card for key, card in state.top.items()}


def visible_colours(state: KoloryState) -> dict[Square, int]:
    """Every occupied square and the owner of its top card (a seat, or WHITE)."""
    cards = state.cards
    return {unpack(key): cards[card].owner for key, card in state.top.items()}


def largest_groups(state: KoloryState) -> tuple[int, ...]:
    """Per seat, the size of its largest orthogonally connected group of visible squares."""
    by_owner: dict[int, list[Square]] = {seat: [] for seat in range(state.players)}
    cards = state.cards
    for key, card in state.top.items():
        owner = cards[card].owner
        if owner != WHITE:
            by_owner[owner].append(unpack(key))
    return tuple(
        max((len(group) for group in components(by_owner[seat])), default=0)
        for seat in range(state.players)
    )


def _first_player(seed: int | str, round_number: int, players: int) -> int:
    return rng_for(seed, "round", round_number).randrange(players)


def _covered(top: Mapping[int, int], key: int) -> list[int] | None:
    """Cards under a card placed at top-left ``key``, or None if the placement is illegal
    because two squares would cover the same card."""
    get = top.get
    a = get(key)
    b = get(key + STRIDE)
    c = get(key + 1)
    d = get(key + STRIDE + 1)
    covered = [v for v in (a, b, c, d) if v is not None]
    if len(covered) > 1 and len(set(covered)) != len(covered):
        return None
    return covered


def _fits(get: Any, key: int, need_white: bool) -> bool:
    """Whether a card may go with its top-left square on ``key`` (``get`` reads the visible
    map): it overlaps some card, covers no card twice, and covers the white card if it must."""
    a = get(key)
    b = get(key + STRIDE)
    c = get(key + 1)
    d = get(key + STRIDE + 1)
    if a is not None and a in (b, c, d):
        return False
    if b is not None and b in (c, d):
        return False
    if c is not None and c == d:
        return False
    if need_white:
        return 0 in (a, b, c, d)
    return not (a is None and b is None and c is None and d is None)


def _all_legal_keys(top: Mapping[int, int], white_visible: int) -> tuple[int, ...]:
    """Every legal placement, found from the squares a card must overlap."""
    # While white is visible a card covers exactly one white square: candidates touch one.
    anchors = [key for key, card in top.items() if card == 0] if white_visible else list(top)
    get = top.get
    need_white = white_visible > 0
    candidates = {anchor + d for anchor in anchors for d in TOP_LEFTS_OVER}
    return tuple(sorted(key for key in candidates if _fits(get, key, need_white)))


#: Top-left keys of the placements that overlap a card placed at key 0 (its 3×3 neighbourhood).
_WINDOWS_AROUND = tuple(dx * STRIDE + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def _next_legal_keys(
    legal: tuple[int, ...], key: int, top: Mapping[int, int]
) -> tuple[int, ...]:
    """The legal placements once no white square is visible, after a card went on ``key``:
    only placements overlapping that card can change, so only those are judged again."""
    keys = set(legal)
    get = top.get
    for offset in _WINDOWS_AROUND:
        window = key + offset
        if _fits(get, window, False):
            keys.add(window)
        else:
            keys.discard(window)
    return tuple(sorted(keys))


_set_legal_keys = KoloryState.__dict__["legal_keys"].__set__
_set_legal_before = KoloryState.__dict__["legal_before"].__set__


class Placements(LazyMoves[KoloryMove]):
    """Legal placements as a lazy sequence over their sorted keys: a move object is made (or
    found in the shared cache) only when asked for."""

    __slots__ = ("_keys",)

    def __init__(self, keys: tuple[int, ...]) -> None:
        self._keys = keys

    def __len__(self) -> int:
        return len(self._keys)

    def _at(self, index: int) -> KoloryMove:
        return _move_for(self._keys[index])

    def __iter__(self) -> Iterator[KoloryMove]:
        return map(_move_for, self._keys)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, KoloryMove) and pack(move.x, move.y) in self._keys


class Kolory(Game):
    name = "kolory"
    title = "Kolory"
    min_players = 2
    max_players = 5
    seat_names = COLOURS
    chance = True  # the first player of each round is drawn
    hidden_information = False  # nothing but the seed (future draws), which every view removes

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> KoloryState:
        first = _first_player(seed, 1, players)
        top = {pack(x, y): 0 for x, y in START_CARD.squares}
        return KoloryState(
            players=players, seed=seed, to_move=first, cards=(START_CARD,), round=1,
            round_first=first, placed_in_round=0, top=MappingProxyType(top), white_visible=4,
        )

    # ----- moves ------------------------------------------------------------------------------

    def _legal_moves(self, state: KoloryState) -> Placements:
        return Placements(self._legal_keys(state))

    def _legal_keys(self, state: KoloryState) -> tuple[int, ...]:
        keys = state.legal_keys
        if keys is None:
            before = state.legal_before
            if before is None:
                keys = _all_legal_keys(state.top, state.white_visible)
            else:
                keys = _next_legal_keys(*before, state.top)
            _set_legal_keys(state, keys)
        return keys

    def _parse(self, text: str, state: KoloryState | None) -> KoloryMove:
        cleaned = text.replace("(", "").replace(")", "").replace(" ", "")
        parts = cleaned.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            x, y = int(parts[0]), int(parts[1])
        except ValueError:
            raise IllegalMove(Phrase("kolory.not_a_placement", text=text)) from None
        if not (-OFFSET < x < OFFSET - 1 and -OFFSET < y < OFFSET - 1):
            raise IllegalMove(Phrase("kolory.far_away", square=f"{x},{y}"))
        return KoloryMove(x, y)

    def _play(self, state: KoloryState, move: KoloryMove) -> KoloryState:
        if move.__class__ is not KoloryMove:
            raise IllegalMove(Phrase("illegal.wrong_game"))
        if not (-OFFSET < move.x < OFFSET - 1 and -OFFSET < move.y < OFFSET - 1):
            raise IllegalMove(Phrase("kolory.far_away", square=str(move)))
        key = pack(move.x, move.y)
        top = state.top
        covered = _covered(top, key)
        if covered is None:
            raise IllegalMove(Phrase("kolory.same_card_twice", square=str(move)))
        if not covered:
            raise IllegalMove(Phrase("kolory.no_overlap", square=str(move)))
        white_covered = covered.count(0)
        if state.white_visible and white_covered != 1:
            raise IllegalMove(Phrase("kolory.one_white", square=str(move)))
        index = len(state.cards)
        new_top = dict(top)
        covers = []
        for offset in CARD_OFFSETS:
            square = key + offset
            below = top.get(square)
            if below is not None:
                covers.append(below)
            new_top[square] = index
        seat = state.to_move
        card = Card(seat, move.x, move.y, tuple(covers))
        placed = state.placed_in_round + 1
        round_number, first = state.round, state.round_first
        to_move: int | None
        outcome = None
        if placed < state.players:
            to_move = (first + placed) % state.players
        elif round_number < ROUNDS:
            round_number += 1
            first = _first_player(state.seed, round_number, state.players)
            placed = 0
            to_move = first
        else:
            to_move = None
        white_visible = state.white_visible - white_covered
        top_view = MappingProxyType(new_top)
        after = KoloryState(
            state.players, state.seed, to_move, (*state.cards, card), round_number, first,
            placed, None, move, top_view, white_visible,
        )
        if to_move is None:
            outcome = _outcome(after)
            return replace(after, outcome=outcome)
        if state.legal_keys is not None and not state.white_visible:
            _set_legal_before(after, (state.legal_keys, key))
        return after

    # ----- words and storage ------------------------------------------------------------------

    def explain(self, state: KoloryState, move: KoloryMove) -> Phrase:
        if state.to_move is None:
            return Phrase("move.plain", move=str(move))
        return Phrase(
            "kolory.places", seat=self.seat_phrase(state, state.to_move), square=str(move)
        )

    def dump(self, state: KoloryState) -> dict:
        return {
            "game": self.name,
            "players": state.players,
            "seed": state.seed,
            "to_move": state.to_move,
            # The start card is implied; each placement as [seat, x, y] in order.
            "cards": [[c.owner, c.x, c.y] for c in state.cards[1:]],
            "round": state.round,
            "round_first": state.round_first,
            "placed_in_round": state.placed_in_round,
            "last_move": None if state.last_move is None else str(state.last_move),
            "outcome": dump_outcome(state.outcome),
        }

    def load(self, data: Mapping[str, Any]) -> KoloryState:
        # Rebuild the stack (what each card covered) and the visible map from the placements.
        top = {pack(x, y): 0 for x, y in START_CARD.squares}
        cards = [START_CARD]
        white = 4
        for owner, x, y in data["cards"]:
            key = pack(x, y)
            covers = []
            for offset in CARD_OFFSETS:
                below = top.get(key + offset)
                if below is not None:
                    covers.append(below)
                    white -= below == 0
                top[key + offset] = len(cards)
            cards.append(Card(owner, x, y, tuple(covers)))
        last = data.get("last_move")
        return KoloryState(
            players=data["players"],
            seed=data["seed"],
            to_move=data["to_move"],
            cards=tuple(cards),
            round=data["round"],
            round_first=data["round_first"],
            placed_in_round=data["placed_in_round"],
            outcome=load_outcome(data.get("outcome")),
            last_move=None if last is None else self._parse(last, None),
            top=MappingProxyType(top),
            white_visible=white,
        )


def _outcome(state: KoloryState) -> Outcome:
    sizes = largest_groups(state)
    best = max(sizes)
    winners = frozenset(seat for seat, size in enumerate(sizes) if size == best)
    seats = [GAME.seat_phrase(state, seat) for seat in sorted(winners)]
    if len(seats) == 1:
        phrase = Phrase("kolory.wins", seat=seats[0], count=best)
    else:
        phrase = Phrase("kolory.shared", seats=and_list(seats), count=best)
    return Outcome.said(winners, tuple(float(size) for size in sizes), phrase)


GAME = register(Kolory())
