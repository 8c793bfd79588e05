"""LPPG AI: determinized two-ply search with an evaluation of territories and markers.

What the AI may know: its own hand, the terrain, the markers, the colour of every card back
(other hands, the top of each draw pile) and how many cards each pile and the discard hold. It
never sees another hand's patterns or the order of the piles, so it reasons over *samples*:
each sample deals the unseen cards at random among the unseen places, respecting every colour
it can see (a hand's backs, the pile tops). Only the view and the seeded generator go into a
decision, so two real states with the same view always get the same move.

Why this method: an LPPG turn offers about a hundred placements, but what decides the game is
tactical and close: who owns the smallest territory of a unique size, and who can end the game
with a third marker while leading. Random playouts of LPPG are slow (tens of milliseconds with
the engine) and mostly noise, so tree search by playouts would see a few dozen games per move.
Instead every placement is played out to the end of the turn (a forced ``keep`` or ``mark`` is
answered by the same evaluation), the position is evaluated, and the best candidates are
searched one ply deeper against sampled hands of the next player: their best reply by the same
evaluation, averaged over the samples (an opponent able to end the game and win in some samples
makes the candidate lose in those). With four players the sides are the teams (0 and 2 against
1 and 3).

The evaluation, for the side to judge: a won or lost game is final; otherwise who would win if
the game ended now (the owner of the smallest territory whose size is unique), whether that
side has two markers down (it can then end the game on its next turn by closing any region),
and the sizes of each side's territories (small ones are what wins; a permanent one cannot be
reopened).

Draws take the pile whose top colour appears most on the terrain (more places where the card can
be laid).

Levels: ``easy`` plays the best placement by the evaluation half of the time and a random one
otherwise; ``medium`` takes the best placement by the evaluation, one ply, judging the lead and
the territories but not who could end the game next turn; ``hard`` sees those threats too and
searches the sampled reply of the next player for its best candidates.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from ai.core import Decision, Reason, budget_for, reason, work
from engines.lppg import (
    DECK_SIZE,
    GAME,
    HIDDEN,
    LppgState,
    MarkMove,
    card_colour,
    closed_regions,
    terrain,
    territories,
)

#: Positions evaluated (a move played and judged) per second of one core of the reference
#: machine.
EVALUATIONS_PER_S = 20_000
#: Hard: hidden hands sampled per candidate, and the most replies tried in each.
REPLY_SAMPLES = 8
REPLY_LIMIT = 400
WIN = 1_000.0
LEADER = 40.0
ENDING_THREAT = 25.0


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
    """The colour (1..4) a view placeholder shows (``-2 - (colour - 1)``), None if none."""
    return None if card >= HIDDEN else -card - 1


def sample(view: LppgState, seat: int, rng: random.Random) -> LppgState:
    """A full state consistent with ``view``: the unseen cards dealt at random among the unseen
    places, each card back getting a card of its colour."""
    seen = {card for card, _, _, _ in view.placed}
    for cards in (*view.hands, view.pile_a, view.pile_b, view.discard):
        seen.update(c for c in cards if c >= 0)
    pool = [c for c in range(DECK_SIZE) if c not in seen]
    rng.shuffle(pool)
    by_colour: dict[int, list[int]] = {}
    for c in pool:
        by_colour.setdefault(card_colour(c), []).append(c)
    used: set[int] = set()

    def of_colour(colour: int) -> int:
        options = by_colour.get(colour, [])
        while options:
            card = options.pop()
            if card not in used:
                used.add(card)
                return card
        return HIDDEN  # an inconsistent view: leave the slot to the general fill

    hands = [list(hand) for hand in view.hands]
    pile_a, pile_b, discard = list(view.pile_a), list(view.pile_b), list(view.discard)
    for cards in (*hands, pile_a, pile_b):
        for i, card in enumerate(cards):
            colour = _colour_of_placeholder(card)
            if colour is not None:
                cards[i] = of_colour(colour)
    rest = iter([c for c in pool if c not in used])
    for cards in (*hands, pile_a, pile_b, discard):
        for i, card in enumerate(cards):
            if card < 0:
                cards[i] = next(rest)
    return dataclasses.replace(
        view,
        seed=rng.randrange(2**62),
        hands=tuple(tuple(hand) for hand in hands),
        pile_a=tuple(pile_a),
        pile_b=tuple(pile_b),
        discard=tuple(discard),
    )


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


def _reply_value(view: LppgState, move, seat: int, samples: int, rng: random.Random,
                 limit: int) -> tuple[float, int]:
    """The value for ``seat`` of playing ``move`` once the next player has replied, averaged
    over samples of the hidden cards (their hand above all), and how many positions that
    took."""
    total = 0.0
    spent = 0
    for _ in range(samples):
        state = finish_turn(GAME.play(sample(view, seat, rng), move), seat)
        while state.outcome is None and state.pending == "draw":
            state = GAME.play(state, GAME.legal_moves(state)[0])
        if state.outcome is not None or state.to_move is None:
            total += evaluate(state, seat)
            continue
        replier = state.to_move
        replies = _options(state, replier, limit, rng)
        spent += len(replies)
        total += evaluate(replies[0][2], seat) if replies else evaluate(state, seat)
    return total / samples, spent


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


def decide(view: LppgState, seat: int, level: str, rng: random.Random,
           budget_s: float | None) -> Decision:
    moves = list(GAME.legal_moves(view))
    if view.pending == "draw":
        move = _draw_move(view, moves)
        return Decision(str(move), None)
    evaluations = work(budget_for(level, budget_s), EVALUATIONS_PER_S)
    # The view has our own hand, which is all a placement needs.
    options = _options(view, seat, max(8, evaluations // 2), rng, threats=level == "hard")
    if level == "easy" and rng.random() < 0.5:
        _, move, after = options[rng.randrange(len(options))]
    elif level == "hard" and view.pending == "play" and len(options) > 1 \
            and options[0][0] < WIN:
        # The best candidates first, each against ``samples`` replies trying up to ``limit``
        # moves (all of them, usually: the few that close a region are the ones that
        # matter), until the budget of evaluated positions is spent.
        spent = len(options)
        best = None
        for _, move, after in options:
            if best is not None and spent >= evaluations:
                break
            judged, cost = _reply_value(view, move, seat, REPLY_SAMPLES, rng, REPLY_LIMIT)
            spent += cost
            if best is None or judged > best[0]:
                best = (judged, move, after)
        _, move, after = best
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

