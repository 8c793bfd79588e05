"""When a daily digest falls due: an hour of the day in the player's time zone (an IANA name,
read with ``zoneinfo``), turned into UTC instants. Plain functions, no I/O.

Daylight saving time: the digest stays at the same local hour all year. On the night clocks
go forward an hour that does not exist (02:00 in Paris) comes an hour later by the wall clock
(03:00, the same instant as the hour before the change); on the night they go back an hour
that happens twice is the first one.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta
from functools import cache

#: A digest later than this after its planned time (the bot was down) is skipped, not sent:
#: together with the next one it would make two within a few hours.
STALE_AFTER = timedelta(hours=12)

#: Suggested first in the time zone option's autocomplete (any IANA name is accepted).
COMMON_ZONES = (
    "UTC", "Europe/London", "Europe/Paris", "Europe/Brussels", "Europe/Berlin",
    "Europe/Madrid", "Europe/Rome", "Europe/Zurich", "Europe/Amsterdam", "Europe/Warsaw",
    "Europe/Helsinki", "Europe/Athens", "Europe/Moscow", "Europe/Istanbul", "Africa/Casablanca",
    "Africa/Dakar", "Africa/Abidjan", "Africa/Lagos", "Africa/Cairo", "Africa/Johannesburg",
    "Asia/Dubai", "Asia/Kolkata", "Asia/Shanghai", "Asia/Tokyo", "Asia/Singapore",
    "Australia/Sydney", "Pacific/Auckland", "America/Sao_Paulo", "America/Montreal",
    "America/Toronto", "America/New_York", "America/Chicago", "America/Denver",
    "America/Los_Angeles", "Pacific/Honolulu", "Indian/Reunion", "America/Guadeloupe",
    "America/Martinique", "Pacific/Noumea", "Pacific/Tahiti",
)
#: Discord shows at most 25 autocomplete choices.
MAX_CHOICES = 25


@cache
def _all_zones() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    """The time zone of an IANA name ("Europe/Paris"), or None if there is no such zone."""
    name = name.strip()
    if not name or name not in _all_zones():  # also refuses paths ("../etc") and odd names
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def zone_suggestions(typed: str) -> list[str]:
    """Up to 25 zone names for what was typed: the common ones first, then any other zone whose
    name contains it (case and spaces ignored: "new york" finds America/New_York)."""
    wanted = typed.strip().casefold().replace(" ", "_")
    common = [z for z in COMMON_ZONES if wanted in z.casefold()]
    if not wanted:
        return common[:MAX_CHOICES]
    others = [z for z in _all_zones() if wanted in z.casefold() and z not in common]
    return (common + others)[:MAX_CHOICES]


def next_digest_time(hour: int, zone: zoneinfo.ZoneInfo, after: datetime) -> datetime:
    """The first instant strictly after ``after`` when it is ``hour``:00 in ``zone`` (UTC)."""
    if not 0 <= hour <= 23:
        raise ValueError(f"an hour of the day is 0 to 23, not {hour}")
    local_day = after.astimezone(zone).date()
    for days in range(3):  # today's hour, else tomorrow's (a DST day may need one more)
        day = local_day + timedelta(days=days)
        at = datetime(day.year, day.month, day.day, hour, tzinfo=zone).astimezone(UTC)
        if at > after:
            return at
    raise AssertionError("unreachable: one of three days has the hour after now")


def is_stale(planned: datetime, now: datetime) -> bool:
    """Whether a digest planned at ``planned`` is too late to send at ``now``."""
    return now - planned > STALE_AFTER
