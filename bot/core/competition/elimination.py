"""Single elimination: a seeded bracket, byes to the top seeds, winners advance."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.competition.results import Pairing, Player


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order so that seeds 1 and 2 can only meet in the final:
    for 8 → 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def first_round(players_by_seed: Sequence[Player]) -> list[Pairing]:
    """Round 1 pairings. Missing seeds are byes, which fall to the best seeds."""
    if len(players_by_seed) < 2:
        raise ValueError("an elimination bracket needs at least two players")
    size = bracket_size(len(players_by_seed))
    slots = [
        players_by_seed[seed - 1] if seed <= len(players_by_seed) else None
        for seed in seed_order(size)
    ]
    return [Pairing(1, slots[i], slots[i + 1]) for i in range(0, size, 2)]


def next_round(
    previous: Sequence[Pairing], winners: dict[tuple[int, int], Player]
) -> list[Pairing]:
    """The next round from the previous one. ``winners`` maps (round, board index) to the winner;
    a bye's player advances by itself. Board k of the new round joins boards 2k and 2k+1."""
    advancing: list[Player] = []
    for index, pairing in enumerate(previous):
        if pairing.second is None:
            advancing.append(pairing.first)
            continue
        winner = winners.get((pairing.round, index))
        if winner not in (pairing.first, pairing.second):
            raise ValueError(f"board {index + 1} of round {pairing.round} has no winner yet")
        advancing.append(winner)
    if len(advancing) < 2:
        raise ValueError("the bracket is complete")
    number = previous[0].round + 1
    return [Pairing(number, advancing[i], advancing[i + 1]) for i in range(0, len(advancing), 2)]


def rounds_needed(entrants: int) -> int:
    return bracket_size(entrants).bit_length() - 1
