"""Database addresses: which backend a setting names, and how to show one without its
password (in logs, errors and ``repr``)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)


def password_of(target: str) -> str | None:
    """The password in a ``scheme://user:password@host/...`` address, if any."""
    if "://" not in target:
        return None
    try:
        return urlsplit(target).password
    except ValueError:
        return None


def redacted(target: str) -> str:
    """The address with its password (if any) replaced by ``***``."""
    if password_of(target) is None:
        return target
    parts = urlsplit(target)
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
