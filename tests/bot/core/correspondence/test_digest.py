"""The hour of a daily digest in the player's time zone, as UTC instants: ordinary days, the
nights daylight saving time starts and ends, and the names a time zone option accepts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core.correspondence.digest import (
    MAX_CHOICES,
    is_stale,
    next_digest_time,
    zone_named,
    zone_suggestions,
)

PARIS = zone_named("Europe/Paris")
NEW_YORK = zone_named("America/New_York")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_eight_in_paris_is_seven_utc_in_winter_and_six_in_summer():
    assert next_digest_time(8, PARIS, utc(2026, 1, 10, 5)) == utc(2026, 1, 10, 7)
    assert next_digest_time(8, PARIS, utc(2026, 7, 10, 5)) == utc(2026, 7, 10, 6)


def test_the_hour_just_passed_means_tomorrow():
    assert next_digest_time(8, PARIS, utc(2026, 1, 10, 7)) == utc(2026, 1, 11, 7)
    assert next_digest_time(8, PARIS, utc(2026, 1, 10, 7, 0, 1)) == utc(2026, 1, 11, 7)


def test_the_night_clocks_go_forward_keeps_the_local_hour():
    # Paris: Sunday 29 March 2026, 02:00 CET becomes 03:00 CEST.
    saturday = next_digest_time(8, PARIS, utc(2026, 3, 28, 0))
    sunday = next_digest_time(8, PARIS, saturday)
    assert (saturday, sunday) == (utc(2026, 3, 28, 7), utc(2026, 3, 29, 6))
    assert sunday - saturday == timedelta(hours=23)
    assert sunday.astimezone(PARIS).hour == 8
    # 02:00 does not exist that night: the digest comes at 03:00 by the wall clock.
    missing = next_digest_time(2, PARIS, utc(2026, 3, 28, 12))
    assert missing == utc(2026, 3, 29, 1) and missing.astimezone(PARIS).hour == 3


def test_the_night_clocks_go_back_sends_once_at_the_first_of_the_two_hours():
    # New York: Sunday 1 November 2026, 02:00 EDT becomes 01:00 EST; 01:00 happens twice.
    first = next_digest_time(1, NEW_YORK, utc(2026, 10, 31, 12))
    assert first == utc(2026, 11, 1, 5)  # 01:00 EDT
    after = next_digest_time(1, NEW_YORK, first)
    assert after == utc(2026, 11, 2, 6)  # the next day's 01:00 EST, not the second 01:00
    assert next_digest_time(8, NEW_YORK, utc(2026, 11, 1, 11)) == utc(2026, 11, 1, 13)


@pytest.mark.parametrize("hour", [-1, 24])
def test_an_hour_outside_the_day_is_refused(hour):
    with pytest.raises(ValueError):
        next_digest_time(hour, PARIS, utc(2026, 1, 1))


@pytest.mark.parametrize("name", ["Mars/Olympus", "", "  ", "../../etc/passwd", "paris",
                                  "Europe/Paris/x", "/usr/share/zoneinfo/UTC"])
def test_unknown_zone_names_are_none(name):
    assert zone_named(name) is None


def test_known_zone_names_are_zones():
    assert str(zone_named(" Europe/Paris ")) == "Europe/Paris"
    assert str(zone_named("UTC")) == "UTC"


def test_suggestions_put_common_zones_first_and_find_others_by_any_part():
    assert zone_suggestions("")[0] == "UTC" and len(zone_suggestions("")) == MAX_CHOICES
    assert zone_suggestions("paris") == ["Europe/Paris"]
    assert zone_suggestions("new york")[0] == "America/New_York"
    assert "Asia/Kathmandu" in zone_suggestions("kathm")
    assert len(zone_suggestions("america")) == MAX_CHOICES
    assert zone_suggestions("no such place") == []


def test_a_digest_more_than_twelve_hours_late_is_stale():
    planned = utc(2026, 1, 10, 7)
    assert not is_stale(planned, planned + timedelta(hours=12))
    assert is_stale(planned, planned + timedelta(hours=12, seconds=1))
