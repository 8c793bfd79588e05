"""The one-ply greedy LPPG benchmark player (``bench/lppg_oneply.py``): its preferences, checked
against the engine on seeded positions, and that it sees only its view."""

from __future__ import annotations

import random

import pytest

import engines
from ai import lppg
from bench import lppg_match, lppg_oneply
from engines.lppg_terrain import smallest_unique
from tests.ai.helpers import random_states

GAME = engines.get("lppg")


def _team(players: int, seat: int) -> int:
    return seat % 2 if players == 4 else seat


def _turn_ends(state, seat: int, move) -> list:
    """Every way the turn can end after ``move``: each sequence of the seat's own keep and
    mark decisions that follow, played by the engine."""
    ends, frontier = [], [GAME.play(state, move)]
    while frontier:
        current = frontier.pop()
        if current.outcome is None and current.pending in ("keep", "mark") \
                and current.turn_seat == seat:
            frontier.extend(GAME.play(current, m) for m in GAME.legal_moves(current))
        else:
            ends.append(current)
    return ends


def _wins(state, seat: int) -> bool:
    return state.outcome is not None and any(
        _team(state.players, s) == _team(state.players, seat) for s in state.outcome.winners)


def _leads(state, seat: int) -> bool:
    """The seat's side owns the smallest territory of a unique size (by the engine's rule)."""
    entries = [(size, owner) for size, owner in state.board.territory_entries()]
    leader = smallest_unique(entries)
    return leader is not None and _team(state.players, leader[1]) == _team(state.players, seat)


def _smallness(state, seat: int) -> float:
    return sum(1 / len(squares) for owner, _, squares in lppg_oneply.territories(state)
               if owner == seat)


def _placement_positions(players: int, count: int, seed: int):
    """(seat, its view) of seeded random positions where a card is to be placed."""
    for state in random_states("lppg", count, seed=seed, players=players):
        if state.pending == "play":
            yield state.to_move, GAME.view(state, state.to_move)


def _no_move_ends_the_game(view, seat: int) -> bool:
    """Fewer than two markers down and not the last round: no third marker, no last turn."""
    return view.final_turns is None and sum(
        owner == seat for owner, _, _, _ in view.markers) < 2


@pytest.mark.parametrize("players", [2, 4])
def test_it_ends_the_game_when_that_wins(players):
    tested = 0
    for seat, view in _placement_positions(players, 600, seed=21):
        if sum(owner == seat for owner, _, _, _ in view.markers) != 2:
            continue  # only a third marker ends the game
        moves = GAME.legal_moves(view)
        winning = {str(m) for m in moves
                   if any(_wins(end, seat) for end in _turn_ends(view, seat, m))}
        if not winning or len(winning) == len(moves):
            continue
        move = lppg_oneply.choose(view, seat, random.Random(tested))
        assert move in winning
        # And the keep and mark decisions it plays after it win too.
        end = lppg_oneply.rest_of_turn(GAME.play(view, move), random.Random(0))
        assert _wins(end, seat)
        tested += 1
        if tested >= 4:
            break
    assert tested >= 4


def test_without_a_win_it_takes_the_lead():
    """No move ends the game: a move after which its side owns the smallest unique territory
    is preferred to every move after which it does not."""
    tested = 0
    for seat, view in _placement_positions(2, 600, seed=22):
        if not _no_move_ends_the_game(view, seat):
            continue
        moves = GAME.legal_moves(view)
        ends = {str(m): _turn_ends(view, seat, m) for m in moves}
        leading = {text for text, options in ends.items() if any(_leads(e, seat) for e in options)}
        if not leading or len(leading) == len(moves):
            continue
        move = lppg_oneply.choose(view, seat, random.Random(tested))
        assert move in leading
        tested += 1
        if tested >= 5:
            break
    assert tested >= 5


def test_then_it_prefers_small_territories_of_its_own():
    """No move ends the game or changes who leads: among those, it keeps the most of 1/size
    over its own territories (a region of one square marked is worth more than a region of
    three, and a marked region more than none)."""
    tested = 0
    for seat, view in _placement_positions(2, 600, seed=23):
        if not _no_move_ends_the_game(view, seat):
            continue
        moves = GAME.legal_moves(view)
        ends = {str(m): _turn_ends(view, seat, m) for m in moves}
        if len({_leads(e, seat) for options in ends.values() for e in options}) > 1:
            continue

        best = {text: max(_smallness(e, seat) for e in options) for text, options in ends.items()}
        if len(set(best.values())) == 1:
            continue
        move = lppg_oneply.choose(view, seat, random.Random(tested))
        assert best[move] == pytest.approx(max(best.values()))
        tested += 1
        if tested >= 5:
            break
    assert tested >= 5


@pytest.mark.parametrize("players", [2, 4])
def test_two_real_states_with_the_same_view_get_the_same_move(players):
    """It sees only its view: another real state dealt from the same view (other hands, pile
    order, discard) gets the same move from the same generator; and the move is legal in
    both."""
    rng = random.Random(players)
    differed = 0
    for n, state in enumerate(random_states("lppg", 12, seed=24, players=players)):
        seat = state.to_move
        other = lppg.sample(GAME.view(state, seat), seat, rng)
        differed += other.hands != state.hands
        first = lppg_oneply.choose(GAME.view(state, seat), seat, random.Random(n))
        second = lppg_oneply.choose(GAME.view(other, seat), seat, random.Random(n))
        assert first == second
        GAME.play(state, first)
        GAME.play(other, second)
    assert differed >= 10


def test_a_match_game_is_the_same_when_played_again():
    """The harness deals game 2k and 2k+1 alike with the seats swapped, and a game replays
    exactly (the AI is sized by counts, the greedy player seeded)."""
    first = lppg_match.play_game(("easy", "oneply", 2, 4, None))
    again = lppg_match.play_game(("easy", "oneply", 2, 4, None))
    swapped = lppg_match.play_game(("easy", "oneply", 2, 5, None))
    assert first["moves"] == again["moves"]
    assert first["score"] == again["score"]
    assert (first["deal"], first["ai_side"]) == (swapped["deal"], 0)
    assert swapped["ai_side"] == 1
    assert GAME.new(2, seed=first["deal"]).hands == GAME.new(2, seed=swapped["deal"]).hands
