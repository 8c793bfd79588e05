"""Whole tournaments played with a real engine (Alak random playouts), and restarts."""

from __future__ import annotations

import itertools
import random

from bot.core.competition import standings as math_standings
from bot.core.competition.results import Result
from bot.store import open_store
from tests.bot.services.tourney import (
    decide,
    outbox_kinds,
    play_randomly,
    processed,
    round_games,
    services,
)

ORGANISER = 100


async def independent_results(s, tournament_id):
    """The tournament's results rebuilt from the games' own outcomes (not from its tables)."""
    results = []
    for round_boards in await s.tournaments.reading.bracket(tournament_id):
        for board in round_boards:
            if board.second_id is None:
                results.append(Result(board.round, board.first_id, None, 1.0))
                continue
            game = await s.services.games.get_game(board.game_id)
            first_seat = game.seats.index(board.first_id)
            won = first_seat in game.outcome.winners
            lost = (1 - first_seat) in game.outcome.winners
            results.append(Result(board.round, board.first_id, board.second_id,
                                  0.5 if won == lost else (1.0 if won else 0.0)))
    return results


async def test_a_whole_eight_player_swiss_with_alak(tsv):
    rng = random.Random(8)
    players = list(range(11, 19))
    t = await tsv.tournaments.signup.create(ORGANISER, "alak", "swiss", name="Alak Swiss")
    for user in players:
        await tsv.tournaments.signup.join(t.id, user)
    t = await tsv.tournaments.signup.start(t.id, ORGANISER)
    assert t.swiss_rounds == 3  # ⌈log2 8⌉
    played_rounds = 0
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        games = await round_games(tsv, t.id)
        assert len(games) == 4
        for game_id in games:
            await play_randomly(tsv, game_id, rng)
        played_rounds += 1
    assert played_rounds == 3
    results = await independent_results(tsv, t.id)
    assert len(results) == 12
    met = [frozenset((r.first, r.second)) for r in results]
    assert len(set(met)) == 12  # no rematch
    for player in players:
        assert sum(player in pair for pair in met) == 3
    expected = math_standings.swiss(players, results)
    table = await tsv.tournaments.reading.standings(t.id)
    assert [(r.user_id, r.points, r.tiebreaks) for r in table.rows] == [
        (s.player, s.points, s.tiebreaks) for s in expected
    ]
    assert sum(r.points for r in table.rows) == 12
    kinds = [k for k, p in await outbox_kinds(tsv) if p.get("tournament_id") == t.id]
    assert kinds == ["tournament_round"] * 3 + ["tournament_finished"]


async def test_a_whole_six_player_round_robin_with_alak(tsv):
    rng = random.Random(6)
    players = [21, 22, 23, 24, 25, 26]
    t = await tsv.tournaments.signup.create(ORGANISER, "alak", "round_robin")
    for user in players:
        await tsv.tournaments.signup.join(t.id, user)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        for index, game_id in enumerate(await round_games(tsv, t.id)):
            if index == 2:  # one game per round ends by resignation of the player to move
                info = await tsv.services.games.get_game(game_id)
                await tsv.services.play.resign(game_id, info.user_to_move())
                await tsv.tournaments.rounds.on_game_over(game_id)
            else:
                await play_randomly(tsv, game_id, rng)
    t = await tsv.tournaments.reading.get(t.id)
    assert t.status == "finished" and t.current_round == 5
    results = await independent_results(tsv, t.id)
    assert sorted((frozenset((r.first, r.second)) for r in results), key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations(players, 2)), key=sorted)
    # First moves are shared: each player has seat 0 in two or three of their five games.
    for player in players:
        assert sum(r.first == player for r in results) in (2, 3)
    expected = math_standings.round_robin(players, results)
    table = await tsv.tournaments.reading.standings(t.id)
    assert [(r.rank, r.user_id, r.points) for r in table.rows] == [
        (s.rank, s.player, s.points) for s in expected
    ]
    assert sum(r.points for r in table.rows) == 15


async def test_restart_mid_tournament_continues_and_catches_up(db, clock, verdict):
    store = await open_store(db.url)
    s = services(store, clock)
    t = await s.tournaments.signup.create(ORGANISER, "verdict", "swiss", swiss_rounds=3)
    for user in (1, 2, 3, 4, 5, 6):
        await s.tournaments.signup.join(t.id, user)
    await s.tournaments.signup.start(t.id, ORGANISER)
    games = await round_games(s, t.id)
    await decide(s, games[0], (await s.services.games.get_game(games[0])).seats[0])
    # Two games end while the bot is down (nobody calls on_game_over for them).
    for game_id in games[1:]:
        await decide(s, game_id, (await s.services.games.get_game(game_id)).seats[1], notify=False)
    await store.close()

    store = await open_store(db.url)
    try:
        s = services(store, clock)
        assert (await s.tournaments.reading.get(t.id)).current_round == 1
        assert await s.tournaments.rounds.sync_finished_games() == 2
        assert await s.tournaments.rounds.sync_finished_games() == 0
        t = await s.tournaments.reading.get(t.id)
        assert t.current_round == 2
        while (await s.tournaments.reading.get(t.id)).status == "running":
            for game_id in await round_games(s, t.id):
                await decide(s, game_id, (await s.services.games.get_game(game_id)).seats[0])
        assert await processed(s, "tournament") == 9
        table = await s.tournaments.reading.standings(t.id)
        assert sum(r.points for r in table.rows) == 9
        boards = [b for r in await s.tournaments.reading.bracket(t.id) for b in r]
        assert len({frozenset((b.first_id, b.second_id)) for b in boards}) == 9
    finally:
        await store.close()


async def test_restart_forfeits_a_withdrawn_players_game_left_running(db, clock, verdict):
    store = await open_store(db.url)
    s = services(store, clock)
    t = await s.tournaments.signup.create(ORGANISER, "verdict", "round_robin")
    for user in (1, 2, 3, 4):
        await s.tournaments.signup.join(t.id, user)
    await s.tournaments.signup.start(t.id, ORGANISER)
    # The withdrawal was written, then the bot stopped before resigning the game.
    from bot.store.tournaments import tournament_writes

    async with store.transaction() as tx:
        await tournament_writes(tx).withdraw_entrant(t.id, 3, 1)
    await store.close()

    store = await open_store(db.url)
    try:
        s = services(store, clock)
        await s.tournaments.rounds.sync_finished_games()
        (board,) = [b for b in await s.tournaments.reading.pairings(t.id, 1)
                    if 3 in (b.first_id, b.second_id)]
        assert board.decided and board.winner != 3
        game = await s.services.games.get_game(board.game_id)
        assert game.resigned_seat == game.seats.index(3)
    finally:
        await store.close()


async def test_timed_tournament_games_are_forfeited_after_the_grace_period(tsv, clock):
    from datetime import timedelta

    from bot.services.clocks import ClockService

    clocks = ClockService(tsv.store, tsv.services, clock=clock,
                          grace_for=tsv.tournaments.reading.forfeit_grace)
    t = await tsv.tournaments.signup.create(ORGANISER, "alak", "swiss", swiss_rounds=2,
                                            time_control="1d", forfeit_grace_hours=6)
    for user in (1, 2, 3, 4):
        await tsv.tournaments.signup.join(t.id, user)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    games = await round_games(tsv, t.id)
    deadline = await clocks.deadline(games[0])
    assert deadline is not None  # the tournament's time control reached the game
    assert await tsv.tournaments.reading.forfeit_grace(games[0]) == timedelta(hours=6)
    # Past the deadline but within the grace: reminders only, the games go on.
    clock.now = deadline + timedelta(hours=5)
    await clocks.run_due(clock.now)
    for game_id in games:
        assert (await tsv.services.games.get_game(game_id)).status == "active"
    # Past deadline + grace: both games (nobody moved) are lost on time by seat 0.
    clock.now = deadline + timedelta(hours=7)
    await clocks.run_due(clock.now)
    for game_id in games:
        assert (await tsv.services.games.get_game(game_id)).status == "finished"
    for game_id in games:
        assert await tsv.tournaments.rounds.on_game_over(game_id)
    table = {b.game_id: b for b in await tsv.tournaments.reading.pairings(t.id, 1)}
    for game_id in games:
        assert table[game_id].first_score == 0.0  # the first player was to move
    assert (await tsv.tournaments.reading.get(t.id)).current_round == 2
