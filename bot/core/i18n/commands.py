"""Names of slash commands, options and choices in a language, from the catalogs.

Players read command names in their own language (``/jouer``, ``/tournoi créer``), and a reply
that tells them what to type must use the same words. These helpers are the one place that
knows where those names live:

- ``commands.<command path>.name`` / ``.description`` for a command or group (the path is its
  qualified name with dots: ``/tournament join`` -> ``commands.tournament.join``);
- ``commands.<command path>.options.<option>.name`` / ``.description`` for an option; an option
  every sub-command of a group shares (``/play <game> opponent``) may be given once on the
  group (``commands.play.options.opponent``);
- ``choices.<value>`` for a choice.

The English catalog holds the names the cogs register, so every language reads the same way.
"""

from __future__ import annotations

from collections.abc import Iterator

from words import DEFAULT_LANGUAGE, catalog


def command_key(path: str) -> str:
    """The catalog prefix of a command: ``"tournament join"`` -> ``commands.tournament.join``."""
    return "commands." + ".".join(path.split())


def option_keys(path: str, option: str, field: str) -> Iterator[str]:
    """Where an option's ``field`` (``name``, ``description``) may be, most specific first: on
    the command itself, then on each group above it."""
    parts = path.split()
    for end in range(len(parts), 0, -1):
        yield f"{command_key(' '.join(parts[:end]))}.options.{option}.{field}"


def _text(keys: Iterator[str] | list[str], language: str) -> str | None:
    for key in keys:
        for lang in (language, DEFAULT_LANGUAGE):
            text = catalog(lang).get(key)
            if text is not None:
                return text
    return None


def command_name(path: str, language: str) -> str:
    """How a player types a command in ``language``: ``command_name("tournament create",
    "fr")`` is ``"/tournoi créer"``. A command the catalogs do not know keeps its own name."""
    parts = path.split()
    names = [
        _text([f"{command_key(' '.join(parts[:end]))}.name"], language) or parts[end - 1]
        for end in range(1, len(parts) + 1)
    ]
    return "/" + " ".join(names)


def option_name(path: str, option: str, language: str) -> str:
    """An option's name as players see it in ``language`` (``option_name("rules", "game",
    "fr")`` is ``"jeu"``)."""
    return _text(option_keys(path, option, "name"), language) or option


def choice_name(value: object, language: str) -> str:
    """A choice's name as players see it in ``language`` (its value when it has none)."""
    return _text([f"choices.{value}"], language) or str(value)


class CommandNames:
    """``{cmd[tournament create]}`` in a template: the command as typed in a language."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __getitem__(self, path: str) -> str:
        return command_name(path, self.language)


class OptionNames:
    """``{opt[rules:game]}`` in a template: an option's name (command path, a colon, the
    option) in a language."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __getitem__(self, where: str) -> str:
        path, _, option = where.partition(":")
        return option_name(path, option, self.language)
