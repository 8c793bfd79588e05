"""How well a position stands for one seat: its expected score, for the post-game review's graph
and for anyone who asks "who is winning?".

    value = ai.evaluate("polygo", view, seat)      # in [0, 1]
    found = ai.analyse("polygo", view, seat)       # the same value, and the move the search
                                                   # found best when ``seat`` is to move

The value is on the scale of results: a win is 1, a draw 0.5, a loss 0; with three or more
players, the mean over the seat's opponents of finishing ahead of them (1), level (0.5) or
behind (0) (``result_score``; LPPG's four players are two teams, whose opponents are the other
team). A finished game gets the actual result.

Like ``ai.choose``, an evaluation sees only ``view`` (what ``seat`` sees), depends only on its
arguments (searches are sized by counts derived from ``budget_s`` with each game's calibrated
rate, never by the clock) and takes plain arguments (a view or ``game.dump(view)``), so a worker
process can run it. The seat need not be the one to move.

How each game is judged, and why:

- **Alak** up to ``ai.alak_solved.SOLVED_UP_TO`` points (11, the default line): the exact
  result with perfect play (1, 0.5 or 0) from the game solved by retrograde analysis, solved
  once per process on first use (about 1.5 s of CPU at 11 points). Positions from which
  neither side can force the game to end in its favour are draws; the empty line of 8 to 12
  points is a draw, and so is every first move on it. The move found best is one that keeps the
  exact result, the search's choice among them (larger margins, likelier slips by the
  opponent), so that a heuristic's lean no longer charges a move that loses nothing.
- **Alak** on longer lines and **Palam** (perfect information, alpha-beta already written):
  the hard level's alpha-beta search from the position, turned into a probability. A proven
  result is exact (1, 0.5 or 0); otherwise the margin the search expects (stones, points) goes
  through a logistic curve whose width was fitted on games between the AI levels
  (``bench/evaluate.py``).
  Palam's draft (24 picks before any duel) is too deep for the search: there the value is the
  mean result of random completions of the draft followed by greedy duels, as the draft AI uses.
- **Polygo** and **Kolory** (no cheap evaluation; MCTS already written): the tree search from the
  position, and the per-seat mean result of its playouts through the move it would play (the
  most visited one), or of all its playouts while no move has been visited enough to judge
  alone. Kolory's tree chooses moves by the players' own reward (a seat that cannot win still
  cuts the leader's patch, as the AI levels do), and its playouts are also scored on the
  evaluation's scale (ahead / level / behind per opponent), which is what the value reads.
  With three or more players that value is blended with the patches as they stand and pulled
  towards ½ early in the game (``KOLORY_BLEND``, fitted): the last cards decide, which the
  playouts rarely foresee.
  In Polygo's scoring phase the count as it stands (dead stones as marked) weighs most, since
  most games end with it; the search covers a resumed game.
- **Palago**: decided by threats, so the value comes from them, looked at as the AI looks: the
  side to move that can close a creature of its own colour wins (1); one facing two threats it
  cannot block together loses (0); then its best moves by the search's evaluation are checked
  one move ahead: one that leaves two threats the opponent cannot block is nearly a win
  (``PALAGO_DOUBLE_THREAT``), and if every move looked at lets the opponent close a creature,
  it is nearly a loss. Otherwise the best safe move's evaluation goes through a wide logistic
  curve (the evaluation of shapes alone predicted results little better than a constant on
  games between the levels), pulled towards a draw as the tiles run out (a board filled
  without a creature is a draw).
- **LPPG** (hidden hands): the hard level's evaluation of territories and markers (who would
  win if the game ended now, who can end it next turn), which uses only what the view shows,
  through a logistic curve, pulled towards ½ over the first cards laid (fitted: until about
  eight cards are down it predicts results no better than a constant). Playouts would need
  the hidden cards sampled and tens of milliseconds per move with the engine: too slow to
  evaluate every ply of a game.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engines
from ai.alphabeta import WIN, AlphaBeta
from ai.core import make_rng, work
from engines.core import Outcome

#: Default budget of one evaluation per game, in seconds of one core of the reference machine
#: (a review evaluates every ply of a game).
EVAL_BUDGET_S: dict[str, float] = {
    "alak": 0.1,
    "palam": 0.2,
    "palago": 0.1,
    "polygo": 0.3,
    "kolory": 0.3,
    "lppg": 0.05,
}

#: Widths of the logistic curves (fitted with bench/evaluate.py on games between the levels).
ALAK_SCALE = 1.5
PALAM_SCALE = 8.0
PALAGO_SCALE = 40.0
#: Palago: the value of a move that leaves two threats one move cannot block (or, for the
#: opponent, of having only moves that let them close a creature).
PALAGO_DOUBLE_THREAT = 0.95
LPPG_SCALE = 60.0
#: LPPG: the cards on the terrain at the start, and how many more make the evaluation trusted.
LPPG_START_CARDS = 2
LPPG_TRUSTED_AFTER = 8
#: Polygo's scoring phase: the weight of the count as it stands (the rest is the search's
#: value of playing on, in case play resumes).
POLYGO_COUNT_WEIGHT = 0.8
#: Kolory with three or more players: the value is ½ + trust × (w_search × (search − ½) +
#: w_standing × (standing − ½)), where standing is the mean over the opponents of a logistic
#: curve of the patch difference as it stands, of width KOLORY_WIDTH[0] + KOLORY_WIDTH[1] ×
#: √(cards left), and trust grows linearly from 0 to 1 between the two shares of cards placed.
#: Fitted on 36 games of 3 players and 13 of 4 between the AI levels (bench/evaluate.py's
#: pairings, 0.2 s per move, seeds 7919 × i + 50003, not the bench's), every second ply, all
#: seats, by a grid search for the lowest Brier score: over the first 30 % of the cards
#: neither the search nor the patches predicted better than a constant (least-squares weights
#: came out negative), in the middle a little, at the end the search most.
KOLORY_WIDTH = (2.0, 0.5)
KOLORY_BLEND = (0.3, 0.8, 0.6, 0.25)
#: An MCTS root move is judged alone once it holds this share of the iterations.
MCTS_TRUST = 0.2

#: Games whose losers are ranked by their scores (higher is better) with three or more players.
_RANKED_BY_SCORE = frozenset({"kolory"})


def opponents(game_name: str, players: int, seat: int) -> list[int]:
    """The seats ``seat`` plays against: everyone else, or with LPPG's four players the other
    team."""
    if game_name == "lppg" and players == 4:
        return [s for s in range(players) if s % 2 != seat % 2]
    return [s for s in range(players) if s != seat]


def result_score(game_name: str, outcome: Outcome, players: int, seat: int) -> float:
    """The actual result of ``seat`` on the evaluation's scale: per opponent, 1 when only
    ``seat`` is among the winners, 0 when only the opponent is, and otherwise level (0.5),
    except that two seats who both lost a Kolory game of three or more are ranked by their
    scores (the size of their largest patch); the mean over the opponents."""
    total = 0.0
    rivals = opponents(game_name, players, seat)
    for other in rivals:
        mine, theirs = seat in outcome.winners, other in outcome.winners
        if mine != theirs:
            total += 1.0 if mine else 0.0
        elif not mine and players > 2 and game_name in _RANKED_BY_SCORE:
            a, b = outcome.scores[seat], outcome.scores[other]
            total += 1.0 if a > b else 0.0 if a < b else 0.5
        else:
            total += 0.5
    return total / len(rivals)


@dataclass(frozen=True)
class Analysis:
    """An evaluation and, when ``seat`` is to move and the method searched moves, the move its
    search found best (canonical text; a cheaper, weaker choice than the hard level's)."""

    value: float
    move: str | None = None


def evaluate(game_name: str, view: Any, seat: int, seed: int | str = 0,
             budget_s: float | None = None) -> float:
    """The expected score of ``seat`` from ``view`` (what ``seat`` sees), in [0, 1]: see the
    module docstring. ``budget_s`` (seconds of one core, turned into a count of work)
    replaces the game's default ``EVAL_BUDGET_S``."""
    return analyse(game_name, view, seat, seed, budget_s).value


def analyse(game_name: str, view: Any, seat: int, seed: int | str = 0,
            budget_s: float | None = None) -> Analysis:
    """``evaluate``'s value with, at no extra cost, the move its search found best for
    ``seat`` when it is to move (None otherwise, and for LPPG and Palam's draft, whose
    evaluations search no moves)."""
    game = engines.get(game_name)
    if isinstance(view, Mapping):
        view = game.load(view)
    if not 0 <= seat < view.players:
        raise ValueError(f"no seat {seat} in a game of {view.players}")
    if view.outcome is not None or view.to_move is None:
        if view.outcome is None:
            raise ValueError("a game without a move to make has no outcome")
        return Analysis(result_score(game.name, view.outcome, view.players, seat))
    if budget_s is None:
        budget = EVAL_BUDGET_S[game.name]
    elif not budget_s > 0:
        raise ValueError(f"budget_s must be positive, got {budget_s!r}")
    else:
        budget = float(budget_s)
    rng = make_rng(game.name, "evaluate", seed)
    found: list[str] = []
    value = _EVALUATORS[game.name](view, seat, rng, budget, found)
    move = found[0] if found and seat == view.to_move else None
    return Analysis(min(1.0, max(0.0, value)), move)


def _squash(x: float, scale: float) -> float:
    return 1.0 / (1.0 + math.exp(-x / scale))


def _for_seat(value: float, mover: int, seat: int) -> float:
    """A two-player value for the mover, seen by ``seat``."""
    return value if seat == mover else 1.0 - value


# ----- alpha-beta games -------------------------------------------------------------------------


def _alphabeta(rules: Any, pos: Any, nodes: int, scale: float) -> tuple[int, float, Any]:
    """(mover, the mover's expected score) by alpha-beta: proven results exactly, otherwise
    the value through a logistic curve. Forced moves are played first (the search does not
    value a position with a single move)."""
    first = None
    for ply in range(64):
        if rules.terminal(pos, rules.to_move(pos)) is not None:
            break
        moves = rules.moves(pos)
        if len(moves) != 1:
            break
        if ply == 0:
            first = moves[0]
        pos = rules.play(pos, moves[0])
    mover = rules.to_move(pos)
    end = rules.terminal(pos, mover)
    if end is not None:
        value = end
    else:
        result = AlphaBeta(rules, nodes).search(pos)
        value = result.value
        if first is None:
            first = result.move
    if value >= WIN / 2:
        return mover, 1.0, first
    if value <= -WIN / 2:
        return mover, 0.0, first
    return mover, _squash(value, scale), first


def _alak(view: Any, seat: int, rng: random.Random, budget: float, found: list[str]) -> float:
    from ai import alak, alak_solved
    from engines.alak import LETTERS

    pos = alak.from_view(view)
    nodes = work(budget, alak.NODES_PER_S)
    solved = alak_solved.table(len(pos.board))
    if solved is not None:
        return _alak_solved(solved, pos, seat, nodes, found)
    mover, value, move = _alphabeta(alak.RULES, pos, nodes, ALAK_SCALE)
    if move is not None:
        found.append(LETTERS[move])
    return _for_seat(value, mover, seat)


def _alak_solved(solved: Any, pos: Any, seat: int, nodes: int, found: list[str]) -> float:
    """The exact result for ``seat``, and a move that keeps it: among those, the one the
    search prefers (larger margins, more chances for a fallible opponent to go wrong)."""
    from ai import alak, alak_solved
    from engines.alak import LETTERS

    value = solved.value(pos)
    keeping = alak_solved.keeping(solved, pos, alak.RULES.moves(pos))
    if len(keeping) == 1:
        found.append(LETTERS[keeping[0]])
    elif keeping:
        found.append(LETTERS[AlphaBeta(alak.RULES, nodes).search(pos, keeping).move])
    return _for_seat((value + 1) / 2, pos.to_move, seat)


def _palam(view: Any, seat: int, rng: random.Random, budget: float, found: list[str]) -> float:
    from ai import palam
    from engines.palam import DRAFT

    if view.phase == DRAFT:
        return _palam_draft(view, seat, rng, budget)
    pos = palam.from_view(view)
    mover, value, move = _alphabeta(palam.RULES, pos, work(budget, palam.NODES_PER_S),
                                    PALAM_SCALE)
    if move is not None:
        found.append(palam.move_text(move))
    return _for_seat(value, mover, seat)


def _palam_draft(view: Any, seat: int, rng: random.Random, budget: float) -> float:
    from ai import palam
    from ai.palam_draft import _complete_draft, _greedy_duels
    from engines.palam import EMPTY, PIECES

    seen = set(view.pool) | {p for p in view.board if p != EMPTY}
    hidden = [p for p in PIECES if p not in seen]
    playouts = work(budget, palam.PLAYOUTS_PER_S, minimum=16)
    total = 0.0
    for _ in range(playouts):
        board = list(view.board)
        _complete_draft(board, list(view.pool), list(hidden), view.isis, view.picks, rng)
        pos = palam.Position(tuple(board), 1 - view.isis, False, True, None, (0, 0), 0,
                             view.isis)
        end = _greedy_duels(pos, rng)
        mine, theirs = end.points[seat], end.points[1 - seat]
        total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return total / playouts


# ----- tree-search games ------------------------------------------------------------------------


def _mcts_values(game: Any, root: Any, players: int, iterations: int, rng: random.Random,
                 found: list, best_mean: bool = False) -> list[float]:
    """Per seat, the mean reward of the playouts through the search's chosen move, or of all
    playouts while that move holds too few of them to be judged alone. With ``best_mean``,
    the chosen move is the best by its mean among the moves visited at least half as often
    as the most visited one (when the rewards differ little, as Kolory's, visits stay even
    long after the means have found the move: the last card that cuts the leader's patch)."""
    from ai import mcts

    totals = [0.0] * players
    stats = mcts.search(game, lambda r: root, iterations, rng, per_seat=totals)
    if not stats:
        return [t / iterations for t in totals]
    best = stats[0]
    if best_mean:
        close = [s for s in stats if s.visits * 2 >= best.visits]
        best = max(close, key=lambda s: s.mean)
    found.append(best.move)
    if best_mean:
        if best.rewards is not None and best.visits >= 4:
            return list(best.rewards)
    elif best.rewards is not None and best.visits >= max(8, MCTS_TRUST * iterations):
        return list(best.rewards)
    return [t / iterations for t in totals]


def _polygo(view: Any, seat: int, rng: random.Random, budget: float, found: list[str]) -> float:
    from ai import polygo
    from engines.polygo import SCORING, score

    board = polygo.Board.from_view(view)
    # In the scoring phase, play may resume: judge the board as if it went on from here...
    board.passes = min(board.passes, 1)
    turns: list = []
    values = _mcts_values(polygo.SEARCH, (board, ()), 2,
                          work(budget, polygo.ITERATIONS_PER_S, minimum=16), rng, turns)
    if view.phase != SCORING:
        found.extend(polygo.turn_text(turn, view.board_kind) for turn in turns)
        return values[seat]
    # ...but most games end with the count as it stands (dead stones as marked).
    points = score(view).points
    counted = 1.0 if points[seat] > points[1 - seat] else \
        0.5 if points[seat] == points[1 - seat] else 0.0
    return POLYGO_COUNT_WEIGHT * counted + (1 - POLYGO_COUNT_WEIGHT) * values[seat]


class _KolorySearch:
    """Kolory's search whose rewards carry two vectors: first the players' own rewards (the
    share of the win plus the margin over the best other seat, as the AI plays: a seat that
    cannot win still cuts the leader's patch), which the tree maximises, then the same end on
    the evaluation's scale (``_kolory_scores``), which the evaluation reads."""

    def __init__(self) -> None:
        from ai import kolory

        self.base = kolory.SEARCH

    def to_move(self, pos: Any) -> int:
        return pos.to_move

    def moves(self, pos: Any) -> list[int]:
        return pos.moves()

    def play(self, pos: Any, key: int, rng: random.Random) -> Any:
        return self.base.play(pos, key, rng)

    def rewards(self, pos: Any) -> tuple[float, ...] | None:
        return None if pos.to_move is not None else _both(pos.largest())

    def playout(self, pos: Any, rng: random.Random) -> tuple[float, ...]:
        from ai import kolory

        pos = pos.copy()
        while pos.to_move is not None:
            moves = pos.moves()
            if rng.random() < 0.75:
                key = kolory.policy_move(pos, moves, rng)
            else:
                key = moves[rng.randrange(len(moves))]
            pos.play(key, rng)
        return _both(pos.largest())


def _both(sizes: list[int]) -> tuple[float, ...]:
    from ai import kolory

    return kolory.rewards_of(sizes) + _kolory_scores(sizes)


def _kolory_scores(sizes: list[int]) -> tuple[float, ...]:
    """Per seat, the mean over the others of a larger (1), equal (0.5) or smaller (0) patch:
    ``result_score`` of a finished game (every seat with the largest patch wins)."""
    players = len(sizes)
    return tuple(
        sum(1.0 if sizes[seat] > sizes[o] else 0.5 if sizes[seat] == sizes[o] else 0.0
            for o in range(players) if o != seat) / (players - 1)
        for seat in range(players))


def _kolory(view: Any, seat: int, rng: random.Random, budget: float, found: list[str]) -> float:
    from ai import kolory
    from engines.kolory import CARDS_PER_PLAYER, KoloryMove, unpack

    pos = kolory.Position.from_view(view)
    placed = pos.cards - 1
    left = pos.players * CARDS_PER_PLAYER - placed
    per_iteration = left * (placed + left / 2 + 4)
    iterations = min(work(budget, kolory.ITERATIONS_PER_S),
                     work(budget, kolory.UNITS_PER_S / per_iteration, minimum=16))
    keys: list = []
    values = _mcts_values(_KolorySearch(), pos, 2 * pos.players, iterations, rng, keys,
                          best_mean=True)
    found.extend(str(KoloryMove(*unpack(key))) for key in keys)
    searched = values[pos.players + seat]
    if pos.players == 2:
        return searched
    # Three or more players: the last cards decide (a seat that can no longer win cuts the
    # leader's patch), which the playouts rarely foresee, so the search's value alone predicted
    # results worse than a constant. Blend it with the patches as they stand, and trust the
    # blend only as the cards run out (see KOLORY_BLEND).
    sizes = pos.largest()
    width = KOLORY_WIDTH[0] + KOLORY_WIDTH[1] * math.sqrt(left)
    standing = statistics.fmean(_squash(sizes[seat] - sizes[other], width)
                                for other in range(pos.players) if other != seat)
    start, trusted, search_weight, standing_weight = KOLORY_BLEND
    trust = min(1.0, max(0.0, (placed / (placed + left) - start) / (trusted - start)))
    return 0.5 + trust * (search_weight * (searched - 0.5) + standing_weight * (standing - 0.5))


# ----- evaluation functions ---------------------------------------------------------------------


def _palago(view: Any, seat: int, rng: random.Random, budget: float, found: list[str]) -> float:
    from ai import palago
    from engines.palago import COLOUR_OF_SEAT, GAME, TOTAL_TILES, PalagoMove

    board = palago.Board.from_tiles(view.tiles)
    mover = view.to_move
    mine = COLOUR_OF_SEAT[mover]
    theirs = 1 - mine
    wins = palago.winning_moves(board, mine, limit=1)
    if wins:
        found.append(str(PalagoMove(wins[0])))
        return _for_seat(1.0, mover, seat)
    threats = palago.winning_moves(board, theirs, limit=8)
    if threats and not palago._blockable_together(threats):
        return _for_seat(0.0, mover, seat)
    # One move ahead, as the AI looks: the best moves by the evaluation, checked for a reply
    # that closes an opponent's creature (the move loses) and for our threats after it (two
    # that one move cannot block win).
    sims = work(budget, palago.SIMULATIONS_PER_S)
    moves = list(GAME.legal_moves(view))
    if len(moves) > sims:
        moves = rng.sample(moves, sims)
    scored = []
    for move in moves:
        value = palago._simulate(board, move.tiles, mine, theirs, view.tiebreak)
        if value is not None:
            scored.append((value, move))
    if not scored:
        return _for_seat(0.0, mover, seat)
    scored.sort(key=lambda vm: -vm[0])
    if threats:
        needed = {palago.cell_id(q, r) for move in threats for q, r, _ in move}
        scored.sort(key=lambda vm: not any(palago.cell_id(q, r) in needed
                                           for q, r, _ in vm[1].tiles))
    checks = max(2, sims // (10 * palago.CHECK_COST))
    safe = None
    for value, move in scored[:checks]:
        after = board.copy()
        for q, r, o in move.tiles:
            after.place(palago.cell_id(q, r), o)
        if palago.winning_moves(after, theirs, limit=1):
            continue
        ours = palago.winning_moves(after, mine, limit=8)
        if ours and not palago._blockable_together(ours):
            found.insert(0, str(move))
            return _for_seat(PALAGO_DOUBLE_THREAT, mover, seat)
        if safe is None:
            safe = value
            found.append(str(move))
    if safe is None:
        # Every move looked at lets the opponent close a creature.
        return _for_seat(1.0 - PALAGO_DOUBLE_THREAT, mover, seat)
    value = _squash(safe, PALAGO_SCALE)
    if not view.tiebreak:
        # A board filling up without a creature heads for a draw.
        left = (TOTAL_TILES - board.tiles) / TOTAL_TILES
        value = 0.5 + (value - 0.5) * min(1.0, 2.0 * left)
    return _for_seat(value, mover, seat)


def _lppg(view: Any, seat: int, rng: random.Random, budget: float, found: list[str]) -> float:
    from ai import lppg

    value = _squash(lppg.evaluate(view, seat), LPPG_SCALE)
    # Early on the evaluation predicts nothing (fitted: no better than a constant over the
    # first third of the games): trust it in proportion to the cards laid.
    trust = min(1.0, max(0.0, (len(view.placed) - LPPG_START_CARDS) / LPPG_TRUSTED_AFTER))
    return 0.5 + trust * (value - 0.5)


_EVALUATORS = {
    "alak": _alak,
    "kolory": _kolory,
    "lppg": _lppg,
    "palago": _palago,
    "palam": _palam,
    "polygo": _polygo,
}
