"""The engine protocol every game implements (docs/architecture.md).

A game is a stateless ``Game`` object; a position is an immutable ``State`` value owned by that
game. ``play`` never mutates: it returns a new state or raises ``IllegalMove`` with a reason a
player can read. Moves are small values whose ``str()`` is canonical notation and which
``Game.parse_move`` reads back (python-chess style).

What engines say to players (refusals, what a move did, how a game ended, seat names) are
``engines.phrases.Phrase`` values: a stable key the bot translates, with an English sentence as
``str()``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, overload

from engines.phrases import Phrase, define


class IllegalMove(ValueError):
    """A move that cannot be played here. ``phrase`` says why (key and parameters, which the
    bot translates); ``reason`` is its English sentence, ``code`` its key. The sentence is only
    written when asked for: move generators may refuse many candidate moves."""

    def __init__(self, reason: Phrase | str) -> None:
        phrase = reason if isinstance(reason, Phrase) else Phrase("illegal.text", text=reason)
        super().__init__(phrase)
        self.phrase = phrase

    def __str__(self) -> str:
        return str(self.phrase)

    @property
    def reason(self) -> str:
        return str(self.phrase)

    @property
    def code(self) -> str:
        return self.phrase.key

    @property
    def params(self) -> dict[str, Any]:
        return self.phrase.args


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game. ``winners`` may be empty (a draw with no winner).
    ``reason`` is English; ``phrase`` (when the engine gives one) is the same, translatable."""

    winners: frozenset[int]
    scores: tuple[float, ...]
    reason: str
    phrase: Phrase | None = None

    @classmethod
    def said(cls, winners: frozenset[int], scores: tuple[float, ...], phrase: Phrase) -> Outcome:
        """An outcome whose reason is ``phrase`` (its English sentence becomes ``reason``)."""
        return cls(frozenset(winners), tuple(scores), str(phrase), phrase)


@dataclass(frozen=True)
class Option:
    """A game option as data, so the bot builds its `/play` choices without per-game code."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    description: str = ""
    #: Not offered to players (e.g. the rules edition a game stored before a rule change was
    #: played under); still validated and stored with the game like any option.
    hidden: bool = False

    def validate(self, value: Any) -> Any:
        if isinstance(self.default, bool) and isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                value = True
            elif lowered in ("0", "false", "no", "off"):
                value = False
        elif (
            isinstance(self.default, int)
            and isinstance(value, str)
            and value.strip().lstrip("-").isdigit()
        ):
            value = int(value)
        if value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"option {self.name} must be one of: {allowed} (got {value!r})")
        return value


class Move:
    """Base of every game's move value. Subclasses are frozen dataclasses with a canonical
    ``__str__``; ``Game.parse_move(str(m)) == m``."""

    __slots__ = ()


M = TypeVar("M", bound=Move)


class LazyMoves(Sequence[M], Generic[M]):
    """A base for ``legal_moves`` results that are counted at once but build a move only when
    it is asked for (a random playout wants one move out of hundreds). Subclasses give
    ``__len__``, ``__iter__`` and ``_at(index)`` for 0 <= index < len; this class adds negative
    indices, slices and a readable ``repr``."""

    __slots__ = ()

    def _at(self, index: int) -> M:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> M: ...

    @overload
    def __getitem__(self, index: slice) -> list[M]: ...

    def __getitem__(self, index: int | slice) -> M | list[M]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("move index out of range")
        return self._at(index)

    def __iter__(self) -> Iterator[M]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({[str(move) for move in self]})"


def normalize_text(text: str) -> str:
    """Forgiving input: case, surrounding and repeated spaces, and a leading slash are ignored."""
    text = text.strip()
    if text.startswith("/"):
        text = text[1:]
    return " ".join(text.lower().split())


def rng_for(seed: int | str, *salt: object) -> random.Random:
    """The only source of randomness in engines: a generator derived from the game's secret seed
    and a salt (ply, round...), so (seed, options, moves) replays a game exactly."""
    return random.Random(":".join(str(part) for part in (seed, *salt)))


class Game:
    """A game's rules and metadata. Subclasses set the class attributes and implement the
    underscore methods; the public methods below are the API the rest of the project calls."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Player counts allowed (e.g. LPPG: 2 or 4). Defaults to min..max.
    player_counts: ClassVar[tuple[int, ...]] = ()
    #: Seat names in seat order (the first ``players`` of them are used).
    seat_names: ClassVar[tuple[str, ...]]
    options: ClassVar[tuple[Option, ...]] = ()
    #: OpenSpiel-style metadata: does the game use chance, does it hide information?
    chance: ClassVar[bool] = False
    hidden_information: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Seat names are phrases like any other text for players: register their English.
        if "seat_names" in cls.__dict__:
            define({seat_key(name): name for name in cls.seat_names})

    # ----- metadata helpers -------------------------------------------------------------------

    def allowed_player_counts(self) -> tuple[int, ...]:
        return self.player_counts or tuple(range(self.min_players, self.max_players + 1))

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Options with defaults filled in and values checked; unknown names are refused."""
        options = dict(options or {})
        known = {opt.name: opt for opt in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"{self.name} has no option {', '.join(unknown)}")
        return {name: opt.validate(options.get(name, opt.default)) for name, opt in known.items()}

    def seat_phrase(self, state: Any, seat: int) -> Phrase:
        """The name of a seat in this game, translatable (some games assign roles at setup)."""
        return Phrase(seat_key(self.seat_names[seat]))

    def seat_name(self, state: Any, seat: int) -> str:
        """The English name of a seat (``seat_phrase`` translated to English)."""
        return str(self.seat_phrase(state, seat))

    # ----- the protocol -----------------------------------------------------------------------

    def new(self, players: int = 2, *, seed: int | str, options: Mapping[str, Any] | None = None):
        if players not in self.allowed_player_counts():
            allowed = ", ".join(str(n) for n in self.allowed_player_counts())
            raise ValueError(f"{self.title} is played by {allowed} players, not {players}")
        return self._new(players, seed, self.resolve_options(options))

    def legal_moves(self, state: Any) -> Sequence[Move]:
        if state.outcome is not None:
            return ()
        return self._legal_moves(state)

    def parse_move(self, text: str, state: Any = None) -> Move:
        """Read a move from player text (forgiving); raises ``IllegalMove`` if it is not one."""
        if not isinstance(text, str):
            raise IllegalMove(Phrase("illegal.not_text"))
        cleaned = normalize_text(text)
        if not cleaned:
            raise IllegalMove(Phrase("illegal.empty"))
        return self._parse(cleaned, state)

    def play(self, state: Any, move: Move | str) -> Any:
        """Return the state after ``move``; raise ``IllegalMove`` and leave ``state`` intact."""
        if state.outcome is not None or state.to_move is None:
            raise IllegalMove(Phrase("illegal.game_over"))
        if isinstance(move, str):
            move = self.parse_move(move, state)
        return self._play(state, move)

    def is_legal(self, state: Any, move: Move | str) -> bool:
        try:
            self.play(state, move)
        except IllegalMove:
            return False
        return True

    def view(self, state: Any, seat: int | None) -> Any:
        """What ``seat`` may see (``None`` = a spectator). The seed is always removed while the
        game runs; games with hidden cards also override ``_view``."""
        if state.outcome is None:
            state = dataclasses.replace(state, seed=None)
        return self._view(state, seat)

    def replay(
        self,
        players: int,
        seed: int | str,
        options: Mapping[str, Any] | None,
        moves: Iterable[Move | str],
    ) -> list[Any]:
        """Every state of a game from its setup through ``moves`` (the first is the setup)."""
        state = self.new(players, seed=seed, options=options)
        states = [state]
        for move in moves:
            state = self.play(state, move)
            states.append(state)
        return states

    def explain(self, state: Any, move: Move) -> Phrase:
        """What the move does, in words for chat (``state`` is the position before it)."""
        return Phrase("move.plain", move=str(move))

    def describe(self, state: Any, move: Move) -> str:
        """``explain`` in English."""
        return str(self.explain(state, move))

    def dump(self, state: Any) -> dict:
        raise NotImplementedError

    def load(self, data: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    # ----- to implement -----------------------------------------------------------------------

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _legal_moves(self, state: Any) -> Sequence[Move]:
        raise NotImplementedError

    def _parse(self, text: str, state: Any) -> Move:
        raise NotImplementedError

    def _play(self, state: Any, move: Move) -> Any:
        raise NotImplementedError

    def _view(self, state: Any, seat: int | None) -> Any:
        return state


def higher_score_wins(
    game: Game, state: Any, points: tuple[int, int], wins: str, draw: str
) -> Outcome:
    """The outcome of a two-seat game won on points: the higher wins, equal is a draw. The
    phrase ``wins`` gets ``seat`` (the winner), ``count`` (its points) and ``other`` (the
    loser's); ``draw`` gets ``count``. Scores are the points."""
    first, second = points
    scores = (float(first), float(second))
    if first == second:
        return Outcome.said(frozenset(), scores, Phrase(draw, count=first))
    winner = 0 if first > second else 1
    return Outcome.said(
        frozenset({winner}), scores,
        Phrase(wins, seat=game.seat_phrase(state, winner), count=max(points), other=min(points)),
    )


def fast_init(cls: type) -> type:
    """Give a frozen slots dataclass a faster ``__init__`` (same signature, same defaults).

    A frozen dataclass sets each field through ``object.__setattr__``, which looks the slot up
    again every time; engines create a state per move, thousands of times per playout. This
    ``__init__`` calls each slot's own setter, bound once, and so bypasses the frozen check the
    same way (the class still refuses assignment afterwards). Fields with ``init=False`` get
    their default; a ``default_factory`` is called as usual."""
    fields = dataclasses.fields(cls)
    if not cls.__dataclass_params__.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} must be a frozen dataclass with slots")
    namespace: dict[str, Any] = {"_MISSING": dataclasses.MISSING}
    params, body = [], []
    for i, f in enumerate(fields):
        namespace[f"_set{i}"] = cls.__dict__[f.name].__set__
        value = f.name
        if f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory{i}"] = f.default_factory
            default, value = " = _MISSING", f"_factory{i}() if {f.name} is _MISSING else {f.name}"
            if not f.init:
                value = f"_factory{i}()"
        elif f.default is not dataclasses.MISSING:
            namespace[f"_default{i}"] = f.default
            default = f" = _default{i}"
            if not f.init:
                value = f"_default{i}"
        elif not f.init:
            continue  # as in a dataclass: set later, if ever
        else:
            default = ""
        if f.init:
            params.append(f"{f.name}{default}")
        body.append(f"    _set{i}(self, {value})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    exec(source, namespace)  # the source is built above from the dataclass's own fields
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return cls


def seat_key(name: str) -> str:
    """The phrase key of an English seat name: "Player 1" -> "seat.player_1"."""
    return "seat." + "_".join(name.lower().split())


def dump_outcome(outcome: Outcome | None) -> dict | None:
    """JSON-safe form of an outcome, for every game's ``dump``."""
    if outcome is None:
        return None
    data = {
        "winners": sorted(outcome.winners),
        "scores": list(outcome.scores),
        "reason": outcome.reason,
    }
    if outcome.phrase is not None:
        data["phrase"] = outcome.phrase.dump()
    return data


def load_outcome(data: Mapping[str, Any] | None) -> Outcome | None:
    if data is None:
        return None
    phrase = data.get("phrase")
    return Outcome(
        frozenset(data["winners"]), tuple(data["scores"]), data["reason"],
        None if phrase is None else Phrase.load(phrase),
    )
