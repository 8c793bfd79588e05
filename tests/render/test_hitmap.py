"""Hit maps: every pick of every legal move has a region on the image the seat to move sees,
regions lie on what is drawn there, nobody else gets regions, and no card face leaks."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import engines
import render
from render import alak as alak_render
from render.gallery import SAMPLE_NAMES, playout
from render.hitmap import HitMap, Region, join_move, split_move
from render.options import Options
from render.theme import DARK, STONES
from render.words import words
from tests.render.helpers import close, decode, pixel

# (game, players, options): every board kind and setup, the fewest and the most players.
CASES = [
    ("alak", 2, None),
    ("alak", 2, {"length": 26}),
]
SEEDS = (1, 2)
PER_GAME = 8  # positions spread over each game, besides the first of each phase
CASE_IDS = [f"{g}-{n}p" + (f"-{next(iter(o.values()))}" if o else "") for g, n, o in CASES]


def _phase(state: Any) -> tuple:
    return (getattr(state, "phase", None), getattr(state, "pending", None),
            getattr(state, "camp_chosen", None))


@cache
def positions(game_name: str, players: int, options: tuple | None) -> tuple[Any, ...]:
    """Positions with a seat to move from seeded random games: evenly spread, plus the first
    position of every phase (Polygo's scoring, Palam's camp choice and draft, LPPG's draws,
    marks and keeps)."""
    picked: dict[int, Any] = {}
    for seed in SEEDS:
        states = [s for s in playout(game_name, players, seed, dict(options or ()))
                  if s.to_move is not None]
        step = max(1, len(states) // PER_GAME)
        chosen = states[::step]
        seen = set()
        for state in states:
            if _phase(state) not in seen:
                seen.add(_phase(state))
                chosen.append(state)
        for state in chosen:
            picked[id(state)] = state
    return tuple(picked.values())


def case_positions(case) -> tuple[Any, ...]:
    game_name, players, options = case
    return positions(game_name, players, tuple(sorted(options.items())) if options else None)


def hit_maps(game_name: str, state: Any, seat: int, **kwargs) -> list[HitMap]:
    """Every hit map the seat to move has: its board, its hand, its strip of choices."""
    maps = [render.board_with_hits(game_name, state, viewer=seat, **kwargs)[1]]
    if render.has_hands(game_name):
        maps.append(render.hand_with_hits(game_name, state, seat)[1])
    extra = render.choices(game_name, state, seat)
    if extra is not None:
        maps.append(extra[1])
    return maps


def inside(polygon, point) -> bool:
    """Whether ``point`` lies in the convex ``polygon`` (edges included)."""
    x, y = point
    sign = 0
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
        if cross:
            if sign and (cross > 0) != (sign > 0):
                return False
            sign = cross
    return True


def strictly_inside(polygon, point) -> bool:
    x, y = point
    signs = [(x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
             for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True)]
    return all(s > 0 for s in signs) or all(s < 0 for s in signs)


# -- splitting moves into picks -----------------------------------------------------------------


@pytest.mark.parametrize(("game_name", "text", "parts"), [
    ("alak", "f", ["f"]),
])
def test_notation_splits_into_picks_in_notation_order(game_name, text, parts):
    assert split_move(game_name, text) == parts
    assert join_move(parts) == text


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_every_legal_move_splits_and_joins_back(case):
    game_name = case[0]
    game = engines.get(game_name)
    for state in case_positions(case):
        for move in game.legal_moves(state):
            text = str(move)
            parts = split_move(game_name, text)
            assert join_move(parts) == text
            assert all(part and part == part.strip() for part in parts), parts
            assert game.parse_move(join_move(parts), state) == move


# -- every pick has a region -------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_every_pick_of_every_legal_move_has_a_region(case):
    game_name = case[0]
    game = engines.get(game_name)
    buttons = render.button_parts(game_name)
    checked = 0
    for state in case_positions(case):
        maps = hit_maps(game_name, state, state.to_move)
        for move in game.legal_moves(state):
            parts = split_move(game_name, str(move))
            for index, part in enumerate(parts):
                if part in buttons:
                    assert len(parts) == 1, parts  # a button is a whole move
                    continue
                found = [r for m in maps for r in m.find(part, parts[:index])]
                assert found, (str(move), part, _phase(state))
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_regions_lie_inside_their_image_and_hits_match_the_drawn_board(case):
    game_name, players, _ = case
    names = list(SAMPLE_NAMES[:players])
    for index, state in enumerate(case_positions(case)):
        # Names, a status, a clock and French change the header's height and so every region.
        kwargs: dict[str, Any] = {}
        if index % 2:
            kwargs = {"players": names, "lang": "fr", "status": "À vous\nraison",
                      "clock": "avant lun. 14:00 UTC"}
        png, board_map = render.board_with_hits(game_name, state, viewer=state.to_move,
                                                **kwargs)
        image = decode(png)
        assert (board_map.width, board_map.height) == image.size
        assert render.hits(game_name, state, viewer=state.to_move, **kwargs) == board_map
        for hit_map in hit_maps(game_name, state, state.to_move):
            for region in hit_map.regions:
                x0, y0, x1, y1 = region.box
                assert 0 <= x0 < x1 <= hit_map.width, region
                assert 0 <= y0 < y1 <= hit_map.height, region


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_regions_offered_together_do_not_overlap(case):
    """Two regions of one kind with different parts never hold each other's centre, so a
    click names one pick."""
    game_name = case[0]
    for state in case_positions(case):
        for hit_map in hit_maps(game_name, state, state.to_move):
            by_kind: dict[tuple[str, str], list[Region]] = {}
            for region in hit_map.regions:
                by_kind.setdefault((region.kind, region.after), []).append(region)
            for regions in by_kind.values():
                for region in regions:
                    cx, cy = region.centre
                    for other in regions:
                        if other.part == region.part:
                            continue
                        ox0, oy0, ox1, oy1 = other.box
                        if ox0 < cx < ox1 and oy0 < cy < oy1:
                            assert not strictly_inside(other.polygon, (cx, cy)), (region,
                                                                                   other)


# -- regions lie on what is drawn --------------------------------------------------------------

Probe = tuple[Region, tuple[float, float], list]  # a point of the region and its colours


def _alak_probes(state, hit_map: HitMap, options) -> list[Probe]:
    geo = alak_render.layout(state, options)
    probes = []
    for region in hit_map.regions:
        index = ord(region.part) - ord("a")
        x, y = geo.point(index)
        assert abs(region.centre[0] - x) <= 1
        value = state.board[index]
        if value in (0, 1):
            probes.append((region, (x, y), [STONES[value][0]]))
        else:
            # Off the tick and off the cross of a point just captured.
            away = geo.spacing * 0.38
            probes.append((region, (x + away, y + away), [DARK.wood]))
    return probes


def _distance(a, b) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


PROBES = {
    "alak": _alak_probes,
}


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_regions_fall_on_the_drawn_cells(case):
    game_name, players, _ = case
    probed = 0
    for index, state in enumerate(case_positions(case)):
        kwargs: dict[str, Any] = {}
        if index % 2:
            kwargs = {"players": list(SAMPLE_NAMES[:players]), "lang": "fr",
                      "clock": "avant lun. 14:00 UTC"}
        png, hit_map = render.board_with_hits(game_name, state, viewer=state.to_move,
                                              **kwargs)
        image = decode(png).convert("RGB")
        # The options the image was drawn with, for the layout functions.
        options = Options(DARK, players=tuple(kwargs.get("players", ())) or None,
                          last_move=getattr(state, "last_move", None), viewer=state.to_move,
                          words=words(kwargs.get("lang", "en")), clock=kwargs.get("clock"))
        for region, point, colours in PROBES[game_name](state, hit_map, options):
            assert inside(region.polygon, point), (region, point)
            seen = pixel(image, point)
            assert any(close(seen, colour, 30) for colour in colours), (region, point, seen)
            probed += 1
    assert probed > 0


# -- who gets regions; nothing hidden ----------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_only_the_seat_to_move_gets_regions(case):
    game_name, players, _ = case
    for state in case_positions(case):
        assert render.hits(game_name, state, viewer=state.to_move).regions
        for viewer in [None, *(s for s in range(players) if s != state.to_move)]:
            assert render.board_with_hits(game_name, state, viewer=viewer)[1].regions == ()
            assert render.choices(game_name, state, viewer) is None
            if render.has_hands(game_name) and viewer is not None:
                assert render.hand_with_hits(game_name, state, viewer)[1].regions == ()


# -- JSON --------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_hit_maps_survive_a_json_round_trip(case):
    game_name = case[0]
    for state in case_positions(case)[:4]:
        for hit_map in hit_maps(game_name, state, state.to_move):
            text = hit_map.to_json()
            assert HitMap.from_json(text) == hit_map
            assert isinstance(text, str)
