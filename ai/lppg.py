"""LPPG AI: every placement played to the end of the turn and evaluated; at the hard level,
the best ones against the next seat's best reply, averaged exactly over the hands it may hold.

What the AI may know: its own hand, the terrain, the markers, the colour of every card back
(other hands, the top of each draw pile) and how many cards each pile and the discard hold. It
never sees another hand's patterns or the order of the piles. A hidden card of a colour is
equally likely to be any card of that colour the AI has not seen, so questions about another
hand are answered by going through those cards, not by guessing deals. Only the view and the
seeded generator go into a decision, so two real states with the same view always get the
same move.

Why this method: an LPPG turn offers about a hundred placements, but what decides the game is
tactical and close: who owns the smallest territory of a unique size, and who can end the game
with a third marker while leading. Random playouts of LPPG are slow (tens of milliseconds with
the engine) and mostly noise. Instead every placement is played out to the end of the turn (a
forced ``keep`` or ``mark`` is answered by the same evaluation) and the position is evaluated.
The hard level then looks one ply deeper, exactly: for every card the next seat may hold,
every placement of it is judged by that seat's evaluation (``ai/lppg_reply.py``; most
placements change nothing the evaluation reads and are recognised without being played), and
a hand replies with the better of its two cards. A candidate's value is ours after that
reply, averaged over every hand the view allows; a reply that ends the game (a third marker
that wins) counts as a loss with its exact chance. Sampling hands instead (eight deals per
candidate, as an earlier version did) missed such replies too often: most losses came from a
third marker the sampled hands did not hold. With four players the sides are the teams (0 and
2 against 1 and 3), and the next seat is always an opponent.

The evaluation, for the side to judge: a won or lost game is final; otherwise who would win if
the game ended now (the owner of the smallest territory whose size is unique), whether that
side has two markers down (it can then end the game on its next turn by closing any region),
and the sizes of each side's territories (small ones are what wins; a permanent one cannot be
reopened).

Draws take the pile whose top colour appears most on the terrain (more places where the card
can be laid); at the hard level, with two markers down, the pile whose top colour most often
holds a card that ends the game on this board.

Levels: ``easy`` plays the best placement by the evaluation half of the time and a random one
otherwise; ``medium`` takes the best placement by the evaluation, one ply, judging the lead and
the territories but not who could end the game next turn; ``hard`` sees those threats too and
judges its best candidates by the next seat's reply.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ai.core import Decision, Reason, budget_for, reason, work
from ai.lppg_reply import card_reply, expected_reply
from ai.lppg_threat import card_ends_game, hand_colours, markers_down, unseen_by_colour
from engines.lppg import (
    GAME,
    LppgState,
    MarkMove,
    card_colour,
    closed_regions,
    terrain,
    territories,
    visible_colour,
)

#: Positions evaluated (a move played and judged) per second of one core of the reference
#: machine.
EVALUATIONS_PER_S = 20_000
#: What looking at one card the next seat may hold costs (its legal placements found and sorted
#: into those that change something and those that do not), in evaluated positions.
CARD_COST = 7
ENDING_THREAT = 25.0
WIN = 1_000.0
LEADER = 40.0


def side(players: int, seat: int) -> int:
    """The team of a seat (4 players: 0 and 2 against 1 and 3); with 2 players, the seat."""
    return seat % 2 if players == 4 else seat


def leader(entries: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """(size, owner) of the smallest territory whose size no other territory has (RULES.md §5:
    equal sizes cancel), or None."""
    counts: dict[int, int] = {}
    for size, _ in entries:
        counts[size] = counts.get(size, 0) + 1
    unique = [entry for entry in entries if counts[entry[0]] == 1]
    return min(unique) if unique else None


def evaluate(state: LppgState, seat: int, threats: bool = True) -> float:
    """How good ``state`` is for ``seat``'s side (see the module docstring); without
    ``threats`` (the lower levels) who could end the game next turn is not looked at."""
    players = state.players
    me = side(players, seat)
    if state.outcome is not None:
        if not state.outcome.winners:
            return 0.0
        won = any(side(players, s) == me for s in state.outcome.winners)
        return WIN if won else -WIN
    entries = []
    value = 0.0
    held = [0] * players
    for owner, kind, squares in territories(state):
        size = len(squares)
        entries.append((size, owner))
        mine = side(players, owner) == me
        held[owner] += 1
        # Small territories are what wins; a permanent one cannot be reopened.
        worth = 6.0 / size + (2.0 if kind == "p" else 0.0)
        value += worth if mine else -worth
    ahead = leader(entries)
    if ahead is not None:
        value += LEADER if side(players, ahead[1]) == me else -LEADER
    if not threats:
        return value
    # A seat with two markers down ends the game with its next closed region if its side then
    # holds the smallest unique territory: likely when its side leads or nobody does, and
    # still possible otherwise (a region smaller than the leader's, or one that cancels it).
    for seat_with_two in (s for s in range(players) if held[s] == 2):
        ours = side(players, seat_with_two) == me
        likely = ahead is None or side(players, ahead[1]) == side(players, seat_with_two)
        threat = ENDING_THREAT if likely else ENDING_THREAT / 3
        value += threat if ours else -threat
    return value


# ----- sampling what the view hides -------------------------------------------------------------


def _colour_of_placeholder(card: int) -> int | None:
    """The colour (1..4) a view placeholder shows, None for a card hidden altogether."""
    return visible_colour(card) if card < 0 else None


# ----- one turn -----------------------------------------------------------------------------------


def finish_turn(state: LppgState, seat: int, threats: bool = True) -> LppgState:
    """Answer the decisions that follow a placement within the same turn (a ``keep`` by any
    owner, a ``mark``), each by the evaluation of the deciding seat, up to the draw or the next
    player's turn."""
    turn_seat = state.turn_seat
    while state.outcome is None and state.pending in ("keep", "mark") \
            and state.turn_seat == turn_seat:
        chooser = state.to_move
        best, best_value = None, None
        for move in GAME.legal_moves(state):
            after = GAME.play(state, move)
            value = evaluate(after, chooser, threats)
            if best_value is None or value > best_value:
                best, best_value = after, value
        state = best
    return state


def _options(state: LppgState, seat: int, limit: int, rng: random.Random,
             threats: bool = True) -> list[tuple[float, object, LppgState]]:
    """Every legal move of ``seat`` (at most ``limit``, sampled) with the position at the end
    of the turn and its value for ``seat``, best first."""
    moves = list(GAME.legal_moves(state))
    if len(moves) > limit:
        moves = rng.sample(moves, limit)
    else:
        rng.shuffle(moves)
    scored = []
    for move in moves:
        after = finish_turn(GAME.play(state, move), seat, threats)
        scored.append((evaluate(after, seat, threats), move, after))
    scored.sort(key=lambda entry: -entry[0])
    return scored


def _draw_move(view: LppgState, moves: list) -> object:
    """The draw whose pile tops show the colours most present on the terrain."""
    counts = [0] * 5
    for colour in terrain(view).values():
        counts[colour] += 1
    average = sum(counts[1:]) / 4

    def top(pile: tuple[int, ...], depth: int) -> float:
        if depth < len(pile):
            colour = _colour_of_placeholder(pile[depth]) if pile[depth] < 0 \
                else card_colour(pile[depth])
            if colour is not None:
                return counts[colour]
        return average

    def value(move) -> float:
        names = str(move).split()[1:]
        depth = {"a": 0, "b": 0}
        total = 0.0
        for name in names:
            total += top(view.pile_a if name == "a" else view.pile_b, depth[name])
            depth[name] += 1
        return total / len(names)

    return max(moves, key=value)


def _ending_draw(view: LppgState, seat: int, moves: list) -> object | None:
    """With two markers down, the pile whose top card's colour most often ends the game on
    this board (the share of the unseen cards of that colour that do); None when that does
    not tell the piles apart."""
    if markers_down(view, seat) != 2 or any(" " in str(move)[5:] for move in moves):
        return None
    unseen = unseen_by_colour(view)
    memo: dict[int, bool] = {}

    def share(move) -> float:
        pile = view.pile_a if str(move) == "draw a" else view.pile_b
        colour = _colour_of_placeholder(pile[0]) if pile else None
        pool = unseen.get(colour, []) if colour is not None else []
        if not pool:
            return -1.0
        for card in pool:
            if card not in memo:
                memo[card] = card_ends_game(view, seat, card)
        return sum(memo[card] for card in pool) / len(pool)

    shares = {str(move): share(move) for move in moves}
    if len(set(shares.values())) < 2:
        return None
    return max(moves, key=lambda move: shares[str(move)])


def _hard_choice(view: LppgState, seat: int, options: list, evaluations: int,
                 ) -> tuple[float, object, LppgState]:
    """The hard level's choice among ``options`` (every placement with the rest of the turn,
    best by the evaluation first): each candidate is worth what is left of it after the next
    seat's best reply, averaged exactly over the hands that seat may hold. A candidate can
    only lose value to the reply (the replier may always leave things as they are, or
    improve them for itself), so the search stops at the first candidate whose evaluation is
    no better than the best value found, or when the budget of evaluated positions is
    spent."""
    nxt = (view.turn_seat + 1) % view.players
    unseen = unseen_by_colour(view)
    colours = hand_colours(view, nxt)
    cards = sorted({card for colour in set(colours) for card in unseen.get(colour, [])})

    def play_out(state: LppgState) -> tuple[float, float]:
        after = finish_turn(state, nxt)
        return evaluate(after, nxt), evaluate(after, seat)

    spent = len(options)
    best = None
    for value, move, after in options:
        if best is not None and (value <= best[0] or spent >= evaluations):
            break
        judged = value
        if after.outcome is None and after.pending in ("draw", "play"):
            quiet = (evaluate(after, nxt), value)
            replies = {}
            for card in cards:
                replies[card], played = card_reply(after, nxt, card, quiet, play_out)
                spent += played + CARD_COST
            judged = expected_reply(replies, colours, unseen, quiet)
        if best is None or judged > best[0]:
            best = (judged, move, after)
    return best


def decide(view: LppgState, seat: int, level: str, rng: random.Random,
           budget_s: float | None) -> Decision:
    moves = list(GAME.legal_moves(view))
    if view.pending == "draw":
        move = _ending_draw(view, seat, moves) if level == "hard" else None
        return Decision(str(move or _draw_move(view, moves)), None)
    evaluations = work(budget_for(level, budget_s), EVALUATIONS_PER_S)
    # The view has our own hand, which is all a placement needs.
    options = _options(view, seat, max(8, evaluations // 2), rng, threats=level == "hard")
    if level == "easy" and rng.random() < 0.5:
        _, move, after = options[rng.randrange(len(options))]
    elif level == "hard" and view.pending == "play" and len(options) > 1 \
            and options[0][0] < WIN:
        _, move, after = _hard_choice(view, seat, options, evaluations)
    else:
        _, move, after = options[0]
    return Decision(str(move), explain(view, seat, move, after))


def reason_for(view: LppgState, seat: int, move) -> Reason | None:
    if view.pending == "draw":
        return None
    return explain(view, seat, move, finish_turn(GAME.play(view, move), seat))


def explain(view: LppgState, seat: int, move, after: LppgState) -> Reason | None:
    if after.outcome is not None and any(
            side(view.players, s) == side(view.players, seat) for s in after.outcome.winners):
        return reason("lppg.wins")
    if isinstance(move, MarkMove):
        regions = closed_regions(view)
        size = max((len(r) for r in regions), default=0)
        if move.kind == "p":
            return reason("lppg.permanent", count=size)
        return reason("lppg.mark", count=size)
    mine = [t for t in territories(after) if side(view.players, t[0]) == side(view.players, seat)]
    entries = [(len(t[2]), t[0]) for t in territories(after)]
    ahead = leader(entries)
    if ahead is not None and side(view.players, ahead[1]) == side(view.players, seat) and mine:
        return reason("lppg.leads", count=ahead[0])
    return None

