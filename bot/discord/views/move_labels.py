"""What a move button reads in a game's language: the words of the move's notation
translated ("draw a" is "piocher a" in French, "dead e13" "mort e13", "camp isis" "camp
Isis"), squares, letters and numbers as they are. The button still plays the move as the
engines write it (its custom_id holds that text); only its label changes."""

from __future__ import annotations

from bot.core.i18n import catalog, language_code


def move_label(move: str, language: object | None) -> str:
    """The label of ``move``'s button in ``language`` (the move itself when it has no word
    to translate)."""
    words = catalog(language_code(language))
    return " ".join(words.get(f"bot.move_word.{word}", word) for word in move.split(" "))
