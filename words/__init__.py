"""The words users read, in every language, in one place: the engines' phrases, the words
drawn on images, the bot's messages and commands (``locales/<language>/*.toml``) and the rule
texts of the games (``rules/<language>/<game>.toml``), with what every reader of them needs:

- ``catalogs``: reading the catalogs, French typography, the language of a locale;
- ``spelling``: French élision where a filled-in value decides it ("d'Alak", "de l'IA");
- ``plurals``: each language's plural rule (Babel).

Every layer reads from here (the engines, render, the bot); this package imports nothing of
ours, and nothing but the standard library until a plural is asked for.
"""

from __future__ import annotations

from words.catalogs import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    NBSP,
    PLURAL_FORMS,
    Template,
    catalog,
    language_of,
    phrase_templates,
    raw_catalog,
    typeset,
)
from words.spelling import before, fill

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "NBSP",
    "PLURAL_FORMS",
    "Template",
    "before",
    "catalog",
    "fill",
    "language_of",
    "phrase_templates",
    "raw_catalog",
    "typeset",
]
