"""Which plural form a count takes in a language: CLDR's rules, from Babel (French says
"0 partie" and "1 partie", English "0 games")."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache


@cache
def _rule(language: str) -> Callable[[float], str]:
    from babel import Locale  # only readers that count need Babel (the engines do not)

    return Locale.parse(language).plural_form


def plural_form(language: str, count: float) -> str:
    """The CLDR plural category of ``count`` in ``language`` ("one", "other"…)."""
    return _rule(language)(abs(count))
