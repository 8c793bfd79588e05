"""Every phrase an engine can say has a French template, and plurals follow each language."""

from __future__ import annotations

import string

import pytest

import engines  # noqa: F401  (importing the engines registers their phrases)
from bot.core.i18n import phrase_template, plural_form, say
from engines import Phrase
from engines.phrases import ENGLISH, define


def _fields(template) -> set[str]:
    texts = [template] if isinstance(template, str) else list(template.values())
    return {
        name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name
    }


def _engine_keys() -> list[str]:
    return sorted(key for key in ENGLISH if not key.startswith("test."))


@pytest.mark.parametrize("key", _engine_keys())
def test_every_engine_phrase_has_a_french_template_with_the_same_fields(key):
    french = phrase_template("fr", key)
    assert french is not None, f"no French for phrase {key!r} (add phrase.{key})"
    assert _fields(french) == _fields(ENGLISH[key])
    if not isinstance(ENGLISH[key], str):
        assert not isinstance(french, str), f"{key}: English has plural forms, French none"
        assert "one" in french and "other" in french


def test_nested_phrases_are_translated_too():
    phrase = Phrase("outcome.resigned", seat=Phrase("seat.black"))
    assert say(phrase, "fr") == "Noir abandonne"
    assert say(phrase, "en") == "Black resigned"


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", ["other", "one", "other"]), ("fr", ["one", "one", "other"])],
)
def test_plural_forms_at_zero_one_two(language, expected):
    assert [plural_form(language, n) for n in (0, 1, 2)] == expected


def test_a_phrase_without_french_falls_back_to_english():
    define({"test.untranslated": "{count} things"})
    assert say(Phrase("test.untranslated", count=2), "fr") == "2 things"
