"""Pictures for the rule texts: small example positions built with the engines, drawn by render.

A diagram is a recipe (game options and the moves that lead to the position) rather than a
stored image, so it always shows what the current engine and renderer make of the rules. No
discord.py here: the cog calls ``png`` off the event loop and attaches the bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import engines


@dataclass(frozen=True)
class Recipe:
    """How to reach the example position: a fresh game, then ``moves`` in order."""

    game: str
    key: str
    moves: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    players: int = 2
    seed: int = 1


def _lppg_deck() -> tuple[str, ...]:
    """A dealing order whose two terrain cards wall in a white region in the middle: card 0 has
    pattern 5 (white square at row 1, column 1, i.e. square 1,1) and card 1 has pattern 2 (white
    square at row 0, column 1, i.e. square 1,2). Every other card follows in id order."""
    first = ("R5", "B2")
    every = tuple(f"{colour}{n}" for colour in "RBGY" for n in range(1, 20))
    return first + tuple(card for card in every if card not in first)


_ALL = (
    # The opening pair: two tiles, so both colours' arches and tips are visible.
    Recipe("palago", "tile", ("0,0/1 1,0/2",)),
    # Found by searching the seven cells round 0,0: Blue's lone last tile closes a blue
    # creature (a single tile is legal because it ends the game).
    Recipe(
        "palago",
        "creature",
        ("0,0/1 1,0/1", "1,-1/0 0,-1/0", "-1,0/0 -1,1/2", "0,1/1"),
    ),
    # Black fences White's centre stone with two stones and four walls and captures it.
    Recipe("polygo", "walls", ("j9 i10 j8", "i9", "h9 h10 i8")),
    # The seat the toss picked takes Isis's camp, so Anubis makes the first move: an attack,
    # one piece waiting on the duel row between the even and odd ends.
    Recipe("palam", "duel", ("camp isis", "c")),
    # The closed region 1,1-1,2 is claimed with an ordinary marker after a first card.
    Recipe("lppg", "territory", ("play 1 -2,-1 0", "mark o 1,1"), {"deck": _lppg_deck()}),
    # Four cards each cover one white square; the fifth covers one square of each of them.
    Recipe("kolory", "overlap", ("1,1", "-1,-1", "1,-1", "-1,1", "0,0")),
)
RECIPES: dict[tuple[str, str], Recipe] = {(r.game, r.key): r for r in _ALL}

#: Which picture illustrates which section (sections without one are text only).
SECTION_DIAGRAMS: dict[tuple[str, str], str] = {
    ("palago", "overview"): "creature",
    ("palago", "setup"): "tile",
    ("palago", "turn"): "tile",
    ("palago", "special"): "creature",
    ("palago", "end"): "creature",
    ("polygo", "overview"): "walls",
    ("polygo", "turn"): "walls",
    ("polygo", "special"): "walls",
    ("palam", "overview"): "duel",
    ("palam", "special"): "duel",
    ("lppg", "overview"): "territory",
    ("lppg", "turn"): "territory",
    ("lppg", "end"): "territory",
    ("kolory", "overview"): "overlap",
    ("kolory", "turn"): "overlap",
    ("kolory", "special"): "overlap",
}


def diagram_key(game: str, section_id: str) -> str | None:
    """The picture for a section, or ``None`` when words are enough."""
    return SECTION_DIAGRAMS.get((game, section_id))


def available(game: str, key: str) -> bool:
    """Whether the engine and renderer needed for this picture are installed."""
    if game not in engines.GAMES or (game, key) not in RECIPES:
        return False
    try:
        import render

        return game in render.supported_games()
    except (ImportError, AttributeError):
        return False


def position(game: str, key: str) -> Any:
    """The example position of a picture (raises ``engines.IllegalMove`` if the engine no
    longer accepts the recipe: a test catches that)."""
    recipe = RECIPES[(game, key)]
    engine = engines.get(game)
    state = engine.new(recipe.players, seed=recipe.seed, options=dict(recipe.options))
    for move in recipe.moves:
        state = engine.play(state, move)
    return state


@cache
def png(game: str, key: str, lang: str = "en") -> bytes:
    """The picture as PNG bytes, its words in ``lang`` (slow the first time: call it off the
    event loop)."""
    import render

    state = position(game, key)
    return render.board(game, state, lang=lang)


def filename(game: str, key: str) -> str:
    return f"rules-{game}-{key}.png"
