"""Board images with Pillow (docs/architecture.md). Imports engines only.

    render.board("alak", state, viewer=None, last_move=None, players=["Ann", "Bob"])  # PNG bytes
    render.board("lppg", state, lang="fr", status="…", clock="…")   # French, caller's texts
    render.hand("lppg", state, seat)                                                 # PNG bytes
    render.replay("alak", states, players=[...])                                      # GIF bytes
    render.board_with_hits("palago", state, viewer=seat)     # (PNG bytes, HitMap) for clicks
    render.split_move("palago", "0,0/1 1,0/2")               # ["0,0", "/1", "1,0", "/2"]

Each game draws in its own module ``render/<game>.py`` (loaded on first use) over the shared
primitives. Every image is drawn from ``engines.get(game).view(state, viewer)``, never from the
state the caller passes, so a caller handing over a full state cannot leak a hidden hand (on a
state that is already a view, this changes nothing).

Speed: what does not change between moves (a board's wood and labels, grid guides, legends,
pieces per size and theme, texts) is drawn once and cached; a move costs pastes of those pieces
at the final size, a lookup into the game's fixed palette and a fast PNG encoding.
"""

from __future__ import annotations

import importlib
import io
import random
from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import Any

from PIL import Image

import engines
from engines.core import IllegalMove, Move
from render.hitmap import HitMap, Region, button_parts, join_move, split_move, together
from render.options import Options
from render.surface import PALETTE_SIZE, WIDTH, fixed_palette, png_bytes, to_palette
from render.theme import Theme, get_theme
from render.words import words

__all__ = ["HitMap", "Options", "Region", "board", "board_image", "board_with_hits",
           "button_parts", "choices", "hand", "hand_with_hits", "hits", "join_move", "palette",
           "replay", "split_move", "supported_games", "together", "warm_up"]


def _module(game_name: str) -> ModuleType:
    name = engines.get(game_name).name
    return importlib.import_module(f"render.{name}")


def has_hands(game_name: str) -> bool:
    """Whether the game deals its players cards of their own (``hand`` draws them)."""
    return hasattr(_module(game_name), "draw_hand")


def supported_games() -> list[str]:
    """Registered games that have a drawing module."""
    found = []
    for name in engines.GAMES:
        try:
            _module(name)
        except ModuleNotFoundError:
            continue
        found.append(name)
    return found


def _resolve_last_move(game: engines.Game, state: Any, last_move: Move | str | None) -> Move | None:
    if last_move is None:
        last_move = getattr(state, "last_move", None)
    if isinstance(last_move, str):
        try:
            last_move = game.parse_move(last_move, state)
        except IllegalMove:
            return None  # a caller's stale text is not worth failing the whole image for
    return last_move


def _seen(game: engines.Game, module: ModuleType, state: Any, viewer: int | None) -> Any:
    """What ``viewer`` may see: a module may refine the engine's view (see ``render.lppg``)."""
    refine = getattr(module, "public_view", None)
    return refine(game, state, viewer) if refine else game.view(state, viewer)


def board_image(
    game_name: str,
    state: Any,
    *,
    viewer: int | None = None,
    last_move: Move | str | None = None,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
    lang: str = "en",
    status: str | None = None,
    clock: str | None = None,
    extent: Any = None,
    for_replay: bool = False,
) -> Image.Image:
    """The board as an RGB Pillow image (``board`` encodes it); see ``board``."""
    game = engines.get(game_name)
    module = _module(game.name)
    return _draw(
        game, module, _seen(game, module, state, viewer), viewer=viewer, last_move=last_move,
        players=players, theme=theme, lang=lang, status=status, clock=clock, extent=extent,
        for_replay=for_replay,
    )


def _draw(
    game: engines.Game,
    module: ModuleType,
    seen: Any,
    *,
    viewer: int | None,
    last_move: Move | str | None,
    players: Sequence[str] | None,
    theme: str | Theme,
    lang: str,
    status: str | None = None,
    clock: str | None = None,
    extent: Any = None,
    for_replay: bool = False,
) -> Image.Image:
    """``board_image`` of a state that is already what ``viewer`` may see (``_seen``)."""
    options = _options(game, seen, viewer=viewer, last_move=last_move, players=players,
                       theme=theme, lang=lang, status=status, clock=clock, extent=extent,
                       for_replay=for_replay)
    return module.draw(game, seen, options)


def _options(
    game: engines.Game,
    seen: Any,
    *,
    viewer: int | None,
    last_move: Move | str | None,
    players: Sequence[str] | None,
    theme: str | Theme,
    lang: str,
    status: str | None = None,
    clock: str | None = None,
    extent: Any = None,
    for_replay: bool = False,
) -> Options:
    return Options(
        theme=get_theme(theme),
        players=tuple(players) if players else None,
        last_move=_resolve_last_move(game, seen, last_move),
        extent=extent,
        viewer=viewer,
        replay=for_replay,
        words=words(lang),
        status=status,
        clock=clock,
    )


def board(
    game_name: str,
    state: Any,
    *,
    viewer: int | None = None,
    last_move: Move | str | None = None,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
    lang: str = "en",
    status: str | None = None,
    clock: str | None = None,
) -> bytes:
    """PNG of the board as ``viewer`` (a seat, or None for everyone) may see it.

    ``last_move`` defaults to the state's own last-move field; ``players`` are display names per
    seat (seat names are used when absent). ``lang`` ("en", "fr"; a tag such as "fr-FR" works)
    chooses the language of every word on the image. ``status``, already translated, replaces
    the sentence saying whose turn it is or who won (an empty one keeps it); lines after a
    newline are written under it (the reason of the result). ``clock`` is a line about the
    time control ("due Mon 14:00 UTC · bank 2d 4h") written under the headline."""
    image = board_image(
        game_name, state, viewer=viewer, last_move=last_move, players=players, theme=theme,
        lang=lang, status=status, clock=clock,
    )
    return png_bytes(image, palette(game_name, theme))


# -- hit maps: what a click on an image adds to a move (``render.hitmap``) ----------------------


def _clicker(seen: Any, viewer: int | None) -> bool:
    """Whether ``viewer`` may click: only the seat to move gets regions (its moves' notation,
    such as Palam's column letters, is written from its side)."""
    return viewer is not None and seen.outcome is None and seen.to_move == viewer


def board_with_hits(
    game_name: str,
    state: Any,
    *,
    viewer: int | None = None,
    last_move: Move | str | None = None,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
    lang: str = "en",
    status: str | None = None,
    clock: str | None = None,
) -> tuple[bytes, HitMap]:
    """``board`` and its hit map: the regions ``viewer`` may click on that very image (none
    unless ``viewer`` is the seat to move). See ``render.hitmap`` for what each region adds."""
    game = engines.get(game_name)
    module = _module(game.name)
    seen = _seen(game, module, state, viewer)
    options = _options(game, seen, viewer=viewer, last_move=last_move, players=players,
                       theme=theme, lang=lang, status=status, clock=clock)
    image = module.draw(game, seen, options)
    regions = module.hit_regions(game, seen, options) if _clicker(seen, viewer) else []
    return (png_bytes(image, palette(game_name, theme)),
            HitMap(image.width, image.height, tuple(regions)))


def hits(
    game_name: str,
    state: Any,
    *,
    viewer: int | None = None,
    last_move: Move | str | None = None,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
    lang: str = "en",
    status: str | None = None,
    clock: str | None = None,
) -> HitMap:
    """The hit map of the image ``board`` draws with the same arguments, without drawing it."""
    game = engines.get(game_name)
    module = _module(game.name)
    seen = _seen(game, module, state, viewer)
    options = _options(game, seen, viewer=viewer, last_move=last_move, players=players,
                       theme=theme, lang=lang, status=status, clock=clock)
    regions = module.hit_regions(game, seen, options) if _clicker(seen, viewer) else []
    return HitMap(WIDTH, module.image_height(game, seen, options), tuple(regions))


def hand_with_hits(
    game_name: str,
    state: Any,
    seat: int,
    *,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
    lang: str = "en",
) -> tuple[bytes, HitMap]:
    """``hand`` and its hit map: each card (``play 1``) and, after it, each of its turned
    copies (``90``), while ``seat`` is to move; card faces never enter the map."""
    game = engines.get(game_name)
    module = _module(game.name)
    if not hasattr(module, "draw_hand"):
        raise ValueError(f"{game.title} has no hidden hand to show")
    seen = _seen(game, module, state, seat)
    options = Options(theme=get_theme(theme), players=tuple(players) if players else None,
                      viewer=seat, words=words(lang))
    image = module.draw_hand(game, seen, seat, options)
    regions = module.hand_regions(game, seen, seat, options) if _clicker(seen, seat) else []
    return (png_bytes(image, palette(game_name, theme)),
            HitMap(image.width, image.height, tuple(regions)))


def choices(
    game_name: str,
    state: Any,
    viewer: int | None,
    *,
    theme: str | Theme = "dark",
    lang: str = "en",
) -> tuple[bytes, HitMap] | None:
    """A strip of the picks that are on no image (LPPG's marker kinds), with its hit map, or
    None when ``viewer`` has no such pick to make now."""
    game = engines.get(game_name)
    module = _module(game.name)
    draw_choices = getattr(module, "draw_choices", None)
    seen = _seen(game, module, state, viewer)
    if draw_choices is None or not _clicker(seen, viewer):
        return None
    drawn = draw_choices(game, seen, viewer, Options(theme=get_theme(theme), viewer=viewer,
                                                     words=words(lang)))
    if drawn is None:
        return None
    image, regions = drawn
    return (png_bytes(image, palette(game_name, theme)),
            HitMap(image.width, image.height, tuple(regions)))


def hand(
    game_name: str,
    state: Any,
    seat: int,
    *,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
    lang: str = "en",
) -> bytes:
    """PNG of one seat's private cards (LPPG), for an ephemeral message to that seat only."""
    game = engines.get(game_name)
    module = _module(game.name)
    draw_hand = getattr(module, "draw_hand", None)
    if draw_hand is None:
        raise ValueError(f"{game.title} has no hidden hand to show")
    seen = _seen(game, module, state, seat)
    options = Options(theme=get_theme(theme), players=tuple(players) if players else None,
                      viewer=seat, words=words(lang))
    return png_bytes(draw_hand(game, seen, seat, options), palette(game_name, theme))


# -- the fixed palette of a game -------------------------------------------------------------

SAMPLE_SEED = 0
SAMPLE_MAX_PLIES = 400


@lru_cache(maxsize=8)
def _sample_states(game_name: str) -> tuple[Any, ...]:
    """Positions of one seeded random game at the most players: the start, two positions in
    between and the end (every piece colour, highlight and result shows in one of them)."""
    game = engines.get(game_name)
    rng = random.Random(SAMPLE_SEED)
    state = game.new(max(game.allowed_player_counts()), seed=SAMPLE_SEED)
    states = [state]
    while state.to_move is not None and len(states) < SAMPLE_MAX_PLIES:
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
        states.append(state)
    count = len(states)
    return tuple(states[i] for i in sorted({0, count // 3, 2 * count // 3, count - 1}))


@lru_cache(maxsize=16)
def _palette(game_name: str, theme: Theme) -> Image.Image:
    game = engines.get(game_name)
    module = _module(game.name)
    samples = [board_image(game.name, state, theme=theme) for state in _sample_states(game.name)]
    # The background first: index 0, which replays pad their frames with.
    keys = [theme.background, theme.panel, theme.text, theme.muted, theme.accent,
            theme.highlight, theme.line, theme.empty, theme.wood, theme.wood_line,
            *module.palette_keys(theme)]
    return fixed_palette(samples, keys)


def palette(game_name: str, theme: str | Theme = "dark") -> Image.Image:
    """The fixed palette every image of a game in a theme is mapped onto: the game's named
    colours exactly, the rest from sample images of a seeded game (built on first use)."""
    return _palette(engines.get(game_name).name, get_theme(theme))


def warm_up(game_name: str, theme: str | Theme = "dark") -> None:
    """Build now what the game's first board would build while a player waits (0.1 to 0.3 s):
    its palette, and the cached layers and pieces of its boards at every player count. The
    bot runs this in a thread for each game when it starts."""
    game = engines.get(game_name)
    colours = palette(game.name, theme)
    for players in game.allowed_player_counts():
        png_bytes(board_image(game.name, game.new(players, seed=SAMPLE_SEED), theme=theme),
                  colours)


# -- replays ---------------------------------------------------------------------------------

# A replay frame stays this long; the final position stays longer so the result can be read.
FRAME_MS = 700
LAST_FRAME_MS = 4000
MAX_FRAMES = 150  # a long Polygo game is sampled down to this many frames
UNCHANGED = PALETTE_SIZE  # the palette index (unused by images) of "as in the previous frame"


def replay(
    game_name: str,
    states: Sequence[Any],
    players: Sequence[str] | None = None,
    *,
    theme: str | Theme = "dark",
    lang: str = "en",
) -> bytes:
    """Animated GIF of a whole game, one frame per state, as a spectator sees it.

    Frames are composed from the same cached pieces as board images and mapped onto the game's
    fixed palette, so a frame costs about what a board does. Unbounded boards use the area of
    the whole game for every frame so the picture does not jump. States whose spectator image
    does not change (e.g. an LPPG draw seen from outside) are merged into one frame, and very
    long games are sampled down to ``MAX_FRAMES``."""
    if not states:
        raise ValueError("a replay needs at least one state")
    game = engines.get(game_name)
    module = _module(game.name)
    # Each state is seen once: the extent and the frame share the view (and what a view
    # caches, such as an LPPG board's regions).
    views = [_seen(game, module, s, None) for s in states]
    extent = module.extent(views) if hasattr(module, "extent") else None
    picked = views
    if len(picked) > MAX_FRAMES:
        step = (len(picked) - 1) / (MAX_FRAMES - 1)
        picked = [picked[round(i * step)] for i in range(MAX_FRAMES)]
    colours = palette(game.name, theme)
    frames: list[Image.Image] = []
    durations: list[int] = []
    previous_bytes = b""
    for seen in picked:
        # Each frame goes to the palette at once (a quarter of the memory of an RGB frame).
        frame = _draw(game, module, seen, viewer=None, last_move=None, players=players,
                      theme=theme, lang=lang, extent=extent, for_replay=True)
        paletted = to_palette(frame, colours)
        raw = paletted.tobytes()
        if raw == previous_bytes:
            durations[-1] += FRAME_MS
            continue
        frames.append(paletted)
        durations.append(FRAME_MS)
        previous_bytes = raw
    # The final frame may be taller (the result is written in the header): the others are
    # extended at the bottom with palette index 0, the theme's background (``_palette``).
    height = max(frame.height for frame in frames)
    frames = [frame if frame.height == height else frame.crop((0, 0, frame.width, height))
              for frame in frames]
    durations[-1] = LAST_FRAME_MS
    buffer = io.BytesIO()
    # With ``optimize`` and a transparent index, Pillow writes each frame as the box around
    # what changed since the previous one, the unchanged pixels in that box transparent
    # (``disposal=1`` keeps the previous frame under it), which LZW packs into almost nothing.
    frames[0].save(
        buffer, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
        optimize=True, disposal=1, transparency=UNCHANGED,
    )
    return buffer.getvalue()
