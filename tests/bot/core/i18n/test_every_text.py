"""Every text and every slash command in both languages: catalog keys present in each language
with the same placeholders, French typography in French, and every command, option and choice
of the bot's real command tree named in each language as Discord accepts it."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import pytest
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

from bot.core import i18n, rules
from bot.core.i18n.commands import CommandNames, OptionNames
from bot.core.settings import Config
from bot.discord.client import BoardGamesBot, extensions
from bot.discord.translator import CHOICE_NAME_LIMIT, DESCRIPTION_LIMIT, localised, valid_name
from bot.services import Services
from bot.store import open_store
from words import raw_catalog
from words.catalogs import LOCALES

LANGUAGES = i18n.LANGUAGES
PLURAL_SUFFIX = re.compile(r"\.(zero|one|two|few|many|other)$")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# ----- French typography --------------------------------------------------------------------

#: What is not prose: code in backquotes, Discord markup (<t:…:R>, <@…>), placeholders, links,
#: clock times (14:00).
NOT_PROSE = re.compile(r"`[^`]*`|<[^>]*>|\{[^}]*\}|https?://\S+|\d:\d")
SPACES = " \u00a0\u202f"


def typography_faults(text: str) -> list[str]:
    """French high punctuation without the space before it, or guillemets without theirs."""
    prose = NOT_PROSE.sub("x", text)
    faults = [
        prose[max(0, i - 12): i + 1]
        for i, char in enumerate(prose)
        if char in ":;?!»" and (i == 0 or prose[i - 1] not in SPACES)
        # "!" and "?" may close a longer run ("?!"), "…" may precede them
        and not (char in "?!" and i > 0 and prose[i - 1] in "?!")
    ]
    faults += [prose[i: i + 12] for i, char in enumerate(prose)
               if char == "«" and (i + 1 >= len(prose) or prose[i + 1] not in SPACES)]
    return faults


def test_the_typography_check_sees_what_it_should():
    assert typography_faults("Cadence : {control}. Vraiment ? Oui !") == []
    assert typography_faults("`/règles jeu:<jeu>` <t:{unix}:R> à 14:00 « ici »") == []
    assert typography_faults("Cadence: 3 jours") == ["Cadence:"]
    assert typography_faults("Vraiment? Non!") == ["Vraiment?", "raiment? Non!"]
    assert typography_faults("«ici »") == ["«ici »"]


def french_texts() -> Iterator[tuple[str, str]]:
    """Every French text as written: the catalogs and the rule texts."""
    yield from raw_catalog("fr").items()
    for game in rules.GAMES:
        text = rules.game_text(game, "fr")
        yield f"rules {game} title", text.title
        yield f"rules {game} summary", text.summary
        for section_id in rules.SECTIONS:
            section = rules.section(game, section_id, "fr")
            assert section.language == "fr", (game, section_id)
            yield f"rules {game} {section_id} title", section.title
            yield f"rules {game} {section_id}", section.body


def test_french_texts_follow_french_typography():
    faults = {key: found for key, text in french_texts() if (found := typography_faults(text))}
    assert faults == {}


def test_french_texts_are_shown_with_no_break_spaces():
    shown = i18n.t("errors.not_your_turn", "fr")
    assert i18n.t("bot.board.finished", "fr", game="Alak", id=3, reason="r") == (
        "Alak n°3 est terminée\u00a0: r."
    )
    assert " :" not in shown and " ?" not in i18n.t("bot.challenge.named", "fr", host="a",
                                                       opponent="b", game="c")
    assert i18n.typeset("Vraiment ? « oui »", "fr") == "Vraiment\u00a0? «\u00a0oui\u00a0»"
    assert i18n.typeset("Really ? yes", "en") == "Really ? yes"


def test_english_texts_have_no_space_before_punctuation():
    faults = {
        key: text for key, text in raw_catalog("en").items()
        if re.search(r" [:;?!]", NOT_PROSE.sub("x", text))
    }
    assert faults == {}


# ----- catalogs ---------------------------------------------------------------------------------


def test_every_key_is_in_both_languages_with_the_same_placeholders():
    english, french = raw_catalog("en"), raw_catalog("fr")
    bot_keys = {k for k in english if not k.startswith("phrase.")}
    assert bot_keys <= set(french), sorted(bot_keys - set(french))
    assert {k for k in french if not k.startswith("phrase.")} == bot_keys
    for key in bot_keys:
        assert placeholders(french[key]) == placeholders(english[key]), key


def plural_tables(language: str) -> dict[str, set[str]]:
    tables: dict[str, set[str]] = {}
    for key in raw_catalog(language):
        match = PLURAL_SUFFIX.search(key)
        if match:
            tables.setdefault(key[: match.start()], set()).add(match.group(1))
    return tables


def test_plural_tables_have_the_forms_of_their_language():
    tables = {lang: plural_tables(lang) for lang in LANGUAGES}
    assert "clocks.count.games" in tables["en"]
    for language, found in tables.items():
        for key, forms in found.items():
            assert {"one", "other"} <= forms, (language, key)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_text_at_zero_one_and_two(language):
    """French puts 0 and 1 in the singular, English only 1: each table's text follows."""
    expected = {"en": ("other", "one", "other"), "fr": ("one", "one", "other")}[language]
    texts = raw_catalog(language)
    names = {"cmd": CommandNames(language), "opt": OptionNames(language)}
    tables = [key for key in plural_tables(language) if not key.startswith("phrase.")]
    assert len(tables) >= 10
    for key in tables:
        fields = {name.split("[")[0] for name in placeholders(texts[f"{key}.other"])}
        params = {name: f"<{name}>" for name in fields - {"count", *names}}
        for count, form in zip((0, 1, 2), expected, strict=True):
            template = i18n.typeset(texts[f"{key}.{form}"], language)
            wanted = template.format(count=count, **params, **names)
            assert i18n.t(key, language, count=count, **params) == wanted, (key, count)


def test_commands_named_in_texts_exist_in_that_language():
    """A text names a command through {cmd[…]} (always the reader's language) or, in the rule
    texts, by its name in that language: never by another language's name."""
    for language in LANGUAGES:
        names = {i18n.command_name(path, language).split()[0][1:]
                 for path in command_paths()}
        other = {i18n.command_name(path, o).split()[0][1:] for path in command_paths()
                 for o in LANGUAGES if o != language} - names
        texts = dict(raw_catalog(language))
        for game in rules.GAMES:
            for section_id in rules.SECTIONS:
                texts[f"rules {game} {section_id}"] = rules.section(game, section_id,
                                                                     language).body
        for key, text in texts.items():
            for found in re.findall(r"(?<![\w<])/([^\s`/{}.,:;)]+)", text):
                assert found not in other, (language, key, found)
            for path in re.findall(r"\{cmd\[([^\]]+)\]\}", text):
                assert path in command_paths(), (key, path)


# ----- the real command tree ------------------------------------------------------------------


@pytest.fixture
async def tree(tmp_path) -> Iterator[app_commands.CommandTree]:
    store = await open_store(str(tmp_path / "bot.db"))
    bot = BoardGamesBot(Config(database=str(tmp_path / "bot.db")), Services(store))
    for extension in extensions():
        await bot.load_extension(extension)
    yield bot.tree
    bot.heavy.close()
    await bot.close()
    await store.close()


def walk(commands) -> Iterator[app_commands.Command | app_commands.Group]:
    for command in commands:
        yield command
        if isinstance(command, app_commands.Group):
            yield from walk(command.commands)


def command_paths() -> set[str]:
    """Every command path the catalogs name (the tree test checks they are the bot's)."""
    return {
        key[len("commands."): -len(".name")].replace(".", " ")
        for key in raw_catalog("en")
        if key.startswith("commands.") and key.endswith(".name") and ".options." not in key
    }


def context(location, data) -> TranslationContext:
    return TranslationContext(location, data)


async def test_every_command_option_and_choice_is_named_in_both_languages(tree):
    L = TranslationContextLocation
    english = raw_catalog("en")
    missing: list[str] = []
    seen_paths = set()
    for command in walk(tree.get_commands()):
        path = command.qualified_name
        seen_paths.add(path)
        key = "commands." + path.replace(" ", ".")
        assert english.get(f"{key}.name") == command.name, path
        assert i18n.command_name(path, "en") == f"/{path}"
        is_group = isinstance(command, app_commands.Group)
        where = (L.group_name, L.group_description) if is_group else (
            L.command_name, L.command_description)
        for language in LANGUAGES[1:]:
            name = localised(locale_str(command.name), language, context(where[0], command))
            description = localised(locale_str(command.description), language,
                                    context(where[1], command))
            if name is None or description is None:
                missing.append(f"{language} {path}")
        if is_group:
            continue
        for param in command.parameters:
            assert i18n.option_name(path, param.name, "en") == param.display_name, (path, param)
            for language in LANGUAGES[1:]:
                name = localised(locale_str(param.display_name), language,
                                 context(L.parameter_name, param))
                description = localised(locale_str(param.description), language,
                                        context(L.parameter_description, param))
                if name is None or description is None:
                    missing.append(f"{language} {path} {param.display_name}")
                for choice in param.choices:
                    if str(choice.value).isdigit():
                        continue  # a number reads the same in every language
                    text = localised(choice._locale_name or locale_str(choice.name), language,
                                     context(L.choice_name, choice))
                    if text is None:
                        missing.append(f"{language} {path} {param.display_name}={choice.value}")
                    else:
                        assert 1 <= len(text) <= CHOICE_NAME_LIMIT
    assert missing == []
    assert seen_paths == command_paths()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_command_text_is_valid_for_discord(language):
    texts = raw_catalog(language)
    for key, text in texts.items():
        if not key.startswith("commands."):
            continue
        if key.endswith(".name"):
            assert valid_name(text), key
        elif key.endswith(".description"):
            assert 1 <= len(i18n.typeset(text, language)) <= DESCRIPTION_LIMIT, key
    for key in (k for k in texts if k.startswith("choices.")):
        assert 1 <= len(texts[key]) <= CHOICE_NAME_LIMIT, key


def test_the_helper_names_commands_and_options_in_each_language():
    assert i18n.command_name("play", "fr") == "/jouer"
    assert i18n.command_name("play", "en") == "/play"
    assert i18n.command_name("tournament create", "fr") == "/tournoi créer"
    assert i18n.option_name("play alak", "opponent", "fr") == "adversaire"
    assert i18n.option_name("rules", "game", "fr") == "jeu"
    assert i18n.t("bot.games.none", "fr").endswith("/jouer.")
    assert i18n.t("bot.games.none", "en").endswith("/play.")


def test_no_text_file_is_forgotten():
    """Both languages have the same catalog files (a feature adds its texts to both)."""
    english = {p.name for p in (LOCALES / "en").glob("*.toml")}
    french = {p.name for p in (LOCALES / "fr").glob("*.toml")}
    assert {"core.toml", "images.toml", "phrases_alak.toml"} <= english
    assert english == french
