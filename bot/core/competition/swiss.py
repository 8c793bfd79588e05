"""Swiss pairing: players with equal scores meet, nobody meets the same opponent twice while that
can be avoided, one bye per player at most while that can be avoided.

The pairing is a maximum-weight perfect matching (networkx) over the players: an edge's weight
falls with the square of the score difference, so score groups pair internally and the few
players who must float go to the nearest group; rematch edges are left out of the graph unless no
perfect matching exists without them.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from bot.core.competition.results import (
    Pairing,
    Player,
    Result,
    first_seat_balance,
    have_met,
    points,
)

_SCALE = 1000  # weights are integers so the matching is exact


def choose_bye(ranking: Sequence[Player], results: list[Result]) -> Player:
    """The player who sits out: the lowest score among those who have not had a bye yet (the
    lowest ranked of them on equal scores); if everyone has had one, the lowest ranked overall."""
    had_bye = {r.first for r in results if r.is_bye}
    score = points(results)
    candidates = [p for p in ranking if p not in had_bye] or list(ranking)
    # ``ranking`` lists the best first; among equal lowest scores the last listed sits out.
    lowest = min(score.get(p, 0.0) for p in candidates)
    return [p for p in candidates if score.get(p, 0.0) == lowest][-1]


def _matching(players: Sequence[Player], results: list[Result], allow_rematch: bool):
    score = points(results)
    met = have_met(results)
    rank = {p: i for i, p in enumerate(players)}
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            rematch = frozenset((a, b)) in met
            if rematch and not allow_rematch:
                continue
            diff = score.get(a, 0.0) - score.get(b, 0.0)
            # Big base weight keeps the matching perfect; then closeness of scores dominates,
            # then (within a group) pairing top half against bottom half via rank distance.
            weight = 10 * _SCALE * _SCALE - int(diff * diff * 4 * _SCALE) * _SCALE
            weight += abs(rank[a] - rank[b])
            if rematch:
                weight -= 5 * _SCALE * _SCALE
            graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(players):
        return None
    return matching


def pair_round(
    round_number: int, ranking: Sequence[Player], results: list[Result]
) -> list[Pairing]:
    """The pairings of a new round. ``ranking`` is the current standings order (best first) of the
    players still in the event; ``results`` are all finished games so far."""
    players = list(ranking)
    if len(players) < 2:
        raise ValueError("a Swiss round needs at least two players")
    pairings: list[Pairing] = []
    if len(players) % 2:
        # Try bye candidates in order until the rest can be paired without a rematch.
        had_bye = {r.first for r in results if r.is_bye}
        first_choice = choose_bye(players, results)
        order = [first_choice] + [p for p in reversed(players) if p != first_choice]
        order = [p for p in order if p not in had_bye] + [p for p in order if p in had_bye]
        for candidate in order:
            rest = [p for p in players if p != candidate]
            if _matching(rest, results, allow_rematch=False) is not None:
                break
        else:
            candidate = first_choice
        players.remove(candidate)
        pairings.append(Pairing(round_number, candidate, None))
    matching = _matching(players, results, allow_rematch=False)
    if matching is None:
        matching = _matching(players, results, allow_rematch=True)
    assert matching is not None  # a complete graph on an even number of players always pairs
    balance = first_seat_balance(results)
    rank = {p: i for i, p in enumerate(players)}
    boards = []
    for a, b in matching:
        # The player who has moved first less often takes seat 0; on equal balance, the higher
        # ranked player gets it in odd rounds and the lower in even rounds.
        ba, bb = balance.get(a, 0), balance.get(b, 0)
        if ba != bb:
            first, second = (a, b) if ba < bb else (b, a)
        else:
            high, low = (a, b) if rank[a] < rank[b] else (b, a)
            first, second = (high, low) if round_number % 2 else (low, high)
        boards.append((min(rank[a], rank[b]), Pairing(round_number, first, second)))
    boards.sort(key=lambda item: item[0])
    return [p for _, p in boards] + pairings
