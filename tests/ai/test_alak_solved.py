"""Alak solved exactly (ai.alak_solved): the retrograde analysis agrees with a plain minimax
over the fast rules, and the post-game review judges Alak moves by the exact values."""

from __future__ import annotations

import random
from collections import deque

import pytest

from ai import alak_solved
from ai.alak import RULES, Position
from bot.core.review import MISTAKE_LOSS, analyse
from bot.services.review import ReviewSource, evaluate_positions
from engines.alak import LETTERS
from engines.graphgo import EMPTY


def _empty(n: int) -> Position:
    return Position(tuple([EMPTY] * n), 0, ())


def _end_value(pos: Position) -> int:
    """The stone count's verdict for the side to move of a finished position."""
    mine = pos.board.count(pos.to_move)
    theirs = pos.board.count(1 - pos.to_move)
    return (mine > theirs) - (mine < theirs)


def _minimax(pos: Position, depth: int, memo: dict, failed: dict) -> int | None:
    """The value for the side to move by a plain exhaustive minimax on the fast rules, or None
    when some line from ``pos`` lasts more than ``depth`` plies (cycles included) and no won
    line decides without it."""
    key = RULES.key(pos)
    if key in memo:
        return memo[key]
    if pos.over or not RULES.moves(pos):
        memo[key] = _end_value(pos)
        return memo[key]
    if depth == 0 or failed.get(key, -1) >= depth:
        return None
    values = [_minimax(RULES.play(pos, p), depth - 1, memo, failed) for p in RULES.moves(pos)]
    if -1 in values:
        memo[key] = 1
    elif None in values:
        failed[key] = depth
        return None
    else:
        memo[key] = max(-v for v in values)
    return memo[key]


def _reachable(n: int) -> list[Position]:
    seen = {RULES.key(_empty(n)): _empty(n)}
    queue = deque(seen.values())
    while queue:
        pos = queue.popleft()
        if pos.over:
            continue
        for p in RULES.moves(pos):
            child = RULES.play(pos, p)
            if RULES.key(child) not in seen:
                seen[RULES.key(child)] = child
                queue.append(child)
    return list(seen.values())


def test_the_solution_agrees_with_a_plain_minimax_on_the_seven_point_line() -> None:
    solved = alak_solved.solve(7)
    positions = _reachable(7)
    memo: dict = {}
    failed: dict = {}
    compared = 0
    for pos in positions:
        value = solved.value(pos)
        # Every position, cycles or not, is consistent: the best move's value, or the count.
        if pos.over or not RULES.moves(pos):
            assert value == _end_value(pos)
        else:
            assert value == max(-solved.value(RULES.play(pos, p)) for p in RULES.moves(pos))
        exact = _minimax(pos, 12, memo, failed)
        if exact is not None:
            assert value == exact, pos
            compared += 1
    # The minimax values most positions (those it cannot, it leaves to the check above).
    assert compared > len(positions) // 2
    assert {solved.value(pos) for pos in positions} == {-1, 0, 1}


def test_the_solution_agrees_with_a_plain_minimax_near_the_end_of_eleven_point_games() -> None:
    solved = alak_solved.table(11)
    rng = random.Random(5)
    memo: dict = {}
    failed: dict = {}
    compared = 0
    for _ in range(40):
        pos = _empty(11)
        line = [pos]
        while not pos.over:
            pos = RULES.play(pos, rng.choice(RULES.moves(pos)))
            line.append(pos)
        for pos in line[-6:]:
            exact = _minimax(pos, 8, memo, failed)
            if exact is not None:
                assert solved.value(pos) == exact
                compared += 1
    assert compared >= 150


def test_a_position_not_reachable_from_the_empty_line_is_refused() -> None:
    solved = alak_solved.solve(7)
    # Three black stones and none of White's with White to move cannot happen.
    with pytest.raises(KeyError):
        solved.value(Position((0, 0, 0, EMPTY, EMPTY, EMPTY, EMPTY), 1, ()))


def test_only_lines_up_to_the_cut_off_are_solved() -> None:
    assert alak_solved.table(alak_solved.SOLVED_UP_TO + 1) is None


def _review_of_last_move(moves: tuple[str, ...]):
    source = ReviewSource(0, len(moves), "alak", 2, 1, {"length": 11}, moves, None)
    evaluated = evaluate_positions(source, len(moves) - 1, len(moves) + 1)
    return analyse("alak", 2, moves[-1:], evaluated.movers[:1], evaluated.forced[:1],
                   evaluated.scores)


def _solved_value_for_mover(moves: tuple[str, ...]) -> tuple[int, int]:
    """The exact value for the last move's mover before it and after it."""
    solved = alak_solved.table(11)
    pos = _empty(11)
    for move in moves[:-1]:
        pos = RULES.play(pos, LETTERS.index(move))
    after = RULES.play(pos, LETTERS.index(moves[-1]))
    return solved.value(pos), -solved.value(after)


@pytest.mark.parametrize("first", ["e", "b", "f"])
def test_alak_first_move_is_not_a_mistake_when_it_keeps_the_solved_value(first: str) -> None:
    # The review once flagged "e" and "b" against "f" (a heuristic search's lean): every first
    # move on the 11-point line keeps the draw.
    before, after = _solved_value_for_mover((first,))
    assert before == after == alak_solved.DRAW
    review = _review_of_last_move((first,))
    assert review.scores == ((0.5, 0.5), (0.5, 0.5))
    assert review.mistakes == ()


def test_alak_move_that_turns_a_draw_into_a_loss_is_a_mistake() -> None:
    moves = ("e", "c", "h", "i", "f", "d", "j")
    before, after = _solved_value_for_mover(moves)
    assert (before, after) == (alak_solved.DRAW, alak_solved.LOSS)
    review = _review_of_last_move(moves)
    assert [(m.seat, m.played) for m in review.mistakes] == [(0, "j")]
    assert review.mistakes[0].loss == pytest.approx(0.5)
    assert review.mistakes[0].loss >= MISTAKE_LOSS
