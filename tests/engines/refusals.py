"""Checks shared by the engine tests: a refusal leaves the state as it was and speaks in a
phrase of its game or of the protocol (never the untranslated ``illegal.text``)."""

from __future__ import annotations

from typing import Any

import pytest

from engines import Game, IllegalMove


def refusal(game: Game, state: Any, move: Any) -> IllegalMove:
    """The ``IllegalMove`` raised by playing ``move``, after checking the state did not change."""
    before = game.dump(state)
    with pytest.raises(IllegalMove) as caught:
        game.play(state, move)
    assert game.dump(state) == before
    error = caught.value
    assert error.reason == str(error.phrase)
    return error


def assert_translatable(error: IllegalMove, game: Game) -> None:
    """The refusal's key belongs to ``game`` or to the protocol, and is not plain text."""
    assert error.code.split(".")[0] in (game.name, "illegal"), error.code
    assert error.code != "illegal.text"
