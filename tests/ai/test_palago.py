"""Palago AI: its board agrees with the engine and with the engine tests' from-scratch
reference, its winning-move finder agrees with trying every legal move, and the levels take
wins and block the opponent's."""

from __future__ import annotations

import random

import pytest

import ai
import engines
from ai import palago
from engines.palago import COLOUR_OF_SEAT
from tests.ai.helpers import random_walk
from tests.engines.test_palago import BLUE_CREATURE, position, reference_components

GAME = engines.get("palago")


def _region_name(q: int, r: int, o: int, k: int):
    """Our region numbering (RULES.md §3 order) in the reference's names."""
    corner = {0: (o + 1) % 6, 1: o % 6, 2: (o + 4) % 6, 3: (o + 3) % 6}[k]
    return (q, r, ("tip" if k % 2 == 0 else "arch", corner))


def _components(board: palago.Board, tiles) -> set[tuple[frozenset, bool]]:
    out = set()
    for lab, members in board.members.items():
        names = frozenset(
            _region_name(*tiles[region >> 2][:2], tiles[region >> 2][2], region & 3)
            for region in members)
        out.add((names, board.open[lab] == 0))
    return out


def test_components_match_the_reference_after_every_tile():
    for seed in range(25):
        tiles: list = []
        board = palago.Board()
        for state, move in random_walk("palago", seed):
            if move is None:
                break
            for q, r, o in move.tiles:
                found = board.place(palago.cell_id(q, r), o)
                tiles.append((q, r, o))
            reference = {(frozenset(regions), closed)
                         for regions, closed, _, _ in reference_components(tiles)}
            assert _components(board, tiles) == reference
            after = GAME.play(state, move)
            if after.outcome is not None and after.outcome.winners:
                assert found  # the move that ended the game closed a creature on our board
            else:
                assert not found


def _winning_by_brute_force(state) -> set:
    seat = state.to_move
    return {move.tiles for move in GAME.legal_moves(state)
            if (after := GAME.play(state, move)).outcome is not None
            and after.outcome.winners == frozenset({seat})}


def test_winning_moves_are_exactly_the_legal_moves_that_win():
    """Late positions of random games (where shapes are near closing): the hot-cell search
    finds the same winning moves as playing every legal move in the engine."""
    rng = random.Random(8)
    compared = with_wins = 0
    for seed in range(400):
        walk = [s for s, _ in random_walk("palago", seed) if s.to_move is not None]
        for state in rng.sample(walk[len(walk) // 2:], min(2, len(walk) // 2)):
            board = palago.Board.from_tiles(state.tiles)
            found = palago.winning_moves(board, COLOUR_OF_SEAT[state.to_move])
            expected = _winning_by_brute_force(state)
            assert set(found) == expected
            compared += 1
            with_wins += bool(expected)
        if compared >= 30 and with_wins >= 6:
            break
    assert with_wins >= 6


def test_every_level_takes_a_win_on_the_table():
    # Blue (seat 1) to move with every tile of a blue creature down but the last one.
    shape = BLUE_CREATURE[:-1]
    state = position(shape, to_move=1)
    for level in ai.LEVELS:
        move = ai.choose("palago", state, 1, level, budget_s=0.05)
        after = GAME.play(state, move)
        assert after.outcome is not None and after.outcome.winners == frozenset({1}), level
    assert ai.hint("palago", state, 1).reason.key == "ai.palago.creature"


@pytest.mark.slow(11)
def test_hard_blocks_the_opponents_threats():
    """Positions where the opponent (to move next) could close a creature of theirs: hard
    plays a move after which they no longer can, whenever such a move exists."""
    rng = random.Random(3)
    tested = 0
    for seed in range(300):
        walk = [s for s, _ in random_walk("palago", seed) if s.to_move is not None]
        for state in walk[4:]:
            seat = state.to_move
            theirs = 1 - COLOUR_OF_SEAT[seat]
            board = palago.Board.from_tiles(state.tiles)
            if palago.winning_moves(board, COLOUR_OF_SEAT[seat], limit=1):
                continue  # we would rather win
            if not palago.winning_moves(board, theirs, limit=1):
                continue
            level = "hard"
            move = GAME.parse_move(ai.choose("palago", state, seat, level, seed=seed), state)
            after = palago.Board.from_tiles(state.tiles)
            for q, r, o in move.tiles:
                after.place(palago.cell_id(q, r), o)
            if palago.winning_moves(after, theirs, limit=1):
                # Allowed only when no legal move stops every threat: check a sample.
                for other in rng.sample(list(GAME.legal_moves(state)), 200):
                    trial = palago.Board.from_tiles(state.tiles)
                    closed = 0
                    for q, r, o in other.tiles:
                        closed |= trial.place(palago.cell_id(q, r), o)
                    assert closed or palago.winning_moves(trial, theirs, limit=1), (
                        level, seed, str(move), str(other))
            tested += 1
            break
        if tested >= 8:
            break
    assert tested >= 8


def test_largest_arches_match_the_engines_tiebreak_scores():
    """Random games that fill the table without a creature, replayed with the tiebreak: the
    engine's scores (White's, Blue's largest arch counts) are our board's figures."""
    compared = 0
    for seed in range(12):
        walk = list(random_walk("palago", seed))
        final = walk[-1][0]
        if final.outcome.winners:
            continue
        moves = [str(move) for _, move in walk[:-1]]
        replayed = GAME.replay(2, 1, {"tiebreak": True}, moves)[-1]
        blue, white = palago.Board.from_tiles(final.tiles).largest_arches()
        assert replayed.outcome.scores == (float(white), float(blue))
        compared += 1
    assert compared >= 5
