"""The catalogs: every text users read, in every language, read from
``locales/<language>/*.toml``.

Keys are dotted (``bot.game.moved``); a value is a ``str.format`` template, or a table of CLDR
plural forms (``key.one``, ``key.other``…) chosen by a count (``template``). Each feature keeps
its own file; all files of a language are merged, and a key defined twice is an error. Three
prefixes name who reads a text: ``phrase.`` what the engines say (in ``phrases*.toml`` files
only, which the engines read alone), ``image.`` the words drawn on images (``images.toml``),
and every other key the bot's messages and commands.

French texts follow French typography: writers type an ordinary space before ``:`` ``;`` ``?``
``!`` and inside « », and the catalog turns it into a no-break space, so a line never starts
with the punctuation and every French text is spaced the same way.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
NBSP = "\u00a0"
#: CLDR plural categories, in CLDR's order.
PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")
LOCALES = Path(__file__).with_name("locales")

#: A template: one format string, or one per CLDR plural category ("one", "other", ...).
Template = str | Mapping[str, str]

#: A space before French high punctuation, or inside guillemets.
_SPACE_BEFORE = re.compile(r"[ \u00a0\u202f]+([:;?!»])")
_SPACE_AFTER = re.compile(r"«[ \u00a0\u202f]+")


def language_of(locale: object | None) -> str:
    """The language of the catalogs for a locale: a language tag (``"fr"``, ``"fr-FR"``,
    ``"fr_CA"``) or an object whose ``value`` is one (``discord.Locale``); English for any
    language the catalogs do not have."""
    value = str(getattr(locale, "value", locale) or "")
    base = value.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


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
def catalog_file(path: Path) -> dict[str, str]:
    """The keys of one catalog file, as written."""
    flat: dict[str, str] = {}
    _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), flat)
    return flat


def _merged(paths: list[Path]) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in paths:
        flat = catalog_file(path)
        clash = set(flat) & set(merged)
        if clash:
            raise ValueError(f"{path}: keys defined twice: {', '.join(sorted(clash))}")
        merged.update(flat)
    return merged


@cache
def raw_catalog(language: str) -> dict[str, str]:
    """Every key of a language as written in its files (a key defined twice is an error)."""
    return _merged(sorted((LOCALES / language).glob("*.toml")))


@cache
def catalog(language: str) -> dict[str, str]:
    """Every key of a language, ready to show (``typeset``)."""
    return {key: typeset(value, language) for key, value in raw_catalog(language).items()}


@cache
def part(language: str, prefix: str, file: str) -> dict[str, str]:
    """The keys under ``prefix`` (without it) of one file of a language, ready to show: what a
    reader of one kind of text needs without reading every catalog (``image.`` in
    ``images.toml``)."""
    texts = catalog_file(LOCALES / language / f"{file}.toml")
    return {key[len(prefix):]: typeset(value, language)
            for key, value in texts.items() if key.startswith(prefix)}


def plural_tables(texts: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """The plural tables among flat keys: ``{"a.b": {"one": …, "other": …}}`` for
    ``a.b.one``, ``a.b.other``."""
    tables: dict[str, dict[str, str]] = {}
    for key, text in texts.items():
        base, _, form = key.rpartition(".")
        if form in PLURAL_FORMS and base:
            tables.setdefault(base, {})[form] = text
    return tables


@cache
def phrase_templates(language: str) -> dict[str, Template]:
    """What the engines say, in ``language`` as written (``phrases*.toml``): phrase key
    (without ``phrase.``) -> one template or a table of plural forms."""
    texts = _merged(sorted((LOCALES / language).glob("phrases*.toml")))
    plain = {key.removeprefix("phrase."): text for key, text in texts.items()}
    found: dict[str, Template] = dict(plural_tables(plain))
    for key, text in plain.items():
        base, _, form = key.rpartition(".")
        if not (form in PLURAL_FORMS and base in found):
            found[key] = text
    return found
