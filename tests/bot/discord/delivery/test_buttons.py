"""Stale buttons come off in the background (``bot.discord.delivery.buttons``), with a stand-in for
Discord's HTTP client."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.core.events import OutboxItem
from bot.discord.delivery.buttons import StaleButtons
from bot.discord.delivery.compose import Composed
from bot.discord.replies import NO_PINGS
from tests.bot.core.events.samples import sample

THREAD = 500


class Http:
    def __init__(self) -> None:
        self.edited: list[tuple[int, int]] = []

    async def edit_message(self, channel_id: int, message_id: int, *, params) -> None:
        assert params.payload.get("components") == []  # buttons off, nothing else
        self.edited.append((channel_id, message_id))


@pytest.fixture
def buttons() -> StaleButtons:
    return StaleButtons(Http())


async def edits(buttons: StaleButtons) -> list[tuple[int, int]]:
    await asyncio.gather(*buttons._background)
    return buttons.http.edited


def game(game_id: int = 1) -> SimpleNamespace:
    return SimpleNamespace(id=game_id, thread_id=THREAD, in_conversation=False)


def item(kind: str, **fields) -> OutboxItem:
    return OutboxItem(1, 1, sample(kind, **fields), datetime.now(UTC))


def board(with_buttons: bool = True) -> Composed:
    return Composed("text", object(), object() if with_buttons else None, NO_PINGS)


def message(message_id: int, *, ephemeral: bool = False, components: bool = True):
    return SimpleNamespace(id=message_id, channel=SimpleNamespace(id=THREAD),
                           flags=SimpleNamespace(ephemeral=ephemeral),
                           components=[object()] if components else [])


async def test_a_new_board_takes_the_buttons_off_the_previous_one(buttons):
    buttons.after_post(item("game_started"), game(), THREAD, 10, board(), None)
    assert await edits(buttons) == []
    buttons.after_post(item("move"), game(), THREAD, 11, board(), None)
    buttons.after_post(item("move"), game(2), THREAD, 20, board(), None)  # another game
    assert await edits(buttons) == [(THREAD, 10)]


async def test_the_message_pressed_to_play_loses_its_buttons_once(buttons):
    buttons.after_post(item("game_started"), game(), THREAD, 10, board(), None)
    buttons.after_post(item("move"), game(), THREAD, 11, board(), message(10))
    assert await edits(buttons) == [(THREAD, 10)], "the previous board, edited once"
    buttons.after_post(item("move"), game(), THREAD, 12, board(), message(99))
    assert sorted(await edits(buttons)) == [(THREAD, 10), (THREAD, 11), (THREAD, 99)]


async def test_a_text_without_a_board_leaves_the_board_alone(buttons):
    buttons.after_post(item("game_started"), game(), THREAD, 10, board(), None)
    resigned = Composed("resigned", None, None, NO_PINGS)
    buttons.after_post(item("resigned"), game(), THREAD, 11, resigned, None)
    assert await edits(buttons) == []


async def test_a_take_back_request_loses_its_buttons_when_answered_or_dropped(buttons):
    text = Composed("undo?", None, object(), NO_PINGS)
    buttons.after_post(item("undo_requested"), game(), THREAD, 30, text, None)
    buttons.after_post(item("undo_declined"), game(), THREAD, 31, Composed("no", None, None,
                                                                             NO_PINGS), None)
    assert await edits(buttons) == [(THREAD, 30)]
    buttons.after_post(item("undo_requested"), game(), THREAD, 32, text, None)
    buttons.after_post(item("move", undo_dropped_by=5), game(), THREAD, 33, board(False), None)
    assert await edits(buttons) == [(THREAD, 30), (THREAD, 32)]


async def test_ephemeral_or_buttonless_messages_are_not_edited(buttons):
    buttons.strip_buttons(None)
    buttons.strip_buttons(message(1, ephemeral=True))
    buttons.strip_buttons(message(2, components=False))
    buttons.strip_buttons(message(3))
    assert await edits(buttons) == [(THREAD, 3)]


async def test_a_board_answered_before_a_restart_is_the_one_to_strip_next(buttons):
    buttons.answered_before(game(), {"id": "40", "components": [{"type": 1}]})
    buttons.answered_before(game(2), {"id": "41", "components": []})
    buttons.after_post(item("move"), game(), THREAD, 42, board(), None)
    buttons.after_post(item("move"), game(2), THREAD, 43, board(), None)
    assert await edits(buttons) == [(THREAD, 40)]


async def test_where_the_bot_is_not_no_board_is_edited(buttons):
    """Issue 28: in a conversation (a DM, a group DM, a server without the bot) the bot may
    edit a message only through an interaction of it: old boards keep their buttons, which
    refuse when pressed (their version), and nothing is edited in the background."""
    talk = SimpleNamespace(id=1, thread_id=THREAD, in_conversation=True)
    buttons.after_post(item("game_started"), talk, THREAD, 10, board(), None)
    buttons.after_post(item("move"), talk, THREAD, 11, board(), message(10))
    buttons.after_post(item("undo_requested"), talk, THREAD, 12, board(), None)
    buttons.after_post(item("undo_done"), talk, THREAD, 13, board(), None)
    assert await edits(buttons) == []
