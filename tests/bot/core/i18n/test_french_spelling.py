"""Every French text, as written and as shown with sample values: no "de" before a vowel
("une partie de Alak"), no count disagreeing with its word ("1 perdues"), French spacing
before high punctuation also where a value was filled in or code assembled the text."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import pytest

from bot.core import i18n
from engines.phrases import Phrase
from tests.bot.core.i18n.test_every_text import PLURAL_SUFFIX, french_texts, typography_faults
from words import raw_catalog
from words.spelling import before, fill

#: "de" before a vowel, which French elides ("d'Alak"); "de l'IA" for the AI.
DE_VOWEL = re.compile(r"(?<![\w'’])[Dd]e (?=[AEIOUYÀÂÉÈÊÎÏÔÛaeiouyàâéèêîïôû]|IA\b)")
#: A count of 0 or 1 followed by a plural word ("1 perdues"), and 2 by a singular one.
SINGULAR_COUNT = re.compile(r"(?<![\w°.,/-])[01] ([a-zéèêàâîôûç]+[sx])\b")
PLURAL_COUNT = re.compile(
    r"(?<![\w°.,/-])2 (joueur|partie|case|pierre|jour|heure|minute|carte|point|coup|duel|tuile"
    r"|ronde|victoire|défaite|nulle|gagnée|perdue|marqueur|territoire|semaine)\b")
#: Texts whose number before a plural word is a bound of at least 2 by the rules (a table of
#: 2–5 players, 336 hours, a line of 5 points or more…): never 0 or 1, so no plural table.
AT_LEAST_TWO = {
    "bot.challenge.lobby", "bot.challenge.lobby_start_early", "errors.lobby_full",
    "errors.lobby_too_few", "errors.tournament.bad_grace", "errors.tournament.bad_rounds",
    "errors.tournament.full", "errors.tournament.long_name", "errors.tournament.option_length",
    "errors.tournament.too_few", "phrase.alak.no_such_point", "phrase.lppg.cancel",
    "phrase.palago.draw", "phrase.palam.wins", "rules.players",
    # The cards each Kolory player gets (10) and the duels of a Palam game (12).
    "image.kolory.legend.play", "image.palam.duels",
}
#: Words ending in s or x that are singular too.
INVARIABLE = {"fois", "pas", "temps", "mois", "cas", "choix", "prix", "voix", "dos", "gras",
              "plus", "sans", "sous", "dans", "vers", "après", "depuis", "jamais", "tous",
              "des", "les", "ses", "mes", "tes", "nos", "vos", "leurs", "aux"}


def fields(template: str) -> set[str]:
    """The parameters a template uses (``cmd`` and ``opt`` are filled by ``t`` itself)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name:
            names.add(re.split(r"[.\[]", name)[0])
    return names - {"cmd", "opt"}


def templates() -> dict[str, set[str]]:
    """Every French key as ``t`` takes it (a plural table once), with its parameters."""
    found: dict[str, set[str]] = {}
    for key, text in raw_catalog("fr").items():
        if key.startswith(("commands.", "choices.")):
            continue
        match = PLURAL_SUFFIX.search(key)
        base = key[: match.start()] if match else key
        # A plural table is chosen by ``count``, used in its text or not.
        found.setdefault(base, set()).update(fields(text) | ({"count"} if match else set()))
    return found


def shown(key: str, names: set[str], sample: Any) -> str | None:
    """The text of ``key`` in French with every parameter set to ``sample`` (``count`` and
    number-like ones to it as a number when it is one), or None when the sample cannot fill
    it (a number format on a name)."""
    params = {name: sample for name in names}
    if key.startswith("phrase."):
        try:
            return i18n.say(Phrase(key.removeprefix("phrase."), **params), "fr")
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return None
    try:
        return i18n.t(key, "fr", **params)
    except TypeError:
        if isinstance(sample, int):
            raise
        return i18n.t(key, "fr", **{**params, "count": 2})
    except (ValueError, KeyError, IndexError, AttributeError):
        return None


def rendered() -> Iterator[tuple[str, Any, str]]:
    for key, names in sorted(templates().items()):
        for sample in (0, 1, 2, "Alak", "IA (moyen)", "Est", "Polygo"):
            text = shown(key, names, sample)
            if text is not None:
                yield key, sample, text


def test_the_checks_see_what_they_should():
    assert DE_VOWEL.search("Une partie de Alak") and DE_VOWEL.search("victoire de IA")
    assert not DE_VOWEL.search("Une partie d'Alak, de Polygo, de l'IA, de 3 cases")
    assert SINGULAR_COUNT.findall("1 perdues, 0 gagnées, 1 fois, n°1 est") == [
        "perdues", "gagnées", "fois"]
    assert PLURAL_COUNT.search("2 joueur") and not PLURAL_COUNT.search("2 joueurs")


def test_de_before_a_vowel_is_elided_when_the_value_is_filled_in():
    assert before("de", "Alak") == "d'Alak" and before("De", "Est") == "D'Est"
    assert before("de", "IA (moyen)") == "de l'IA (moyen)" and before("à", "IA") == "à l'IA"
    assert before("de", "Polygo") == "de Polygo" and before("à", "<@1>") == "à <@1>"
    assert fill("Une partie de {game} : {n}.", {"game": "Alak", "n": 2}) == (
        "Une partie d'Alak : 2.")
    assert i18n.t("bot.game.started", "fr", game="Alak", players="x").startswith(
        "Une partie d'Alak commence")


def test_no_french_text_as_written_puts_de_before_a_vowel():
    faults = {key: text for key, text in french_texts() if DE_VOWEL.search(text)}
    assert faults == {}


def test_every_french_text_shown_with_sample_values_reads_right():
    faults: dict[str, list[str]] = {}
    seen = set()
    for key, sample, text in rendered():
        seen.add(key)
        wrong = [f"de: {m.group(0)}…" for m in DE_VOWEL.finditer(text)]
        wrong += [f"count: {word}" for word in SINGULAR_COUNT.findall(text)
                  if word not in INVARIABLE and key not in AT_LEAST_TWO]
        wrong += [f"count: {m.group(0)}" for m in PLURAL_COUNT.finditer(text)]
        wrong += [f"space: {fault}" for fault in typography_faults(text)]
        if wrong:
            faults.setdefault(f"{key} ({sample!r})", []).extend(wrong)
    assert faults == {}
    # The scan reached (nearly) every text.
    assert len(seen) >= 0.95 * len(templates()), len(seen)


@pytest.mark.parametrize("count", [0, 1, 2])
def test_the_record_against_the_ai_agrees_with_each_count(count):
    from bot.discord.cogs.tournaments import ai_record_text
    from bot.services.aiseats import Record

    text = ai_record_text([Record("easy", count, count, count)], "fr")
    ending = "" if count < 2 else "s"
    assert f"{count} gagnée{ending}, {count} nulle{ending}, {count} perdue{ending}" in text


def test_a_footer_assembled_in_code_is_spaced_the_french_way():
    from bot.discord.cogs.rules import section_embed

    footer = section_embed("alak", "overview", "fr").footer.text
    assert footer.startswith("Rubriques\u00a0: ") and not typography_faults(footer)
    assert section_embed("alak", "overview", "en").footer.text.startswith("Sections: ")


def test_the_words_on_images_read_right_in_french_too():
    from render.words import FR, words

    said = words("fr")
    assert said("header.to_play", name="IA 1 (moyen)") == "À l'IA 1 (moyen) de jouer"
    faults = {}
    for key, template in FR.items():
        names = fields(template)
        for sample in (0, 1, 2, "Alak", "IA (moyen)", "Est"):
            try:
                text = said(key, **{name: sample for name in names})
            except (ValueError, TypeError, KeyError, IndexError):
                continue
            wrong = [m.group(0) for m in DE_VOWEL.finditer(text)] + typography_faults(text)
            if wrong:
                faults[f"{key} ({sample!r})"] = wrong
    assert faults == {}
