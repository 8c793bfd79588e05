"""Game records: the exported text re-imports into the engine and replays to the very state
the service stored, for every registered engine and every way a game ends."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest

import engines
from bot.services.clocks import ClockService
from bot.services.gamestate import normal_json, teams_of
from bot.services.records import RecordError, parse_record, replay_record
from tests.bot.services.conftest import SEED
from tests.bot.store.dbutil import query

GAME_NAMES = sorted(engines.GAMES)
MAX_PLIES = 60


def player_counts(name):
    counts = engines.get(name).allowed_player_counts()
    return sorted({counts[0], counts[-1]})


async def random_game(service, name, players, rng, *, time_control=None, plies=MAX_PLIES):
    users = list(range(1, players + 1))
    info = await service.challenges.create_game(name, users, time_control=time_control)
    for _ in range(plies):
        info = await service.games.get_game(info.id)
        if info.status != "active":
            break
        user = info.user_to_move()
        moves = await service.games.legal_moves(info.id, user)
        await service.play.move(info.id, user, rng.choice(moves))
    return await service.games.get_game(info.id)


def stored_snapshot(db, game_id):
    (snapshot,) = query(db, "SELECT snapshot FROM games WHERE id = ?", (game_id,))[0]
    return json.loads(snapshot)


async def assert_round_trip(service, clocks, db, game_id):
    text = await clocks.record_text(game_id)
    parsed = parse_record(text)
    info = await service.games.get_game(game_id)
    assert parsed.game == info.game and parsed.players == len(info.seats)
    assert parsed.seed == SEED
    state = replay_record(parsed)
    game = engines.get(parsed.game)
    assert normal_json(game.dump(state)) == stored_snapshot(db, game_id)
    assert state.outcome == info.outcome
    return text


@pytest.fixture
def clocks(store, service, clock):
    return ClockService(store, service, clock=clock)


@pytest.mark.parametrize("name", GAME_NAMES)
async def test_record_of_a_resigned_game_replays_to_the_stored_state(
    service, clocks, db, name
):
    for players in player_counts(name):
        info = await random_game(service, name, players, random.Random(f"{name}{players}"))
        if info.status == "active":
            await service.play.resign(info.id, info.seats[-1])
        text = await assert_round_trip(service, clocks, db, info.id)
        assert "[Status \"finished\"]" in text


@pytest.mark.parametrize("name", GAME_NAMES)
async def test_record_of_a_game_lost_on_time_replays_to_the_stored_state(
    service, clocks, clock, db, name
):
    rng = random.Random(name)
    players = engines.get(name).allowed_player_counts()[-1]  # teams where a game has them
    info = await service.challenges.create_game(name, range(1, players + 1), time_control="1d")
    for _ in range(3):
        user = (await service.games.get_game(info.id)).user_to_move()
        moves = await service.games.legal_moves(info.id, user)
        await service.play.move(info.id, user, rng.choice(moves))
    current = await service.games.get_game(info.id)
    late_side = next(t for t in teams_of(engines.get(name), players) if current.to_move in t)
    claimer = next(u for seat, u in enumerate(current.seats) if seat not in late_side)
    clock.now += timedelta(days=2)
    ended = await clocks.claim(current.id, claimer)
    assert ended.timed_out_seat == current.to_move
    text = await assert_round_trip(service, clocks, db, info.id)
    assert '[Termination "time' in text and '[TimeControl "1d"]' in text


async def test_record_of_a_game_played_to_its_end(service, clocks, db):
    rng = random.Random(5)
    for _ in range(5):  # random Alak games end well within the cap
        info = await random_game(service, "alak", 2, rng)
        assert info.status == "finished" and info.resigned_seat is None
        text = await assert_round_trip(service, clocks, db, info.id)
        assert '[Termination "normal"]' in text


async def test_record_text_layout(service, clocks):
    info = await service.challenges.create_game("alak", [11, 22], time_control="3d+1d")
    user = info.user_to_move()
    move = (await service.games.legal_moves(info.id, user))[0]
    await service.play.move(info.id, user, move)
    text = await clocks.record_text(info.id, names={11: 'Ann "the rock"'})
    lines = text.splitlines()
    assert lines[0] == '[Game "alak"]'
    assert '[Seat0 "11"]' in lines and '[Seat1 "22"]' in lines
    assert '[Seat0Name "Ann \\"the rock\\""]' in lines
    assert '[TimeControl "3d+1d"]' in lines and '[Result "*"]' in lines
    assert lines[-1] == f"1. {move}"
    assert not any(line.startswith("[Seed") for line in lines)  # secret while running
    assert str(SEED) not in text
    parsed = parse_record(text)
    assert parsed.tags["Seat0Name"] == 'Ann "the rock"'
    assert parsed.moves == (move,)
    with pytest.raises(RecordError):
        replay_record(parsed)  # no seed: a running game does not replay


@pytest.mark.parametrize(
    "text",
    [
        "",
        '[Game "alak"]\n\n1. a\n',  # no seats
        '[Game "alak"]\n[Seat0 "1"]\n[Seat1 "2"]\n\n2. a\n',  # numbering skips
        '[Game "alak"]\n[Seat0 "1"]\n[Seat1 "2"]\nnonsense\n',
        '[Game "alak"]\n[Seat0 "1"]\n[Seat1 "2"]\n[Termination "time 5"]\n',
        '[Game "alak"]\n[Seat0 "1"]\n[Seat1 "2"]\n[Seed "x"]\n',
    ],
)
def test_bad_records_are_refused_with_a_reason(text):
    with pytest.raises(RecordError):
        parse_record(text)


def test_format_of_a_hand_written_record_replays():
    game = engines.get("alak")
    state = game.new(2, seed=3)
    moves = []
    for _ in range(4):
        move = game.legal_moves(state)[0]
        moves.append(str(move))
        state = game.play(state, move)
    text = '[Game "alak"]\n[Seat0 "1"]\n[Seat1 "2"]\n[Seed "3"]\n; a comment\n' + "".join(
        f"{i}. {m}\n" for i, m in enumerate(moves, 1)
    )
    assert game.dump(replay_record(parse_record(text))) == game.dump(state)



@pytest.mark.parametrize("name", GAME_NAMES)
async def test_public_states_for_replays_hide_the_seed_and_end_on_the_stored_state(
    service, clocks, name
):
    players = engines.get(name).allowed_player_counts()[0]
    info = await random_game(service, name, players, random.Random(name), plies=8)
    states = await clocks.public_states(info.id)
    assert len(states) == info.ply + 1
    assert all(getattr(s, "seed", None) is None for s in states)
    assert str(SEED) not in repr(states)
    assert states[-1] == info.state  # the public view the service shows
    if info.status == "active":
        await service.play.resign(info.id, info.seats[0])
        final = await clocks.public_states(info.id)
        assert final[-1].outcome == (await service.games.get_game(info.id)).outcome
