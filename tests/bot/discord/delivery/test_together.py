"""Which of a conversation game's rows are posted as one message (``together``)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core.events import GameEnded, MovePlayed, OutboxItem, Resigned
from bot.discord.delivery.posting import together

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def move(row: int, token: str | None = None) -> OutboxItem:
    event = MovePlayed(game_id=1, ply=row, version=row, move="a", description=None, seat=0,
                       user_id=-101)
    return OutboxItem(row, 1, event, NOW, token)


def ended(row: int) -> OutboxItem:
    return OutboxItem(row, 1, GameEnded(game_id=1), NOW)


def ids(runs: list[list[OutboxItem]]) -> list[list[int]]:
    return [[item.id for item in run] for run in runs]


def test_moves_answering_no_interaction_go_together_with_the_end_after_them():
    assert ids(together([move(1), move(2), move(3), ended(4)])) == [[1, 2, 3, 4]]


def test_a_persons_move_answers_its_interaction_alone_and_the_ai_moves_follow_together():
    assert ids(together([move(1, "token"), move(2), move(3)])) == [[1], [2, 3]]
    assert ids(together([move(1), move(2, "token"), move(3)])) == [[1], [2], [3]]


def test_other_rows_break_a_run_and_an_end_alone_stays_alone():
    resigned = OutboxItem(3, 1, Resigned(game_id=1, seat=0, user_id=5, version=3), NOW)
    assert ids(together([move(1), move(2), resigned, ended(4)])) == [[1, 2], [3], [4]]
    assert ids(together([ended(1)])) == [[1]]
    assert ids(together([move(1, "token"), ended(2)])) == [[1], [2]]
