"""Palago (RULES.md §3): one test per ruling, hand-built positions, and a from-scratch reference
of the tile geometry that the engine's incremental creature detection is checked against."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import IllegalMove, palago
from engines.hexgrid import DIRECTIONS, neighbours
from engines.palago import (
    REGION_COLOUR,
    REGION_HALF_EDGES,
    PalagoMove,
    picture,
    tile_regions,
)
from tests.engines.refusals import assert_translatable, refusal

GAME = engines.get("palago")
WHITE_SEAT, BLUE_SEAT = 0, 1
BLUE, WHITE = 0, 1  # colour of corner k = k % 2: even corners are blue

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Hand-built shapes, found by an exhaustive search of all 5-tile groups (5 tiles is the smallest
# creature) and written out here; every test re-checks them with the reference below.
BLUE_CREATURE = [(0, 0, 2), (1, -1, 1), (1, 0, 1), (2, -1, 1), (2, -2, 0)]
WHITE_CREATURE = [(0, 0, 1), (0, 1, 0), (1, -1, 1), (1, 0, 1), (2, -1, 2)]
# Three tips round the vertex shared by these three cells: closed, but no arch.
EYE = [(0, 0, 1), (0, 1, 0), (1, 0, 2)]
# A blue creature and a white creature sharing their last tile (0,0)/2.
BOTH_BUT_LAST = [
    (1, -1, 1), (1, 0, 1), (2, -2, 0), (2, -1, 1), (-2, 1, 1), (-2, 2, 0), (-1, 0, 1), (-1, 1, 1)
]
BOTH_LAST = (0, 0, 2)
# The blue creature's last cell 2,-2 made a hole by tiles on its four other neighbours.
HOLE = (2, -2)
AROUND_HOLE = [(0, 0, 2), (1, -1, 1), (1, 0, 1), (2, -1, 1), (3, -2, 0), (3, -3, 0), (2, -3, 0),
               (1, -2, 0)]


# ----- an independent reference of RULES.md §3 --------------------------------------------------


def reference_region(o: int, d: int, plus: bool) -> tuple[str, int]:
    """Which region of a tile in orientation ``o`` owns half-edge ``d+``/``d-``, derived from the
    corners: the half-edge lies next to corner d (plus) or d-1 (minus); a tip owns the half-edges
    next to its corner, the arch of a side owns the rest of that side."""
    corner = d % 6 if plus else (d - 1) % 6
    if corner in ((o + 1) % 6, (o + 4) % 6):
        return ("tip", corner)
    return ("arch", o % 6 if corner in (o % 6, (o + 2) % 6) else (o + 3) % 6)


def reference_components(tiles) -> list[tuple[set, bool, bool, int]]:
    """Components from scratch: (regions, closed, has an arch, colour)."""
    where = {(q, r): o for q, r, o in tiles}
    parent: dict = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    open_regions = set()
    for (q, r), o in where.items():
        for d, (dq, dr) in enumerate(DIRECTIONS):
            for plus in (False, True):
                mine = (q, r, reference_region(o, d, plus))
                find(mine)
                other = (q + dq, r + dr)
                if other in where:
                    # X's d+ meets Y's (d+3)-, X's d- meets Y's (d+3)+.
                    theirs = (*other, reference_region(where[other], (d + 3) % 6, not plus))
                    parent[find(mine)] = find(theirs)
                else:
                    open_regions.add(mine)
    groups: dict = {}
    for x in list(parent):
        groups.setdefault(find(x), set()).add(x)
    result = []
    for members in groups.values():
        _, _, (_kind, corner) = next(iter(members))
        result.append((
            members,
            not (members & open_regions),
            any(m[2][0] == "arch" for m in members),
            corner % 2,
        ))
    return result


def reference_creature_colours(tiles) -> set[int]:
    return {colour for _, closed, arch, colour in reference_components(tiles) if closed and arch}


def position(tiles, to_move: int, tiebreak: bool = False):
    """A hand-built position (through ``load``, which rebuilds the engine's structures)."""
    return GAME.load({
        "players": 2,
        "seed": 1,
        "tiebreak": tiebreak,
        "tiles": [list(t) for t in tiles],
        "to_move": to_move,
        "last_move": None,
        "outcome": None,
    })


def text(*tiles) -> str:
    return " ".join(f"{q},{r}/{o}" for q, r, o in tiles)


def random_game(seed: int, tiebreak: bool = False):
    rng = random.Random(seed)
    state = GAME.new(2, seed=seed, options={"tiebreak": tiebreak})
    states, moves = [state], []
    while state.to_move is not None:
        move = rng.choice(GAME.legal_moves(state))
        state = GAME.play(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


# ----- geometry -----------------------------------------------------------------------------------


def test_region_tables_match_the_corner_description_of_rules():
    for o in range(3):
        for k, half_edges in enumerate(REGION_HALF_EDGES[o]):
            owners = {reference_region(o, h // 2, h % 2 == 1) for h in half_edges}
            assert len(owners) == 1  # each engine region is exactly one reference region
            kind, corner = owners.pop()
            assert tile_regions(o)[k].kind == kind
            assert REGION_COLOUR[o][k] == corner % 2
        assert sorted(h for region in REGION_HALF_EDGES[o] for h in region) == list(range(12))


def test_joined_half_edges_always_have_the_same_colour():
    # Half-edge d+ lies next to corner d, d- next to corner d-1; X's d+ meets Y's (d+3)-.
    for d in range(6):
        assert d % 2 == ((d + 3) - 1) % 2
        assert (d - 1) % 2 == (d + 3) % 2


# ----- creatures ----------------------------------------------------------------------------------


def test_an_eye_of_three_tips_is_not_a_creature():
    closed_without_arch = [
        c for c in reference_components(EYE) if c[1] and not c[2]
    ]
    assert len(closed_without_arch) == 1 and len(closed_without_arch[0][0]) == 3
    state = GAME.play(GAME.new(2, seed=1), text(*EYE[:2]))
    # The third tip closes the eye; that does not end the game, so it needs a partner tile...
    with pytest.raises(IllegalMove):
        GAME.play(state, text(EYE[2]))
    after = GAME.play(state, text(EYE[2], (2, 0, 0)))
    assert after.outcome is None and after.to_move == WHITE_SEAT


def test_minimal_blue_creature_wins_for_blue_who_closed_it():
    assert reference_creature_colours(BLUE_CREATURE) == {BLUE}
    assert not reference_creature_colours(BLUE_CREATURE[:4])
    state = GAME.play(GAME.new(2, seed=1), text(BLUE_CREATURE[0], BLUE_CREATURE[2]))
    state = GAME.play(state, text(BLUE_CREATURE[1], BLUE_CREATURE[3]))
    state = GAME.play(state, "-1,0/0 -2,0/0")  # White plays away from the shape
    assert state.outcome is None
    final = GAME.play(state, text(BLUE_CREATURE[4]))
    assert final.to_move is None
    assert final.outcome.winners == frozenset({BLUE_SEAT})
    assert final.outcome.scores == (0.0, 1.0)


def test_minimal_white_creature_wins_for_white_who_closed_it():
    assert reference_creature_colours(WHITE_CREATURE) == {WHITE}
    state = GAME.play(GAME.new(2, seed=1), text(*WHITE_CREATURE[:2]))
    state = GAME.play(state, text(*WHITE_CREATURE[2:4]))
    final = GAME.play(state, text(WHITE_CREATURE[4]))
    assert final.outcome.winners == frozenset({WHITE_SEAT})
    assert final.outcome.scores == (1.0, 0.0)


def test_creature_closed_by_the_opponent_wins_for_its_owner():
    state = GAME.play(GAME.new(2, seed=1), text(BLUE_CREATURE[0], BLUE_CREATURE[2]))
    state = GAME.play(state, text(BLUE_CREATURE[1], BLUE_CREATURE[3]))
    assert state.to_move == WHITE_SEAT
    final = GAME.play(state, text(BLUE_CREATURE[4]))  # White closes Blue's creature
    assert final.outcome.winners == frozenset({BLUE_SEAT})


def test_second_tile_of_a_move_may_close_a_creature():
    state = GAME.play(GAME.new(2, seed=1), text(BLUE_CREATURE[0], BLUE_CREATURE[2]))
    state = GAME.play(state, text(BLUE_CREATURE[1], BLUE_CREATURE[3]))
    final = GAME.play(state, text((3, -2, 0), BLUE_CREATURE[4]))
    assert len(final.tiles) == 6
    assert final.outcome.winners == frozenset({BLUE_SEAT})


def test_simultaneous_creatures_of_both_colours_lose_for_the_placer():
    assert not reference_creature_colours(BOTH_BUT_LAST)
    assert reference_creature_colours([*BOTH_BUT_LAST, BOTH_LAST]) == {BLUE, WHITE}
    for placer in (WHITE_SEAT, BLUE_SEAT):
        state = position(BOTH_BUT_LAST, to_move=placer)
        final = GAME.play(state, text(BOTH_LAST))
        assert final.outcome.winners == frozenset({1 - placer})
        # Also when the tile is the second of a two-tile move.
        final = GAME.play(state, text((0, 1, 0), BOTH_LAST))
        assert final.outcome.winners == frozenset({1 - placer})


def test_second_tile_is_never_placed_after_a_game_ending_first_tile():
    state = GAME.play(GAME.new(2, seed=1), text(BLUE_CREATURE[0], BLUE_CREATURE[2]))
    state = GAME.play(state, text(BLUE_CREATURE[1], BLUE_CREATURE[3]))
    ending = BLUE_CREATURE[4]
    with pytest.raises(IllegalMove) as error:
        GAME.play(state, text(ending, (3, -2, 0)))
    assert "single" in error.value.reason
    legal = {str(m) for m in GAME.legal_moves(state)}
    assert text(ending) in legal
    assert not any(m.startswith(text(ending) + " ") for m in legal)
    # The same tile laid second is fine (the first tile ends nothing).
    assert text((3, -2, 0), ending) in legal


def test_single_tile_is_refused_when_it_does_not_end_the_game():
    state = GAME.play(GAME.new(2, seed=1), "0,0/0 1,0/0")
    with pytest.raises(IllegalMove):
        GAME.play(state, "2,0/0")
    assert all(len(m.tiles) == 2 for m in GAME.legal_moves(state))


def test_hole_takes_only_a_game_ending_single_tile():
    state = position(AROUND_HOLE, to_move=WHITE_SEAT)
    assert all(n in {t[:2] for t in AROUND_HOLE} for n in neighbours(HOLE))
    endings = [o for o in range(3) if reference_creature_colours([*AROUND_HOLE, (*HOLE, o)])]
    assert endings == [0]
    hole_moves = [m for m in GAME.legal_moves(state) if any(t[:2] == HOLE for t in m.tiles)]
    assert hole_moves == [PalagoMove(((*HOLE, 0),))]
    for o in (1, 2):
        with pytest.raises(IllegalMove):
            GAME.play(state, text((*HOLE, o)))
    final = GAME.play(state, text((*HOLE, 0)))
    assert final.outcome.winners == frozenset({BLUE_SEAT})
    assert HOLE not in picture(state).partners


def test_opening_is_two_tiles_by_white_first_at_the_origin():
    state = GAME.new(2, seed=1)
    assert state.to_move == WHITE_SEAT
    moves = list(GAME.legal_moves(state))
    assert len(moves) == 3 * 6 * 3
    for move in moves:
        (q1, r1, _), (q2, r2, _) = move.tiles
        assert (q1, r1) == (0, 0) and (q2, r2) in neighbours((0, 0))
    for bad in ("0,0/1", "1,0/0 0,0/1", "0,0/0 2,0/0", "0,0/0 0,0/1", "0,0/3 1,0/0"):
        with pytest.raises(IllegalMove):
            GAME.play(state, bad)
    after = GAME.play(state, "0,0/1 0,1/2")
    assert after.to_move == BLUE_SEAT
    assert after.tiles == ((0, 0, 1), (0, 1, 2))


def test_later_moves_need_neighbouring_cells_one_touching_the_table():
    state = GAME.play(GAME.new(2, seed=1), "0,0/0 1,0/0")
    for bad in ("3,0/0 4,0/0", "2,0/0 3,1/0", "0,0/1 2,0/0", "2,0/0 2,0/0"):
        with pytest.raises(IllegalMove):
            GAME.play(state, bad)
    # One tile touching is enough: the other may lie further out, in either order.
    GAME.play(state, "2,0/0 3,0/1")
    GAME.play(state, "3,0/1 2,0/0")


# ----- end of the tiles ---------------------------------------------------------------------------


def first_full_board_game():
    for seed in range(200):
        states, moves = random_game(seed)
        if len(states[-1].tiles) == 48:
            return states, moves
    raise AssertionError("no 48-tile game in 200 random games")


def test_all_48_tiles_without_creature_is_a_draw():
    states, _ = first_full_board_game()
    final = states[-1]
    assert len(final.tiles) == 48
    assert not reference_creature_colours(final.tiles)
    assert final.to_move is None
    assert final.outcome.winners == frozenset()
    assert final.outcome.scores == (0.0, 0.0)
    assert all(s.outcome is None for s in states[:-1])


def full_board_games(count: int):
    found = []
    for seed in range(400):
        states, moves = random_game(seed)
        if len(states[-1].tiles) == 48:
            found.append(moves)
            if len(found) == count:
                return found
    raise AssertionError("too few 48-tile games among 400 random games")


def test_tiebreak_counts_the_largest_open_shape_in_arches():
    verdicts = set()
    for moves in full_board_games(8):
        final = GAME.replay(2, 1, {"tiebreak": True}, moves)[-1]
        best = {BLUE: 0, WHITE: 0}
        for members, _, _, colour in reference_components(final.tiles):
            arches = sum(1 for m in members if m[2][0] == "arch")
            best[colour] = max(best[colour], arches)
        assert final.outcome.scores == (best[WHITE], best[BLUE])
        if best[WHITE] > best[BLUE]:
            expected = frozenset({WHITE_SEAT})
        elif best[BLUE] > best[WHITE]:
            expected = frozenset({BLUE_SEAT})
        else:
            expected = frozenset()
        assert final.outcome.winners == expected
        verdicts.add(expected)
    assert len(verdicts) >= 2  # the sample exercises more than one verdict


def test_no_move_may_lay_more_than_48_tiles():
    # Unreachable in play (tiles go down in pairs), so hand-built: 47 tiles, one left.
    [moves] = full_board_games(1)
    full = GAME.replay(2, 1, None, moves)[-1]
    state = position(full.tiles[:47], to_move=WHITE_SEAT)
    assert all(len(m.tiles) == 1 for m in GAME.legal_moves(state))
    last_cell = full.tiles[47][:2]
    partner = next(n for n in neighbours(last_cell) if n not in {t[:2] for t in full.tiles})
    with pytest.raises(IllegalMove):
        GAME.play(state, text(full.tiles[47], (*partner, 0)))


def test_tiebreak_option_leaves_a_creature_win_scored_one_to_zero():
    state = position(BLUE_CREATURE[:4], to_move=WHITE_SEAT, tiebreak=True)
    final = GAME.play(state, text(BLUE_CREATURE[4]))
    assert final.outcome.winners == frozenset({BLUE_SEAT})
    assert final.outcome.scores == (0.0, 1.0)


# ----- the sanity check: 6 openings up to colour-preserving symmetry ----------------------------


def lattice_symmetries():
    """Every symmetry of the hex lattice fixing the origin, as a permutation of directions:
    rotations d -> d + k and reflections d -> m - d."""
    for k in range(6):
        yield tuple((d + k) % 6 for d in range(6))
    for m in range(6):
        yield tuple((m - d) % 6 for d in range(6))


def corner_map(perm):
    """Corner c lies between edges c and c + 1; it goes to the corner between their images."""
    result = []
    for c in range(6):
        a, b = perm[c], perm[(c + 1) % 6]
        result.append(a if (a + 1) % 6 == b else b)
    return tuple(result)


def symmetry_group():
    group = []
    for perm in lattice_symmetries():
        corners = corner_map(perm)
        if any(corners[c] % 2 != c % 2 for c in range(6)):
            continue  # swaps blue and white
        # Image of a half-edge: same edge image, next to the image of its corner.
        def half_image(h, perm=perm, corners=corners):
            d, plus = divmod(h, 2)
            corner = d if plus else (d - 1) % 6
            return 2 * perm[d] + (1 if corners[corner] == perm[d] else 0)

        orientation = {}
        for o in range(3):
            image = {frozenset(half_image(h) for h in region) for region in REGION_HALF_EDGES[o]}
            matches = [
                p for p in range(3) if image == {frozenset(r) for r in REGION_HALF_EDGES[p]}
            ]
            assert len(matches) == 1, "a symmetry must map a tile onto a tile"
            orientation[o] = matches[0]

        def cell_image(q, r, perm=perm):
            (aq, ar), (bq, br) = DIRECTIONS[perm[0]], DIRECTIONS[perm[5]]
            return (q * aq + r * bq, q * ar + r * br)

        for d in range(6):
            assert cell_image(*DIRECTIONS[d]) == DIRECTIONS[perm[d]]
        group.append((cell_image, orientation))
    return group


def test_six_openings_up_to_colour_preserving_symmetry():
    group = symmetry_group()
    assert len(group) == 6  # three rotations by 120° and three reflections through corners
    openings = list(GAME.legal_moves(GAME.new(2, seed=1)))

    def canonical(tiles):
        forms = []
        for cell_image, orientation in group:
            mapped = [(*cell_image(q, r), orientation[o]) for q, r, o in tiles]
            q0, r0, _ = min(mapped)  # translate: which tile was first does not matter
            forms.append(tuple(sorted((q - q0, r - r0, o) for q, r, o in mapped)))
        return min(forms)

    assert len({canonical(move.tiles) for move in openings}) == 6


# ----- incremental detection against the reference, listing, notation, storage ------------------


@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_incremental_detection_matches_the_reference_after_every_tile(seed):
    states, moves = random_game(seed)
    for before, move, after in zip(states, moves, states[1:], strict=False):
        laid = list(before.tiles)
        for index, tile in enumerate(move.tiles):
            laid.append(tile)
            colours = reference_creature_colours(laid)
            if index == 0 and len(move.tiles) == 2:
                assert not colours  # a two-tile move's first tile never ends the game
        if colours:
            if colours == {BLUE, WHITE}:
                expected = {1 - before.to_move}
            else:
                expected = {BLUE_SEAT if BLUE in colours else WHITE_SEAT}
            assert after.outcome.winners == frozenset(expected)
        elif len(after.tiles) < 48:
            assert after.outcome is None


@SETTINGS
@given(seed=st.integers(0, 2**31), tiebreak=st.booleans())
def test_random_playouts_end_by_a_creature_or_a_full_table(seed, tiebreak):
    states, moves = random_game(seed, tiebreak)
    final = states[-1]
    assert len(final.tiles) <= 48
    assert sum(len(m.tiles) for m in moves) == len(final.tiles)
    assert all(len(m.tiles) == 2 for m in moves[:-1])  # a single tile always ends the game
    if reference_creature_colours(final.tiles):
        assert len(final.outcome.winners) == 1 and sorted(final.outcome.scores) == [0.0, 1.0]
    else:
        assert len(final.tiles) == 48
        if not tiebreak:
            assert final.outcome.winners == frozenset()
    replayed = GAME.replay(2, seed, {"tiebreak": tiebreak}, [str(m) for m in moves])
    assert replayed == states
    assert GAME.load(json.loads(json.dumps(GAME.dump(final)))) == final


def brute_force_legal(state) -> set[PalagoMove]:
    """Every one- or two-tile move near the tiles that ``play`` accepts."""
    occupied = {t[:2] for t in state.tiles}
    touching = {n for c in occupied for n in neighbours(c)} - occupied
    pairs = {(a, b) for a in touching for b in neighbours(a) if b not in occupied}
    pairs |= {(b, a) for a, b in pairs}
    candidates = [((*a, oa), (*b, ob)) for a, b in pairs for oa in range(3) for ob in range(3)]
    candidates += [((*a, o),) for a in touching for o in range(3)]
    return {PalagoMove(c) for c in candidates if GAME.is_legal(state, PalagoMove(c))}


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), cut=st.floats(0.2, 1.0))
def test_legal_moves_are_exactly_the_moves_that_play(seed, cut):
    states, _ = random_game(seed)
    running = [s for s in states if s.to_move is not None]
    state = running[min(len(running) - 1, int(len(running) * cut))]
    listed = list(GAME.legal_moves(state))
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_force_legal(state)


def check_listed_singles_against_play(seed: int) -> None:
    states, _ = random_game(seed)
    for state in states[1:]:
        if state.to_move is None:
            break
        occupied = {t[:2] for t in state.tiles}
        touching = {n for c in occupied for n in neighbours(c)} - occupied
        listed = {m for m in GAME.legal_moves(state) if len(m.tiles) == 1}
        playable = {
            PalagoMove(((*cell, o),))
            for cell in touching
            for o in range(3)
            if GAME.is_legal(state, PalagoMove(((*cell, o),)))
        }
        assert listed == playable


@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_listed_single_tiles_are_exactly_the_game_ending_ones(seed):
    check_listed_singles_against_play(seed)


def test_listed_single_tiles_over_a_sweep_of_games():
    # Some shapes (a new tip and arch of one colour joined through one old component) are rare;
    # a fixed sweep makes sure they are met on every run, not only on lucky hypothesis seeds.
    for seed in range(40):
        check_listed_singles_against_play(seed)


def test_listings_do_not_depend_on_the_bounded_move_caches(monkeypatch):
    states, _ = random_game(3)
    running = [s for s in states if s.to_move is not None]
    expected = [list(GAME.legal_moves(s)) for s in running]
    # A caller may change the list it got: the next listing is whole again.
    GAME.legal_moves(running[-1]).clear()
    assert list(GAME.legal_moves(running[-1])) == expected[-1]
    monkeypatch.setattr(palago, "_CACHE_LIMIT", 5)
    palago._AROUND.clear()
    palago._SINGLE_MOVES.clear()
    assert [list(GAME.legal_moves(s)) for s in running] == expected
    assert len(palago._AROUND) <= 5 and len(palago._SINGLE_MOVES) <= 5


def _refusal_cases():
    start = GAME.new(2, seed=1)
    opened = GAME.play(start, "0,0/0 1,0/0")
    near_blue = position(BLUE_CREATURE[:4], to_move=WHITE_SEAT)
    [moves] = full_board_games(1)
    full = GAME.replay(2, 1, None, moves)[-1]
    last_but_one = position(full.tiles[:47], to_move=WHITE_SEAT)
    free = next(
        n for t in full.tiles for n in neighbours(t[:2]) if n not in {u[:2] for u in full.tiles}
    )
    beside = next(n for n in neighbours(free) if n not in {u[:2] for u in full.tiles})
    return [
        ("palago.syntax", opened, "2,0/0 3,0/0 4,0/0"),
        ("palago.not_a_tile", opened, "a,b/c"),
        ("palago.orientation", opened, "2,0/7"),
        ("palago.orientation", opened, PalagoMove(((2, 0, 5), (3, 0, 0)))),
        ("palago.tile_count", opened, PalagoMove(())),
        ("palago.too_far", opened, "60,0/0 61,0/0"),
        ("palago.tiles_left", last_but_one, text((*free, 0), (*beside, 0))),
        ("palago.occupied", opened, "1,0/1 2,0/0"),
        ("palago.same_cell", opened, "2,0/0 2,0/1"),
        ("palago.not_neighbours", opened, "2,0/0 4,0/0"),
        ("palago.opening", start, "1,0/0 0,0/1"),
        ("palago.not_touching", opened, "3,0/0 4,0/0"),
        ("palago.ends_alone", near_blue, text(BLUE_CREATURE[4], (3, -2, 0))),
        ("palago.single_not_ending", opened, "2,0/0"),
        ("illegal.wrong_game", opened, engines.Move()),
    ]


@pytest.mark.parametrize(("code", "state", "move"), _refusal_cases())
def test_each_refusal_has_its_own_phrase(code, state, move):
    assert refusal(GAME, state, move).code == code


TILE = r"-?\d{1,2},-?\d{1,2}/\d"


@SETTINGS
@given(
    seed=st.integers(0, 2**31),
    plies=st.integers(0, 30),
    move=st.one_of(st.text(max_size=14), st.from_regex(f"{TILE}( {TILE})?", fullmatch=True)),
)
def test_every_refusal_is_a_palago_or_protocol_phrase(seed, plies, move):
    states, _ = random_game(seed)
    state = states[min(plies, len(states) - 1)]
    try:
        GAME.play(state, move)
    except IllegalMove as error:
        assert_translatable(error, GAME)


def test_outcomes_are_phrases():
    state = position(BLUE_CREATURE[:4], to_move=WHITE_SEAT)
    gift = GAME.play(state, text(BLUE_CREATURE[4])).outcome
    assert gift.phrase.key == "palago.gift"
    assert gift.reason == "Blue wins: White closed a blue creature"
    own = GAME.play(position(BLUE_CREATURE[:4], to_move=BLUE_SEAT), text(BLUE_CREATURE[4]))
    assert own.outcome.reason == "Blue wins with a blue creature"
    both = GAME.play(position(BOTH_BUT_LAST, to_move=BLUE_SEAT), text(BOTH_LAST)).outcome
    assert both.phrase.key == "palago.both_colours" and both.reason.startswith("White wins")
    [moves] = full_board_games(1)
    assert GAME.replay(2, 1, None, moves)[-1].outcome.phrase.key == "palago.draw"
    tiebreak = GAME.replay(2, 1, {"tiebreak": True}, moves)[-1].outcome
    assert tiebreak.phrase.key in ("palago.tiebreak_win", "palago.tiebreak_draw")


def test_notation_is_forgiving_and_canonical():
    move = GAME.parse_move("  0, 0 / 1    1 ,0/2 ")
    assert move == PalagoMove(((0, 0, 1), (1, 0, 2)))
    assert str(move) == "0,0/1 1,0/2"
    assert GAME.parse_move("-1,2/0").tiles == ((-1, 2, 0),)
    for bad in ("0,0", "0,0/1 1,0/2 2,0/0", "a,b/c", "0,0/7", "1,2,3/9", "0;0/1"):
        with pytest.raises(IllegalMove):
            GAME.parse_move(bad)


def test_dump_load_round_trip_keeps_the_engine_structures():
    states, _ = random_game(11)
    for state in states:
        data = json.loads(json.dumps(GAME.dump(state)))
        loaded = GAME.load(data)
        assert loaded == state
        if state.to_move is not None:
            assert list(GAME.legal_moves(loaded)) == list(GAME.legal_moves(state))


def test_play_leaves_the_state_untouched():
    states, moves = random_game(5)
    for state, move in zip(states[:-1], moves, strict=True):
        before = (GAME.dump(state), list(GAME.legal_moves(state)))
        GAME.play(state, move)
        assert (GAME.dump(state), list(GAME.legal_moves(state))) == before


def test_describe_names_the_player_and_tiles():
    state = GAME.new(2, seed=1)
    assert GAME.describe(state, GAME.parse_move("0,0/1 1,0/2")) == (
        "White lays tiles on 0,0/1 and 1,0/2"
    )


# ----- the renderer helper ------------------------------------------------------------------------


def test_picture_lists_tiles_targets_and_the_winning_creature():
    start = picture(GAME.new(2, seed=1))
    assert start.targets == ((0, 0),) and set(start.partners) == set(neighbours((0, 0)))
    state = GAME.play(GAME.new(2, seed=1), text(BLUE_CREATURE[0], BLUE_CREATURE[2]))
    state = GAME.play(state, text(BLUE_CREATURE[1], BLUE_CREATURE[3]))
    running = picture(state)
    assert running.tiles == state.tiles and running.creature == ()
    first_cells = {m.tiles[0][:2] for m in GAME.legal_moves(state)}
    all_cells = {t[:2] for m in GAME.legal_moves(state) for t in m.tiles}
    assert set(running.targets) == {c for c in first_cells if any(
        n in {t[:2] for t in state.tiles} for n in neighbours(c))}
    assert set(running.targets) | set(running.partners) == all_cells
    final = GAME.play(state, text(BLUE_CREATURE[4]))
    shown = picture(final)
    assert shown.targets == ()
    assert {region[:2] for region in shown.creature} == {t[:2] for t in BLUE_CREATURE}
    by_cell = {t[:2]: t[2] for t in final.tiles}
    assert all(
        tile_regions(by_cell[(q, r)])[k].colour == "blue" for q, r, k in shown.creature
    )
