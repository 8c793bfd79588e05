"""Board images with Pillow (DESIGN.md §4). Imports engines only.

    render.board("alak", state, viewer=None, last_move=None, players=["Ann", "Bob"])  # PNG bytes
    render.hand("lppg", state, seat)                                                 # PNG bytes
    render.replay("alak", states, players=[...])                                      # GIF bytes

Each game draws in its own module ``render/<game>.py`` (loaded on first use) over the shared
primitives. Every image is drawn from ``engines.get(game).view(state, viewer)``, never from the
state the caller passes, so a caller handing over a full state cannot leak a hidden hand.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from PIL import Image, ImageChops

import engines
from engines.core import IllegalMove, Move
from render.primitives import png_bytes
from render.theme import Theme, get_theme

__all__ = ["Options", "board", "board_image", "hand", "replay", "supported_games"]


@dataclass(frozen=True)
class Options:
    """What a game module needs besides the state."""

    theme: Theme
    players: tuple[str, ...] | None = None
    last_move: Move | None = None
    #: Supersampling factor: 2 for smooth PNGs, 1 for GIF frames.
    ss: int = 2
    #: For unbounded boards in a replay: the grid area every frame shows (module-specific).
    extent: Any = None
    #: The seat the image is drawn for (None = a spectator); only changes what is labelled.
    viewer: int | None = None
    #: A replay frame: leave out what only helps typing a move (e.g. Polygo's cell names), which
    #: also keeps the GIF small.
    replay: bool = False


def _module(game_name: str) -> ModuleType:
    name = engines.get(game_name).name
    return importlib.import_module(f"render.{name}")


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


def board_image(
    game_name: str,
    state: Any,
    *,
    viewer: int | None = None,
    last_move: Move | str | None = None,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
    ss: int = 2,
    extent: Any = None,
    for_replay: bool = False,
) -> Image.Image:
    """The board as a Pillow image (``board`` encodes it); see ``board``."""
    game = engines.get(game_name)
    seen = game.view(state, viewer)
    options = Options(
        theme=get_theme(theme),
        players=tuple(players) if players else None,
        last_move=_resolve_last_move(game, seen, last_move),
        ss=ss,
        extent=extent,
        viewer=viewer,
        replay=for_replay,
    )
    return _module(game.name).draw(game, seen, options)


def board(
    game_name: str,
    state: Any,
    *,
    viewer: int | None = None,
    last_move: Move | str | None = None,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
) -> bytes:
    """PNG of the board as ``viewer`` (a seat, or None for everyone) may see it.

    ``last_move`` defaults to the state's own last-move field; ``players`` are display names per
    seat (seat names are used when absent)."""
    image = board_image(
        game_name, state, viewer=viewer, last_move=last_move, players=players, theme=theme
    )
    return png_bytes(image)


def hand(
    game_name: str,
    state: Any,
    seat: int,
    *,
    players: Sequence[str] | None = None,
    theme: str | Theme = "dark",
) -> bytes:
    """PNG of one seat's private cards (LPPG), for an ephemeral message to that seat only."""
    game = engines.get(game_name)
    module = _module(game.name)
    draw_hand = getattr(module, "draw_hand", None)
    if draw_hand is None:
        raise ValueError(f"{game.title} has no hidden hand to show")
    seen = game.view(state, seat)
    options = Options(theme=get_theme(theme), players=tuple(players) if players else None,
                      viewer=seat)
    return png_bytes(draw_hand(game, seen, seat, options))


# A replay frame stays this long; the final position stays longer so the result can be read.
FRAME_MS = 700
LAST_FRAME_MS = 4000
MAX_FRAMES = 150  # ~11 ms a frame: a long Polygo game stays within the 2 s replay budget
UNCHANGED = 255  # the palette index of a pixel that shows the previous frame


def _changes_only(previous: Image.Image, current: Image.Image, raw: bytes) -> Image.Image:
    """``current`` with every pixel equal to ``previous`` made transparent: a frame then
    carries only what moved (a stone, the turn marker), which LZW packs into almost nothing."""
    size = current.size
    before = Image.frombytes("L", size, previous.tobytes())
    after = Image.frombytes("L", size, raw)
    frame = Image.new("P", size, UNCHANGED)
    frame.putpalette(current.getpalette())
    box = ImageChops.difference(before, after).getbbox()
    if box is None:
        return frame
    # Only the box around the changes needs the pixel-by-pixel comparison.
    changed = ImageChops.difference(before.crop(box), after.crop(box)).point(
        lambda v: 255 if v else 0
    )
    frame.paste(current.crop(box), box[:2], changed)
    return frame


def replay(
    game_name: str,
    states: Sequence[Any],
    players: Sequence[str] | None = None,
    *,
    theme: str | Theme = "dark",
) -> bytes:
    """Animated GIF of a whole game, one frame per state, as a spectator sees it.

    Frames are drawn without supersampling and share one palette (taken from the final position,
    which holds the most pieces), so encoding stays fast and small. Unbounded boards use the
    area of the final position for every frame so the picture does not jump. States whose
    spectator image does not change (e.g. an LPPG draw seen from outside) are merged into one
    frame, and very long games are sampled down to ``MAX_FRAMES``."""
    if not states:
        raise ValueError("a replay needs at least one state")
    game = engines.get(game_name)
    module = _module(game.name)
    extent = None
    if hasattr(module, "extent"):
        extent = module.extent([game.view(s, None) for s in states])
    picked = list(states)
    if len(picked) > MAX_FRAMES:
        step = (len(picked) - 1) / (MAX_FRAMES - 1)
        picked = [picked[round(i * step)] for i in range(MAX_FRAMES)]
    rgb_frames = [
        board_image(game.name, s, players=players, theme=theme, ss=1, extent=extent,
                    for_replay=True)
        for s in picked
    ]
    # The final frame may be taller (the result is written in the header): pad the others at
    # the bottom with the background so every frame has one size.
    height = max(image.height for image in rgb_frames)
    background = get_theme(theme).background
    for index, image in enumerate(rgb_frames):
        if image.height < height:
            padded = Image.new("RGB", (image.width, height), background)
            padded.paste(image, (0, 0))
            rgb_frames[index] = padded
    # One palette for all frames, from the final position (it holds the most pieces); one
    # index is kept free to mean "unchanged since the previous frame".
    # The final frame alone may lack a colour (no last-move ring after a pass), so a frame
    # from the middle of the game joins it.
    last, middle = rgb_frames[-1], rgb_frames[len(rgb_frames) // 2]
    sample = Image.new("RGB", (last.width, last.height + middle.height))
    sample.paste(last, (0, 0))
    sample.paste(middle, (0, last.height))
    palette_source = sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    frames: list[Image.Image] = []
    durations: list[int] = []
    previous: Image.Image | None = None
    previous_bytes = b""
    for image in rgb_frames:
        paletted = image.quantize(palette=palette_source, dither=Image.Dither.NONE)
        raw = paletted.tobytes()
        if raw == previous_bytes:
            durations[-1] += FRAME_MS
            continue
        frames.append(paletted if previous is None else _changes_only(previous, paletted, raw))
        durations.append(FRAME_MS)
        previous, previous_bytes = paletted, raw
    durations[-1] = LAST_FRAME_MS
    buffer = io.BytesIO()
    frames[0].save(
        buffer, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
        optimize=False, disposal=1, transparency=UNCHANGED,
    )
    return buffer.getvalue()
