"""Round robin by the circle method (Berger tables): everyone meets everyone once."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.competition.results import Pairing, Player


def schedule(players: Sequence[Player]) -> list[list[Pairing]]:
    """All rounds. With an odd number of players one sits out each round (a bye).

    The first listed player stays fixed while the others rotate. On each board the player who has
    had seat 0 less often so far takes it (the earlier listed on a tie), so first moves are shared
    within one game of each other.
    """
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    ring: list[Player | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    firsts = {p: 0 for p in players}
    rounds: list[list[Pairing]] = []
    for round_index in range(n - 1):
        number = round_index + 1
        pairings: list[Pairing] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                pairings.append(Pairing(number, a if b is None else b, None))
                continue
            if firsts[b] < firsts[a] or (firsts[b] == firsts[a] and round_index % 2):
                a, b = b, a
            firsts[a] += 1
            pairings.append(Pairing(number, a, b))
        rounds.append(pairings)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds
