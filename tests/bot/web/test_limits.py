"""The web API's rate per visitor (``bot.web.limits``): a burst, then a steady rate, per user."""

from __future__ import annotations

import pytest

from bot.web.limits import RateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_steady_rate_and_each_user_apart():
    clock = Clock()
    limit = RateLimit(burst=3, per_second=2.0, clock=clock)
    assert [limit.allow(1) for _ in range(4)] == [True, True, True, False]
    assert limit.retry_after(1) == pytest.approx(0.5)
    assert limit.allow(2)  # another visitor's bucket is full
    clock.now += 0.5  # one request's worth refilled
    assert limit.allow(1) and not limit.allow(1)
    clock.now += 60  # a long pause refills the burst, no more
    assert [limit.allow(1) for _ in range(4)] == [True, True, True, False]


def test_refused_requests_do_not_dig_the_hole_deeper():
    clock = Clock()
    limit = RateLimit(burst=1, per_second=1.0, clock=clock)
    assert limit.allow(1)
    assert not any(limit.allow(1) for _ in range(50))
    clock.now += 1.0
    assert limit.allow(1)
