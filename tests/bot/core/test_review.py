"""The review's analysis from a given series of evaluations (no AI, no database): losses,
the mistakes chosen, each player's line, and the record's comments."""

from __future__ import annotations

import pytest

from bot.core.review import (
    MISTAKE_LOSS,
    Review,
    analyse,
    expected_score_comments,
    losses,
    mistake_candidates,
    player_lines,
    plies_to_ask,
)


def two_player(values: list[float]) -> list[tuple[float, float]]:
    """Seat 0's expected score per position; seat 1's is its complement."""
    return [(v, 1.0 - v) for v in values]


# Seat 0 moves at plies 1, 3, 5, 7, 9; seat 1 at 2, 4, 6, 8.
MOVERS = [0, 1, 0, 1, 0, 1, 0, 1, 0]
MOVES = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
#                    0    1    2    3    4    5    6    7    8    9
SCORES = two_player([0.5, 0.2, 0.3, 0.3, 0.6, 0.4, 0.9, 0.5, 0.9, 1.0])


def test_the_loss_of_a_move_is_the_fall_of_its_movers_expected_score():
    got = losses(SCORES, MOVERS)
    # Move 1 (seat 0): 0.5 -> 0.2; move 2 (seat 1): 0.8 -> 0.7; move 4 (seat 1): 0.7 -> 0.4;
    # move 5 (seat 0): 0.6 -> 0.4; move 6 (seat 1): 0.6 -> 0.1; move 7 (seat 0): 0.9 -> 0.5;
    # a rise costs nothing.
    assert got == pytest.approx([0.3, 0.1, 0.0, 0.3, 0.2, 0.5, 0.4, 0.4, 0.0])
    with pytest.raises(ValueError):
        losses(SCORES[:-1], MOVERS)


def test_mistakes_are_the_falls_over_the_threshold_largest_first_earlier_on_ties():
    found = mistake_candidates(SCORES, MOVERS, MOVES, [False] * 9)
    assert [(m.ply, round(m.loss, 6)) for m in found[0]] == [(7, 0.4), (1, 0.3), (5, 0.2)]
    assert [(m.ply, round(m.loss, 6)) for m in found[1]] == [(6, 0.5), (8, 0.4), (4, 0.3)]
    assert found[1][0].played == "f" and found[1][0].before == pytest.approx(0.6)
    # Move 2 lost 0.1 < MISTAKE_LOSS: not a mistake.
    assert MISTAKE_LOSS == 0.15 and all(m.ply != 2 for m in found[1])


def test_a_forced_move_is_never_a_mistake():
    forced = [False] * 9
    forced[5] = True  # move 6 was the only legal move
    found = mistake_candidates(SCORES, MOVERS, MOVES, forced)
    assert [m.ply for m in found[1]] == [8, 4]


def test_at_most_three_mistakes_per_player_are_shown():
    big = two_player([1.0, 0.8, 0.6, 0.4, 0.2, 0.0])
    review = analyse("alak", 2, list("abcde"), [0] * 5, [False] * 5, big)
    assert [m.ply for m in review.mistakes_of(0)] == [1, 2, 3]


def test_a_mistake_the_ai_would_have_played_too_gives_way_to_the_next():
    better = {6: "f", 8: "x", 4: "y", 1: "z"}  # the AI agrees with move 6
    review = analyse("alak", 2, MOVES, MOVERS, [False] * 9, SCORES, better=better)
    assert [(m.ply, m.better) for m in review.mistakes_of(1)] == [(8, "x"), (4, "y")]
    assert [(m.ply, m.better) for m in review.mistakes_of(0)] == [(7, None), (1, "z"),
                                                                  (5, None)]


def test_the_ai_is_asked_about_twice_the_shown_mistakes_at_most():
    assert plies_to_ask(SCORES, MOVERS, MOVES, [False] * 9) == [1, 4, 5, 6, 7, 8]
    assert plies_to_ask(SCORES, MOVERS, MOVES, [False] * 9, per_player=1) == [6, 7]


def test_each_player_gets_moves_average_loss_and_mistakes():
    lines = player_lines(SCORES, MOVERS, [False] * 9, 2)
    assert (lines[0].moves, lines[0].mistakes) == (5, 3)
    assert lines[0].average_loss == pytest.approx((0.3 + 0.0 + 0.2 + 0.4 + 0.0) / 5)
    assert (lines[1].moves, lines[1].mistakes) == (4, 3)
    assert lines[1].average_loss == pytest.approx((0.1 + 0.3 + 0.5 + 0.4) / 4)


def test_three_players_each_have_their_own_curve_and_line():
    scores = [(0.5, 0.5, 0.5), (0.2, 0.6, 0.7), (0.2, 0.3, 0.9), (0.0, 0.5, 1.0)]
    review = analyse("kolory", 3, ["a", "b", "c"], [0, 1, 2], [False] * 3, scores)
    assert [(m.seat, m.ply) for m in review.mistakes] == [(0, 1), (1, 2)]
    assert [line.mistakes for line in review.lines] == [1, 1, 0]
    assert review.result == (0.0, 0.5, 1.0)


def test_a_review_is_stored_and_read_back_whole():
    review = analyse("alak", 2, MOVES, MOVERS, [False] * 9, SCORES, better={6: "q"},
                     full_information=True)
    back = Review.load(review.dump())
    # Figures are kept to four decimals (the picture and the record show two).
    assert back.dump() == review.dump()
    assert [(m.ply, m.seat, m.played, m.better) for m in back.mistakes] == [
        (m.ply, m.seat, m.played, m.better) for m in review.mistakes]
    assert [v for row in back.scores for v in row] == pytest.approx(
        [v for row in review.scores for v in row])
    assert [(x.moves, x.mistakes) for x in back.lines] == [(x.moves, x.mistakes)
                                                           for x in review.lines]
    assert (back.full_information, back.finished, back.movers) == (True, True, tuple(MOVERS))


def test_the_records_comments_give_every_seats_expected_score_after_each_move():
    review = analyse("alak", 2, MOVES, MOVERS, [False] * 9, SCORES)
    comments = expected_score_comments(review, ["Ann", "Bo"])
    assert len(comments) == 9
    assert comments[0] == "expected score: Ann 0.20 · Bo 0.80"
    assert comments[-1] == "expected score: Ann 1.00 · Bo 0.00"


def test_a_game_ended_without_a_move_keeps_its_result_apart():
    # Seat 1 played the last move (to 0.6 for seat 0), then resigned: seat 0 won.
    scores = [(0.5, 0.5), (0.5, 0.5), (0.6, 0.4)]
    review = analyse("alak", 2, ["a", "b"], [0, 1], [False, False], scores, ended=(1.0, 0.0))
    assert review.result == (1.0, 0.0) and review.scores[-1] == (0.6, 0.4)
    assert not review.mistakes  # the resignation is no move: seat 1's move lost 0.1 only
    assert Review.load(review.dump()).ended == (1.0, 0.0)
    running = analyse("alak", 2, ["a", "b"], [0, 1], [False, False], scores, finished=False)
    assert running.result == (0.6, 0.4) and Review.load(running.dump()).ended is None


def test_a_move_is_judged_against_the_ais_own_move_like_with_like():
    """An evaluation leaning towards the side to move (an empty Alak line: 0.66 for whoever
    is to move) makes the first move look like a fall of 0.32; the AI's own first move falls
    as far, so it is no mistake, and is not counted. A move the AI beats by more than the
    threshold is shown with the loss against the AI's move."""
    scores = [(0.66, 0.34), (0.34, 0.66), (0.62, 0.38), (0.1, 0.9), (0.5, 0.5)]
    moves, movers = ["t", "h", "c", "k"], [0, 1, 0, 1]
    raw = analyse("alak", 2, moves, movers, [False] * 4, scores)
    assert [m.ply for m in raw.mistakes_of(0)] == [3, 1] and raw.lines[0].mistakes == 2
    judged = analyse("alak", 2, moves, movers, [False] * 4, scores,
                     better={1: "k", 3: "d"}, kept={1: 0.40, 3: 0.55})
    assert [(m.ply, m.better) for m in judged.mistakes_of(0)] == [(3, "d")]
    assert judged.mistakes_of(0)[0].loss == pytest.approx(0.45)
    assert judged.lines[0].mistakes == 1 and judged.dismissed == (1,)
    back = Review.load(judged.dump())
    assert back.lines[0].mistakes == 1 and back.dismissed == (1,)


def test_hindsight_at_the_end_charges_the_move_that_left_the_winning_move():
    """Four-player LPPG, teams 0+2 against 1+3: the evaluation stays hopeful for seats 0 and 2
    until seat 3's last moves win; the fall shows on seat 3's move, a rise for it. Seat 2's
    move before it left that ending on the board and carries the fall (it used to read
    "0 lost per move, 0 mistakes" for everyone)."""
    def team(value: float) -> tuple[float, float, float, float]:
        return (value, 1.0 - value, value, 1.0 - value)

    movers = [0, 1, 2, 3, 3]
    scores = [team(0.5), team(0.55), team(0.5), team(0.78), team(0.78), team(0.0)]
    review = analyse("lppg", 4, list("abcde"), movers, [False] * 5, scores)
    lines = {line.seat: line for line in review.lines}
    assert lines[2].mistakes == 1 and lines[2].average_loss == pytest.approx(0.5 / 1)
    [mistake] = review.mistakes_of(2)
    assert (mistake.ply, mistake.before, mistake.after) == (3, 0.5, 0.0)
    # The winners' own moves cost them nothing; the stored review reads back the same lines.
    assert lines[3].average_loss == 0.0 and lines[1].average_loss == 0.0
    assert Review.load(review.dump()).lines == review.lines


def test_no_hindsight_when_the_game_ended_without_a_move_or_is_still_running():
    movers = [0, 1]
    scores = two_player([0.5, 0.6, 0.6])
    for kwargs in ({"ended": (0.0, 1.0)}, {"finished": False}):
        review = analyse("alak", 2, ["a", "b"], movers, [False, False], scores, **kwargs)
        assert review.lines[0].average_loss == 0.0, kwargs
    # Ended by seat 1's move, a win: seat 0's move before it carries the fall to 0.
    finished = analyse("alak", 2, ["a", "b"], movers, [False, False],
                       two_player([0.5, 0.6, 0.0]))
    assert finished.lines[0].average_loss == pytest.approx(0.5)
    assert losses(two_player([0.5, 0.6, 0.0]), movers, ends_by_move=True)[0] == 0.5
