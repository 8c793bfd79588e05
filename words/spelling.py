"""French spelling that depends on the word filled in: the élision of "de" before a vowel.

A catalog writes "Une partie de {game}"; with Alak it must read "Une partie d'Alak", with the
AI "de l'IA (moyen)" (the AI takes its article, as "l'IA" does everywhere in French), with
Polygo "de Polygo". So where a template has "de {name}" (or "à {name}"), the value decides
the words around it when the template is filled (``fill``): for the bot's texts
(``bot.core.i18n.t``), what the engines say (``bot.core.i18n.say``) and the words on images
(``render.words``) alike, which is why it lives with the words every layer reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: "de {name}" / "De {name}" / "à {name}" / "À {name}" with a plain field (no spec).
_BEFORE_FIELD = re.compile(r"(?<![\w'’])([DdÀà]e?) \{(\w+)\}")
_VOWEL = re.compile(r"[aeiouyàâäéèêëîïôöûüœæ]", re.IGNORECASE)
#: The AI is "l'IA" in French: "de l'IA", "à l'IA".
_AI = re.compile(r"IA\b")


def before(word: str, value: str) -> str:
    """``word`` ("de", "De", "à", "À") and ``value``, spelt together: "d'Alak", "de l'IA
    (moyen)", "à l'IA", "de Polygo", "à <@1>"."""
    if _AI.match(value):
        return f"{word} l'{value}"
    if word in ("de", "De") and value and _VOWEL.match(value):
        return f"{word[0]}'{value}"
    return f"{word} {value}"


def _escaped(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def fill(template: str, values: Mapping[str, Any]) -> str:
    """``template.format(**values)``, with each "de {name}" / "à {name}" spelt as its value
    asks (``before``)."""

    def spelt(match: re.Match[str]) -> str:
        word, name = match.group(1), match.group(2)
        if word not in ("de", "De", "à", "À") or name not in values:
            return match.group(0)
        return _escaped(before(word, str(values[name])))

    return _BEFORE_FIELD.sub(spelt, template).format(**values)
