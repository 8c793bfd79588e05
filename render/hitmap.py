"""Hit maps: where a click on a board image picks part of a move, and how a move's canonical
text splits into those picks.

A web page shows the bot's own image and lays the regions of its ``HitMap`` over it; it never
draws a game itself. A move is built by clicks, one pick at a time, in notation order: the
page holds the legal moves' texts split by ``split_move``, offers the parts that can come
next after the picks so far, and makes active the regions whose ``part`` is among them (and
whose ``after``, when set, has been picked). A part no region carries (``pass``, ``accept``)
is offered as a button bearing its text. When the picks equal a legal move's parts, that move
is chosen (``join_move`` gives its text back); a move that is the beginning of a longer one
(Polygo's stone without a wall, Palago's game-ending single tile) is offered as "done".

The maps come with their images: ``render.board_with_hits`` (the board), ``hand_with_hits``
(LPPG: a seat's own cards) and ``choices`` (LPPG: the kinds of marker left, which no other
image shows). Only the seat to move gets regions, named from its side. A map holds what can
be clicked whatever the rules say now (every square of LPPG's view, every Polygo cell): the
legal moves decide which of them the page makes active, so a map never needs the move list.

How moves split, per game (each part is exactly the text it adds):

- Alak: the point, ``f``.
- Kolory: the card's top-left square, ``2,-1``; its region is one square centred where the
  card's centre goes (the corner its four squares share).
- Palago: cell, orientation, cell, orientation: ``0,0/1 1,0/2`` -> ``0,0`` ``/1`` ``1,0``
  ``/2`` (an orientation attaches to its cell without a space). Orientations are the three
  tiles of the board's legend.
- Polygo: the stone, then each wall: ``i9 h9 j8`` -> ``i9`` ``h9`` ``j8``. In the scoring
  phase a whole group is one region: ``dead a13`` on every stone of the group the engine names
  by ``a13``. The groups that may be marked dead are toggled (``together``: the legal ``dead``
  moves, in the order a move names them), and Play sends the one move naming every group
  chosen, ``dead a13 k7``; ``alive a13`` is a single pick; ``pass``, ``accept`` and ``resume``
  are buttons.
- Palam: ``camp isis`` (the camp's band); an attack or answer ``c`` (the duel-row spot in
  front of the mover's column c, where the piece goes); a swap ``b1 e2`` -> ``b1`` ``e2``
  (cells of the mover's camp, named from the mover's own left); a draft pick ``A5 b2`` ->
  ``A5`` (the revealed piece) ``b2``.
- LPPG: ``play 1 -2,-1 90`` -> ``play 1`` (a card of the hand image) ``-2,-1`` (the top-left
  square of the card's box) ``90`` (a turned card of the hand image, ``after`` ``play 1``);
  ``draw a`` (a pile); ``mark o 1,2`` -> ``mark o`` (a marker of ``render.choices``) ``1,2``
  (every square of the region the engine names by ``1,2``); ``keep 3,1`` (the marker); ``pass``
  is a button.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import orjson

from render.primitives import Extent, GridView

Polygon = tuple[tuple[int, int], ...]


class Region(NamedTuple):
    """One clickable area of an image (an immutable value)."""

    #: What is clicked: "point", "cell", "orientation", "place", "region", "group", "marker",
    #: "pile", "card", "rotation", "column", "camp", "piece".
    kind: str
    #: The exact piece of canonical notation a click adds (a part of ``split_move``).
    part: str
    #: The outline in image pixels, corners in order.
    polygon: Polygon
    #: When not empty, the region is offered only once this part was picked earlier in the
    #: same move (a hand's turned cards follow the pick of their own card).
    after: str = ""

    @property
    def centre(self) -> tuple[float, float]:
        """The mean of the corners (inside the polygon: every region is convex)."""
        xs = [x for x, _ in self.polygon]
        ys = [y for _, y in self.polygon]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    @property
    def box(self) -> tuple[int, int, int, int]:
        xs = [x for x, _ in self.polygon]
        ys = [y for _, y in self.polygon]
        return (min(xs), min(ys), max(xs), max(ys))


#: The order of a region's fields in JSON, where each region is an array (a board may have
#: hundreds of regions: arrays are written several times faster than objects, and smaller).
JSON_FIELDS = Region._fields


@dataclass(frozen=True, slots=True)
class HitMap:
    """The regions of an image ``width`` × ``height`` pixels."""

    width: int
    height: int
    regions: tuple[Region, ...] = ()

    def parts(self) -> frozenset[str]:
        return frozenset(region.part for region in self.regions)

    def find(self, part: str, picks: Sequence[str] = ()) -> list[Region]:
        """The regions a page makes active for ``part`` after ``picks``."""
        return [r for r in self.regions
                if r.part == part and (not r.after or r.after in picks)]

    def to_json(self) -> str:
        """``{"width": 800, "height": 750, "fields": ["kind", "part", "polygon", "after"],
        "regions": [["cell", "2,-1", [[x, y], ...], ""], ...]}``"""
        return orjson.dumps(
            {"width": self.width, "height": self.height, "fields": JSON_FIELDS,
             "regions": self.regions},
            option=orjson.OPT_PASSTHROUGH_SUBCLASS, default=tuple,
        ).decode()

    @classmethod
    def from_json(cls, text: str | bytes) -> HitMap:
        data = orjson.loads(text)
        fields = data["fields"]
        regions = []
        for values in data["regions"]:
            named = dict(zip(fields, values, strict=True))
            regions.append(Region(named["kind"], named["part"],
                                  tuple((int(x), int(y)) for x, y in named["polygon"]),
                                  named.get("after", "")))
        return cls(int(data["width"]), int(data["height"]), tuple(regions))


def rectangle(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    """A box's corners clockwise from the top-left, rounded to whole pixels."""
    left, top, right, bottom = round(x0), round(y0), round(x1), round(y1)
    return ((left, top), (right, top), (right, bottom), (left, bottom))


def square_regions(kind: str, view: GridView, squares: Extent, shift: int = 0
                   ) -> list[Region]:
    """A region per square of ``squares`` (an inclusive box of squares) on a grid ``view``,
    named ``x,y``, row by row; ``shift`` moves every one right and down by that many pixels
    (Kolory centres a card's region on the corner its squares share).

    An LPPG view holds hundreds of squares, made again whenever the view changes: squares
    are whole pixels, so corners are integers made once per grid point and shared by the
    squares around it, names are two cached halves, and each region is a plain tuple made
    a ``Region`` without the named tuple's checks."""
    x0, y0, x1, y1 = squares
    cell = view.cell
    left = view.left + (x0 - view.extent[0]) * cell + shift
    top = view.top + (y0 - view.extent[1]) * cell + shift
    xs = [left + i * cell for i in range(x1 - x0 + 2)]
    firsts = [f"{x}," for x in range(x0, x1 + 1)]
    make = tuple.__new__
    regions = []
    upper = [(px, top) for px in xs]
    for y in range(y0, y1 + 1):
        top += cell
        lower = [(px, top) for px in xs]
        second = str(y)
        for i, first in enumerate(firsts):
            regions.append(make(Region, (kind, first + second,
                                         (upper[i], upper[i + 1], lower[i + 1], lower[i]), "")))
        upper = lower
    return regions


def polygon(points: Iterable[tuple[float, float]]) -> Polygon:
    return tuple((round(x), round(y)) for x, y in points)


# -- notation into picks ----------------------------------------------------------------------

#: Words that are a move's first token and make one pick with the token after them.
_KEYWORDS: dict[str, frozenset[str]] = {
    "polygo": frozenset({"dead", "alive"}),
    "palam": frozenset({"camp"}),
    "lppg": frozenset({"play", "draw", "mark", "keep"}),
}

#: Whole moves that are a word, offered as buttons (nothing on an image to click).
BUTTONS: dict[str, frozenset[str]] = {
    "polygo": frozenset({"pass", "accept", "resume"}),
    "lppg": frozenset({"pass"}),
}


#: Words whose legal moves, one region each, may be chosen together into one move naming them
#: all: Polygo's ``dead`` (every group it names is a live one; marking several at once is as
#: legal as marking each).
TOGETHER: dict[str, str] = {"polygo": "dead"}


def together(game_name: str, legal: Iterable[str]) -> dict[str, object] | None:
    """The legal moves a page may toggle and send as one (``{"word": "dead", "parts": [...]}``),
    or None where there are none. The parts are in the order the move names them: the engine
    lists each group by its first cell in the board's cell order, the order in which it writes
    the cells of a ``dead`` move, so the chosen parts joined in this order are canonical."""
    word = TOGETHER.get(game_name)
    if word is None:
        return None
    parts = [move for move in legal if move.startswith(word + " ") and move.count(" ") == 1]
    return {"word": word, "parts": parts} if parts else None


def button_parts(game_name: str) -> frozenset[str]:
    """The parts of ``game_name`` that no region carries: the page shows them as buttons."""
    return BUTTONS.get(game_name, frozenset())


def split_move(game_name: str, text: str) -> list[str]:
    """The picks of a move, in notation order (see the module's docstring per game):
    ``join_move(split_move(game, text)) == text`` for canonical text."""
    tokens = text.split(" ")
    parts: list[str] = []
    if tokens and tokens[0] in _KEYWORDS.get(game_name, ()) and len(tokens) > 1:
        parts.append(f"{tokens[0]} {tokens[1]}")
        tokens = tokens[2:]
    for token in tokens:
        if game_name == "palago" and "/" in token:
            cell, orientation = token.split("/", 1)
            parts += [cell, "/" + orientation]
        else:
            parts.append(token)
    return parts


def join_move(parts: Sequence[str]) -> str:
    """The move's text from its picks: a space between parts, none before an orientation."""
    text = ""
    for part in parts:
        text += part if not text or part.startswith("/") else " " + part
    return text
