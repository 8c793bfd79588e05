"""What a game module needs to draw a position besides the state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.core import Move
from render.theme import Theme
from render.words import Words, words


@dataclass(frozen=True)
class Options:
    theme: Theme
    players: tuple[str, ...] | None = None
    last_move: Move | None = None
    #: For unbounded boards in a replay: the grid area every frame shows (module-specific).
    extent: Any = None
    #: The seat the image is drawn for (None = a spectator); only changes what is labelled.
    viewer: int | None = None
    #: A replay frame: leave out what only helps typing a move (e.g. Polygo's cell names).
    replay: bool = False
    #: The words of the image's language.
    words: Words = field(default_factory=lambda: words("en"))
    #: The caller's own sentence for the header instead of whose turn it is or who won (first
    #: line), with the reason on further lines: already in the reader's language.
    status: str | None = None
    #: A line about the time control ("due Mon 14:00 UTC · bank 2d 4h"), from the caller.
    clock: str | None = None
