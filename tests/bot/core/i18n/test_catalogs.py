"""Every text exists in every language with the same placeholders."""

import string

import pytest

from bot.core import i18n


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def bot_texts(language: str) -> dict[str, str]:
    """The bot's own texts; ``phrase.*`` translate the engines' English (test_phrases)."""
    return {k: v for k, v in i18n.catalog(language).items() if not k.startswith("phrase.")}


def test_every_language_has_the_same_keys():
    english = set(bot_texts("en"))
    assert english
    for language in i18n.LANGUAGES:
        assert set(bot_texts(language)) == english, language


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_placeholders_match_english(language):
    english = bot_texts("en")
    for key, template in bot_texts(language).items():
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
