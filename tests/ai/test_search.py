"""The two search cores on a game whose answer is known: Nim with one pile, take 1 to 3
stones, whoever takes the last stone wins; the winning move leaves a multiple of 4."""

from __future__ import annotations

import random

from ai import mcts
from ai.alphabeta import WIN, AlphaBeta


class Nim:
    """Positions are (stones left, seat to move)."""

    amaf = False

    def moves(self, pos):
        return [n for n in (1, 2, 3) if n <= pos[0]]

    def play(self, pos, move, rng=None):
        return (pos[0] - move, 1 - pos[1])

    def to_move(self, pos):
        return pos[1]

    def terminal(self, pos, root):
        if pos[0]:
            return None
        # The player who just moved took the last stone.
        return WIN if pos[1] != root else -WIN

    def evaluate(self, pos, root):
        return 0.0

    def key(self, pos):
        return pos

    def rewards(self, pos):
        if pos[0]:
            return None
        return (1.0, 0.0) if pos[1] == 1 else (0.0, 1.0)

    def playout(self, pos, rng):
        while pos[0]:
            pos = self.play(pos, rng.choice(self.moves(pos)))
        return self.rewards(pos)


def test_alpha_beta_solves_nim():
    for stones in range(5, 22):
        result = AlphaBeta(Nim(), 1_000_000).search((stones, 0))
        if stones % 4:
            assert result.value >= WIN / 2
            assert (stones - result.move) % 4 == 0
        else:
            assert result.value <= -WIN / 2
        assert result.complete or result.value >= WIN / 2


def test_alpha_beta_keeps_the_last_finished_iteration_when_nodes_run_out():
    result = AlphaBeta(Nim(), 30).search((21, 0))
    assert result.move in (1, 2, 3)
    assert result.nodes <= 31


def test_mcts_finds_the_winning_nim_move():
    rng = random.Random(1)
    for stones in (6, 7, 9, 10, 11):
        stats = mcts.search(Nim(), lambda r, s=stones: (s, 0), 2000, rng)
        assert (stones - stats[0].move) % 4 == 0
        assert stats[0].visits >= max(s.visits for s in stats)


def test_mcts_is_deterministic_for_a_seed():
    first = mcts.search(Nim(), lambda r: (13, 0), 300, random.Random(5))
    again = mcts.search(Nim(), lambda r: (13, 0), 300, random.Random(5))
    assert first == again


class ChanceNim(Nim):
    """Nim where, after each move, a coin decides who moves next: the tree must key its edges
    by the player who chose them."""

    def play(self, pos, move, rng=None):
        return (pos[0] - move, rng.randrange(2))

    def rewards(self, pos):
        return None if pos[0] else self._last

    def playout(self, pos, rng):
        return (0.5, 0.5)


def test_mcts_keys_edges_by_the_mover_when_chance_picks_who_moves():
    game = ChanceNim()
    game._last = (0.5, 0.5)
    stats = mcts.search(game, lambda r: (8, 0), 200, random.Random(2))
    assert {s.move for s in stats} == {1, 2, 3}
    assert sum(s.visits for s in stats) == 200
