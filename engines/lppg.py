"""LPPG — Le Plus Petit Gagne (Sébastien Blondiau). RULES.md §5.

2 players, or 4 in two teams: seats 0 and 2 (North and South) against seats 1 and 3 (East and
West). Seat names are ``North, East, South, West``; a 2-player game seats North (0) against
South (1) (see ``seat_phrase``).

A turn is several moves by the same seat; ``state.pending`` says which decision is expected:

- ``"play"``: ``play <slot> <x>,<y> <rot>`` (place hand card 1 or 2 with its box's top-left at
  x,y, turned 0/90/180/270 clockwise), or ``pass`` when neither card has a legal placement.
- ``"keep"``: ``keep <x>,<y>`` — after two territories of one player merged, their owner picks
  the marker that stays (``to_move`` is that owner, who may not be the player whose turn it is).
- ``"mark"``: ``mark o <x>,<y>`` / ``mark p <x>,<y>`` on a largest closed unmarked region.
- ``"draw"``: ``draw a`` / ``draw b``, one card at a time, two per turn (``cards_to_draw``
  says how many are left), so the player sees the first card and the new top colours before
  choosing the second pile. The drawn cards fill the hand in drawing order (slot 1 first).
  ``draw a b`` (any two piles) is shorthand for both draws, in the written order.

As soon as a pile runs out (after any draw) the discard and the other pile are shuffled
together and split into two new piles, pile A taking the odd card.

Rulings where RULES.md is silent (each has a test):

- ``pass`` discards both cards; the player then draws two as usual (in the last round, where
  nobody draws, ``pass`` simply ends the turn). A pass has no consequences, so no marking
  follows it.
- ``draw b a`` draws from pile B first, then from pile A: the written order is the drawing
  order.
- Only a pile with cards may be named. If only one card is left when the piles are re-formed,
  it goes to pile A and pile B stays empty until the next re-forming. (A position saved under
  earlier rules may have both piles empty and cards in the discard: the piles are then
  re-formed when the player draws.)
- Connecting territories of different players is illegal even when the joined area would be
  open: the placement still merges them.
- The discard pile is face down: views show only its size. Both faces of a card show its
  colour, so the colours of the cards in other players' hands are public, their patterns are
  not (also after the game).
- Option ``deck`` (not offered by ``/play``: it is for tests and for replaying a physical game):
  the 76 card ids in dealing order, as a list or one string separated by spaces or commas.

Storage and views: ``dump()`` names cards by their ids (``R1``..``Y19``). In a view, a card the
viewer may not see is ``?`` and a card seen from its back (the top of a draw pile, a card in
another seat's hand) shows only its colour (``R?``), so pile sizes stay visible;
``view(state, seat)`` keeps that seat's hand only (``None``, a spectator, sees no hand). Viewing
a view changes nothing.

Helpers for rendering: ``terrain``, ``territories``, ``closed_regions``, ``card_squares``,
``card_id``, ``visible_colour``, ``cards_to_draw``; ``LppgMatch`` scores a match of several
rounds. The cards are in ``engines.lppg_cards``, the terrain and the legal-move search in
``engines.lppg_terrain``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engines import register
from engines.core import (
    Game,
    IllegalMove,
    Move,
    Option,
    Outcome,
    dump_outcome,
    load_outcome,
    rng_for,
)
from engines.lppg_cards import (
    CARD_IDS,
    CARD_SQUARES,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    DECK_SIZE,
    HIDDEN,
    PATTERNS,
    PER_COLOUR,
    ROTATIONS,
    WHITE,
    card_back,
    card_colour,
    card_from_id,
    card_id,
    card_squares,
    visible_colour,
)
from engines.lppg_terrain import (
    CELLS,
    placement_codes,
    placements,
    side,
    smallest_unique,
    yx_order,
)
from engines.lppg_terrain import Board as _Board
from engines.lppg_terrain import Geometry as _Geometry
from engines.lppg_terrain import in_range as _in_range
from engines.lppg_terrain import key as _key
from engines.lppg_terrain import xy as _xy
from engines.phrases import Phrase

__all__ = [
    "CARD_IDS", "CARD_SQUARES", "COLOUR_LETTERS", "COLOUR_NAMES", "DECK_SIZE", "HIDDEN",
    "PATTERNS", "PER_COLOUR", "ROTATIONS", "WHITE", "DrawMove", "KeepMove", "Lppg",
    "LppgMatch", "LppgState", "MarkMove", "PassMove", "PlayMove", "card_back", "card_colour",
    "card_from_id", "card_id", "card_squares", "cards_to_draw", "closed_regions", "terrain",
    "territories", "visible_colour",
]

# ----- what LPPG says to players -----------------------------------------------------------------

def _square(x: int, y: int) -> str:
    return f"{x},{y}"


def _also(phrases: Sequence[Phrase]) -> Phrase:
    """Several sentences as one phrase, in order."""
    joined = phrases[0]
    for phrase in phrases[1:]:
        joined = Phrase("lppg.also", first=joined, second=phrase)
    return joined


def _so(move: Phrase, consequences: Sequence[Phrase]) -> Phrase:
    """What a move did, followed by its consequences (if any)."""
    if not consequences:
        return move
    return Phrase("lppg.so", move=move, what=_also(consequences))


# ----- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayMove(Move):
    slot: int
    x: int
    y: int
    rot: int

    def __str__(self) -> str:
        return f"play {self.slot} {self.x},{self.y} {self.rot}"


@dataclass(frozen=True, slots=True)
class PassMove(Move):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class KeepMove(Move):
    x: int
    y: int

    def __str__(self) -> str:
        return f"keep {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class MarkMove(Move):
    kind: str  # "o" ordinary or "p" permanent
    x: int
    y: int

    def __str__(self) -> str:
        return f"mark {self.kind} {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class DrawMove(Move):
    """One card from ``pile`` ("a" or "b"); with ``then``, the shorthand for both draws of a
    turn, ``pile`` first."""

    pile: str
    then: str | None = None

    @property
    def piles(self) -> tuple[str, ...]:
        return (self.pile,) if self.then is None else (self.pile, self.then)

    def __str__(self) -> str:
        return "draw " + " ".join(self.piles)


_NUM = r"(-?\d{1,6})"
_XY = _NUM + r" ?, ?" + _NUM
_PLAY_RE = re.compile(r"play ([12]) " + _XY + r" (\d{1,4})")
_KEEP_RE = re.compile(r"keep " + _XY)
_MARK_RE = re.compile(r"mark ([op]) " + _XY)
_DRAW_RE = re.compile(r"draw ([ab])(?: ?([ab]))?")
DRAW_A = DrawMove("a")
DRAW_B = DrawMove("b")
#: Under the first edition a turn's two draws were one decision, the piles named in order.
_FIRST_EDITION_DRAWS = (DrawMove("a", "b"), DrawMove("a", "a"), DrawMove("b", "b"))


def _first_edition_draw(first: str, second: str | None) -> DrawMove:
    if second is None:
        raise IllegalMove(Phrase("lppg.expect_draw", count=2))
    first, second = sorted((first, second))
    return DrawMove(first, second)

class _PlayMoves(dict):
    """Placements by their search code (see ``placement_codes``), each made once and shared:
    they are listed thousands of times per playout and are immutable values."""

    LIMIT = 200_000

    def __missing__(self, code: int) -> PlayMove:
        if len(self) >= self.LIMIT:
            self.clear()
        x, y = _xy(code >> 3)
        move = self[code] = PlayMove(((code >> 2) & 1) + 1, x, y, ROTATIONS[code & 3])
        return move


_PLAY_MOVES = _PlayMoves()


# ----- state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LppgState:
    players: int
    seed: int | str | None
    to_move: int | None
    #: The seat whose turn it is (``to_move`` differs only while another owner picks a marker).
    turn_seat: int
    #: "play", "keep", "mark" or "draw"; None once the game is over.
    pending: str | None
    #: Cards on the table in the order they were laid, terrain cards first: (card, x, y, rot).
    placed: tuple[tuple[int, int, int, int], ...]
    #: Markers on the terrain: (seat, "o"|"p", x, y); the territory is the region holding it.
    markers: tuple[tuple[int, str, int, int], ...]
    #: Each seat's hand, in drawing order (slot 1 first).
    hands: tuple[tuple[int, ...], ...]
    pile_a: tuple[int, ...]  # top first
    pile_b: tuple[int, ...]
    discard: tuple[int, ...]
    #: Merges waiting for their owner's choice: (owner, marker squares), first one first.
    keeps: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = ()
    #: Turns left in the last round (after someone drew the last cards); None before it.
    final_turns: int | None = None
    reshuffles: int = 0
    ply: int = 0
    outcome: Outcome | None = None
    last_move: Move | None = None
    #: The rules edition (the hidden option ``edition``); 1 draws both cards in one decision.
    edition: int = 2

    @cached_property
    def geometry(self) -> _Geometry:
        return _Geometry.from_placed(self.placed)

    @cached_property
    def board(self) -> _Board:
        return _Board(self.geometry, self.markers)


_FIELDS = tuple(field.name for field in dataclasses.fields(LppgState))


def _derive(state: LppgState, **changes: Any) -> LppgState:
    """``dataclasses.replace`` without its checks (a state is made at every move), keeping the
    cached geometry and board when what they depend on did not change."""
    new = object.__new__(LppgState)
    values = new.__dict__
    old = state.__dict__
    for name in _FIELDS:
        values[name] = old[name]
    values.update(changes)
    if "placed" not in changes:
        if "geometry" in old:
            values["geometry"] = old["geometry"]
        if "markers" not in changes and "board" in old:
            values["board"] = old["board"]
    return new


def terrain(state: LppgState) -> dict[tuple[int, int], int]:
    """The visible colour code (0 white, 1..4 red/blue/green/yellow) of every covered square."""
    return {_xy(k): c for k, c in state.geometry.colour.items()}


def territories(state: LppgState) -> list[tuple[int, str, tuple[tuple[int, int], ...]]]:
    """(owner, marker kind, squares) of every territory (for rendering and summaries)."""
    geo = state.geometry
    return [
        (seat, kind, tuple(sorted(_xy(k) for k in geo.comps[geo.comp_of[_key(x, y)]])))
        for seat, kind, x, y in state.markers
    ]


def closed_regions(state: LppgState) -> list[tuple[tuple[int, int], ...]]:
    """The squares of every closed unmarked region."""
    geo = state.geometry
    return [tuple(sorted(_xy(k) for k in geo.comps[c])) for c in state.board.closed_regions]


def cards_to_draw(state: LppgState) -> int:
    """How many cards the player to move still draws this turn (0 unless drawing)."""
    if state.pending != "draw":
        return 0
    return max(0, 2 - len(state.hands[state.turn_seat]))


def _turn_order_next(state: LppgState) -> int:
    return (state.turn_seat + 1) % state.players


# ----- the game --------------------------------------------------------------------------------


class Lppg(Game):
    """The rules of LPPG as one ``Game`` (module docstring: the moves, the turn, the rulings).

    Longer than 300 lines on purpose: it is one game's rules, read in the order a turn goes:
    setup, legal moves, parsing, then playing each kind of move (place, keep, mark, pass,
    draw) and scoring, then views, explanations and storage. Each section is the method or two
    the ``Game`` API asks for, and they read one state; what needs no rules is already
    elsewhere (the cards in ``engines.lppg_cards``, the terrain and the placement search in
    ``engines.lppg_terrain``, the first edition's draws below the class)."""

    name = "lppg"
    title = "LPPG — Le Plus Petit Gagne"
    min_players = 2
    max_players = 4
    player_counts = (2, 4)
    seat_names = ("North", "East", "South", "West")
    chance = True
    hidden_information = True
    options = (
        # Edition 1: the rules before the two-step draw (``draw a b`` drew both cards, and an
        # empty pile was re-formed only when drawn from), kept so games stored under them still
        # replay exactly and go on as they started.
        Option("edition", 2, (1, 2), "rules edition of a stored game", hidden=True),
    )

    # ----- setup ----------------------------------------------------------------------------

    def seat_phrase(self, state: Any, seat: int) -> Phrase:
        # Two players sit face to face: North and South.
        if state is not None and getattr(state, "players", 4) == 2:
            seat *= 2
        return super().seat_phrase(state, seat)

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        # ``deck`` is a list of 76 ids, not one of a few choices, so it has its own check.
        options = dict(options or {})
        deck = options.pop("deck", None)
        resolved = super().resolve_options(options)
        resolved["deck"] = None if deck is None else _parse_deck(deck)
        return resolved

    def _new(self, players: int, seed: int | str, options: dict[str, Any]) -> LppgState:
        deck = options.get("deck")
        if deck is None:
            order = list(range(DECK_SIZE))
            rng_for(seed, "deal").shuffle(order)
            deck = tuple(order)
        placed = tuple((deck[i], 0, 2 * i, 0) for i in range(players))
        hands = tuple(
            tuple(deck[players + 2 * s : players + 2 * s + 2]) for s in range(players)
        )
        rest = deck[3 * players :]
        half = (len(rest) + 1) // 2
        return LppgState(
            players=players,
            seed=seed,
            to_move=0,
            turn_seat=0,
            pending="play",
            placed=placed,
            markers=(),
            hands=hands,
            pile_a=tuple(rest[:half]),
            pile_b=tuple(rest[half:]),
            discard=(),
            edition=options.get("edition", 2),
        )

    # ----- legal moves ------------------------------------------------------------------------

    def _legal_moves(self, state: LppgState) -> Sequence[Move]:
        pending = state.pending
        if pending == "play":
            mover = state.turn_seat
            found = placements(
                state.board, state.hands[mover], mover, state.players, moves=_PLAY_MOVES
            )
            return found if found else [PassMove()]
        if pending == "draw":
            if state.edition == 1:
                return list(_FIRST_EDITION_DRAWS)
            piles = [move for move in (DRAW_A, DRAW_B) if self._pile(state, move.pile)]
            # Both piles empty only in positions saved under earlier rules: drawing re-forms.
            return piles or [DRAW_A, DRAW_B]
        if pending == "keep":
            return [KeepMove(x, y) for x, y in state.keeps[0][1]]
        if pending == "mark":
            return self._marks(state)
        return []

    def _can_place(self, state: LppgState) -> bool:
        mover = state.turn_seat
        return bool(placement_codes(
            state.board, state.hands[mover], mover, state.players, True, moves=_PLAY_MOVES
        ))

    def _marks(self, state: LppgState) -> list[Move]:
        board = state.board
        comps = board.geo.comps
        regions = board.closed_regions
        if not regions:
            return []
        largest = max(len(comps[c]) for c in regions)
        kinds = self._free_kinds(state, state.turn_seat)
        out: list[Move] = []
        for comp in sorted(regions, key=lambda c: min(comps[c])):
            if len(comps[comp]) == largest:
                x, y = _xy(min(comps[comp]))
                out.extend(MarkMove(kind, x, y) for kind in kinds)
        return out

    @staticmethod
    def _free_kinds(state: LppgState, seat: int) -> list[str]:
        used = [kind for s, kind, _, _ in state.markers if s == seat]
        kinds = []
        if used.count("o") < 2:
            kinds.append("o")
        if "p" not in used:
            kinds.append("p")
        return kinds

    @staticmethod
    def _pile(state: LppgState, name: str) -> tuple[int, ...]:
        return state.pile_a if name == "a" else state.pile_b

    # ----- parsing ---------------------------------------------------------------------------

    def _parse(self, text: str, state: LppgState | None) -> Move:
        if text == "pass":
            return PassMove()
        match = _PLAY_RE.fullmatch(text)
        if match:
            slot, x, y, rot = (int(g) for g in match.groups())
            if rot not in ROTATIONS:
                raise IllegalMove(Phrase("lppg.bad_rotation"))
            return PlayMove(slot, x, y, rot)
        match = _MARK_RE.fullmatch(text)
        if match:
            kind = match.group(1)
            x, y = int(match.group(2)), int(match.group(3))
            if state is not None and state.pending == "mark":
                # Any square names its region; the canonical name is the top-left square.
                geo = state.geometry
                comp = geo.comp_of.get(_key(x, y)) if _in_range(x, y) else None
                if comp is not None and comp in state.board.closed_regions:
                    x, y = _xy(min(geo.comps[comp]))
            return MarkMove(kind, x, y)
        match = _KEEP_RE.fullmatch(text)
        if match:
            return KeepMove(int(match.group(1)), int(match.group(2)))
        match = _DRAW_RE.fullmatch(text)
        if match:
            if state is not None and state.edition == 1:
                return _first_edition_draw(match.group(1), match.group(2))
            return DrawMove(match.group(1), match.group(2))
        raise IllegalMove(Phrase("lppg.not_a_move", text=repr(text[:40])))

    # ----- playing ---------------------------------------------------------------------------

    def _play(self, state: LppgState, move: Move) -> LppgState:
        if isinstance(move, PlayMove):
            self._expect(state, "play")
            return self._place(state, move)
        if isinstance(move, PassMove):
            self._expect(state, "play")
            return self._pass(state)
        if isinstance(move, KeepMove):
            self._expect(state, "keep")
            return self._keep(state, move)
        if isinstance(move, MarkMove):
            self._expect(state, "mark")
            return self._mark(state, move)
        if isinstance(move, DrawMove):
            self._expect(state, "draw")
            return self._draw(state, move)
        raise IllegalMove(Phrase("illegal.wrong_game"))

    @staticmethod
    def _expect(state: LppgState, wanted: str) -> None:
        pending = state.pending
        if pending == wanted:
            return
        if pending == "draw":
            raise IllegalMove(Phrase("lppg.expect_draw", count=cards_to_draw(state)))
        if pending in ("play", "keep", "mark"):
            raise IllegalMove(Phrase(f"lppg.expect_{pending}"))
        raise IllegalMove(Phrase("illegal.game_over"))

    def _place(self, state: LppgState, move: PlayMove) -> LppgState:
        mover = state.turn_seat
        hand = state.hands[mover]
        if not 1 <= move.slot <= len(hand) or hand[move.slot - 1] < 0:
            raise IllegalMove(Phrase("lppg.no_card_in_slot", slot=move.slot))
        card = hand[move.slot - 1]
        board = state.board
        geo = board.geo
        x, y = move.x, move.y
        if not (
            geo.min_x - 3 <= x <= geo.max_x + 1
            and geo.min_y - 3 <= y <= geo.max_y + 1
            and _in_range(x, y)
        ):
            raise IllegalMove(Phrase("lppg.off_terrain"))
        base = _key(x, y)
        cells = CELLS[card][move.rot // 90]
        covered = 0
        same_colour = False
        for dk, c in cells:
            k = base + dk
            old = geo.colour.get(k)
            if old is None:
                continue
            covered += 1
            if k in board.territory_of:
                raise IllegalMove(Phrase("lppg.covers_territory"))
            if old == c:
                same_colour = True
        if covered == 0:
            raise IllegalMove(Phrase("lppg.off_terrain"))
        if covered == 6:
            raise IllegalMove(Phrase("lppg.covers_six"))
        if not same_colour:
            raise IllegalMove(Phrase("lppg.no_same_colour"))
        new_geo = geo.covered_by(base, cells)

        # Consequences for the territories (RULES §5, turn step 2).
        markers = state.markers
        by_comp: dict[int, list[int]] = {}
        for i, (_, _, mx, my) in enumerate(markers):
            by_comp.setdefault(new_geo.comp_of[_key(mx, my)], []).append(i)
        returned: set[int] = set()
        keep_groups = []
        kept_entries = []
        for comp, indices in by_comp.items():
            owners = {markers[i][0] for i in indices}
            if len(owners) > 1:
                raise IllegalMove(Phrase("lppg.joins_players"))
            owner = markers[indices[0]][0]
            if new_geo.comp_open[comp]:
                if any(markers[i][1] == "p" for i in indices):
                    raise IllegalMove(Phrase("lppg.opens_permanent"))
                returned.update(indices)
                continue
            kept_entries.append((len(new_geo.comps[comp]), owner))
            if len(indices) > 1:
                squares = tuple(sorted((markers[i][2:] for i in indices), key=yx_order))
                keep_groups.append((owner, squares))
        closed = [
            len(new_geo.comps[c])
            for c in range(len(new_geo.comps))
            if not new_geo.comp_open[c] and c not in by_comp
        ]
        # A mark that would be this player's third marker ends the game: only allowed when
        # their side then wins (and a territory is left).
        count = sum(1 for i, m in enumerate(markers) if m[0] == mover and i not in returned)
        count -= sum(len(squares) - 1 for owner, squares in keep_groups if owner == mover)
        if closed and count == 2:
            winner = smallest_unique([*kept_entries, (max(closed), mover)])
            if winner is None or side(state.players, winner[1]) != side(state.players, mover):
                team = "_team" if state.players == 4 else ""
                raise IllegalMove(Phrase("lppg.third_marker_loses" + team))

        new_markers = tuple(m for i, m in enumerate(markers) if i not in returned)
        hands = list(state.hands)
        hands[mover] = tuple(c for i, c in enumerate(hand) if i != move.slot - 1)
        keep_groups.sort(key=lambda group: yx_order(group[1][0]))
        after = _derive(
            state,
            placed=(*state.placed, (card, x, y, move.rot)),
            markers=new_markers,
            hands=tuple(hands),
            keeps=tuple(keep_groups),
            to_move=keep_groups[0][0] if keep_groups else mover,
            pending="keep" if keep_groups else "mark",
            ply=state.ply + 1,
            last_move=move,
        )
        after.__dict__["geometry"] = new_geo
        if keep_groups:
            return after
        return self._after_consequences(after)

    def _after_consequences(self, state: LppgState) -> LppgState:
        """Marking if a closed region is visible, otherwise the end of the turn."""
        if state.board.closed_regions:
            return _derive(state, pending="mark", to_move=state.turn_seat)
        return self._end_turn(state)

    def _keep(self, state: LppgState, move: KeepMove) -> LppgState:
        owner, squares = state.keeps[0]
        chosen = (move.x, move.y)
        if chosen not in squares:
            listed = ", ".join(_square(x, y) for x, y in squares)
            raise IllegalMove(Phrase("lppg.keep_which", squares=listed))
        dropped = {square for square in squares if square != chosen}
        markers = tuple(
            m for m in state.markers if not (m[0] == owner and (m[2], m[3]) in dropped)
        )
        rest = state.keeps[1:]
        after = _derive(
            state,
            markers=markers,
            keeps=rest,
            to_move=rest[0][0] if rest else state.turn_seat,
            ply=state.ply + 1,
            last_move=move,
        )
        if rest:
            return after
        return self._after_consequences(after)

    def _mark(self, state: LppgState, move: MarkMove) -> LppgState:
        board = state.board
        geo = board.geo
        mover = state.turn_seat
        comp = geo.comp_of.get(_key(move.x, move.y)) if _in_range(move.x, move.y) else None
        if comp is None or comp not in board.closed_regions:
            raise IllegalMove(Phrase("lppg.not_closed", square=_square(move.x, move.y)))
        largest = max(len(geo.comps[c]) for c in board.closed_regions)
        if len(geo.comps[comp]) != largest:
            raise IllegalMove(Phrase("lppg.not_largest", count=largest))
        if move.kind not in self._free_kinds(state, mover):
            kind = Phrase(f"lppg.kind_{move.kind}")
            raise IllegalMove(Phrase("lppg.no_marker_left", kind=kind))
        tx, ty = _xy(min(geo.comps[comp]))
        markers = (*state.markers, (mover, move.kind, tx, ty))
        after = _derive(
            state,
            markers=markers,
            ply=state.ply + 1,
            last_move=MarkMove(move.kind, tx, ty),
        )
        if sum(1 for m in markers if m[0] == mover) == 3:
            outcome = self._score(after, Phrase("lppg.end_third_marker"))
            if not outcome.winners or mover not in outcome.winners:
                # The placement check rules this out; kept as a guard for hand-built states.
                team = "_team" if state.players == 4 else ""
                raise IllegalMove(Phrase("lppg.third_marker_loses" + team))
            return _derive(after, to_move=None, pending=None, outcome=outcome)
        return self._end_turn(after)

    def _end_turn(self, state: LppgState) -> LppgState:
        mover = state.turn_seat
        hands = list(state.hands)
        discard = (*state.discard, *hands[mover])
        hands[mover] = ()
        if state.final_turns is None:
            return _derive(
                state, hands=tuple(hands), discard=discard, pending="draw", to_move=mover
            )
        left = state.final_turns - 1
        after = _derive(state, hands=tuple(hands), discard=discard, final_turns=left)
        if left == 0:
            outcome = self._score(after, Phrase("lppg.end_cards_out"))
            return _derive(after, to_move=None, pending=None, outcome=outcome)
        nxt = _turn_order_next(state)
        return _derive(after, turn_seat=nxt, to_move=nxt, pending="play")

    def _pass(self, state: LppgState) -> LppgState:
        if self._can_place(state):
            raise IllegalMove(Phrase("lppg.pass_refused"))
        after = _derive(state, ply=state.ply + 1, last_move=PassMove())
        return self._end_turn(after)

    def _draw(self, state: LppgState, move: DrawMove) -> LppgState:
        if state.edition == 1:
            return _first_edition_drawn(state, move)
        mover = state.turn_seat
        if move.then is None:
            pile, other = (
                (state.pile_a, state.pile_b) if move.pile == "a" else (state.pile_b, state.pile_a)
            )
            if len(pile) > 1 and other and len(state.hands[mover]) < 2:
                return _drawn_one(state, move, mover, pile, other)
        return self._drawn(state, move)

    def _drawn(self, state: LppgState, move: DrawMove) -> LppgState:
        """Any draw of the current edition, the piles re-formed as needed."""
        mover = state.turn_seat
        hand = list(state.hands[mover])
        if len(move.piles) > 2 - len(hand):
            raise IllegalMove(Phrase("lppg.one_card_to_draw"))
        piles = {"a": state.pile_a, "b": state.pile_b}
        discard = state.discard
        reshuffles = state.reshuffles

        def reform() -> None:
            nonlocal discard, reshuffles
            pool = [*discard, *piles["a"], *piles["b"]]
            rng_for(state.seed, "reshuffle", reshuffles).shuffle(pool)
            reshuffles += 1
            half = (len(pool) + 1) // 2
            piles["a"], piles["b"], discard = tuple(pool[:half]), tuple(pool[half:]), ()

        for name in move.piles:
            if not piles[name]:
                if piles["a"] or piles["b"]:
                    other = "b" if name == "a" else "a"
                    raise IllegalMove(
                        Phrase("lppg.pile_empty", pile=name.upper(), other=other.upper())
                    )
                reform()  # a position saved under earlier rules: both piles empty
                if not piles[name]:
                    name = "a"  # only one card was left and it went to pile A
            hand.append(piles[name][0])
            piles[name] = piles[name][1:]
            if (not piles["a"] or not piles["b"]) and (piles["a"] or piles["b"] or discard):
                reform()
        hands = list(state.hands)
        hands[mover] = tuple(hand)
        exhausted = not piles["a"] and not piles["b"] and not discard
        changes = dict(
            hands=tuple(hands),
            pile_a=piles["a"],
            pile_b=piles["b"],
            discard=discard,
            reshuffles=reshuffles,
            ply=state.ply + 1,
            last_move=move,
        )
        if len(hand) < 2 and not exhausted:
            return _derive(state, **changes)
        nxt = _turn_order_next(state)
        return _derive(
            state,
            **changes,
            final_turns=state.players if exhausted else state.final_turns,
            turn_seat=nxt,
            to_move=nxt,
            pending="play",
        )

    def _score(self, state: LppgState, how: Phrase) -> Outcome:
        players = state.players
        entries = state.board.territory_entries()
        sizes: dict[int, int] = {}
        for size, _ in entries:
            sizes[size] = sizes.get(size, 0) + 1
        cancelled = [
            Phrase("lppg.cancel", n=n, count=size) for size, n in sorted(sizes.items()) if n > 1
        ]
        how = _also([how, *cancelled])
        winner = smallest_unique(entries)
        if winner is None:
            return Outcome.said(frozenset(), (0.0,) * players, Phrase("lppg.nobody_wins", how=how))
        size, seat = winner
        if players == 4:
            winners = frozenset({seat % 2, seat % 2 + 2})
            first, second = sorted(winners)
            phrase = Phrase(
                "lppg.team_wins",
                how=how,
                seat=self.seat_phrase(state, first),
                partner=self.seat_phrase(state, second),
                count=size,
            )
        else:
            winners = frozenset({seat})
            phrase = Phrase("lppg.wins", how=how, seat=self.seat_phrase(state, seat), count=size)
        scores = tuple(float(size) if s in winners else 0.0 for s in range(players))
        return Outcome.said(winners, scores, phrase)

    # ----- views, words, storage -------------------------------------------------------------

    def _view(self, state: LppgState, seat: int | None) -> LppgState:
        # Both faces of a card show its colour, so the colours in other hands are public; their
        # patterns are not.
        hands = tuple(
            hand if s == seat else tuple(card_back(card) for card in hand)
            for s, hand in enumerate(state.hands)
        )
        return _derive(
            state,
            hands=hands,
            pile_a=_pile_view(state.pile_a),
            pile_b=_pile_view(state.pile_b),
            discard=(HIDDEN,) * len(state.discard),
        )

    def explain(self, state: LppgState, move: Move) -> Phrase:
        """What the move did, in words, with its consequences: territories opened (their
        marker returned), grown or joined, a region to mark, a third marker ending the game,
        the piles re-formed, the last cards drawn. Only public facts: a drawn card is named by
        its colour (its back), a discarded one not at all. ``state`` may be a view."""
        if isinstance(move, PlayMove):
            return self._explain_place(state, move)
        seat = self.seat_phrase(state, state.turn_seat)
        if isinstance(move, PassMove):
            return Phrase("lppg.pass", seat=seat)
        if isinstance(move, KeepMove):
            owner = state.to_move if state.to_move is not None else state.turn_seat
            others = len(state.keeps[0][1]) - 1 if state.keeps else 1
            return Phrase(
                "lppg.keep",
                seat=self.seat_phrase(state, owner),
                square=_square(move.x, move.y),
                count=max(1, others),
            )
        if isinstance(move, MarkMove):
            return self._explain_mark(state, move, seat)
        if isinstance(move, DrawMove):
            return self._explain_draw(state, move, seat)
        return super().explain(state, move)

    def _after(self, state: LppgState, move: Move) -> LppgState | None:
        try:
            return self.play(state, move)
        except IllegalMove:
            return None

    def _explain_place(self, state: LppgState, move: PlayMove) -> Phrase:
        mover = state.turn_seat
        seat = self.seat_phrase(state, mover)
        hand = state.hands[mover]
        card = hand[move.slot - 1] if 1 <= move.slot <= len(hand) else HIDDEN
        if card >= 0:
            card_phrase = Phrase("lppg.card", card=card_id(card))
        else:
            card_phrase = Phrase("lppg.a_card")
        square = _square(move.x, move.y)
        if move.rot:
            placed = Phrase("lppg.place_turned", seat=seat, card=card_phrase, square=square,
                            rot=move.rot)
        else:
            placed = Phrase("lppg.place", seat=seat, card=card_phrase, square=square)
        after = self._after(state, move)
        if after is None:
            return placed
        consequences = []
        merged = {square for _, squares in after.keeps for square in squares}
        before = {(s, x, y): size for (s, _, x, y), size in zip(
            state.markers, _territory_sizes(state), strict=True)}
        now = {(s, x, y): size for (s, _, x, y), size in zip(
            after.markers, _territory_sizes(after), strict=True)}
        for (owner, x, y), size in before.items():
            whose = self.seat_phrase(state, owner)
            if (owner, x, y) not in now:
                consequences.append(Phrase("lppg.opened", seat=whose, square=_square(x, y)))
            elif (x, y) not in merged and now[(owner, x, y)] > size:
                consequences.append(Phrase("lppg.grew", seat=whose, square=_square(x, y),
                                           count=now[(owner, x, y)]))
        for owner, squares in after.keeps:
            listed = " & ".join(_square(x, y) for x, y in squares)
            consequences.append(
                Phrase("lppg.merged", seat=self.seat_phrase(state, owner), squares=listed)
            )
        if after.pending == "mark":
            comps = after.board.geo.comps
            largest = max(len(comps[c]) for c in after.board.closed_regions)
            consequences.append(Phrase("lppg.to_mark", count=largest))
        return _so(placed, consequences)

    def _explain_mark(self, state: LppgState, move: MarkMove, seat: Phrase) -> Phrase:
        marked = Phrase(f"lppg.mark_{move.kind}", seat=seat, square=_square(move.x, move.y))
        after = self._after(state, move)
        if after is None:
            return marked
        size = next(
            (len(squares) for owner, kind, squares in territories(after)
             if (owner, kind) == (state.turn_seat, move.kind) and (move.x, move.y) in squares),
            0,
        )
        consequences = [Phrase("lppg.territory_of", count=size)] if size else []
        if after.outcome is not None:
            consequences.append(Phrase("lppg.third_marker", seat=seat))
        return _so(marked, consequences)

    def _explain_draw(self, state: LppgState, move: DrawMove, seat: Phrase) -> Phrase:
        if state.edition == 1:  # both cards in one decision: no colour seen in between
            return _also([
                Phrase("lppg.draw_unseen", seat=seat, pile=name.upper()) for name in move.piles
            ])
        said = []
        current = state
        for name in move.piles:
            pile = self._pile(current, name)
            colour = visible_colour(pile[0]) if pile else None
            if colour is None:
                drawn = Phrase("lppg.draw_unseen", seat=seat, pile=name.upper())
            else:
                drawn = Phrase("lppg.draw", seat=seat, pile=name.upper(),
                               colour=Phrase(f"lppg.colour_{colour}"))
            after = self._after(current, DrawMove(name))
            if after is None:
                said.append(drawn)
                break
            consequences = []
            if after.reshuffles > current.reshuffles:
                ran_out = name if len(pile) <= 1 else ("b" if name == "a" else "a")
                other = "b" if ran_out == "a" else "a"
                consequences.append(
                    Phrase("lppg.reformed", pile=ran_out.upper(), other=other.upper())
                )
            if after.final_turns is not None and current.final_turns is None:
                consequences.append(Phrase("lppg.last_cards"))
            said.append(_so(drawn, consequences))
            current = after
        return _also(said)

    def dump(self, state: LppgState) -> dict:
        return {
            "game": self.name,
            "players": state.players,
            "seed": state.seed,
            "to_move": state.to_move,
            "turn_seat": state.turn_seat,
            "pending": state.pending,
            "placed": [[card_id(c), x, y, rot] for c, x, y, rot in state.placed],
            "markers": [[seat, kind, x, y] for seat, kind, x, y in state.markers],
            "hands": [[card_id(c) for c in hand] for hand in state.hands],
            "pile_a": [card_id(c) for c in state.pile_a],
            "pile_b": [card_id(c) for c in state.pile_b],
            "discard": [card_id(c) for c in state.discard],
            "keeps": [[owner, [list(sq) for sq in squares]] for owner, squares in state.keeps],
            "final_turns": state.final_turns,
            "reshuffles": state.reshuffles,
            "ply": state.ply,
            "last_move": None if state.last_move is None else str(state.last_move),
            "outcome": dump_outcome(state.outcome),
            "edition": state.edition,
        }

    def load(self, data: Mapping[str, Any]) -> LppgState:
        last = data.get("last_move")
        return LppgState(
            players=data["players"],
            seed=data["seed"],
            to_move=data["to_move"],
            turn_seat=data["turn_seat"],
            pending=data["pending"],
            placed=tuple((card_from_id(c), x, y, rot) for c, x, y, rot in data["placed"]),
            markers=tuple((seat, kind, x, y) for seat, kind, x, y in data["markers"]),
            hands=tuple(tuple(card_from_id(c) for c in hand) for hand in data["hands"]),
            pile_a=tuple(card_from_id(c) for c in data["pile_a"]),
            pile_b=tuple(card_from_id(c) for c in data["pile_b"]),
            discard=tuple(card_from_id(c) for c in data["discard"]),
            keeps=tuple(
                (owner, tuple((x, y) for x, y in squares)) for owner, squares in data["keeps"]
            ),
            final_turns=data["final_turns"],
            reshuffles=data["reshuffles"],
            ply=data["ply"],
            outcome=load_outcome(data.get("outcome")),
            last_move=None if last is None else self._parse(last, None),
            # Snapshots written before editions existed were all played under the first.
            edition=data.get("edition", 1),
        )


def _first_edition_drawn(state: LppgState, move: DrawMove) -> LppgState:
    """Both draws of a turn under the first edition: each named pile in turn, an empty one
    re-formed (from the discard and the other pile) only when drawn from."""
    piles = {"a": list(state.pile_a), "b": list(state.pile_b)}
    discard = list(state.discard)
    reshuffles = state.reshuffles
    mover = state.turn_seat
    hand = list(state.hands[mover])
    for name in move.piles:
        other = "b" if name == "a" else "a"
        if not piles[name]:
            pool = discard + piles[other]
            rng_for(state.seed, "reshuffle", reshuffles).shuffle(pool)
            reshuffles += 1
            half = (len(pool) + 1) // 2
            piles["a"], piles["b"], discard = pool[:half], pool[half:], []
        if not piles[name]:
            name = other  # only one card was left and it went to pile A
        if piles[name]:
            hand.append(piles[name].pop(0))
    hands = list(state.hands)
    hands[mover] = tuple(hand)
    last_cards = not piles["a"] and not piles["b"] and not discard
    nxt = _turn_order_next(state)
    return _derive(
        state,
        hands=tuple(hands),
        pile_a=tuple(piles["a"]),
        pile_b=tuple(piles["b"]),
        discard=tuple(discard),
        reshuffles=reshuffles,
        final_turns=state.players if last_cards else state.final_turns,
        turn_seat=nxt,
        to_move=nxt,
        pending="play",
        ply=state.ply + 1,
        last_move=move,
    )


def _drawn_one(
    state: LppgState, move: DrawMove, mover: int, pile: tuple[int, ...], other: tuple[int, ...]
) -> LppgState:
    """One card drawn from ``pile`` when both piles keep cards afterwards (no re-forming, not
    the last cards): the common case of ``Lppg._draw``, without its bookkeeping."""
    hand = (*state.hands[mover], pile[0])
    hands = list(state.hands)
    hands[mover] = hand
    rest = pile[1:]
    pile_a, pile_b = (rest, other) if move.pile == "a" else (other, rest)
    if len(hand) < 2:
        return _derive(
            state, hands=tuple(hands), pile_a=pile_a, pile_b=pile_b, ply=state.ply + 1,
            last_move=move,
        )
    nxt = _turn_order_next(state)
    return _derive(
        state, hands=tuple(hands), pile_a=pile_a, pile_b=pile_b, ply=state.ply + 1,
        last_move=move, turn_seat=nxt, to_move=nxt, pending="play",
    )


def _territory_sizes(state: LppgState) -> list[int]:
    """The size of the territory under each marker, in marker order."""
    geo = state.geometry
    return [len(geo.comps[geo.comp_of[_key(x, y)]]) for _, _, x, y in state.markers]


def _pile_view(pile: tuple[int, ...]) -> tuple[int, ...]:
    """A draw pile as everyone sees it: its size and the colour of its top card."""
    if not pile:
        return ()
    return (card_back(pile[0]), *((HIDDEN,) * (len(pile) - 1)))


def _parse_deck(deck: Any) -> tuple[int, ...]:
    if isinstance(deck, str):
        deck = deck.replace(",", " ").split()
    if not isinstance(deck, Sequence) or isinstance(deck, str | bytes):
        raise ValueError("option deck must be the 76 card ids in dealing order")
    try:
        cards = tuple(card_from_id(str(c)) for c in deck)
    except ValueError as error:
        raise ValueError(f"option deck: {error}") from None
    if any(c < 0 for c in cards) or sorted(cards) != list(range(DECK_SIZE)):
        raise ValueError("option deck must list each of the 76 cards exactly once")
    return cards


# ----- match ("Tournoi") -------------------------------------------------------------------------


@dataclass(frozen=True)
class LppgMatch:
    """A match of several rounds (the seed's "Tournoi"), as a pure value.

    ``participants`` are the players in match order (4 players: participants 0 and 2 form a
    team against 1 and 3). Every game starts with seat 0, so the first seat rotates by seating
    participants differently: in round ``r`` seat ``s`` is ``participants[(s + r) % n]``. This
    keeps partners opposite each other. The winner of a round scores the size of the winning
    territory (in 4-player matches both partners); the first side with ``target`` points at
    the end of a round wins the match.
    """

    participants: tuple[Any, ...]
    target: int = 10
    #: Outcomes of the finished rounds, in order.
    rounds: tuple[Outcome, ...] = ()

    def __post_init__(self) -> None:
        if len(self.participants) not in (2, 4):
            raise ValueError("an LPPG match has 2 or 4 participants")

    def seating(self, round_index: int | None = None) -> tuple[Any, ...]:
        """Who sits in each seat in a round (by default the next one)."""
        r = len(self.rounds) if round_index is None else round_index
        n = len(self.participants)
        return tuple(self.participants[(s + r) % n] for s in range(n))

    def record(self, outcome: Outcome) -> LppgMatch:
        """The match after the next round ended with ``outcome``."""
        if self.finished:
            raise ValueError("the match is already over")
        return dataclasses.replace(self, rounds=(*self.rounds, outcome))

    def points(self) -> dict[Any, int]:
        totals = {p: 0 for p in self.participants}
        for r, outcome in enumerate(self.rounds):
            seating = self.seating(r)
            for seat in outcome.winners:
                totals[seating[seat]] += int(outcome.scores[seat])
        return totals

    @property
    def finished(self) -> bool:
        return self.winners is not None

    @property
    def winners(self) -> frozenset[Any] | None:
        """The winning participant (or team) once someone has ``target`` points."""
        points = self.points()
        best = max(points.values())
        if best < self.target:
            return None
        return frozenset(p for p, v in points.items() if v == best)


GAME = register(Lppg())
