"""The one home of the words users read: who reads which file, the language of a locale, the
engines' phrases as templates, and a package every layer may import."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import engines
import words
from words.catalogs import LOCALES, catalog_file, language_of, part, phrase_templates

ROOT = Path(__file__).resolve().parents[2]
OURS = {"words", "engines", "ai", "render", "bot", "emulator", "bench", "tests"}


@pytest.mark.parametrize("language", words.LANGUAGES)
def test_each_kind_of_text_is_in_its_own_files(language):
    """The engines read only ``phrases*.toml`` and render only ``images.toml``: what they
    need must be there, and nothing else."""
    for path in sorted((LOCALES / language).glob("*.toml")):
        keys = catalog_file(path)
        assert keys, path
        phrases = {k for k in keys if k.startswith("phrase.")}
        images = {k for k in keys if k.startswith("image.")}
        if path.name.startswith("phrases"):
            assert phrases == set(keys), path.name
        elif path.name == "images.toml":
            assert images == set(keys), path.name
        else:
            assert not phrases and not images, path.name


def test_the_language_of_a_locale():
    class Locale:  # as discord.Locale carries its tag
        value = "fr"

    assert language_of("fr") == language_of("fr-FR") == language_of("FR_ca") == "fr"
    assert language_of(Locale()) == "fr"
    for other in ("en-GB", "en-US", "de", "pt-BR", "", None):
        assert language_of(other) == "en"


def test_phrase_templates_are_strings_or_plural_tables():
    english = phrase_templates("en")
    assert english["alak.occupied"] == "point {point} is already taken"
    assert english["alak.wins"] == {"one": "{seat} wins with {count} stone to {other}",
                                    "other": "{seat} wins with {count} stones to {other}"}
    assert english["seat.player_1"] == "Player 1"
    assert not any(key.startswith("phrase.") or key.endswith(".one") for key in english)


def test_every_seat_name_of_every_game_is_in_the_english_catalog():
    english = phrase_templates("en")
    for game in engines.GAMES.values():
        for name in game.seat_names:
            assert english["seat." + "_".join(name.lower().split())] == name


def test_a_part_is_one_file_under_one_prefix_typeset():
    french = part("fr", "image.", "images")
    assert french["header.draw"] == "Partie terminée\u00a0: nulle"
    assert "header.draw" in part("en", "image.", "images")


def test_the_package_imports_nothing_of_ours():
    for path in Path(words.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                top = name.split(".")[0]
                assert top == "words" or top not in OURS, (path, name)


def test_the_engines_read_their_words_without_loading_babel():
    """Babel is for counting in a language (the bot, render): the engines and the AI workers
    that import them do without it."""
    code = ("import sys, engines\n"
            "game = engines.get('alak')\n"
            "try:\n    game.play(game.new(players=2, seed=1), 'zz')\n"
            "except engines.IllegalMove as refusal:\n    assert 'point' in str(refusal)\n"
            "assert 'babel' not in sys.modules, 'babel imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_every_english_phrase_is_in_the_catalog():
    """What the engines, the AI and the bot say is written in the catalogs, not registered in
    code (``engines.phrases.define`` is for what a catalog cannot know ahead). Read in a fresh
    interpreter: test-only games of other tests (the services' Verdict game) register their
    own seat names in the same registry when they share this process."""
    code = ("import json, ai, bot.services\n"
            "from engines.phrases import ENGLISH\n"
            "print(json.dumps(sorted(ENGLISH)))")
    found = subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                           capture_output=True, text=True)
    registered = json.loads(found.stdout)
    assert "seat.black" in registered  # the engines' own phrases were read
    english = phrase_templates("en")
    missing = [key for key in registered if key not in english and not key.startswith("test.")]
    assert missing == []


def test_french_writes_one_apostrophe():
    """French texts write the typewriter apostrophe (as most of them did, and as the elision
    of "de Alak" into "d'Alak" does), never a mix of ' and ’: catalogs and rule texts."""
    files = [*sorted((LOCALES / "fr").glob("*.toml")),
             *sorted((LOCALES.parent / "rules" / "fr").glob("*.toml"))]
    assert len(files) > 20
    curly = [f"{path.name}:{number}" for path in files
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "\u2019" in line]
    assert curly == []
