"""Kolory AI: Monte Carlo tree search with chance sampled.

Why this method: a Kolory turn offers dozens of placements, the score (the largest patch of
one's colour) only shows at the end, and the order of play in each later round is drawn by lot,
so a fixed-depth search has neither a good evaluation nor a fixed tree. MCTS needs no
evaluation: it plays the game to the end many times and keeps the placements that win most.
Each iteration draws who opens each later round afresh (the view hides the seed, and the AI
must not guess it), so the tree's statistics average over the draws. With more than two
players every seat maximises its own share of the win (max-n). The reward is the share of the
win plus a little for the margin, so that a won (or lost) position still prefers the bigger
(or smaller) difference.

Playouts place cards with a light policy: most of the time the card that best joins the
mover's colour and covers the others' (see ``_local_score``), otherwise a random legal card.
That plays the game's main ideas and stays cheap.

The search runs on its own mutable representation (a dict of visible squares), faster than the
engine's immutable states; tests/ai/test_kolory.py checks it against the engine over thousands
of random positions.

Levels: ``easy`` takes the policy's move with some noise; ``medium`` takes the placement that
leaves the best patch difference one move ahead; ``hard`` runs the tree search.
"""

from __future__ import annotations

import math
import random

from ai import mcts
from ai.core import Decision, Reason, budget_for, outcome_rewards, reason, work
from engines.kolory import (
    CARD_OFFSETS,
    CARDS_PER_PLAYER,
    GAME,
    STRIDE,
    WHITE,
    KoloryMove,
    KoloryState,
    _all_legal_keys,
    pack,
    unpack,
)

#: Tree-search iterations per second of one core of the reference machine, at most (a
#: two-player game's first move)...
ITERATIONS_PER_S = 1_500
#: ...and work units per second, a unit being one card placed in a playout with one card on the
#: table: a placement costs in proportion to the table (its legal places are found among all
#: visible squares), so an iteration costs about left × (on the table + left / 2 + 4) units.
#: Bigger tables get fewer iterations and a move costs about the same whatever the table.
UNITS_PER_S = 420_000
_NEIGHBOURS = (1, -1, STRIDE, -STRIDE)


class Position:
    """A Kolory position for the search. ``top``: visible square -> owner of the card on top
    (``WHITE`` for the start card) and ``card``: square -> index of that card (placements
    must cover squares of different cards). ``first`` is None when the next round's opener is
    still to be drawn."""

    __slots__ = ("card", "cards", "placed", "players", "round", "round_first", "to_move",
                 "top", "white")

    def __init__(self, top: dict[int, int], card: dict[int, int], cards: int, white: int,
                 players: int, round_number: int, round_first: int, placed: int,
                 to_move: int | None) -> None:
        self.top = top
        self.card = card
        self.cards = cards
        self.white = white
        self.players = players
        self.round = round_number
        self.round_first = round_first
        self.placed = placed
        self.to_move = to_move

    def copy(self) -> Position:
        return Position(dict(self.top), dict(self.card), self.cards, self.white, self.players,
                        self.round, self.round_first, self.placed, self.to_move)

    @classmethod
    def from_view(cls, view: KoloryState) -> Position:
        owners = [c.owner for c in view.cards]
        top = {key: owners[index] for key, index in view.top.items()}
        return cls(top, dict(view.top), len(view.cards), view.white_visible, view.players,
                   view.round, view.round_first, view.placed_in_round, view.to_move)

    def moves(self) -> list[int]:
        """Top-left keys of the legal placements, sorted (the engine's own finder, on our
        map of visible cards)."""
        return list(_all_legal_keys(self.card, self.white))

    def play(self, key: int, rng: random.Random) -> None:
        """Place the mover's card at ``key`` (in place); the opener of a new round is drawn
        from ``rng``."""
        seat = self.to_move
        index = self.cards
        top, card = self.top, self.card
        for offset in CARD_OFFSETS:
            square = key + offset
            if card.get(square) == 0:
                self.white -= 1
            card[square] = index
            top[square] = seat
        self.cards += 1
        self.placed += 1
        if self.placed < self.players:
            self.to_move = (self.round_first + self.placed) % self.players
        elif self.round < CARDS_PER_PLAYER:
            self.round += 1
            self.placed = 0
            self.round_first = rng.randrange(self.players)
            self.to_move = self.round_first
        else:
            self.to_move = None

    def largest(self) -> list[int]:
        """Per seat, its largest orthogonally connected patch of visible squares."""
        top = self.top
        best = [0] * self.players
        seen: set[int] = set()
        for start, owner in top.items():
            if owner == WHITE or start in seen:
                continue
            seen.add(start)
            size = 0
            stack = [start]
            while stack:
                k = stack.pop()
                size += 1
                for n in (k + 1, k - 1, k + STRIDE, k - STRIDE):
                    if n not in seen and top.get(n) == owner:
                        seen.add(n)
                        stack.append(n)
            if size > best[owner]:
                best[owner] = size
        return best


def rewards_of(sizes: list[int]) -> tuple[float, ...]:
    """Share of the win (0.8) plus the margin over the best other seat, squashed (0.2)."""
    players = len(sizes)
    best = max(sizes)
    shares = outcome_rewards(frozenset(s for s in range(players) if sizes[s] == best), players)
    out = []
    for seat in range(players):
        others = max(sizes[s] for s in range(players) if s != seat)
        margin = 0.5 + 0.5 * math.tanh((sizes[seat] - others) / 4)
        out.append(0.8 * shares[seat] + 0.2 * margin)
    return tuple(out)


def _local_score(pos: Position, key: int, seat: int) -> int:
    """How well a card at ``key`` serves ``seat``: own-colour squares it touches from outside,
    plus the others' squares it covers, minus its own squares it covers."""
    top = pos.top
    score = 0
    squares = [key + d for d in CARD_OFFSETS]
    for square in squares:
        owner = top.get(square)
        if owner is not None and owner != WHITE:
            score += -1 if owner == seat else 1
        for n in (square + 1, square - 1, square + STRIDE, square - STRIDE):
            if n not in squares and top.get(n) == seat:
                score += 2
    return score


def policy_move(pos: Position, moves: list[int], rng: random.Random) -> int:
    seat = pos.to_move
    best: list[int] = []
    best_score = -99
    for key in moves:
        score = _local_score(pos, key, seat)
        if score > best_score:
            best, best_score = [key], score
        elif score == best_score:
            best.append(key)
    return best[rng.randrange(len(best))]


class Search:
    """The ``mcts.Game`` of Kolory on ``Position`` (copied before each change)."""

    def to_move(self, pos: Position) -> int:
        return pos.to_move

    def moves(self, pos: Position) -> list[int]:
        return pos.moves()

    def play(self, pos: Position, key: int, rng: random.Random) -> Position:
        after = pos.copy()
        after.play(key, rng)
        return after

    def rewards(self, pos: Position) -> tuple[float, ...] | None:
        return None if pos.to_move is not None else rewards_of(pos.largest())

    def playout(self, pos: Position, rng: random.Random) -> tuple[float, ...]:
        pos = pos.copy()
        while pos.to_move is not None:
            moves = pos.moves()
            if rng.random() < 0.75:
                key = policy_move(pos, moves, rng)
            else:
                key = moves[rng.randrange(len(moves))]
            pos.play(key, rng)
        return rewards_of(pos.largest())


SEARCH = Search()


def _one_ply(pos: Position, moves: list[int], rng: random.Random) -> int:
    """The placement leaving the best difference between the mover's largest patch and the
    best other one (ties at random)."""
    seat = pos.to_move
    best: list[int] = []
    best_value = None
    for key in moves:
        after = pos.copy()
        after.play(key, rng)
        sizes = after.largest()
        value = sizes[seat] - max(s for i, s in enumerate(sizes) if i != seat)
        if best_value is None or value > best_value:
            best, best_value = [key], value
        elif value == best_value:
            best.append(key)
    return best[rng.randrange(len(best))]


def decide(view: KoloryState, seat: int, level: str, rng: random.Random,
           budget_s: float | None) -> Decision:
    pos = Position.from_view(view)
    moves = pos.moves()
    if level == "easy":
        key = policy_move(pos, moves, rng) if rng.random() < 0.6 else rng.choice(moves)
    elif level == "medium":
        key = _one_ply(pos, moves, rng)
    else:
        budget = budget_for(level, budget_s)
        placed = pos.cards - 1
        left = pos.players * CARDS_PER_PLAYER - placed
        per_iteration = left * (placed + left / 2 + 4)
        iterations = min(work(budget, ITERATIONS_PER_S), work(budget, UNITS_PER_S / per_iteration))
        key = mcts.search(SEARCH, lambda r: pos, iterations, rng)[0].move
    move = KoloryMove(*unpack(key))
    return Decision(str(move), explain(pos, key))


def reason_for(view: KoloryState, seat: int, move: KoloryMove) -> Reason | None:
    return explain(Position.from_view(view), pack(move.x, move.y))


def explain(pos: Position, key: int) -> Reason | None:
    seat = pos.to_move
    before = pos.largest()
    after = pos.copy()
    after.play(key, random.Random(0))
    sizes = after.largest()
    if sizes[seat] > before[seat]:
        return reason("kolory.patch", count=sizes[seat])
    cut = [s for s in range(pos.players) if s != seat and sizes[s] < before[s]]
    if cut:
        return reason("kolory.cut", seat=GAME.seat_phrase(None, cut[0]), count=sizes[cut[0]])
    return None
