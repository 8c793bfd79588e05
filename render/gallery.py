"""Sample images of every game that can be drawn, for a person to look at (``make gallery``).

    python -m render.gallery [--out gallery] [game ...]

Writes ``<game>-<players>p-<phase>-<theme>.png`` for the start, the middle and the end of a
seeded random game, LPPG hands, one replay GIF per game, the middle position in French with a
clock line (``-fr``), and each image's Discord-preview size (400 px wide, ``-preview``) to check
that coordinates stay readable there; and a sample ``/profile`` chart in both languages.
"""

from __future__ import annotations

import argparse
import io
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PIL import Image

import engines
import render

SAMPLE_NAMES = ("Alice", "Bob", "Chloé", "Dmitri", "Eun-ji")
SAMPLE_CLOCK = "avant lun. 14:00 UTC · réserve 2 j 4 h"
PREVIEW_WIDTH = 400  # about what Discord shows of an image in a channel


def preview(png: bytes) -> bytes:
    """``png`` scaled down to Discord's preview width."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((PREVIEW_WIDTH, round(image.height * PREVIEW_WIDTH / image.width)),
                         Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    small.save(buffer, "PNG")
    return buffer.getvalue()


#: Option sets worth a look besides the defaults.
VARIANTS: dict[str, tuple[dict[str, Any], ...]] = {
    "palam": ({"setup": "draft"},),
    "alak": ({"length": 26},),
    "polygo": ({"board": "hex5"}, {"board": "square9"}),
    "palago": ({"tiebreak": True},),
}


def playout(
    game_name: str, players: int, seed: int, options: dict[str, Any] | None = None
) -> list[Any]:
    """Every state of a seeded random game (the same seed gives the same game)."""
    game = engines.get(game_name)
    rng = random.Random(seed)
    state = game.new(players, seed=seed, options=options)
    states = [state]
    while state.to_move is not None:
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
        states.append(state)
    return states


def phases(states: list[Any]) -> dict[str, Any]:
    return {"start": states[0], "mid": states[len(states) // 2], "over": states[-1]}


def player_counts(game_name: str) -> list[int]:
    counts = engines.get(game_name).allowed_player_counts()
    return sorted({counts[0], counts[-1]})


def write_gallery(out: Path, games: list[str], seed: int = 7) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in games:
        for count in player_counts(name):
            states = playout(name, count, seed)
            names = list(SAMPLE_NAMES[:count])
            for phase, state in phases(states).items():
                for theme in ("dark", "light"):
                    path = out / f"{name}-{count}p-{phase}-{theme}.png"
                    path.write_bytes(render.board(name, state, players=names, theme=theme))
                    written.append(path)
                    if hasattr(render._module(name), "draw_hand") and state.outcome is None:
                        path = out / f"{name}-{count}p-{phase}-{theme}-hand.png"
                        path.write_bytes(render.hand(name, state, 0, players=names, theme=theme))
                        written.append(path)
            middle = phases(states)["mid"]
            french = render.board(name, middle, players=names, lang="fr", clock=SAMPLE_CLOCK)
            for suffix, data in (("fr", french), ("preview", preview(french))):
                path = out / f"{name}-{count}p-mid-{suffix}.png"
                path.write_bytes(data)
                written.append(path)
            path = out / f"{name}-{count}p-replay.gif"
            path.write_bytes(render.replay(name, states, players=names))
            written.append(path)
        for options in VARIANTS.get(name, ()):
            tag = "-".join(f"{key}={value}" for key, value in options.items())
            count = player_counts(name)[0]
            states = playout(name, count, seed, options)
            for phase, state in phases(states).items():
                path = out / f"{name}-{tag}-{phase}.png"
                path.write_bytes(render.board(name, state, players=SAMPLE_NAMES[:count]))
                written.append(path)
    for lang in ("en", "fr"):
        chart = sample_profile(lang)
        for path, data in ((out / f"profile-{lang}.png", chart),
                           (out / f"profile-{lang}-preview.png", preview(chart))):
            path.write_bytes(data)
            written.append(path)
    return written


def sample_profile(lang: str) -> bytes:
    """A ``/profile`` chart of a made-up player: three games, one of them with a second
    (multiplayer) rating, a year of games."""
    from render.profile import ProfileTexts, RatingSeries, profile_png, window_months

    now = datetime(2026, 11, 26, 14, tzinfo=UTC)
    rng = random.Random(7)

    def walk(games: int, every_days: float) -> list[tuple[datetime, float, float]]:
        when, rating, spread = now - timedelta(days=every_days * games), 1500.0, 350.0
        points = [(when, rating, spread)]
        for _ in range(games):
            when += timedelta(days=every_days * rng.uniform(0.5, 1.4))
            rating, spread = rating + rng.uniform(-40, 60), max(60.0, spread * 0.85)
            if when < now:
                points.append((when, rating, spread))
        return points

    multi = "Kolory (à plusieurs)" if lang == "fr" else "Kolory (multiplayer)"
    lines = [("alak", "Alak", walk(25, 12)), ("palago", "Palago", walk(12, 20)),
             ("kolory", "Kolory", walk(8, 30)), ("kolory", multi, walk(6, 25))]
    series = [RatingSeries(game, f"{label} · {round(points[-1][1])}", points,
                           dashed=label == multi) for game, label, points in lines]
    games = {"alak": [0, 0, 1, 2, 3, 4, 2, 3, 5, 1, 2, 2],
             "palago": [0, 0, 0, 1, 1, 2, 1, 0, 2, 1, 3, 1],
             "kolory": [0, 1, 1, 0, 0, 1, 2, 1, 1, 0, 1, 2]}
    texts = (ProfileTexts("Chloé · classements et parties sur 12 mois", "classement (±écart)",
                          "parties par mois", "")
             if lang == "fr" else
             ProfileTexts("Chloé · ratings and games, last 12 months", "rating (±deviation)",
                          "games per month", ""))
    return profile_png(series, games, window_months(now.date()), texts, lang, now)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=None)
    parser.add_argument("--out", default="gallery")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    games = args.games or render.supported_games()
    for path in write_gallery(Path(args.out), games, args.seed):
        print(path)


if __name__ == "__main__":
    main()
