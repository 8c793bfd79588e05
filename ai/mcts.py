"""Monte Carlo tree search (UCT) for any number of players, with chance and hidden information
handled by sampling: each iteration starts from a freshly sampled *determinization* of the root
(a full state consistent with what the player sees: the next first player of a Kolory round,
the hidden LPPG cards), then walks the tree by moves.

The tree is open-loop: a node is reached by a sequence of (mover, move) edges, whatever chance
or hidden cards lay under them, so its statistics average over every sample (information-set
MCTS). Each edge keeps how often it was *available* (its move was legal in the sample that
reached its node) and the UCB formula uses that count instead of the parent's visits, as in
single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012). With a single sample, this is plain
UCT.

Rewards are per seat in [0, 1]; an edge collects the reward of the seat that chose it, so the
search maximises for whoever is to move (max-n), which covers duels, multi-player tables and,
with shared rewards, teams.

The number of iterations is given by the caller (from the budget), never by the clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Game(Protocol):
    """What the search needs from a game's representation (states are not changed)."""

    def to_move(self, state: Any) -> int: ...

    def moves(self, state: Any) -> Sequence[Hashable]: ...

    def play(self, state: Any, move: Hashable, rng: random.Random) -> Any:
        """The state after ``move``; chance (if any) is drawn from ``rng``."""

    def rewards(self, state: Any) -> tuple[float, ...] | None:
        """Per-seat rewards of a finished game, None while it runs."""

    def playout(self, state: Any, rng: random.Random) -> tuple[float, ...]:
        """Per-seat rewards of a game played on from ``state`` by a fast policy. A game that
        sets ``amaf = True`` returns ``(rewards, played)`` instead, ``played`` listing the
        (seat, ``amaf_key(move)``) of the playout's moves (see ``search``'s ``rave``)."""


class _Edge:
    __slots__ = ("amaf_total", "amaf_visits", "available", "child", "key", "total", "visits")

    def __init__(self, key: Hashable = None) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.child: dict[tuple[int, Hashable], _Edge] = {}
        #: For RAVE: the move's AMAF key and its all-moves-as-first statistics.
        self.key = key
        self.amaf_visits = 0
        self.amaf_total = 0.0


@dataclass(frozen=True)
class Stats:
    move: Hashable
    visits: int
    mean: float
    #: Per seat, the mean reward of the iterations through this move (``search(per_seat=)``).
    rewards: tuple[float, ...] | None = None


def search(
    game: Game,
    sample: Callable[[random.Random], Any],
    iterations: int,
    rng: random.Random,
    exploration: float = 0.7,
    prior: Callable[[Any, Sequence[Hashable]], Sequence[Hashable]] | None = None,
    rave: float = 0.0,
    per_seat: list[float] | None = None,
) -> list[Stats]:
    """Run ``iterations`` iterations from states drawn by ``sample(rng)``; return the root
    moves of the player to move, most visited first.

    ``prior(state, moves)`` may order the moves a node expands first (best first); by default
    they are expanded in random order.

    ``rave`` > 0 (for games whose playouts report their moves, ``game.amaf``) blends each
    edge's mean with the mean of the playouts in which the same player made the same move
    later on (all-moves-as-first, Gelly & Silver 2007): weight sqrt(rave / (3 n + rave)) after
    n visits. It lets a few hundred playouts rank a hundred moves, as in computer Go.

    ``per_seat``, a list of zeros (one per seat), receives the sum of every iteration's
    rewards, and each root move's ``Stats.rewards`` its per-seat means (for evaluations)."""
    reports_moves = getattr(game, "amaf", False)
    amaf = rave > 0 and reports_moves
    root = _Edge()
    root_seat = None
    root_totals: dict[int, list[float]] = {}
    for _ in range(iterations):
        state = sample(rng)
        if root_seat is None:
            root_seat = game.to_move(state)
        path: list[tuple[_Edge, int]] = []
        played: list[tuple[int, Hashable]] = []
        node = root
        rewards = game.rewards(state)
        # Selection and expansion.
        while rewards is None:
            seat = game.to_move(state)
            moves = game.moves(state)
            children = node.child
            untried = [m for m in moves if (seat, m) not in children]
            if untried:
                if prior is not None:
                    move = prior(state, untried)[0]
                else:
                    move = untried[rng.randrange(len(untried))]
                edge = children[(seat, move)] = _Edge(game.amaf_key(move) if amaf else None)
                for m in moves:
                    other = children.get((seat, m))
                    if other is not None:
                        other.available += 1
                state = game.play(state, move, rng)
                path.append((edge, seat))
                rewards = game.rewards(state)
                if rewards is None:
                    rewards = game.playout(state, rng)
                    if reports_moves:
                        rewards, played = rewards
                break
            best_edge = None
            best_move = None
            best_value = -1.0
            for m in moves:
                edge = children[(seat, m)]
                edge.available += 1
                mean = edge.total / edge.visits
                if amaf and edge.amaf_visits:
                    beta = math.sqrt(rave / (3 * edge.visits + rave))
                    mean = (1 - beta) * mean + beta * edge.amaf_total / edge.amaf_visits
                value = mean + exploration * math.sqrt(math.log(edge.available) / edge.visits)
                if value > best_value:
                    best_value, best_edge, best_move = value, edge, m
            state = game.play(state, best_move, rng)
            path.append((best_edge, seat))
            node = best_edge
            rewards = game.rewards(state)
        for edge, seat in path:
            edge.visits += 1
            edge.total += rewards[seat]
        if amaf:
            _update_amaf(root, path, played, rewards)
        if per_seat is not None:
            for seat, reward in enumerate(rewards):
                per_seat[seat] += reward
            if path:
                sums = root_totals.setdefault(id(path[0][0]), [0.0] * len(rewards))
                for seat, reward in enumerate(rewards):
                    sums[seat] += reward
    stats = [
        Stats(move, edge.visits, edge.total / edge.visits if edge.visits else 0.0,
              tuple(t / edge.visits for t in root_totals[id(edge)])
              if id(edge) in root_totals and edge.visits else None)
        for (seat, move), edge in root.child.items()
        if seat == root_seat
    ]
    stats.sort(key=lambda s: (-s.visits, -s.mean))
    return stats


def _update_amaf(root: _Edge, path: list[tuple[_Edge, int]],
                 played: list[tuple[int, Hashable]], rewards: Sequence[float]) -> None:
    """Credit every sibling edge whose move its player made later in this iteration."""
    later = set(played)
    nodes = [root, *(edge for edge, _ in path[:-1])]
    for node, (edge, seat) in zip(reversed(nodes), reversed(path), strict=True):
        later.add((seat, edge.key))
        for (child_seat, _), child in node.child.items():
            if (child_seat, child.key) in later:
                child.amaf_visits += 1
                child.amaf_total += rewards[child_seat]
