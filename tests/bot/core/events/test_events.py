"""Game events as values (``bot.core.events``): every type dumps to the JSON its outbox rows have
always held and loads back equal; rows written by earlier versions still load; a misspelt or
missing field fails where the event is built; a row no type reads is ``Unreadable``."""

from __future__ import annotations

import dataclasses

import pytest

from bot.core import events
from bot.core.events import (
    EVENT_TYPES,
    KINDS,
    GameEnded,
    GameStarted,
    MovePlayed,
    OutboxItem,
    Resigned,
    UndoDone,
    Unreadable,
    dump,
    load,
)
from tests.bot.core.events.samples import SAID, SAMPLES, WHEN


def test_every_event_type_has_a_sample_and_a_kind_of_its_own():
    assert {type(event) for event, _ in SAMPLES} == set(EVENT_TYPES)
    assert len(KINDS) == len(EVENT_TYPES)
    assert all(KINDS[cls.kind] is cls for cls in EVENT_TYPES)


@pytest.mark.parametrize(("event", "stored"), SAMPLES, ids=lambda x: getattr(x, "kind", ""))
def test_an_event_dumps_to_its_row_s_json_and_loads_back_equal(event, stored):
    assert dump(event) == stored
    assert list(dump(event)) == list(stored)  # the keys in the order they were written
    assert load(event.kind, stored) == event


def test_events_are_frozen_values():
    event = GameEnded(game_id=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.game_id = 2  # type: ignore[misc]
    assert event == GameEnded(game_id=1) and hash(event) == hash(GameEnded(game_id=1))


def test_a_misspelt_or_missing_field_fails_where_the_event_is_built():
    with pytest.raises(TypeError, match="user"):
        Resigned(game_id=1, seat=0, user=11, version=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="version"):
        Resigned(game_id=1, seat=0, user_id=11)  # type: ignore[call-arg]
    with pytest.raises(TypeError):  # keywords only: no field is filled by its position
        GameEnded(1)  # type: ignore[misc]


def test_rows_written_by_earlier_versions_still_load():
    # Before phrases were stored, a move's description was the engine's English text; before
    # rows knew their version, a move had none (it is then drawn at the current position).
    old_move = {"game_id": 1, "ply": 2, "move": "c", "description": "Black plays c",
                "seat": 1, "user_id": 12}
    assert load("move", old_move) == MovePlayed(
        game_id=1, ply=2, version=None, move="c", description="Black plays c", seat=1,
        user_id=12)
    assert load("game_started", {"game_id": 1}) == GameStarted(game_id=1, ply=0, version=None)
    assert load("resigned", {"game_id": 1, "seat": 0, "user_id": 11}).version is None
    assert load("undo_done", {"game_id": 1, "ply": 3, "seat": 0}) == UndoDone(
        game_id=1, ply=3, seat=0, version=None, last_move=None, by=None)
    assert load("undo_declined", {"game_id": 1, "by": 12}).requester is None
    assert load("timeout", {"game_id": 1, "seat": 0, "user_id": 11,
                            "claimed_by": 12}).version is None


def test_a_key_a_type_does_not_know_is_ignored():
    """A later version may add a field: this one reads the row all the same."""
    assert load("game_over", {"game_id": 1, "added_later": True}) == GameEnded(game_id=1)


def test_loading_fails_for_an_unknown_kind_or_a_row_missing_a_field():
    with pytest.raises(KeyError, match="nobody_knows"):
        load("nobody_knows", {})
    with pytest.raises(TypeError, match="user_id"):
        load("resigned", {"game_id": 1, "seat": 0})


def test_a_stored_row_no_type_reads_is_unreadable_and_keeps_its_json():
    unknown = OutboxItem.stored(3, None, "nobody_knows", {"x": 1}, WHEN)
    assert isinstance(unknown.event, Unreadable) and unknown.kind == "nobody_knows"
    assert unknown.payload == {"x": 1}
    broken = OutboxItem.stored(4, 1, "resigned", {"game_id": 1}, WHEN, "token", 77)
    assert isinstance(broken.event, Unreadable) and "seat" in broken.event.problem
    assert (broken.reply_token, broken.guild_id) == ("token", 77)


def test_a_stored_row_carries_its_event():
    item = OutboxItem.stored(5, 1, "move", SAMPLES[2][1], WHEN, "token", 77)
    assert item.event == SAMPLES[2][0] and item.kind == "move"
    assert item.event.description == SAID  # a phrase again, not its JSON


def test_the_package_exports_every_event_type():
    assert all(getattr(events, cls.__name__) is cls for cls in EVENT_TYPES)
