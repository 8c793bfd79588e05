"""Rule texts of the six games, as data (pure Python: no discord.py).

Each game has one TOML file per language, ``words/rules/<language>/<game>.toml`` (with every
other text users read, in the ``words`` package), with a title, a one-line summary and the
sections listed in ``SECTIONS``. Every section has a title, a body short enough for a chat
embed and an ``examples`` list: the move texts the body shows, so tests can check that each
one parses with the game's engine. An example is either a string (playable in a
fresh game) or a table ``{move, options, players, after, parse_only}``: the game is created with
``options``/``players``, the ``after`` moves are played, then ``move`` is played, or only parsed
when ``parse_only`` is true (moves that need a position we cannot build from data, e.g. a card
held in a shuffled hand).

A language without a file for a game, or a file without some section, falls back to English.
French texts are spaced the French way when read (``words.typeset``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import words
from words import DEFAULT_LANGUAGE, LANGUAGES, typeset

#: Section ids in reading order (the order `/rules` offers them in).
SECTIONS = ("overview", "setup", "turn", "special", "end", "notation", "variants")
#: Games in the order they are listed by `/rules`.
GAMES = ("alak", "polygo", "palago", "palam", "lppg", "kolory")

_TEXTS = Path(words.__file__).with_name("rules")


@dataclass(frozen=True)
class Example:
    """A move text shown in a section, with the position it belongs to."""

    move: str
    options: Mapping[str, Any] = field(default_factory=dict)
    players: int | None = None
    after: tuple[str, ...] = ()
    parse_only: bool = False


@dataclass(frozen=True)
class Section:
    game: str
    id: str
    language: str
    title: str
    body: str
    examples: tuple[Example, ...]


@dataclass(frozen=True)
class GameText:
    game: str
    language: str
    title: str
    summary: str
    sections: Mapping[str, Section]


def _example(raw: str | Mapping[str, Any]) -> Example:
    if isinstance(raw, str):
        return Example(raw)
    return Example(
        move=str(raw["move"]),
        options=dict(raw.get("options", {})),
        players=raw.get("players"),
        after=tuple(raw.get("after", ())),
        parse_only=bool(raw.get("parse_only", False)),
    )


def _language(language: str | None) -> str:
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


@cache
def _load(game: str, language: str) -> GameText | None:
    path = _TEXTS / language / f"{game}.toml"
    if not path.is_file():
        return None
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sections = {
        section_id: Section(
            game=game,
            id=section_id,
            language=language,
            title=typeset(str(raw["title"]).strip(), language),
            body=typeset(str(raw["body"]).strip(), language),
            examples=tuple(_example(e) for e in raw.get("examples", ())),
        )
        for section_id, raw in data.get("sections", {}).items()
    }
    return GameText(
        game=game,
        language=language,
        title=typeset(str(data["title"]).strip(), language),
        summary=typeset(str(data["summary"]).strip(), language),
        sections=sections,
    )


def games() -> tuple[str, ...]:
    """The games that have rule texts, in listing order."""
    return tuple(g for g in GAMES if _load(g, DEFAULT_LANGUAGE) is not None)


def sections() -> tuple[str, ...]:
    return SECTIONS


def _check_game(game: str) -> str:
    name = game.strip().lower()
    if name not in GAMES:
        raise KeyError(f"no rules for {game!r}; games: {', '.join(GAMES)}")
    return name


def game_text(game: str, language: str | None = DEFAULT_LANGUAGE) -> GameText:
    """Title and summary of a game in ``language`` (English when that language lacks the file).

    Its ``sections`` are those of that file only; use ``section`` for per-section fallback."""
    name = _check_game(game)
    text = _load(name, _language(language)) or _load(name, DEFAULT_LANGUAGE)
    if text is None:
        raise KeyError(f"no rule texts for {name!r}")
    return text


def title(game: str, language: str | None = DEFAULT_LANGUAGE) -> str:
    return game_text(game, language).title


def summary(game: str, language: str | None = DEFAULT_LANGUAGE) -> str:
    return game_text(game, language).summary


def section(game: str, section_id: str, language: str | None = DEFAULT_LANGUAGE) -> Section:
    """One section in ``language``, falling back to English when it is missing there."""
    name = _check_game(game)
    if section_id not in SECTIONS:
        raise KeyError(f"no section {section_id!r}; sections: {', '.join(SECTIONS)}")
    for lang in (_language(language), DEFAULT_LANGUAGE):
        text = _load(name, lang)
        if text is not None and section_id in text.sections:
            return text.sections[section_id]
    raise KeyError(f"no text for section {section_id!r} of {name!r}")


def examples(game: str, section_id: str) -> tuple[Example, ...]:
    """The notation examples of a section (the same in every language; English is the source)."""
    return section(game, section_id, DEFAULT_LANGUAGE).examples


def section_title(section_id: str, language: str | None = DEFAULT_LANGUAGE) -> str:
    """The title of a section (every game uses the same section titles in a language)."""
    return section(GAMES[0], section_id, language).title


def find_section(text: str | None, language: str | None = DEFAULT_LANGUAGE) -> str | None:
    """The section id a player typed: its id or its title in ``language`` or English, ignoring
    case (for a free-text command option). ``None`` when nothing matches."""
    if not text:
        return None
    wanted = text.strip().lower()
    if wanted in SECTIONS:
        return wanted
    for lang in {_language(language), DEFAULT_LANGUAGE}:
        for section_id in SECTIONS:
            if wanted == section_title(section_id, lang).lower():
                return section_id
    return None


__all__ = [
    "GAMES",
    "LANGUAGES",
    "SECTIONS",
    "Example",
    "GameText",
    "Section",
    "examples",
    "find_section",
    "game_text",
    "games",
    "section",
    "section_title",
    "sections",
    "summary",
    "title",
]
