"""Words for players, as data: a stable key and its parameters.

Engines speak to players in three places: why a move is refused (``IllegalMove``), what a move
did (``Game.explain``) and how a game ended (``Outcome.phrase``). Each is a ``Phrase``: a key such
as ``"alak.occupied"`` plus parameters (``point="f"``). Its sentences live with every other text
users read, in the catalogs of the ``words`` package (``phrase.<key>`` in
``words/locales/<language>/phrases*.toml``): ``str(phrase)`` is always a readable English
sentence from the English catalog, and the bot translates the key into the reader's language
with ``format_phrase``, falling back to English for a key a language lacks.

Parameter values are text, numbers or phrases themselves (a seat's name, a colour), which are
translated in turn. A template is either one ``str.format`` string or, for sentences with a
count, a mapping of CLDR plural categories (``"one"``, ``"other"``, …) to strings, chosen by the
``count`` parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from words.catalogs import Template, phrase_templates

#: Every English template, by key: the English catalog's, and any ``define`` adds.
ENGLISH: dict[str, Template] = dict(phrase_templates("en"))


class Phrase:
    """An immutable key plus parameters; ``str()`` is the English sentence."""

    __slots__ = ("_hash", "key", "params")

    key: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, key: str, /, **params: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", tuple(sorted(params.items())))
        object.__setattr__(self, "_hash", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Phrase is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Phrase):
            return NotImplemented
        return self.key == other.key and self.params == other.params

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash((self.key, self.params)))
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling (e.g. to an AI worker process) rebuilds through __init__: the default way
        # would set the slots one by one, which an immutable phrase refuses.
        return (_rebuild, (self.key, self.params))

    def __repr__(self) -> str:
        inner = "".join(f", {name}={value!r}" for name, value in self.params)
        return f"Phrase({self.key!r}{inner})"

    def __str__(self) -> str:
        return english(self)

    def __iter__(self) -> Iterator[Phrase]:
        """This phrase and every phrase nested in its parameters (for checks)."""
        yield self
        for _, value in self.params:
            if isinstance(value, Phrase):
                yield from value

    @property
    def args(self) -> dict[str, Any]:
        return dict(self.params)

    def dump(self) -> dict[str, Any]:
        """JSON-safe form (nested phrases included)."""
        return {
            "key": self.key,
            "params": {
                name: value.dump() if isinstance(value, Phrase) else value
                for name, value in self.params
            },
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Phrase:
        params = {
            name: cls.load(value) if isinstance(value, Mapping) and "key" in value else value
            for name, value in (data.get("params") or {}).items()
        }
        return cls(data["key"], **params)


def _rebuild(key: str, params: tuple[tuple[str, Any], ...]) -> Phrase:
    return Phrase(key, **dict(params))


def define(templates: Mapping[str, Template]) -> None:
    """Register English templates a catalog does not hold. Defining a key again with the same
    text is harmless (the seat names every game registers are in the catalog too); with another
    text it is a mistake."""
    for key, template in templates.items():
        known = ENGLISH.get(key)
        if known is not None and known != template:
            raise ValueError(f"phrase {key!r} is already defined as {known!r}")
        ENGLISH[key] = template


def english_plural(count: float) -> str:
    """English's two plural categories (CLDR): "one" for exactly 1, "other" otherwise."""
    return "one" if count == 1 else "other"


def format_phrase(
    phrase: Phrase,
    lookup: Callable[[str], Template | None],
    plural: Callable[[float], str],
    *,
    value: Callable[[Any], str] = str,
    fill: Callable[[str, Mapping[str, str]], str] | None = None,
) -> str:
    """``phrase`` in a language: ``lookup(key)`` gives that language's template (None: fall back
    to English, with English plural rules), ``plural(count)`` its plural category, and
    ``value`` formats plain parameter values (numbers per locale); ``fill(template, args)``
    fills a template in where the language's spelling depends on the words (French "d'Est")."""
    template = lookup(phrase.key)
    rule = plural
    if template is None:
        template = ENGLISH.get(phrase.key)
        rule = english_plural
        if template is None:
            raise KeyError(f"no English template for phrase {phrase.key!r}")
    args = {
        name: format_phrase(arg, lookup, plural, value=value, fill=fill)
        if isinstance(arg, Phrase) else value(arg)
        for name, arg in phrase.params
    }
    if not isinstance(template, str):
        count = phrase.args.get("count", 0)
        template = template.get(rule(count)) or template["other"]
    return template.format(**args) if fill is None else fill(template, args)


def and_list(items: Sequence[Any]) -> Any:
    """Items read as one list ("a, b and c"), translatable: a single item is itself; more make
    nested ``list.comma`` and ``list.and`` phrases, so each language picks its own words."""
    if not items:
        raise ValueError("an empty list has nothing to say")
    head = items[0]
    for item in items[1:-1]:
        head = Phrase("list.comma", head=head, next=item)
    return head if len(items) == 1 else Phrase("list.and", head=head, last=items[-1])


def english(phrase: Phrase) -> str:
    """The English sentence of a phrase."""
    return format_phrase(phrase, lambda key: None, english_plural)

