"""The shared engine machinery of engines/core.py: fast state construction, lazy refusals."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from engines import IllegalMove, Phrase
from engines.core import fast_init


@fast_init
@dataclass(frozen=True, slots=True)
class Sample:
    name: str
    count: int = 3
    tags: tuple[str, ...] = field(default_factory=tuple)
    cache: object = field(default=None, init=False, compare=False)


def test_fast_init_keeps_the_dataclass_signature_and_defaults():
    assert Sample("a") == Sample(name="a", count=3, tags=())
    assert Sample("a", 5, ("x",)).tags == ("x",)
    assert Sample("a").cache is None
    assert Sample("a") != Sample("b")
    assert dataclasses.replace(Sample("a", 5), name="b") == Sample("b", 5)
    with pytest.raises(TypeError):
        Sample()  # type: ignore[call-arg]


def test_fast_init_states_stay_frozen_and_hashable():
    sample = Sample("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        sample.name = "b"  # type: ignore[misc]
    assert hash(sample) == hash(Sample("a"))
    assert pickle.loads(pickle.dumps(sample)) == sample


def test_fast_init_refuses_classes_it_cannot_speed_up():
    @dataclass(frozen=True)
    class NoSlots:
        name: str

    with pytest.raises(TypeError):
        fast_init(NoSlots)


def test_a_refusal_is_written_in_english_only_when_read_and_survives_pickling():
    error = IllegalMove(Phrase("illegal.game_over"))
    assert error.code == "illegal.game_over"
    assert str(error) == error.reason == "the game is over"
    copy = pickle.loads(pickle.dumps(error))
    assert copy.phrase == error.phrase and copy.reason == error.reason
