"""The engine protocol every game implements (DESIGN.md §3).

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engines.phrases import Phrase, define


class IllegalMove(ValueError):
    """A move that cannot be played here. ``phrase`` says why (key and parameters, which the
    bot translates); ``reason`` is its English sentence, ``code`` its key."""

    def __init__(self, reason: Phrase | str) -> None:
        phrase = reason if isinstance(reason, Phrase) else Phrase("illegal.text", text=reason)
        text = str(phrase)
        super().__init__(text)
        self.phrase = phrase
        self.reason = text

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
