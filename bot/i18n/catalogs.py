"""The catalogs: every text of the bot in every language, read from ``locales/<language>/*.toml``.

Keys are dotted (``bot.game.moved``); a value is a ``str.format`` template, or a table of CLDR
plural forms (``key.one``, ``key.other``…) chosen by a count (``bot.i18n.t``). Each feature
keeps its own file; all files of a language are merged, and a key defined twice is an error.

French texts follow French typography: writers type an ordinary space before ``:`` ``;`` ``?``
``!`` and inside « », and the catalog turns it into a no-break space, so a line never starts
with the punctuation and every French text is spaced the same way.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
NBSP = "\u00a0"
_LOCALES = Path(__file__).with_name("locales")

#: A space before French high punctuation, or inside guillemets.
_SPACE_BEFORE = re.compile(r"[ \u00a0\u202f]+([:;?!»])")
_SPACE_AFTER = re.compile(r"«[ \u00a0\u202f]+")


def language_of(locale: object | None) -> str:
    """The reply language for a Discord locale (``discord.Locale`` or its string value):
    French for any ``fr`` locale, English otherwise."""
    value = str(getattr(locale, "value", locale) or "")
    return "fr" if value.lower().startswith("fr") else DEFAULT_LANGUAGE


def language_code(locale: object | None) -> str:
    """A language of the catalogs (``"fr"``) given as is, or the language of a locale."""
    return str(locale) if locale in LANGUAGES else language_of(locale)


def typeset(text: str, language: str) -> str:
    """``text`` with its language's spacing: in French, the space typed before ``:`` ``;``
    ``?`` ``!`` (and inside « ») becomes a no-break space; other languages are left as typed."""
    if language != "fr":
        return text
    text = _SPACE_BEFORE.sub(NBSP + r"\1", text)
    return _SPACE_AFTER.sub("«" + NBSP, text)


def _flatten(prefix: str, table: dict[str, Any], into: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(name, value, into)
        else:
            into[name] = str(value)


@cache
def raw_catalog(language: str) -> dict[str, str]:
    """Every key of a language as written in its files (a key defined twice is an error)."""
    merged: dict[str, str] = {}
    for path in sorted((_LOCALES / language).glob("*.toml")):
        flat: dict[str, str] = {}
        _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), flat)
        clash = set(flat) & set(merged)
        if clash:
            raise ValueError(f"{path}: keys defined twice: {', '.join(sorted(clash))}")
        merged.update(flat)
    return merged


@cache
def catalog(language: str) -> dict[str, str]:
    """Every key of a language, ready to show (``typeset``)."""
    return {key: typeset(value, language) for key, value in raw_catalog(language).items()}
