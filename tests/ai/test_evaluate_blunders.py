"""A move that hands over a won position is flagged as a mistake by the post-game review: the
review's own path (``bot.services.review.evaluate_positions`` for the positions before and
after the move, ``bot.core.review.analyse`` for the mistakes) on a known blunder per game.

Each blunder was found by a seeded search (random or greedy games, checked at every ply with
the game's exact tools) and is checked here again to be one: the mover could win, and after the
move the opponent can (by a complete alpha-beta search, a creature to close, a last card, a
game-ending placement or a capture that turns the count)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

import engines
from ai.alphabeta import WIN, AlphaBeta
from ai.evaluate import result_score
from bot.core.review import MISTAKE_LOSS, analyse
from bot.services.review import ReviewSource, evaluate_positions


@dataclass(frozen=True)
class Blunder:
    game: str
    seed: int
    options: dict
    #: The moves up to and including the blunder (the last one).
    moves: tuple[str, ...]
    players: int = 2


BLUNDERS = {
    # White to move has a forced win; "e" lets Black force one.
    "alak": Blunder("alak", 1, {"length": 11}, ("c", "k", "b", "g", "a", "h", "i", "j", "f", "e")),
    # The last duels: the mover could force the win, "f" gives it away.
    "palam": Blunder("palam", 1, {}, (
        "camp isis", "a1 d1", "c", "a", "d1 e2", "d", "f", "b2 c2", "d", "a", "b1 e1", "d",
        "e", "b2 c2", "e", "b", "c2 e2", "f", "b", "b1 c2", "f", "c", "c2 e1", "a", "a", "f")),
    # Black could close a creature; the pair laid instead lets White close one.
    "palago": Blunder("palago", 3, {}, (
        "0,0/2 1,-1/0", "-1,-1/2 -1,0/1", "1,-3/0 1,-2/0", "3,-3/2 2,-3/0", "-2,0/2 -2,1/2",
        "0,1/2 -1,1/2", "-2,2/0 -1,2/1")),
    # The last card of the game: another placement wins, this one loses.
    "kolory": Blunder("kolory", 2, {}, (
        "-1,-1", "-1,1", "1,-1", "1,1", "-2,2", "2,2", "-1,3", "-2,4", "0,4", "-2,-2", "-3,-1",
        "-3,5", "0,2", "0,-2", "2,-2", "-1,5", "3,-3", "1,3", "2,0", "-4,-2")),
}


def _perfect_winner(rules: Any, pos: Any) -> int | None:
    """The seat that wins ``pos`` with perfect play (None: a draw), by a complete search."""
    me = rules.to_move(pos)
    end = rules.terminal(pos, me)
    if end is not None:
        return None if end == 0 else me if end > 0 else 1 - me
    moves = rules.moves(pos)
    if len(moves) == 1:
        return _perfect_winner(rules, rules.play(pos, moves[0]))
    result = AlphaBeta(rules, 500_000).search(pos)
    # A value beyond WIN / 2 comes from finished games only: a proven result.
    if result.value >= WIN / 2:
        return me
    if result.value <= -WIN / 2:
        return 1 - me
    assert result.complete
    return None


def _check_alpha_beta(module: Any, before: Any, after: Any) -> None:
    mover = before.to_move
    assert _perfect_winner(module.RULES, module.from_view(before)) == mover
    if after.outcome is not None:
        assert after.outcome.winners == {1 - mover}
    else:
        assert _perfect_winner(module.RULES, module.from_view(after)) == 1 - mover


def _check(name: str, before: Any, after: Any) -> None:
    """That the move from ``before`` to ``after`` hands over a won position."""
    mover = before.to_move
    if name == "alak":
        from ai import alak

        _check_alpha_beta(alak, before, after)
    elif name == "palam":
        from ai import palam

        _check_alpha_beta(palam, before, after)
    elif name == "palago":
        from ai import palago
        from engines.palago import COLOUR_OF_SEAT

        mine = COLOUR_OF_SEAT[mover]
        assert palago.winning_moves(palago.Board.from_tiles(before.tiles), mine, limit=1)
        assert after.outcome is None and after.to_move == 1 - mover
        assert palago.winning_moves(palago.Board.from_tiles(after.tiles), 1 - mine, limit=1)
    elif name == "kolory":
        game = engines.get(name)
        ends = [game.play(before, move).outcome for move in game.legal_moves(before)]
        assert all(end is not None for end in ends)
        assert max(result_score(name, end, 2, mover) for end in ends) == 1.0
        assert result_score(name, after.outcome, 2, mover) == 0.0
    else:
        raise AssertionError(f"no check for {name}")


@pytest.mark.parametrize("name", sorted(BLUNDERS))
def test_a_blunder_that_hands_over_a_won_position_is_flagged_by_the_review(name: str) -> None:
    blunder = BLUNDERS[name]
    ply = len(blunder.moves)
    source = ReviewSource(0, ply, name, blunder.players, blunder.seed, blunder.options,
                          blunder.moves, None)
    states = source.states()
    _check(name, states[ply - 1], states[ply])
    evaluated = evaluate_positions(source, ply - 1, ply + 1)
    review = analyse(name, blunder.players, blunder.moves[-1:], evaluated.movers[:1],
                     evaluated.forced[:1], evaluated.scores)
    mover = states[ply - 1].to_move
    assert [(m.seat, m.played) for m in review.mistakes] == [(mover, blunder.moves[-1])]
    assert review.mistakes[0].loss >= MISTAKE_LOSS
