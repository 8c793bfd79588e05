"""The words render writes on an image, in the reader's language.

The words themselves live with every other text users read, in the ``words`` package:
``image.*`` in ``words/locales/<language>/images.toml`` (headers, legends, pile labels, the hand
image, bracket columns), and the seat names the engines give (``phrase.seat.*``). Sentences the
caller already translated (an outcome's reason, a clock) are passed in as text.

French follows French typography (``words.typeset``: a no-break space before ``:`` and ``;``,
so a line never starts with one). Counted words have a ``.one`` and an ``.other`` form, chosen
by the language's plural rule (French says "1 carte" and "0 carte").
"""

from __future__ import annotations

from collections.abc import Mapping

from words import LANGUAGES, NBSP, fill, language_of
from words.catalogs import part
from words.plurals import plural_form

__all__ = ["EN", "FR", "LANGUAGES", "NBSP", "TABLES", "Words", "language", "words"]

#: Each language's image words, by key (without ``image.``), ready to draw.
TABLES: dict[str, Mapping[str, str]] = {lang: part(lang, "image.", "images") for lang in LANGUAGES}
EN, FR = TABLES["en"], TABLES["fr"]
#: Seat names the engines give in English, by phrase key ("seat." + the name in snake case).
SEATS: dict[str, Mapping[str, str]] = {
    lang: part(lang, "phrase.", "phrases") for lang in LANGUAGES}

#: The language of a tag: ``"fr"``, ``"fr-FR"`` and ``"fr_CA"`` are French; an unknown
#: language gets English.
language = language_of


class Words:
    """The words of one language: ``words("fr")("header.move", n=3)``."""

    def __init__(self, lang: str | None) -> None:
        self.lang = language(lang)
        self.table = TABLES[self.lang]

    def __call__(self, key: str, **params: object) -> str:
        template = self.table.get(key)
        if template is None:
            template = EN[key]  # a key missing from a language still reads
        if not params:
            return template
        # French: "À l'IA (moyen) de jouer", "d'Alak" (the word filled in decides).
        return fill(template, params) if self.lang == "fr" else template.format(**params)

    def count(self, key: str, n: float, **params: object) -> str:
        """A counted phrase: ``key.one`` or ``key.other`` by the language's plural rule."""
        form = plural_form(self.lang, n)
        if f"{key}.{form}" not in self.table and f"{key}.{form}" not in EN:
            form = "other"  # a category the words do not use ("many" in French)
        return self(f"{key}.{form}", n=n, **params)

    def seat(self, english_name: str) -> str:
        """A seat name the engine gives in English, in this language (unknown names as is)."""
        key = "seat." + "_".join(english_name.lower().split())
        return SEATS[self.lang].get(key, english_name)


_WORDS = {lang: Words(lang) for lang in LANGUAGES}


def words(lang: str | None) -> Words:
    return _WORDS[language(lang)]
