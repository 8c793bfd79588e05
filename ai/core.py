"""What every game's AI shares: levels, budgets turned into work counts, seeded randomness, the
decision value, and the reasons given with a hint.

Determinism (docs/architecture.md): a decision depends only on (game, view, seat, level, seed,
budget). The budget in seconds is turned into a count of search nodes or playouts with a rate
per game measured once on the development machine (the ``*_PER_S`` constants of each module);
nothing reads the clock while searching, so a busy machine thinks longer but never differently.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engines.phrases import Phrase

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

#: Default thinking budget per level, in seconds of one core of the reference machine. A given
#: ``budget_s`` only lowers it: the level sets the strength, the budget bounds the time.
DEFAULT_BUDGET_S: dict[str, float] = {"easy": 0.05, "medium": 0.3, "hard": 1.0}

#: A reason for a hint: a phrase (a key of ``words/locales/<language>/phrases_ai.toml`` and its
#: parameters).
Reason = Phrase


def reason(key: str, **params: Any) -> Reason:
    """The reason ``ai.<key>`` with its parameters (phrases themselves, numbers or text)."""
    return Phrase(f"ai.{key}", **params)


@dataclass(frozen=True)
class Decision:
    """A chosen move (canonical text) and, when the game allows it, why in a few words."""

    move: str
    reason: Reason | None = field(default=None, compare=False)


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return level


def budget_for(level: str, budget_s: float | None) -> float:
    """The budget the search is sized for: the level's default, lowered by ``budget_s``."""
    default = DEFAULT_BUDGET_S[check_level(level)]
    if budget_s is None:
        return default
    if not budget_s > 0:
        raise ValueError(f"budget_s must be positive, got {budget_s!r}")
    return min(float(budget_s), default)


def work(budget_s: float, per_second: float, minimum: int = 1) -> int:
    """How many units (nodes, playouts) a budget buys at a calibrated rate."""
    return max(minimum, int(budget_s * per_second))


def make_rng(game: str, level: str, seed: int | str, *salt: object) -> random.Random:
    """The generator of one decision. Seeded from text (``random`` hashes it with SHA-512), so
    it is the same in every process and on every machine."""
    return random.Random(":".join(str(part) for part in ("ai", game, level, seed, *salt)))


def outcome_rewards(winners: frozenset[int], players: int) -> tuple[float, ...]:
    """Per seat, its share of the result: a win shared by k seats is worth 1/k to each, a game
    nobody wins is worth 1/players to everyone (a draw is a half point each in a duel)."""
    if not winners:
        return (1.0 / players,) * players
    share = 1.0 / len(winners)
    return tuple(share if seat in winners else 0.0 for seat in range(players))
