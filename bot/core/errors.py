"""Typed service errors: every failure a player can cause, with a translatable message.

Each error carries ``key`` (an i18n key under ``errors.*``, in
``words/locales/<lang>/services.toml``) and ``params`` (the placeholders); the Discord layer
shows ``i18n.t(error.key, locale, **error.params)``. ``message`` is the English text, for logs.
A service raises these before writing anything, or from inside a transaction that then rolls
back: an error never leaves a change behind.
"""

from __future__ import annotations

from typing import Any

from bot.core import i18n


class ServiceError(Exception):
    key: str = "errors.unknown"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        self.key = key or type(self).key
        self.params: dict[str, Any] = params
        self.message = i18n.t(self.key, "en", **params)
        super().__init__(self.message)


class NotFound(ServiceError):
    """Unknown game, challenge or outbox id."""

    key = "errors.not_found"


class NotAPlayer(ServiceError):
    """The user has no seat in that game."""

    key = "errors.not_a_player"


class NotYourTurn(ServiceError):
    key = "errors.not_your_turn"


class IllegalMoveError(ServiceError):
    """The engine refused the move; its reason is in ``params["reason"]``: the engine's
    ``Phrase``, which ``i18n.t`` translates into the reader's language."""

    key = "errors.illegal_move"


class GameOver(ServiceError):
    key = "errors.game_over"


class BoardChanged(ServiceError):
    """Lost an optimistic-lock race (or acted on an outdated board): nothing was written."""

    key = "errors.board_changed"


class ChallengeError(ServiceError):
    """A challenge or lobby action that is not allowed (own challenge, lobby full, not the
    host, unknown game, bad options or player count...)."""

    key = "errors.challenge_closed"


class UndoError(ServiceError):
    """An undo request or answer that is not allowed (addition to the contract)."""

    key = "errors.undo_none_pending"


class TryAgain(ServiceError):
    """The database kept breaking deadlocks with this call (``bot.services.base.retrying``):
    nothing was written, and the same action a moment later should go through."""

    key = "errors.try_again"
