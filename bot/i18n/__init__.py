"""The one translation layer for every user-facing string of the bot.

Catalogs are TOML files under ``locales/<language>/``; each feature keeps its own file
(``core.toml``, ``rules.toml``...) so features do not edit the same file. Keys are dotted
(``move.not_your_turn``) and values are ``str.format`` templates. English is the fallback for a
missing key.

What the engines say (``engines.phrases.Phrase``: refusals, move descriptions, outcomes, seat
names) is translated by ``say``: the catalog key ``phrase.<phrase key>`` holds the template of a
language other than English (the engines' own English is the fallback), either one string or a
table of CLDR plural forms (``one``, ``other``…) chosen with Babel's plural rules by ``count``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

from engines.phrases import Phrase, Template, format_phrase

#: CLDR plural categories, in CLDR's order.
PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
_LOCALES = Path(__file__).with_name("locales")


def language_of(locale: object | None) -> str:
    """The reply language for a Discord locale (``discord.Locale`` or its string value):
    French for any ``fr`` locale, English otherwise."""
    value = str(getattr(locale, "value", locale) or "")
    return "fr" if value.lower().startswith("fr") else DEFAULT_LANGUAGE


def _flatten(prefix: str, table: dict[str, Any], into: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(name, value, into)
        else:
            into[name] = str(value)


@cache
def catalog(language: str) -> dict[str, str]:
    """Every key of a language, merged from all its files (a key defined twice is an error)."""
    merged: dict[str, str] = {}
    for path in sorted((_LOCALES / language).glob("*.toml")):
        flat: dict[str, str] = {}
        _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), flat)
        clash = set(flat) & set(merged)
        if clash:
            raise ValueError(f"{path}: keys defined twice: {', '.join(sorted(clash))}")
        merged.update(flat)
    return merged


def t(key: str, locale: object | None = None, /, **params: Any) -> str:
    """The text for ``key`` in the language of ``locale``, with ``params`` filled in."""
    language = language_of(locale) if locale not in LANGUAGES else str(locale)
    template = catalog(language).get(key)
    if template is None:
        template = catalog(DEFAULT_LANGUAGE).get(key)
    if template is None:
        raise KeyError(f"no text for {key!r}")
    return template.format(**params)


@cache
def _plural_rule(language: str):
    return Locale.parse(language).plural_form


def plural_form(language: str, count: float) -> str:
    """The CLDR plural category of ``count`` in ``language`` (French: 0 and 1 are "one")."""
    return _plural_rule(language)(abs(count))


def phrase_template(language: str, key: str) -> Template | None:
    """A language's template for a phrase key: a string, plural forms, or None (use English)."""
    if language == DEFAULT_LANGUAGE:
        return None
    texts = catalog(language)
    name = f"phrase.{key}"
    plain = texts.get(name)
    if plain is not None:
        return plain
    forms: Mapping[str, str] = {
        form: texts[f"{name}.{form}"] for form in PLURAL_FORMS if f"{name}.{form}" in texts
    }
    return forms or None


def say(phrase: Phrase, locale: object | None = None) -> str:
    """What an engine said, in the language of ``locale`` (English when not translated)."""
    language = language_of(locale) if locale not in LANGUAGES else str(locale)
    return format_phrase(
        phrase,
        lambda key: phrase_template(language, key),
        lambda count: plural_form(language, count),
    )
