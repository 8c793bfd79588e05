"""The rule texts: complete in both languages, chat-sized, consistent, and in our own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core import i18n, rules

#: Discord's hard limits for an embed title and description.
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
#: Our own, stricter limit so a section reads comfortably in chat.
CHAT_BODY_LIMIT = 1024
#: A summary is shown on one line (and fits a select-menu option description).
SUMMARY_LIMIT = 100

PAIRS = [(game, language) for game in rules.GAMES for language in rules.LANGUAGES]
# The design folder stands beside the repository (as in CI); the sources are read from there.
SHARED = Path(__file__).resolve().parents[5] / "shared"


def own_file(game: str, language: str) -> rules.GameText:
    """The file of exactly this language (no fallback), so a missing text cannot hide."""
    text = rules._load(game, language)
    assert text is not None, f"no {language} file for {game}"
    return text


def test_every_game_has_texts():
    assert rules.games() == rules.GAMES
    assert set(rules.GAMES) == {"alak", "polygo", "palago", "palam", "lppg", "kolory"}


@pytest.mark.parametrize(("game", "language"), PAIRS)
def test_every_section_exists_in_every_language(game, language):
    text = own_file(game, language)
    assert set(text.sections) == set(rules.SECTIONS)
    assert text.title and text.summary


@pytest.mark.parametrize(("game", "language"), PAIRS)
def test_texts_fit_in_chat(game, language):
    text = own_file(game, language)
    assert len(text.summary) <= SUMMARY_LIMIT, text.summary
    assert "\n" not in text.summary
    for section in text.sections.values():
        assert section.title.strip(), section.id
        assert section.body.strip(), section.id
        heading = f"{text.title} · {section.title}"
        assert len(heading) <= EMBED_TITLE_LIMIT
        assert len(section.body) <= CHAT_BODY_LIMIT < EMBED_DESCRIPTION_LIMIT, section.id


@pytest.mark.parametrize("language", rules.LANGUAGES)
def test_section_titles_are_the_same_for_every_game(language):
    for section_id in rules.SECTIONS:
        titles = {own_file(g, language).sections[section_id].title for g in rules.GAMES}
        assert len(titles) == 1, (section_id, titles)


@pytest.mark.parametrize("game", rules.GAMES)
def test_french_is_a_translation_not_a_copy(game):
    english, french = own_file(game, "en"), own_file(game, "fr")
    assert english.summary != french.summary
    for section_id in rules.SECTIONS:
        assert english.sections[section_id].body != french.sections[section_id].body, section_id


@pytest.mark.parametrize("game", rules.GAMES)
def test_examples_are_the_same_in_both_languages(game):
    for section_id in rules.SECTIONS:
        english = own_file(game, "en").sections[section_id].examples
        french = own_file(game, "fr").sections[section_id].examples
        assert english == french, section_id


@pytest.mark.parametrize(("game", "language"), PAIRS)
def test_every_example_is_shown_in_its_section(game, language):
    for section in own_file(game, language).sections.values():
        for example in section.examples:
            assert f"`{example.move}`" in section.body, (section.id, example.move)


@pytest.mark.parametrize("game", rules.GAMES)
def test_the_notation_section_has_examples(game):
    assert rules.examples(game, "notation")


def test_games_state_their_edition_material():
    """Facts from RULES.md that players need, present in both languages."""
    for language in rules.LANGUAGES:
        palam = rules.section("palam", "setup", language).body
        assert "24" in palam
        for light in ("`A6`", "`E5`", "`S4`", "`W3`"):
            assert light in palam
        assert "75" in rules.section("palam", "end", language).body
        lppg = rules.section("lppg", "setup", language).body
        assert "76" in lppg and "19" in lppg
        assert "48" in rules.section("palago", "overview", language).body
        assert "121" in rules.section("polygo", "setup", language).body
        assert "11" in rules.section("alak", "setup", language).body
        assert "10" in rules.section("kolory", "setup", language).body


def test_unknown_language_falls_back_to_english():
    assert rules.section("alak", "turn", "de") == rules.section("alak", "turn", "en")
    assert rules.summary("kolory", None) == rules.summary("kolory", "en")
    assert rules.section("alak", "turn", "fr").language == "fr"


def test_missing_french_section_falls_back_to_english(tmp_path, monkeypatch):
    (tmp_path / "en").mkdir()
    (tmp_path / "fr").mkdir()
    (tmp_path / "en" / "alak.toml").write_text(
        'title = "Alak"\nsummary = "s"\n[sections.turn]\ntitle = "A turn"\nbody = "Play."\n'
        '[sections.end]\ntitle = "End"\nbody = "Stop."\n',
        encoding="utf-8",
    )
    (tmp_path / "fr" / "alak.toml").write_text(
        'title = "Alak"\nsummary = "r"\n[sections.turn]\ntitle = "Un tour"\nbody = "Jouez."\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(rules, "_TEXTS", tmp_path)
    rules._load.cache_clear()
    try:
        assert rules.section("alak", "turn", "fr").body == "Jouez."
        assert rules.section("alak", "end", "fr").body == "Stop."
        with pytest.raises(KeyError):
            rules.section("alak", "setup", "fr")
    finally:
        rules._load.cache_clear()


def test_unknown_game_or_section_raises():
    with pytest.raises(KeyError):
        rules.section("chess", "turn")
    with pytest.raises(KeyError):
        rules.section("alak", "history")


def test_find_section_accepts_ids_and_titles():
    assert rules.find_section("turn") == "turn"
    assert rules.find_section("Special cases", "en") == "special"
    assert rules.find_section("fin et décompte", "fr") == "end"
    assert rules.find_section("End and scoring", "fr") == "end"
    assert rules.find_section("nonsense") is None
    assert rules.find_section(None) is None


# ----- our own words --------------------------------------------------------------------------

WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
#: Word runs this long shared with a source mean a copied sentence, not a shared term.
COPY_RUN = 8


CODE = re.compile(r"`[^`]*`")


def word_runs(text: str, length: int = COPY_RUN) -> set[tuple[str, ...]]:
    """Runs of ``length`` consecutive words; code spans (move notation) are left out, since a
    list of moves is shared notation rather than prose."""
    words = [w.lower() for w in WORD.findall(CODE.sub(" ", text))]
    return {tuple(words[i : i + length]) for i in range(len(words) - length + 1)}


def source_texts() -> list[Path]:
    paths = [SHARED / "RULES.md", *sorted((SHARED / "seeds").glob("*.txt"))]
    return [p for p in paths if p.is_file()]


@pytest.mark.skipif(not source_texts(), reason="no shared/ rule sheets beside the repository")
@pytest.mark.parametrize(("game", "language"), PAIRS)
def test_no_sentence_is_copied_from_the_sources(game, language):
    sources: set[tuple[str, ...]] = set()
    for path in source_texts():
        sources |= word_runs(path.read_text(encoding="utf-8"))
    text = own_file(game, language)
    for section in text.sections.values():
        copied = word_runs(section.body) & sources
        assert not copied, (section.id, sorted(" ".join(run) for run in copied)[:3])
    assert not word_runs(text.summary) & sources


def test_copy_detector_catches_a_copied_sentence():
    source = "Le jeu est terminé dès qu'un joueur pose son troisième marqueur sur le terrain."
    copy = "Rappel : le jeu est terminé dès qu'un joueur pose son troisième marqueur."
    assert word_runs(copy) & word_runs(source)
    assert not word_runs("La partie s'arrête au troisième marqueur posé.") & word_runs(source)


SLASH = re.compile(r"`/([^\s`]+)")


@pytest.mark.parametrize(("game", "language"), PAIRS)
def test_commands_named_in_texts_are_the_localised_command_names(game, language):
    """A French reader sees French command names in Discord, so the texts must use them."""
    names = {
        value
        for key, value in i18n.catalog(language).items()
        if key.startswith("commands.") and key.count(".") == 2 and key.endswith(".name")
    }
    text = own_file(game, language)
    for section in text.sections.values():
        for command in SLASH.findall(section.body):
            assert command in names, (section.id, command)
