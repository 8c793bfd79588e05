"""The bot's way to the words users read: every text of a message or a command, in the
reader's language.

The texts live with every other word users read, in the ``words`` package: TOML catalogs
under ``words/locales/<language>/`` (``words.catalogs``); each feature keeps its own file
(``core.toml``, ``rules.toml``...) so features do not edit the same file.
Keys are dotted (``move.not_your_turn``) and values are ``str.format`` templates. English is the
fallback for a missing key. ``t(key, locale, **params)`` fills a template in:

- a key may be a table of CLDR plural forms (``key.one``, ``key.other``…): Babel's plural rules
  for the language choose one by the ``count`` parameter ("1 game", "2 games"; French says
  "0 partie" and "1 partie", "2 parties");
- ``count`` is written as the language writes numbers ("1,234" / "1 234"); other numbers are
  written as given (game numbers, Discord timestamps), or through ``number``;
- a parameter that is a ``Phrase`` (what an engine said) is translated with ``say``, and one
  that is a ``Text`` (another catalog text, such as "3 days" inside a sentence) with ``t``;
- ``{cmd[tournament create]}`` is a command as typed in the language (``/tournoi créer``) and
  ``{opt[rules:game]}`` an option's name (``jeu``), so a text never names a command in
  another language than its own (``bot.core.i18n.commands``).

What the engines say (``engines.phrases.Phrase``: refusals, move descriptions, outcomes, seat
names) is translated by ``say``: the catalog key ``phrase.<phrase key>`` holds the template of a
language other than English (the engines' own English is the fallback), either one string or a
table of CLDR plural forms chosen by ``count``, like ``t``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal

from bot.core.i18n.commands import CommandNames, OptionNames, choice_name, command_name, option_name
from engines.phrases import Phrase, format_phrase
from words import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    PLURAL_FORMS,
    Template,
    catalog,
    fill,
    language_of,
    typeset,
)
from words.plurals import plural_form

#: A language of the catalogs (``"fr"``) as is, or the language of a locale.
language_code = language_of

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "PLURAL_FORMS",
    "Text",
    "catalog",
    "choice_name",
    "command_name",
    "language_code",
    "language_of",
    "listed",
    "number",
    "option_name",
    "phrase_template",
    "plural_form",
    "say",
    "t",
    "typeset",
]

def number(value: float, locale: object | None) -> str:
    """A number as the reader writes it: "1,234.5" in English, "1 234,5" in French (at most
    two decimals, none for a whole number)."""
    return format_decimal(value, format="#,##0.##", locale=language_code(locale))


def listed(items: Sequence[str], locale: object | None) -> str:
    """Names as the reader lists them: "A and B", "A, B, and C" / "A et B", "A, B et C"."""
    return format_list(list(items), locale=language_code(locale)) if items else ""


def _forms(texts: Mapping[str, str], key: str) -> dict[str, str]:
    return {form: texts[f"{key}.{form}"] for form in PLURAL_FORMS if f"{key}.{form}" in texts}


def _template(language: str, key: str, count: Any) -> str:
    """The template of ``key`` in ``language`` (else English): the key's text, or the plural
    form ``count`` calls for."""
    for lang in (language, DEFAULT_LANGUAGE):
        texts = catalog(lang)
        plain = texts.get(key)
        if plain is not None:
            return plain
        forms = _forms(texts, key)
        if forms:
            if not isinstance(count, int | float) or isinstance(count, bool):
                raise TypeError(f"{key!r} has plural forms: give it a numeric count")
            return forms.get(plural_form(lang, count)) or forms["other"]
    raise KeyError(f"no text for {key!r}")


@dataclass(frozen=True, init=False)
class Text:
    """A catalog text used as a parameter of another, translated with it: a sentence whose
    parts have their own plural ("your 3 games", "2 days left") is one text per part."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, /, **params: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)

    def __str__(self) -> str:
        return t(self.key, DEFAULT_LANGUAGE, **self.params)


def _shown(name: str, value: Any, language: str) -> Any:
    if isinstance(value, Phrase):
        return say(value, language)
    if isinstance(value, Text):
        return t(value.key, language, **value.params)
    if isinstance(value, tuple) and value and all(isinstance(v, Text) for v in value):
        return ", ".join(t(v.key, language, **v.params) for v in value)
    if name == "count" and isinstance(value, int | float) and not isinstance(value, bool):
        return number(value, language)
    return value


def t(key: str, locale: object | None = None, /, **params: Any) -> str:
    """The text for ``key`` in the language of ``locale``, with ``params`` filled in (see the
    module's docstring for plurals, numbers, phrases and command names)."""
    language = language_code(locale)
    template = _template(language, key, params.get("count"))
    values = {name: _shown(name, value, language) for name, value in params.items()}
    values.setdefault("cmd", CommandNames(language))
    values.setdefault("opt", OptionNames(language))
    return fill(template, values) if language == "fr" else template.format(**values)


def phrase_template(language: str, key: str) -> Template | None:
    """A language's template for a phrase key: a string, plural forms, or None (use English)."""
    if language == DEFAULT_LANGUAGE:
        return None
    texts = catalog(language)
    name = f"phrase.{key}"
    plain = texts.get(name)
    if plain is not None:
        return plain
    return _forms(texts, name) or None


def _phrase_value(language: str):
    """Plain parameters of a phrase as the language writes them: fractions per locale
    ("7.5" / "7,5"); whole numbers stay as typed (they are often coordinates: "-1")."""

    def shown(value: Any) -> str:
        if isinstance(value, float) and not value.is_integer():
            return number(value, language)
        return str(value)

    return shown


def say(phrase: Phrase, locale: object | None = None) -> str:
    """What an engine said, in the language of ``locale`` (English when not translated)."""
    language = language_code(locale)
    return format_phrase(
        phrase,
        lambda key: phrase_template(language, key),
        lambda count: plural_form(language, count),
        value=_phrase_value(language),
        fill=fill if language == "fr" else None,
    )
