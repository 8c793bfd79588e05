"""Which of a board's buttons are which: its move buttons (``bg:mv:``), Abort, and the row of
buttons that stand for the commands (My cards, Move…, Undo, Resign, Hint, Claim), under every
board in a server thread as in a conversation."""

from __future__ import annotations

from typing import Any

from emulator import Message

#: The custom_id prefixes of the action row (``bot.discord.views.actions``).
ACTION_PREFIXES = ("bg:hand:", "bg:form:", "bg:act:", "bg:resign-ask:")


def is_action(button: dict[str, Any]) -> bool:
    return str(button.get("custom_id", "")).startswith(ACTION_PREFIXES)


def move_buttons(message: Message) -> list[dict[str, Any]]:
    """The message's move buttons."""
    return [b for b in message.buttons() if str(b.get("custom_id", "")).startswith("bg:mv:")]


def board_buttons(message: Message) -> list[dict[str, Any]]:
    """The message's buttons but the action row: its moves, and Abort while it is offered."""
    return [b for b in message.buttons() if not is_action(b)]


def action_labels(message: Message) -> list[str]:
    """The labels of the message's action row, in order."""
    return [b["label"] for b in message.buttons() if is_action(b)]
