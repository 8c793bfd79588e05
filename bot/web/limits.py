"""How often one signed-in visitor may call the board's API: a token bucket per user. A page
asks for its state after every change and sends a move now and then; a script that floods the
API (each state is drawn by the board workers) is answered 429 until its bucket refills, and
the other visitors do not wait behind it."""

from __future__ import annotations

import time
from collections.abc import Callable

#: Writes a visitor may make at once (moves, offers, hints: a burst of clicks).
BURST = 30
#: Writes a second, sustained.
PER_SECOND = 5.0
#: Reads at once, and a second: an open page fetches its state after every change of its
#: game, and a quick game between two clicking players changes several times a second.
READ_BURST = 120
READS_PER_SECOND = 20.0
#: Buckets kept at most: the fullest are forgotten first (a full bucket is the default).
KEPT = 10_000


class RateLimit:
    """``allow(user_id)``: whether that user may make one more request now."""

    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self._buckets: dict[int, tuple[float, float]] = {}  # user -> (tokens, when)

    def allow(self, user_id: int) -> bool:
        now = self.clock()
        tokens, since = self._buckets.get(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - since) * self.per_second)
        allowed = tokens >= 1.0
        self._buckets[user_id] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > KEPT:
            self._forget_full(now)
        return allowed

    def retry_after(self, user_id: int) -> float:
        """Seconds until ``user_id`` may make a request again."""
        tokens, _ = self._buckets.get(user_id, (float(self.burst), 0.0))
        return max(0.0, (1.0 - tokens) / self.per_second)

    def _forget_full(self, now: float) -> None:
        for user_id, (tokens, since) in list(self._buckets.items()):
            if tokens + (now - since) * self.per_second >= self.burst:
                del self._buckets[user_id]
