"""Localised slash commands: an ``app_commands.Translator`` fed by the i18n catalogs.

discord.py asks the translator, at ``CommandTree.sync``, for every command name, description,
option name/description and choice name in every Discord locale. We answer from catalog keys
derived from where the string sits (``bot.core.i18n.commands``), so commands need no per-string
markup:

- ``commands.<command path>.name`` / ``.description`` for a command or group (the path is its
  qualified name with dots: ``/tournament join`` -> ``commands.tournament.join.name``);
- ``commands.<command path>.options.<option>.name`` / ``.description`` for an option (or the
  same under a group above it, for an option all its sub-commands share);
- ``choices.<value>`` for a choice (``choices.alak``);
- or any key given explicitly: ``locale_str("Alak", key="games.alak")``, or a function of the
  language: ``locale_str("3 days per move", text=lambda language: ...)``, for a text built
  from data (a time control).

Command translations live in ``locales/<language>/commands.toml``; a feature may also put its
``[commands.<name>]`` tables in its own catalog file (all files of a language are merged).
English is the commands' own text, so only other languages get localisations; a missing key or
an invalid command/option name yields ``None`` (Discord then shows the default text).
"""

from __future__ import annotations

import logging
import re

from discord import Locale
from discord.app_commands import (
    TranslationContextLocation,
    TranslationContextTypes,
    Translator,
    locale_str,
)

from bot.core.i18n import DEFAULT_LANGUAGE, catalog, language_of
from bot.core.i18n.commands import command_key, option_keys

log = logging.getLogger(__name__)

#: Discord's rule for command and option names in a locale: lowercase letters (any script),
#: digits, ``-`` and ``_``, 1 to 32 characters (the Devanagari/Thai extras are not needed here).
NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")
DESCRIPTION_LIMIT = 100
CHOICE_NAME_LIMIT = 100

_NAME_LOCATIONS = (
    TranslationContextLocation.command_name,
    TranslationContextLocation.group_name,
    TranslationContextLocation.parameter_name,
)
_DESCRIPTION_LOCATIONS = (
    TranslationContextLocation.command_description,
    TranslationContextLocation.group_description,
    TranslationContextLocation.parameter_description,
)


def valid_name(name: str) -> bool:
    """Whether Discord accepts ``name`` as a localised command or option name."""
    return bool(NAME_PATTERN.match(name)) and name == name.lower()


def _command_path(command: object) -> str:
    return str(getattr(command, "qualified_name", None) or getattr(command, "name", ""))


def catalog_keys(string: locale_str, context: TranslationContextTypes) -> list[str]:
    """The catalog keys for a string at this place, the first one found wins (none: it has
    no translation)."""
    explicit = string.extras.get("key")
    if explicit:
        return [str(explicit)]
    location, data = context.location, context.data
    if location in (TranslationContextLocation.command_name, TranslationContextLocation.group_name):
        return [command_key(_command_path(data)) + ".name"]
    if location in (
        TranslationContextLocation.command_description,
        TranslationContextLocation.group_description,
    ):
        return [command_key(_command_path(data)) + ".description"]
    if location in (
        TranslationContextLocation.parameter_name,
        TranslationContextLocation.parameter_description,
    ):
        field = "name" if location is TranslationContextLocation.parameter_name else "description"
        return list(option_keys(_command_path(data.command), data.display_name, field))
    if location is TranslationContextLocation.choice_name:
        return [f"choices.{data.value}"]
    return []


def catalog_key(string: locale_str, context: TranslationContextTypes) -> str | None:
    """The most specific catalog key for a string at this place, or ``None``."""
    keys = catalog_keys(string, context)
    return keys[0] if keys else None


def _fits(text: str, location: TranslationContextLocation) -> bool:
    if location in _NAME_LOCATIONS:
        return valid_name(text)
    if location in _DESCRIPTION_LOCATIONS:
        return 1 <= len(text) <= DESCRIPTION_LIMIT
    if location is TranslationContextLocation.choice_name:
        return 1 <= len(text) <= CHOICE_NAME_LIMIT
    return bool(text)


def localised(string: locale_str, language: str, context: TranslationContextTypes) -> str | None:
    """The text of ``string`` at this place in ``language``, or None when it has none (or
    one Discord would refuse)."""
    built = string.extras.get("text")
    if callable(built):
        text = built(language)
    else:
        texts = catalog(language)
        text = next((texts[key] for key in catalog_keys(string, context) if key in texts), None)
    if text is None:
        return None
    if not _fits(text, context.location):
        # Discord rejects the whole sync for one bad localisation: better the English text.
        log.warning("ignoring %s text for %s: not valid for Discord", language,
                    catalog_key(string, context) or string.message)
        return None
    return text


#: The catalogs' language of each Discord locale, worked out once: a sync asks the translator
#: about every text in each of Discord's 30-odd locales, all but one of them English here.
LANGUAGE_OF_LOCALE = {locale: language_of(locale) for locale in Locale}


class CatalogTranslator(Translator):
    """Translates command texts into the language of each Discord locale from the catalogs."""

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        language = LANGUAGE_OF_LOCALE.get(locale) or language_of(locale)
        if language == DEFAULT_LANGUAGE:
            return None
        return localised(string, language, context)
