"""Every text exists in every language with the same placeholders."""

import string

import pytest

from bot import i18n


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_the_same_keys():
    english = set(i18n.catalog("en"))
    assert english
    for language in i18n.LANGUAGES:
        assert set(i18n.catalog(language)) == english, language


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_placeholders_match_english(language):
    english = i18n.catalog("en")
    for key, template in i18n.catalog(language).items():
        assert placeholders(template) == placeholders(english[key]), key


def test_reply_language_follows_the_locale():
    assert i18n.language_of("fr") == "fr"
    assert i18n.language_of("en-US") == "en"
    assert i18n.language_of("de") == "en"
    assert i18n.language_of(None) == "en"
    assert i18n.t("errors.unknown", "fr") != i18n.t("errors.unknown", "en-GB")


def test_missing_key_raises():
    with pytest.raises(KeyError):
        i18n.t("no.such.key", "en")
