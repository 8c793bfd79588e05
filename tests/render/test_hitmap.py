"""Hit maps: every pick of every legal move has a region on the image the seat to move sees,
regions lie on what is drawn there, nobody else gets regions, and no card face leaks."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

import engines
import engines.kolory as kolory_engine
import engines.lppg as lppg_engine
import engines.palam as palam_engine
import engines.polygo as polygo_engine
import render
from engines.graphgo import WALL
from engines.lppg import WHITE
from render import alak as alak_render
from render import kolory as kolory_render
from render import lppg as lppg_render
from render import palago as palago_render
from render import palam as palam_render
from render import polygo as polygo_render
from render.gallery import SAMPLE_NAMES, playout
from render.hitmap import HitMap, Region, join_move, split_move
from render.options import Options
from render.theme import DARK, STONES, WALL_RED, mix
from render.words import words
from tests.render.helpers import close, decode, pixel

# (game, players, options): every board kind and setup, the fewest and the most players.
CASES = [
    ("alak", 2, None),
    ("alak", 2, {"length": 26}),
    ("polygo", 2, None),
    ("polygo", 2, {"board": "hex5"}),
    ("polygo", 2, {"board": "square9"}),
    ("palago", 2, None),
    ("palam", 2, None),
    ("palam", 2, {"setup": "draft"}),
    ("lppg", 2, None),
    ("lppg", 4, None),
    ("lppg", 2, {"edition": 1}),  # stored games of the first rules: both draws in one move
    ("kolory", 2, None),
    ("kolory", 5, None),
]
SEEDS = (1, 2)
PER_GAME = 8  # positions spread over each game, besides the first of each phase
CASE_IDS = ["-".join([g, f"{n}p", *(f"{k}={v}" for k, v in (o or {}).items())])
            for g, n, o in CASES]


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


_MAPS: dict[tuple[str, int], list[HitMap]] = {}


def hit_maps(game_name: str, state: Any) -> list[HitMap]:
    """Every hit map the seat to move has: its board, its hand, its strip of choices (drawn
    once per position: ``positions`` keeps the states, so their ids stay theirs)."""
    key = (game_name, id(state))
    if key not in _MAPS:
        _MAPS[key] = _hit_maps(game_name, state, state.to_move)
    return _MAPS[key]


def _hit_maps(game_name: str, state: Any, seat: int) -> list[HitMap]:
    maps = [render.board_with_hits(game_name, state, viewer=seat)[1]]
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
    ("kolory", "-1,2", ["-1,2"]),
    ("palago", "0,0/1 1,0/2", ["0,0", "/1", "1,0", "/2"]),
    ("palago", "-3,2/0", ["-3,2", "/0"]),
    ("polygo", "i9 h9 j8", ["i9", "h9", "j8"]),
    ("polygo", "dead a13 k7", ["dead a13", "k7"]),
    ("polygo", "pass", ["pass"]),
    ("palam", "camp anubis", ["camp anubis"]),
    ("palam", "b1 e2", ["b1", "e2"]),
    ("palam", "A5 b2", ["A5", "b2"]),
    ("palam", "c", ["c"]),
    ("lppg", "play 2 -2,-1 270", ["play 2", "-2,-1", "270"]),
    ("lppg", "mark p 3,-4", ["mark p", "3,-4"]),
    ("lppg", "keep 1,2", ["keep 1,2"]),
    ("lppg", "draw b", ["draw b"]),
    ("lppg", "draw a b", ["draw a", "b"]),
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
        maps = hit_maps(game_name, state)
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
        for hit_map in hit_maps(game_name, state):
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
        for hit_map in hit_maps(game_name, state):
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


def _polygo_probes(state, hit_map: HitMap, options) -> list[Probe]:
    fit, board = polygo_render.layout(state, options)
    geometry = polygo_engine.geometry(state.board_kind)
    radius = polygo_render.stone_radius(board.square, fit.scale)
    probes = []
    for region in hit_map.regions:
        cell = geometry.index[region.part.split()[-1]] if region.kind == "cell" else None
        if cell is None:  # a stone of a group: find it by the region's centre
            cell = min(range(len(board.centres)),
                       key=lambda i: _distance(fit(*board.centres[i]), region.centre))
        x, y = fit(*board.centres[cell])
        assert _distance((x, y), region.centre) <= 1.5
        value = state.board[cell]
        below = (x, y + radius * 0.55)
        if value in (0, 1):
            probes.append((region, below, [STONES[value][0]]))
        elif value == WALL:
            probes.append((region, (x, y + fit.scale * 0.3), [WALL_RED]))
        elif region.kind == "cell":
            probes.append((region, below, [DARK.wood]))
        else:
            raise AssertionError(f"a group region on an empty cell: {region}")
    return probes


def _palago_probes(state, hit_map: HitMap, options) -> list[Probe]:
    lattice = palago_render.layout(state, None, options)
    size = lattice.scale
    empty = [mix(DARK.background, DARK.empty, 1.0), mix(DARK.background, DARK.empty, 0.5)]
    occupied = {(q, r) for q, r, _ in state.tiles}
    probes = []
    for region in hit_map.regions:
        if region.kind == "cell":
            q, r = map(int, region.part.split(","))
            assert (q, r) not in occupied
            x, y = lattice.center(q, r)
            assert _distance((x, y), region.centre) <= 1.5
            probes.append((region, (x, y + size * 0.72), empty))
        else:  # a tile of the legend: its arch on the side of corners o, o+1, o+2
            o = int(region.part[1:])
            x0, y0, _, y1 = region.box
            tile = palago_render.LEGEND_TILE
            cx, cy = x0 + tile, (y0 + y1) / 2
            corner = palago_render.hex_corner(cx, cy, tile, o)
            probes.append((region, (cx + (corner[0] - cx) * 0.3, cy + (corner[1] - cy) * 0.3),
                           [palago_render.COLOURS[o % 2]]))
    return probes


def _kolory_probes(state, hit_map: HitMap, options) -> list[Probe]:
    view = kolory_render.layout(state, None, options)
    colours = kolory_engine.visible_colours(state)
    last = state.last_move
    probes = []
    for region in hit_map.regions:
        x, y = map(int, region.part.split(","))
        assert _distance(view.corner(x + 1, y + 1), region.centre) <= 1
        for dx in (0, 1):
            for dy in (0, 1):
                square = (x + dx, y + dy)
                if last is not None and square == (last.x, last.y):
                    continue  # the last move's label covers this square
                if square in colours:
                    expected = [kolory_render.colour_of(colours[square])]
                else:
                    expected = [DARK.background]
                # The square's centre lies in the region's own corner quarter.
                probes.append((region, view.center(*square), expected))
    return probes


def _lppg_probes(state, hit_map: HitMap, options) -> list[Probe]:
    view = lppg_render.layout(state, None, options)
    squares = lppg_engine.terrain(state)
    owned = {at: seat for seat, _, region in lppg_engine.territories(state) for at in region}
    markers = {(x, y): (seat, kind) for seat, kind, x, y in state.markers}
    probes = []
    for region in hit_map.regions:
        if region.kind == "pile":
            pile = state.pile_a if region.part.endswith("a") else state.pile_b
            colour = lppg_render.back_colour(pile[0]) if pile else None
            x0, y0, _, y1 = region.box
            if colour is not None:
                # The card back's left end, beside its "?" mark.
                probes.append((region, (x0 + 6 + lppg_render.PILE_UNIT * 0.4, (y0 + y1) / 2),
                               [lppg_render.CARD_COLOURS[colour]]))
            continue
        if region.kind == "region":  # one square of a closed region: white
            at = _square_at(region, view)
            probes.append((region, view.center(*at), [lppg_render.CARD_COLOURS[WHITE]]))
            continue
        x, y = map(int, region.part.split()[-1].split(","))  # "3,1" or "keep 3,1"
        cx, cy = view.center(x, y)
        assert _distance((cx, cy), region.centre) <= 1
        if (x, y) in markers:
            seat, _kind = markers[(x, y)]
            r = view.cell * 0.36
            # Above the territory's size written on the marker.
            probes.append((region, (cx, cy - 0.75 * r),
                           [lppg_render._seat_colour(state, seat)]))
        elif (x, y) in squares:
            fill = lppg_render.CARD_COLOURS[squares[(x, y)]]
            if (x, y) in owned:
                fill = mix(fill, lppg_render._seat_colour(state, owned[(x, y)]), lppg_render.TINT)
            probes.append((region, (cx, cy), [fill]))
        else:
            probes.append((region, (cx, cy), [DARK.background]))
    # A region to mark is named by its top-left square (top row first), as the engine does.
    marked: dict[str, list[tuple[int, int]]] = {}
    for region in hit_map.regions:
        if region.kind == "region":
            marked.setdefault(region.part, []).append(_square_at(region, view))
    closed = {tuple(sorted(squares)) for squares in lppg_engine.closed_regions(state)}
    for part, found in marked.items():
        assert tuple(sorted(found)) in closed
        x, y = min(found, key=lambda at: (at[1], at[0]))
        assert part == f"{x},{y}"
    return probes


def _square_at(region: Region, view) -> tuple[int, int]:
    """The grid square a one-square region covers."""
    x0, y0, _, _ = region.box
    return (round((x0 - view.left) / view.cell) + view.extent[0],
            round((y0 - view.top) / view.cell) + view.extent[1])


def _palam_probes(state, hit_map: HitMap, options) -> list[Probe]:
    geo = palam_render.layout(state, options)
    seat = state.to_move
    probes = []
    by_part = {region.part: region for region in hit_map.regions}
    for region in hit_map.regions:
        x, y = region.centre
        if region.kind == "camp":
            role = "Anubis" if region.part.endswith("anubis") else "Isis"
            probes.append((region, (x, y),
                           [mix(DARK.background, palam_render.ROLE_COLOURS[role], 0.16)]))
        elif region.kind == "cell":
            column = "abcdef".index(region.part[0])
            row = int(region.part[1])
            assert _distance(geo.cell_center(state, seat, row, column), (x, y)) <= 1
            piece = state.piece_at(seat, row, column)
            if piece == palam_engine.EMPTY:
                role = "Isis" if seat == state.isis else "Anubis"
                expected = [mix(DARK.background, palam_render.ROLE_COLOURS[role], 0.16)]
            else:
                light = piece in palam_engine.LIGHT_PIECES
                expected = [palam_render.LIGHT_PIECE if light else palam_render.DARK_PIECE]
            probes.append((region, (x - palam_render.PIECE * 0.4, y), expected))
        elif region.kind == "column":
            # In front of the mover's own column of that letter, in its half of the duel row.
            front = geo.cell_center(state, seat, 1, "abcdef".index(region.part))
            assert abs(front[0] - x) <= 1
            middle = geo.duel_top + palam_render.DUEL_ROW / 2
            assert geo.duel_top <= y <= geo.duel_top + palam_render.DUEL_ROW
            assert (y > middle) == (front[1] > middle)
            if "a1" in by_part:
                assert abs(by_part[region.part + "1"].centre[0] - x) <= 1
        else:  # a revealed piece of the draft
            piece = palam_engine.SYMBOLS.index(region.part[0]) * 6 + int(region.part[1:]) - 1
            assert palam_engine.piece_name(piece) == region.part
            assert piece in state.pool
            light = piece in palam_engine.LIGHT_PIECES
            probes.append((region, (x - palam_render.DRAFT_PIECE * 0.4, y),
                           [palam_render.LIGHT_PIECE if light else palam_render.DARK_PIECE]))
    return probes


def _distance(a, b) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


PROBES = {
    "alak": _alak_probes,
    "polygo": _polygo_probes,
    "palago": _palago_probes,
    "kolory": _kolory_probes,
    "lppg": _lppg_probes,
    "palam": _palam_probes,
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


CARD_ID = re.compile(r"\b[RBGY]1?\d\b")


@pytest.mark.parametrize("players", [2, 4])
def test_lppg_hit_maps_show_no_card(players):
    """The board's map has no card of a hand; a hand's map is the same whatever the cards
    (so its shapes say nothing of a face) and names no card."""
    seen_hands: dict[tuple[int, int], HitMap] = {}
    compared = 0
    for state in positions("lppg", players, None):
        seat = state.to_move
        board_map = render.hits("lppg", state, viewer=seat)
        assert not {r.kind for r in board_map.regions} & {"card", "rotation"}
        assert not any(r.part.startswith("play") for r in board_map.regions)
        _, hand_map = render.hand_with_hits("lppg", state, seat)
        assert not CARD_ID.search(hand_map.to_json())
        if state.pending == "play":
            assert {r.kind for r in hand_map.regions} == {"card", "rotation"}
            key = (len(state.hands[seat]), seat)
            if key in seen_hands and seen_hands[key] != hand_map:
                raise AssertionError("a hand's hit map depends on its cards")
            compared += key in seen_hands
            seen_hands[key] = hand_map
    assert compared > 0


def test_lppg_marker_choices_follow_the_markers_left():
    game = engines.get("lppg")
    found = 0
    for state in positions("lppg", 2, None) + positions("lppg", 4, None):
        extra = render.choices("lppg", state, state.to_move)
        if state.pending != "mark":
            assert extra is None
            continue
        png, choice_map = extra
        assert decode(png).size == (choice_map.width, choice_map.height)
        kinds = {str(m).split()[1] for m in game.legal_moves(state)}
        assert {r.part for r in choice_map.regions} >= {f"mark {k}" for k in kinds}
        found += 1
    assert found > 0


# -- JSON --------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_hit_maps_survive_a_json_round_trip(case):
    game_name = case[0]
    for state in case_positions(case)[:4]:
        for hit_map in hit_maps(game_name, state):
            text = hit_map.to_json()
            assert HitMap.from_json(text) == hit_map
            assert isinstance(text, str)


def test_together_names_polygos_groups_that_may_be_marked_dead_as_one_move():
    legal = ["accept", "resume", "dead c3", "alive e5", "dead a13"]
    assert render.together("polygo", legal) == {"word": "dead", "parts": ["dead c3", "dead a13"]}
    assert render.together("polygo", ["accept", "resume", "alive e5"]) is None
    assert render.together("alak", ["a", "b"]) is None
