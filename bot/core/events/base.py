"""What every event shares: the ``Event`` base class, and how an event becomes the JSON of its
outbox row and back (``dump``, ``load_as``).

An event type is a frozen, keyword-only dataclass: building one with a field missing or
misspelt is a ``TypeError`` where it is built, not a ``KeyError`` when it is delivered. Its
JSON is its fields in order, under their own names; a ``datetime`` is stored as ISO text and a
``Phrase`` as ``Phrase.dump()`` (text in a field that may also hold a phrase, as it is). A field
declared ``optional(default)`` is left out while it holds its default and read as the default
when absent (``undo_dropped_by`` of a move, ``held`` of a vacation's end).

A type's ``legacy`` (``older_rows(...)``) names the fields rows written by earlier versions
lack, and the value such a row is read with (a ``move`` row from before rows knew their version
reads as version None).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from engines import Phrase

#: Field metadata key of ``optional`` fields.
_OPTIONAL = "event.optional"


def older_rows(**values: Any) -> Mapping[str, Any]:
    """An event type's ``legacy``: the fields older rows lack, and the value each is read as."""
    return MappingProxyType(values)


@dataclass(frozen=True, kw_only=True)
class Event:
    """Something that happened, as its outbox row stores it. Subclasses set ``kind`` (the
    row's ``kind`` column) and declare their fields."""

    #: The outbox row's kind.
    kind: ClassVar[str]
    #: Fields that rows written by earlier versions lack, with the value they are read as.
    legacy: ClassVar[Mapping[str, Any]] = older_rows()


@dataclass(frozen=True, kw_only=True)
class GameEvent(Event):
    """An event of one game: its row is the game's (``outbox.game_id``), delivered in order
    with the game's other rows and posted in the game's thread (or conversation)."""

    game_id: int


E = TypeVar("E", bound=Event)


def optional(default: Any) -> Any:
    """A field that may be left out: absent from the JSON while it holds ``default``."""
    return field(default=default, metadata={_OPTIONAL: True})


@dataclass(frozen=True)
class _Codec:
    """How a field's value is stored in JSON and read back."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]


def _dump_phrase(value: Any) -> Any:
    return value.dump() if isinstance(value, Phrase) else value


def _load_phrase(value: Any) -> Any:
    return Phrase.load(value) if isinstance(value, Mapping) else value


#: Values not stored as they are, by type: a field whose type names one of these (alone or in
#: a union, ``datetime | None``) is stored through its codec.
_CODECS: dict[type, _Codec] = {
    datetime: _Codec(datetime.isoformat, datetime.fromisoformat),
    Phrase: _Codec(_dump_phrase, _load_phrase),
}


@dataclass(frozen=True)
class _Spec:
    name: str
    codec: _Codec | None
    #: Left out of the JSON while it holds ``default``.
    optional: bool
    default: Any


@functools.cache
def _specs(cls: type[Event]) -> tuple[_Spec, ...]:
    hints = typing.get_type_hints(cls)
    specs = []
    for spec in dataclasses.fields(cls):
        hint = hints[spec.name]
        named = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        codec = next((_CODECS[t] for t in named if t in _CODECS), None)
        specs.append(_Spec(spec.name, codec, bool(spec.metadata.get(_OPTIONAL)),
                           spec.default))
    return tuple(specs)


def dump(event: Event | Unreadable) -> dict[str, Any]:
    """The JSON object an event's outbox row stores."""
    if isinstance(event, Unreadable):
        return dict(event.payload)
    out: dict[str, Any] = {}
    for spec in _specs(type(event)):
        value = getattr(event, spec.name)
        if spec.optional and value == spec.default:
            continue
        codec = spec.codec
        out[spec.name] = value if codec is None or value is None else codec.dump(value)
    return out


def load_as(cls: type[E], payload: Mapping[str, Any]) -> E:
    """The event of type ``cls`` a row's JSON holds. Keys the type does not know are
    ignored (a later version's additions); a field missing from the row is its ``legacy``
    value, else a ``TypeError``."""
    values: dict[str, Any] = {}
    for spec in _specs(cls):
        if spec.name in payload:
            value = payload[spec.name]
            codec = spec.codec
            values[spec.name] = value if codec is None or value is None else codec.load(value)
        elif spec.name in cls.legacy:
            values[spec.name] = cls.legacy[spec.name]
    return cls(**values)


@dataclass(frozen=True)
class Unreadable:
    """A stored row no event type of this version reads: a kind it does not know (written by a
    later version) or JSON its type refuses. Delivery skips it."""

    kind: str
    payload: Mapping[str, Any]
    problem: str
