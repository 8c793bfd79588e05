"""Positions from games our AI did not play ("foreign" games), to calibrate and measure
``ai.evaluate`` on the games people play rather than on games between the AI levels.

    python -m bench.foreign --game alak --set fit --games 40 --out alak-fit.jsonl

Players (``POLICIES``), none of them one of our AI levels:

- ``random``: a uniformly random legal move (the opening plies of every game).
- ``mcN``: flat Monte Carlo: each candidate move is followed by uniformly random playouts to the
  end, N playouts per decision in all (spread over the moves, a random subset of them when
  there are more moves than playouts), and the move with the best mean result is played.
  The playouts see only the player's view (LPPG's hidden cards are dealt at random as they
  could be). Polygo's candidates are the lone stones outside the player's own eyes, the
  capturing turns and pass, and its playouts never fill the player's own eyes (on the search's
  fast board); its scoring phase is always accepted.
- ``mcN+w`` (Palago): ``mcN``, but it closes a creature of its colour when it can, as flat
  Monte Carlo would with a playout for each of the thousands of moves (with a few dozen it
  mostly misses them, and games between such players are mostly draws).
- ``greedy`` (LPPG): ``bench.lppg_greedy``, one turn ahead.
- ``flatmc``: ``bench.ai``'s flat Monte Carlo baseline (``ISSUE_SETUPS``).
- ``<policy>~E``: a player who plays ``<policy>``'s move, except with probability E a random
  legal move (a human-like slip).

A game (``SETUPS``: the players of each seat) starts with a few random plies, then each seat
plays its policy to the end. Positions are sampled at ``PHASES`` (25, 50 and 75 % of the game's
plies), each for a seat drawn at random, and stored with the moves that lead to them (a
position is replayed from ``(seed, options, moves)``), the seat's result on the evaluation's
scale (``ai.result_score``: a draw is 0.5), and ``sim``: the seat's mean result over
``SIM_PLAYOUTS`` uniformly random playouts from the position (the reference a cheap simulation
gives).

Seeds: the ``fit`` set, the ``held`` (held-out) set, the ``issue`` set (``ISSUE_SETUPS``) and
the ``test`` set of the test suite draw their games from disjoint seed ranges (``SEED_BASE``),
so a calibration fitted on one is measured on games it never saw.
Everything is seeded: the same arguments give the same positions on any machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import engines
from ai.evaluate import result_score

#: The share of a game's plies at which positions are taken.
PHASES = (0.25, 0.5, 0.75)
#: Random plies before the players take over: between these two counts (per seat and game).
OPENING_PLIES = {"alak": (1, 4), "palam": (1, 4), "palago": (1, 3), "polygo": (2, 8),
                 "kolory": (1, 3), "lppg": (1, 6)}
#: Uniformly random playouts of the ``sim`` reference.
SIM_PLAYOUTS = 8
#: First seed of each set (the sets never overlap: fewer than 10**6 games a set).
SEED_BASE = {"fit": 1_000_000, "held": 5_000_000, "issue": 7_000_000, "test": 9_000_000}
#: A game longer than this is abandoned (none comes close).
MAX_PLIES = 1500

#: (name, players, options, seat policies); the setups of a game are played in turn.
SETUPS: dict[str, list[tuple[str, int, dict, tuple[str, ...]]]] = {
    "alak": [("mc", 2, {}, ("mc24", "mc24")),
             ("mc-vs-slips", 2, {}, ("mc24", "mc24~0.3")),
             ("slips", 2, {"length": 15}, ("mc24~0.2", "mc8~0.2"))],
    "palam": [("mc", 2, {}, ("mc24", "mc24")),
              ("mc-vs-slips", 2, {}, ("mc24", "mc24~0.3")),
              ("slips", 2, {}, ("mc8~0.2", "mc24~0.2"))],
    "palago": [("mc", 2, {}, ("mc24", "mc24")),
               ("mc-vs-slips", 2, {}, ("mc24", "mc24~0.3")),
               ("sharp", 2, {}, ("mc24+w", "mc24+w~0.3"))],
    "polygo": [("mc", 2, {}, ("mc16", "mc16")),
               ("mc-vs-slips", 2, {}, ("mc16", "mc16~0.3")),
               ("slips", 2, {}, ("mc8~0.2", "mc24~0.2"))],
    "kolory": [("mc", 2, {}, ("mc24", "mc24")),
               ("mc3", 3, {}, ("mc24", "mc24", "mc24")),
               ("mc-vs-slips", 2, {}, ("mc24", "mc24~0.3")),
               ("slips3", 3, {}, ("mc24~0.2", "mc8~0.2", "mc24~0.3"))],
    "lppg": [("greedy", 2, {}, ("greedy", "greedy")),
             ("mc-vs-greedy", 2, {}, ("mc8", "greedy")),
             ("slips", 2, {}, ("greedy~0.2", "mc8~0.3"))],
}
#: The ``issue`` set: games like those the evaluation was first found wrong on, random
#: opening plies then both sides ``bench.ai``'s flat Monte Carlo player (``flatmc``: 40 moves
#: drawn at random, 4 random playouts each), except in Polygo, where that player takes seconds
#: a move (``mc16`` instead), and LPPG (``mc8``, whose decisions are many).
ISSUE_SETUPS: dict[str, list[tuple[str, int, dict, tuple[str, ...]]]] = {
    "alak": [("flatmc", 2, {}, ("flatmc", "flatmc"))],
    "palam": [("flatmc", 2, {}, ("flatmc", "flatmc"))],
    "palago": [("flatmc", 2, {}, ("flatmc", "flatmc"))],
    "polygo": [("mc", 2, {}, ("mc16", "mc16"))],
    "kolory": [("flatmc", 2, {}, ("flatmc", "flatmc")),
               ("flatmc3", 3, {}, ("flatmc", "flatmc", "flatmc"))],
    "lppg": [("mc", 2, {}, ("mc8", "mc8"))],
}
GAMES = tuple(SETUPS)


# ----- playouts -----------------------------------------------------------------------------------


def playout_start(name: str, state: Any, seat: int, rng: random.Random) -> Any:
    """A state a playout may start from, made only of what ``seat`` sees: its view, with
    LPPG's hidden cards dealt at random as they could lie."""
    game = engines.get(name)
    view = game.view(state, seat)
    if name == "lppg":
        from ai import lppg

        return lppg.sample(view, seat, rng)
    if getattr(view, "seed", 0) is None:
        # Chance (Kolory's next first player) drawn afresh, not from a stand-in seed.
        return dataclasses.replace(view, seed=rng.randrange(2**62))
    return view


def random_playout(name: str, state: Any, rng: random.Random) -> tuple[float, ...]:
    """Every seat's result (``result_score``) of a game played on by uniformly random moves
    (Polygo: outside one's own eyes, on the search's fast board; its scoring accepted)."""
    if name == "polygo":
        return _polygo_playout(_polygo_board(state), rng)
    game = engines.get(name)
    for _ in range(MAX_PLIES):
        if state.outcome is not None:
            break
        moves = game.legal_moves(state)
        state = game.play(state, moves[rng.randrange(len(moves))])
    if state.outcome is None:
        return (0.5,) * state.players
    return tuple(result_score(name, state.outcome, state.players, s)
                 for s in range(state.players))


def _polygo_board(state: Any) -> Any:
    from ai import polygo
    from engines.polygo import SCORING

    board = polygo.Board.from_view(state)
    if state.phase == SCORING:
        board.passes = 2
    return board


def _polygo_playout(board: Any, rng: random.Random) -> tuple[float, float]:
    from ai import polygo
    from engines.graphgo import EMPTY

    board = board.copy()
    for _ in range(polygo.PLAYOUT_LIMIT):
        if board.passes >= 2:
            break
        seat = board.to_move
        empties = [p for p, v in enumerate(board.cells) if v == EMPTY]
        rng.shuffle(empties)
        for p in empties:
            if not board.is_own_eye(p, seat) and board.play((p,)):
                break
        else:
            board.play(polygo.PASS_TURN)
    mine, theirs = board.counted()
    return (1.0, 0.0) if mine > theirs else (0.0, 1.0) if theirs > mine else (0.5, 0.5)


def simulate(name: str, state: Any, seat: int, rng: random.Random,
             playouts: int = SIM_PLAYOUTS) -> float:
    """``seat``'s mean result over ``playouts`` uniformly random playouts from what it sees."""
    return sum(random_playout(name, playout_start(name, state, seat, rng), rng)[seat]
               for _ in range(playouts)) / playouts


# ----- players ------------------------------------------------------------------------------------

Policy = Callable[[str, Any, random.Random], str]


def random_move(name: str, state: Any, rng: random.Random) -> str:
    moves = engines.get(name).legal_moves(state)
    return str(moves[rng.randrange(len(moves))])


def flat_monte_carlo(playouts: int, sees_wins: bool = False) -> Policy:
    """The ``mcN`` player, or with ``sees_wins`` the ``mcN+w`` player (module docstring)."""

    def choose(name: str, state: Any, rng: random.Random) -> str:
        seat = state.to_move
        if name == "polygo":
            return _polygo_flat(state, seat, playouts, rng)
        if sees_wins and name == "palago":
            win = _palago_win(state, seat)
            if win is not None:
                return win
        game = engines.get(name)
        start = playout_start(name, state, seat, rng)
        moves = list(game.legal_moves(start))
        if len(moves) == 1:
            return str(moves[0])
        per_move = max(1, playouts // len(moves))
        if len(moves) * per_move > playouts:
            moves = rng.sample(moves, playouts)
        best: list[Any] = []
        best_value = -1.0
        for move in moves:
            after = game.play(start, move)
            value = sum(random_playout(name, after, rng)[seat] for _ in range(per_move))
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return str(best[rng.randrange(len(best))])

    return choose


def _palago_win(state: Any, seat: int) -> str | None:
    """A move that closes a creature of the player's colour, if there is one: with enough
    playouts flat Monte Carlo finds it (it wins every playout); among Palago's thousands of
    moves a few dozen playouts would not, which no player would miss."""
    from ai import palago
    from engines.palago import COLOUR_OF_SEAT, PalagoMove

    wins = palago.winning_moves(palago.Board.from_tiles(state.tiles), COLOUR_OF_SEAT[seat],
                                limit=1)
    return str(PalagoMove(wins[0])) if wins else None


def _polygo_flat(state: Any, seat: int, playouts: int, rng: random.Random) -> str:
    from ai import polygo
    from engines.polygo import ACCEPT, SCORING

    if state.phase == SCORING:
        return ACCEPT
    board = polygo.Board.from_view(state)
    turns = polygo.tree_turns(board)
    per_move = max(1, playouts // len(turns))
    if len(turns) * per_move > playouts:
        turns = rng.sample(turns, playouts)
    best: list[Any] = []
    best_value = -1.0
    for turn in turns:
        after = board.copy()
        if not after.play(turn):
            continue
        value = sum(_polygo_playout(after, rng)[seat] for _ in range(per_move))
        if value > best_value:
            best, best_value = [turn], value
        elif value == best_value:
            best.append(turn)
    if not best:
        return "pass"
    return polygo.turn_text(best[rng.randrange(len(best))], state.board_kind)


def flatmc_bench(name: str, state: Any, rng: random.Random) -> str:
    from bench.ai import flatmc_player

    seat = state.to_move
    game = engines.get(name)
    return flatmc_player(game, game.view(state, seat), seat, rng)


def greedy_lppg(name: str, state: Any, rng: random.Random) -> str:
    from bench import lppg_greedy

    seat = state.to_move
    return lppg_greedy.choose(engines.get(name).view(state, seat), seat, rng)


def policy(spec: str) -> Policy:
    """The player named ``spec`` (module docstring)."""
    if "~" in spec:
        base_spec, slip = spec.split("~")
        base, chance = policy(base_spec), float(slip)

        def slipping(name: str, state: Any, rng: random.Random) -> str:
            if name == "polygo" and state.phase != "play":
                return base(name, state, rng)
            if rng.random() < chance:
                return random_move(name, state, rng)
            return base(name, state, rng)

        return slipping
    if spec == "random":
        return random_move
    if spec == "greedy":
        return greedy_lppg
    if spec == "flatmc":
        return flatmc_bench
    if spec.startswith("mc"):
        return flat_monte_carlo(int(spec[2:].removesuffix("+w")), spec.endswith("+w"))
    raise ValueError(f"unknown player {spec!r}")


# ----- games and positions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    game: str
    set_name: str
    index: int
    sim_playouts: int = SIM_PLAYOUTS


def play(name: str, players: int, options: dict, specs: tuple[str, ...], seed: int,
         rng: random.Random) -> tuple[list[str], Any] | None:
    """A game from ``seed``: random opening plies, then each seat's player; the moves and the
    final state (None if it ran past ``MAX_PLIES``)."""
    game = engines.get(name)
    state = game.new(players, seed=seed, options=options)
    low, high = OPENING_PLIES[name]
    opening = rng.randint(low, high) * players
    players_of = [policy(spec) for spec in specs]
    moves: list[str] = []
    while state.outcome is None and len(moves) < MAX_PLIES:
        if len(moves) < opening and not (name == "polygo" and state.phase != "play"):
            move = random_move(name, state, rng)
        else:
            move = players_of[state.to_move](name, state, rng)
        state = game.play(state, move)
        moves.append(move)
    if state.outcome is None:
        return None
    return moves, state


def positions(task: Task) -> list[dict]:
    """The positions of one game of the task's set (module docstring)."""
    setups = (ISSUE_SETUPS if task.set_name == "issue" else SETUPS)[task.game]
    setup, players, options, specs = setups[task.index % len(setups)]
    seed = SEED_BASE[task.set_name] + task.index
    rng = random.Random(f"foreign:{task.game}:{seed}")
    played = play(task.game, players, options, specs, seed, rng)
    if played is None:
        return []
    moves, end = played
    game = engines.get(task.game)
    states = game.replay(players, seed, options, moves)
    rows = []
    for share in PHASES:
        ply = min(len(moves) - 1, round(share * len(moves)))
        state = states[ply]
        seat = rng.randrange(players)
        rows.append({
            "game": task.game, "set": task.set_name, "setup": setup, "players": players,
            "options": options, "seed": seed, "moves": moves[:ply], "ply": ply,
            "plies": len(moves), "phase": share, "seat": seat, "to_move": state.to_move,
            "result": result_score(task.game, end.outcome, players, seat),
            "draw": not end.outcome.winners,
            "sim": simulate(task.game, state, seat, rng, task.sim_playouts),
        })
    return rows


def state_of(row: dict) -> Any:
    """The position of a stored row (replayed from its seed, options and moves)."""
    game = engines.get(row["game"])
    return game.replay(row["players"], row["seed"], row["options"], row["moves"])[-1]


def generate(games: list[str], set_name: str, count: int, jobs: int,
             first: int = 0) -> Iterator[list[dict]]:
    """The positions of ``count`` games per game of a set, game by game (in ``jobs``
    processes)."""
    tasks = [Task(name, set_name, index) for name in games
             for index in range(first, first + count)]
    if jobs <= 1:
        yield from map(positions, tasks)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(positions, tasks)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--set", dest="set_name", choices=tuple(SEED_BASE), default="fit")
    parser.add_argument("--games", type=int, default=12, help="games per game (default 12)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", required=True, help="JSON lines file to append to")
    args = parser.parse_args(argv)
    with open(args.out, "a") as out:
        for rows in generate(args.game or list(GAMES), args.set_name, args.games, args.jobs,
                             args.first):
            out.writelines(json.dumps(row) + "\n" for row in rows)
            out.flush()
            print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
