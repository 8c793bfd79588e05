"""LPPG: the next seat's best reply, over every hand the view allows it to hold.

After our turn the next seat places one of its two cards. Its cards are hidden, their colours
are not: each is one of the cards of its colour the viewer has not seen, all equally likely.
For every such card, every legal placement is judged by the replier's evaluation, and the
value we get from its best one is recorded; a hand of two cards replies with the better of
its two cards, so the expected value over every possible hand follows exactly from the
per-card answers (two cards of one colour are distinct).

Most placements change nothing the evaluation looks at (territories, markers, the end of the
game): a card whose white squares touch no territory and that leaves no closed region behind.
Those are recognised from the engine's ``Surroundings`` of the card's box without playing
them; they all leave the position's value as it was. Only the others are played through the
engine, with the keep and mark decisions that follow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

from ai.lppg_threat import with_hand
from engines.lppg import GAME, LppgState, PlayMove
from engines.lppg_cards import ROTATIONS
from engines.lppg_terrain import WHITE_BITS, placement_codes, xy

#: (the replier's score, our value) of a position.
Judged = tuple[float, float]


def card_reply(state: LppgState, seat: int, card: int, quiet: Judged,
               play_out: Callable[[LppgState], Judged]) -> tuple[Judged | None, int]:
    """The best reply of ``seat`` holding ``card`` in ``state`` (its score, our value; ties
    go against us), or None when the card cannot be placed; and how many placements were
    played. ``quiet`` is what a placement that changes nothing is worth; ``play_out`` judges
    the position after a placement (finishing the turn)."""
    board = state.board
    best: Judged | None = None
    ready = None
    played = 0
    for code in placement_codes(board, (card,), seat, state.players):
        r = code & 3
        white = WHITE_BITS[card][r]
        around = board.surroundings(code >> 3, r & 1)
        if not white & around.territory_bits and not around.largest_closed_after(white):
            judged = quiet
        else:
            if ready is None:
                ready = with_hand(state, seat, (card,))
            x, y = xy(code >> 3)
            judged = play_out(GAME.play(ready, PlayMove(1, x, y, ROTATIONS[r])))
            played += 1
        if best is None or judged[0] > best[0] or (judged[0] == best[0] and judged[1] < best[1]):
            best = judged
    return best, played


def expected_reply(replies: dict[int, Judged | None], colours: Sequence[int],
                   pools: dict[int, list[int]], passing: Judged) -> float:
    """Our value after the reply, averaged over every hand of ``colours`` drawn from
    ``pools`` (distinct cards), each card's best reply given by ``replies``; a hand with no
    placement passes (worth ``passing``)."""
    hands = [pools.get(colour, []) for colour in colours]
    total = 0.0
    count = 0
    for hand in product(*hands):
        if len(set(hand)) < len(hand):
            continue
        best: Judged | None = None
        for card in hand:
            judged = replies[card]
            if judged is not None and (best is None or judged[0] > best[0] or (
                    judged[0] == best[0] and judged[1] < best[1])):
                best = judged
        total += (best or passing)[1]
        count += 1
    return total / count if count else passing[1]
