"""Slash commands are localised from the catalogs by bot.i18n.translator.CatalogTranslator."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

from bot.core import i18n
from bot.discord import translator as translator_module
from bot.discord.translator import CatalogTranslator, catalog_key, valid_name


def make_tree() -> app_commands.CommandTree:
    return app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))


def rules_command() -> app_commands.Command:
    @app_commands.command(name="rules", description="Read the rules of a game")
    @app_commands.choices(
        game=[
            app_commands.Choice(name="Alak", value="alak"),
            app_commands.Choice(name="LPPG (Le Plus Petit Gagne)", value="lppg"),
        ]
    )
    async def rules(interaction: discord.Interaction, game: str, section: str | None = None):
        """Never called."""

    return rules


async def test_french_payload_has_names_descriptions_options_and_choices():
    tree = make_tree()
    command = rules_command()
    tree.add_command(command)
    payload = await command.get_translated_payload(tree, CatalogTranslator())
    french = i18n.catalog("fr")
    assert payload["name"] == "rules"
    assert payload["name_localizations"] == {"fr": french["commands.rules.name"]}
    assert payload["description_localizations"] == {"fr": french["commands.rules.description"]}
    game, section = payload["options"]
    assert game["name_localizations"] == {"fr": french["commands.rules.options.game.name"]}
    assert section["name_localizations"] == {"fr": french["commands.rules.options.section.name"]}
    assert section["description_localizations"]["fr"] == (
        french["commands.rules.options.section.description"]
    )
    assert [c["name_localizations"] for c in game["choices"]] == [
        {"fr": french["choices.alak"]},
        {"fr": french["choices.lppg"]},
    ]
    assert payload["name_localizations"]["fr"] != "rules"


@pytest.mark.parametrize("locale", [discord.Locale.american_english, discord.Locale.german])
async def test_non_french_locales_keep_the_default_text(locale):
    command = rules_command()
    context = TranslationContext(TranslationContextLocation.command_name, command)
    assert await CatalogTranslator().translate(locale_str("rules"), locale, context) is None


async def test_subcommands_use_their_qualified_path(monkeypatch):
    group = app_commands.Group(name="tournament", description="Tournaments")

    @group.command(name="join", description="Join a tournament")
    async def join(interaction: discord.Interaction, code: str):
        """Never called."""

    monkeypatch.setitem(i18n.catalog("fr"), "commands.tournament.join.name", "rejoindre")
    monkeypatch.setitem(
        i18n.catalog("fr"), "commands.tournament.join.options.code.name", "code-tournoi"
    )
    translator = CatalogTranslator()
    name = TranslationContext(TranslationContextLocation.command_name, join)
    assert await translator.translate(locale_str("join"), discord.Locale.french, name) == (
        "rejoindre"
    )
    tree = make_tree()
    tree.add_command(group)
    payload = await group.get_translated_payload(tree, translator)
    (sub,) = payload["options"]
    assert sub["name_localizations"] == {"fr": "rejoindre"}
    assert sub["options"][0]["name_localizations"] == {"fr": "code-tournoi"}


async def test_an_explicit_key_wins():
    context = TranslationContext(TranslationContextLocation.other, None)
    string = locale_str("Something went wrong", key="errors.unknown")
    assert catalog_key(string, context) == "errors.unknown"
    text = await CatalogTranslator().translate(string, discord.Locale.french, context)
    assert text == i18n.t("errors.unknown", "fr")


async def test_missing_key_gives_none():
    @app_commands.command(name="nothing", description="Not in any catalog")
    async def nothing(interaction: discord.Interaction):
        """Never called."""

    context = TranslationContext(TranslationContextLocation.command_name, nothing)
    assert await CatalogTranslator().translate(
        locale_str("nothing"), discord.Locale.french, context
    ) is None


async def test_a_name_discord_would_reject_is_not_sent(monkeypatch):
    monkeypatch.setitem(i18n.catalog("fr"), "commands.rules.name", "Les Règles")
    context = TranslationContext(TranslationContextLocation.command_name, rules_command())
    translated = await CatalogTranslator().translate(
        locale_str("rules"), discord.Locale.french, context
    )
    assert translated is None


def test_discord_name_rule():
    assert valid_name("règles")
    assert valid_name("code-tournoi")
    assert not valid_name("Règles")
    assert not valid_name("deux mots")
    assert not valid_name("x" * 33)
    assert not valid_name("")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_command_text_in_the_catalogs_is_valid_for_discord(language):
    texts = i18n.catalog(language)
    command_keys = [k for k in texts if k.startswith("commands.")]
    assert command_keys
    for key in command_keys:
        if key.endswith(".name"):
            assert valid_name(texts[key]), key
        elif key.endswith(".description"):
            assert 1 <= len(texts[key]) <= translator_module.DESCRIPTION_LIMIT, key
    for key in (k for k in texts if k.startswith("choices.")):
        assert 1 <= len(texts[key]) <= translator_module.CHOICE_NAME_LIMIT, key


def test_english_names_are_the_commands_own_names():
    """English is the default text: its catalog names are the names the cogs register."""
    english = i18n.catalog("en")
    for key, value in english.items():
        if key.startswith("commands.") and key.endswith(".name"):
            assert value == key.split(".")[-2], key
