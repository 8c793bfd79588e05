"""The analysis of a post-game review, as pure functions over a series of evaluations (no
Discord, no database, no AI call: ``bot.services.review`` gathers the evaluations, this module
reads them).

A review starts from ``scores[p][s]``: the expected score of seat ``s`` at position ``p``
(``p = 0`` is the start, ``p = k`` the position after move ``k``), on the scale of results
(``ai.evaluate``: win 1, draw 0.5, loss 0; with 3–5 players the mean over opponents of ahead 1 /
level 0.5 / behind 0); a position where the game is over holds the result itself
(``ai.result_score``). A game that ended without a move (a resignation, a loss on time) has its
last position evaluated like the others and the result beside (``Review.ended``): the fall to
the result is the resignation's, not the last move's.

Definitions (shown to players in the README and on the image):

* The **loss** of a move is how much the mover's expected score fell from the position before
  it to the position after it, ``scores[k-1][mover] - scores[k][mover]``; a rise counts as 0.
* A **mistake** is a move whose loss is at least ``MISTAKE_LOSS`` (0.15: a sixth of the way
  from a sure draw to a sure loss; smaller falls are within the evaluation's own noise on the
  fast budgets a review uses), and which was not forced (a move that was the only legal one
  cannot be a mistake). Each player's biggest ``MISTAKES_SHOWN`` (3) are shown, the largest
  loss first (the earlier move first on a tie).
* Where the AI was asked for its own move (``better``), the move is judged against it, like
  with like: its loss is how much lower the mover's expected score is after it than after the
  AI's move (``kept``), both positions with the same side to move. The evaluation's lean
  towards the side to move (strong on an empty Alak line) then cancels out: a first move the
  AI would not beat by ``MISTAKE_LOSS`` is no mistake. A move the AI would play too is none
  either. Such dismissed moves are not counted in the player's line.
* **Hindsight at the end.** When another player's move ends the game, the fall to the result
  shows on their move, which is a rise for them: nobody would be charged for it. The move
  before it that left that ending on the board (the last one by a different seat, when the
  game ended by a move rather than by resignation or time) is judged against its mover's
  result instead, when that is lower than the evaluation after it: the ending proves the
  position was no better. In a team game (four-player LPPG) the losing side's last move
  carries the fall that the evaluation did not see coming.
* A player's line: the moves they made, their **average loss per move** (over all their moves,
  forced ones included, as chess sites count it), and their number of mistakes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

#: The smallest fall of the mover's expected score that counts as a mistake.
MISTAKE_LOSS = 0.15
#: The mistakes shown per player at most.
MISTAKES_SHOWN = 3


@dataclass(frozen=True)
class Mistake:
    """Move ``ply`` (1 for the first move) by ``seat``: ``played`` took the mover's expected
    score from ``before`` to ``after``; ``better`` is the AI's move there (None until asked)."""

    ply: int
    seat: int
    played: str
    before: float
    after: float
    better: str | None = None

    @property
    def loss(self) -> float:
        return self.before - self.after


@dataclass(frozen=True)
class PlayerLine:
    seat: int
    moves: int
    average_loss: float
    mistakes: int


@dataclass(frozen=True)
class Review:
    """A game's review: every position's expected scores, the moves, the mistakes shown and a
    line per player. ``full_information``: the positions were evaluated with every card known
    (LPPG once the game is over), which the image says."""

    game: str
    players: int
    moves: tuple[str, ...]
    movers: tuple[int, ...]
    forced: tuple[bool, ...]
    scores: tuple[tuple[float, ...], ...]
    mistakes: tuple[Mistake, ...]
    lines: tuple[PlayerLine, ...]
    full_information: bool = False
    finished: bool = True
    #: The result when the game ended without a move (resignation, time), else None.
    ended: tuple[float, ...] | None = None
    #: Moves whose fall the AI's own move explains (no mistake after all).
    dismissed: tuple[int, ...] = ()

    @property
    def result(self) -> tuple[float, ...]:
        """The result (a finished game), or where the game stands (a game in progress)."""
        return self.ended if self.ended is not None else self.scores[-1]

    def mistakes_of(self, seat: int) -> tuple[Mistake, ...]:
        return tuple(m for m in self.mistakes if m.seat == seat)

    def dump(self) -> dict[str, Any]:
        """JSON-safe (stored in the ``reviews`` table)."""
        return {
            "game": self.game, "players": self.players, "moves": list(self.moves),
            "movers": list(self.movers), "forced": list(self.forced),
            "scores": [[round(v, 4) for v in row] for row in self.scores],
            "mistakes": [{"ply": m.ply, "seat": m.seat, "played": m.played,
                          "before": round(m.before, 4), "after": round(m.after, 4),
                          "better": m.better} for m in self.mistakes],
            "full_information": self.full_information, "finished": self.finished,
            "ended": None if self.ended is None else [round(v, 4) for v in self.ended],
            "dismissed": list(self.dismissed),
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Review:
        scores = tuple(tuple(float(v) for v in row) for row in data["scores"])
        movers = tuple(int(s) for s in data["movers"])
        mistakes = tuple(Mistake(int(m["ply"]), int(m["seat"]), m["played"], float(m["before"]),
                                 float(m["after"]), m.get("better")) for m in data["mistakes"])
        forced = tuple(bool(f) for f in data["forced"])
        players = int(data["players"])
        ended = data.get("ended")
        dismissed = tuple(int(p) for p in data.get("dismissed") or ())
        return cls(data["game"], players, tuple(data["moves"]), movers, forced, scores,
                   mistakes, player_lines(scores, movers, forced, players, dismissed=dismissed,
                                          ends_by_move=bool(data.get("finished", True))
                                          and ended is None),
                   bool(data.get("full_information")), bool(data.get("finished", True)),
                   None if ended is None else tuple(float(v) for v in ended), dismissed)


def scores_after(scores: Sequence[Sequence[float]], movers: Sequence[int],
                 ends_by_move: bool = False) -> list[float]:
    """The mover's expected score after each move (index ``k - 1`` for move ``k``), with the
    hindsight at the end (module docstring) when ``ends_by_move``: the last position is the
    result of a game that a move ended."""
    if len(scores) != len(movers) + 1:
        raise ValueError("a review needs one position more than moves")
    after = [scores[k + 1][seat] for k, seat in enumerate(movers)]
    if ends_by_move and movers:
        final_mover = movers[-1]
        earlier = [k for k, seat in enumerate(movers) if seat != final_mover]
        if earlier:
            k = earlier[-1]
            after[k] = min(after[k], scores[-1][movers[k]])
    return after


def losses(scores: Sequence[Sequence[float]], movers: Sequence[int],
           ends_by_move: bool = False) -> list[float]:
    """The loss of each move (index ``k - 1`` for move ``k``): the fall of the mover's expected
    score, 0 for a rise."""
    after = scores_after(scores, movers, ends_by_move)
    return [max(0.0, scores[k][seat] - after[k]) for k, seat in enumerate(movers)]


def mistake_candidates(
    scores: Sequence[Sequence[float]], movers: Sequence[int], moves: Sequence[str],
    forced: Sequence[bool], threshold: float = MISTAKE_LOSS, ends_by_move: bool = False,
) -> dict[int, list[Mistake]]:
    """Every seat's mistakes (module docstring), the largest loss first, earlier first on a
    tie."""
    found: dict[int, list[Mistake]] = {}
    after = scores_after(scores, movers, ends_by_move)
    for k, loss in enumerate(losses(scores, movers, ends_by_move)):
        if loss + 1e-9 < threshold or forced[k]:
            continue
        seat = movers[k]
        found.setdefault(seat, []).append(
            Mistake(k + 1, seat, moves[k], scores[k][seat], after[k]))
    for seat_mistakes in found.values():
        seat_mistakes.sort(key=lambda m: (-round(m.loss, 9), m.ply))
    return found


def player_lines(
    scores: Sequence[Sequence[float]], movers: Sequence[int], forced: Sequence[bool],
    players: int, threshold: float = MISTAKE_LOSS, dismissed: Sequence[int] = (),
    ends_by_move: bool = False,
) -> tuple[PlayerLine, ...]:
    """A line per seat: moves made, average loss per move, number of mistakes (``dismissed``:
    move numbers the AI's own move showed were none)."""
    per_move = losses(scores, movers, ends_by_move)
    lines = []
    for seat in range(players):
        mine = [k for k, mover in enumerate(movers) if mover == seat]
        total = sum(per_move[k] for k in mine)
        mistakes = sum(1 for k in mine if per_move[k] + 1e-9 >= threshold and not forced[k]
                       and k + 1 not in dismissed)
        lines.append(PlayerLine(seat, len(mine), total / len(mine) if mine else 0.0, mistakes))
    return tuple(lines)


def analyse(
    game: str, players: int, moves: Sequence[str], movers: Sequence[int],
    forced: Sequence[bool], scores: Sequence[Sequence[float]], *,
    better: Mapping[int, str] | None = None, full_information: bool = False,
    finished: bool = True, shown: int = MISTAKES_SHOWN,
    ended: Sequence[float] | None = None, kept: Mapping[int, float] | None = None,
) -> Review:
    """The review of a series of evaluations (``ended``: the result of a game that ended
    without a move, see the module). ``better`` maps a move number to the AI's move in
    the position before it, where it was asked, and ``kept`` to the mover's expected score
    after that move: a "mistake" the AI would have played too, or that the AI's move beats by
    less than ``MISTAKE_LOSS``, is not one (its loss came from the evaluation's noise or its
    lean towards the side to move), so it is skipped and the next largest is shown instead;
    one it beats is shown with the loss against it."""
    ends_by_move = finished and ended is None
    candidates = mistake_candidates(scores, movers, moves, forced, ends_by_move=ends_by_move)
    chosen: list[Mistake] = []
    dismissed: list[int] = []
    for seat in sorted(candidates):
        shown_here = []
        for mistake in candidates[seat]:
            if better is not None and mistake.ply in better:
                if better[mistake.ply] == mistake.played:
                    dismissed.append(mistake.ply)
                    continue
                mistake = replace(mistake, better=better[mistake.ply])
                if kept is not None and mistake.ply in kept:
                    mistake = replace(mistake, before=kept[mistake.ply])
                    if mistake.loss + 1e-9 < MISTAKE_LOSS:
                        dismissed.append(mistake.ply)
                        continue
            if len(shown_here) < shown:
                shown_here.append(mistake)
        shown_here.sort(key=lambda m: (-round(m.loss, 9), m.ply))
        chosen.extend(shown_here)
    rows = tuple(tuple(float(v) for v in row) for row in scores)
    return Review(game, players, tuple(moves), tuple(movers), tuple(forced), rows,
                  tuple(chosen), player_lines(rows, movers, forced, players,
                                              dismissed=dismissed, ends_by_move=ends_by_move),
                  full_information, finished,
                  None if ended is None else tuple(float(v) for v in ended),
                  tuple(sorted(dismissed)))


def plies_to_ask(scores: Sequence[Sequence[float]], movers: Sequence[int], moves: Sequence[str],
                 forced: Sequence[bool], per_player: int = 2 * MISTAKES_SHOWN,
                 ends_by_move: bool = False) -> list[int]:
    """The moves whose position the AI is asked about (its move instead): each seat's largest
    mistakes, twice as many as are shown, so that those the AI agrees with can be replaced."""
    candidates = mistake_candidates(scores, movers, moves, forced, ends_by_move=ends_by_move)
    return sorted(m.ply for seat in candidates for m in candidates[seat][:per_player])


def expected_score_comments(review: Review, names: Sequence[str]) -> list[str]:
    """One line per move (``/record``'s comments): the expected score of each seat after it,
    e.g. ``expected score: Alice 0.63 · Bob 0.37`` (a record is in English, like its tags)."""
    return ["expected score: " + " · ".join(f"{names[s]} {row[s]:.2f}"
                                            for s in range(review.players))
            for row in review.scores[1:]]
