"""Challenges and seeks that expired unanswered: their message says so (no game yet)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.events.base import Event


@dataclass(frozen=True, kw_only=True)
class ChallengeExpired(Event):
    kind = "challenge_expired"

    challenge_id: int


@dataclass(frozen=True, kw_only=True)
class SeekExpired(Event):
    kind = "seek_expired"

    challenge_id: int
