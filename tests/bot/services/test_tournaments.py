"""Tournaments through the services: sign-up, permissions, pairing rules, results, rounds."""

from __future__ import annotations

import itertools

import pytest

from bot.core.competition import elimination
from bot.services.tournaments import TournamentError
from tests.bot.services.tourney import decide, outbox_kinds, processed, round_games

ORGANISER = 100
MANAGER = 200
PLAYERS = list(range(1, 9))


async def signed_up(s, format, players, game="verdict", **kwargs):
    t = await s.tournaments.signup.create(ORGANISER, game, format, guild_id=5, channel_id=6,
                                          **kwargs)
    for user in players:
        t = await s.tournaments.signup.join(t.id, user)
    return t


async def play_round(s, tid, winner_of):
    """Decide every running game of the current round; ``winner_of(first, second)`` returns
    the winner's id or None for a draw."""
    round_number = (await s.tournaments.reading.get(tid)).current_round
    for board in await s.tournaments.reading.pairings(tid):
        if board.game_id is not None and not board.decided:
            await decide(s, board.game_id, winner_of(board.first_id, board.second_id))
    return round_number


def lower_id_wins(first, second):
    return min(first, second)


# ----- sign-up and permissions --------------------------------------------------------------


async def test_sign_up_join_leave_and_refusals(tsv, verdict):
    t = await signed_up(tsv, "round_robin", [1, 2, 3])
    assert t.status == "signup" and t.players == (1, 2, 3)
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.signup.join(t.id, 2)
    assert error.value.key == "errors.tournament.already_joined"
    t = (await tsv.tournaments.signup.leave(t.id, 2)).tournament
    assert t.players == (1, 3)
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.signup.leave(t.id, 2)
    assert error.value.key == "errors.tournament.not_entered"
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.signup.join(t.id, 4)
    assert error.value.key == "errors.tournament.signup_closed"


async def test_create_refuses_bad_settings(tsv, verdict):
    cases = [
        (("verdict", "knockout"), {}, "errors.tournament.bad_format"),
        (("verdict", "swiss"), {"swiss_rounds": 0}, "errors.tournament.bad_rounds"),
        (("verdict", "swiss"), {"time_control": "4d"}, "errors.tournament.bad_time_control"),
        (("verdict", "swiss"), {"forfeit_grace_hours": -1}, "errors.tournament.bad_grace"),
        (("alak", "lppg_match"), {}, "errors.tournament.lppg_only"),
    ]
    for args, kwargs, key in cases:
        with pytest.raises(TournamentError) as error:
            await tsv.tournaments.signup.create(ORGANISER, *args, **kwargs)
        assert error.value.key == key
    assert await tsv.tournaments.reading.tournaments(active_only=False) == []


async def test_only_the_organiser_or_a_manager_manages(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4])
    for action in (
        lambda **kw: tsv.tournaments.signup.start(t.id, 1, **kw),
        lambda **kw: tsv.tournaments.signup.cancel(t.id, 1, **kw),
        lambda **kw: tsv.tournaments.signup.kick(t.id, 1, 2, **kw),
    ):
        with pytest.raises(TournamentError) as error:
            await action()
        assert error.value.key == "errors.tournament.not_manager"
    assert (await tsv.tournaments.reading.get(t.id)).players == (1, 2, 3, 4)
    # A member with Manage Server in the tournament's own server (the Discord layer passes
    # that server) may kick and start.
    t = (await tsv.tournaments.signup.kick(t.id, MANAGER, 4, guild_id=5, manager_of=5)).tournament
    assert t.players == (1, 2, 3)
    t = await tsv.tournaments.signup.start(t.id, MANAGER, guild_id=5, manager_of=5)
    assert t.status == "running"
    # The organiser may cancel.
    t = await tsv.tournaments.signup.cancel(t.id, ORGANISER)
    assert t.status == "cancelled"


async def test_another_servers_tournament_is_refused_like_an_unknown_number(tsv, verdict):
    """Servers are apart: from server 7, nobody (not even the organiser, nor a manager of
    server 7) acts on or reads server 5's tournament, and the refusal is the one an unknown
    number gets; nothing changes."""
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4])
    foreign = [
        tsv.tournaments.signup.join(t.id, 9, guild_id=7),
        tsv.tournaments.signup.leave(t.id, 1, guild_id=7),
        tsv.tournaments.signup.kick(t.id, MANAGER, 4, guild_id=7, manager_of=7),
        tsv.tournaments.signup.kick(t.id, ORGANISER, 4, guild_id=7),
        tsv.tournaments.signup.start(t.id, ORGANISER, guild_id=7, manager_of=7),
        tsv.tournaments.signup.cancel(t.id, MANAGER, guild_id=7, manager_of=7),
        tsv.tournaments.reading.get(t.id, guild_id=7),
        tsv.tournaments.reading.standings(t.id, guild_id=7),
        tsv.tournaments.reading.pairings(t.id, guild_id=7),
        tsv.tournaments.reading.get(t.id + 1000, guild_id=7),
    ]
    for call in foreign:
        with pytest.raises(TournamentError) as error:
            await call
        assert error.value.key == "errors.tournament.not_here"
        assert error.value.params["tournament_id"] in (t.id, t.id + 1000)
    after = await tsv.tournaments.reading.get(t.id, guild_id=5)
    assert (after.status, after.players) == ("signup", (1, 2, 3, 4))


async def test_manage_server_counts_only_in_the_tournaments_own_server(tsv, verdict):
    """The permission is checked against the tournament's server: Manage Server in server 7
    gives nothing over server 5's tournament, even when the number is typed in server 5."""
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4])
    for action in (
        tsv.tournaments.signup.kick(t.id, MANAGER, 4, guild_id=5, manager_of=7),
        tsv.tournaments.signup.start(t.id, MANAGER, guild_id=5, manager_of=7),
        tsv.tournaments.signup.cancel(t.id, MANAGER, guild_id=5, manager_of=7),
    ):
        with pytest.raises(TournamentError) as error:
            await action
        assert error.value.key == "errors.tournament.not_manager"
    assert (await tsv.tournaments.reading.get(t.id)).players == (1, 2, 3, 4)
    t = await tsv.tournaments.signup.cancel(t.id, MANAGER, guild_id=5, manager_of=5)
    assert t.status == "cancelled"


async def test_start_needs_enough_players(tsv, verdict):
    t = await signed_up(tsv, "elimination", [1])
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.signup.start(t.id, ORGANISER)
    assert error.value.key == "errors.tournament.too_few"
    assert (await tsv.tournaments.reading.get(t.id)).status == "signup"


async def test_start_posts_round_one_and_creates_its_games(tsv, verdict):
    t = await signed_up(tsv, "round_robin", [1, 2, 3, 4])
    before = len(await outbox_kinds(tsv))
    t = await tsv.tournaments.signup.start(t.id, ORGANISER)
    assert t.status == "running" and t.current_round == 1
    assert [e.seed for e in t.entrants] == [1, 2, 3, 4]
    rows = (await outbox_kinds(tsv))[before:]
    assert rows[0] == ("tournament_round", {"tournament_id": t.id, "round": 1})
    started = [p for kind, p in rows[1:] if kind == "game_started"]
    boards = await tsv.tournaments.reading.pairings(t.id)
    assert len(boards) == 2 and len(started) == 2
    assert {p["game_id"] for p in started} == {b.game_id for b in boards}
    assert all(p["source"] == f"tournament:{t.id}" for p in started)
    for board in boards:
        info = await tsv.services.games.get_game(board.game_id)
        assert info.seats == (board.first_id, board.second_id)
        assert (info.guild_id, info.channel_id) == (5, 6)
        assert info.status == "active"


# ----- round robin ------------------------------------------------------------------------


async def test_round_robin_everyone_meets_everyone_then_it_finishes(tsv, verdict):
    t = await signed_up(tsv, "round_robin", [1, 2, 3, 4, 5])
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    rounds = 0
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        await play_round(tsv, t.id, lower_id_wins)
        rounds += 1
    assert rounds == 5  # odd: n rounds, one bye each
    boards = [b for r in await tsv.tournaments.reading.bracket(t.id) for b in r]
    games = [frozenset((b.first_id, b.second_id)) for b in boards if b.second_id]
    assert sorted(games, key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations([1, 2, 3, 4, 5], 2)), key=sorted)
    byes = [b.first_id for b in boards if b.second_id is None]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    table = await tsv.tournaments.reading.standings(t.id)
    assert [r.user_id for r in table.rows] == [1, 2, 3, 4, 5]
    assert [r.points for r in table.rows] == [5.0, 4.0, 3.0, 2.0, 1.0]  # wins + bye
    assert ("tournament_finished", {"tournament_id": t.id}) in await outbox_kinds(tsv)


async def test_round_robin_tie_break_order_head_to_head_then_sonneborn_berger(tsv, verdict):
    # 4 players, three rounds. Results chosen so that 2 and 3 tie on points and 3 beat 2.
    results = {frozenset((1, 2)): 1, frozenset((1, 3)): 1, frozenset((1, 4)): 4,
               frozenset((2, 3)): 3, frozenset((2, 4)): 2, frozenset((3, 4)): 4}
    t = await signed_up(tsv, "round_robin", [1, 2, 3, 4])
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        await play_round(tsv, t.id, lambda a, b: results[frozenset((a, b))])
    table = await tsv.tournaments.reading.standings(t.id)
    assert table.tiebreaks == ("head_to_head", "sonneborn_berger")
    points = {r.user_id: r.points for r in table.rows}
    assert points == {1: 2.0, 2: 1.0, 3: 1.0, 4: 2.0}
    # 1 and 4 tie on 2 points: 4 beat 1 head to head. 2 and 3 tie on 1: 3 beat 2.
    assert [r.user_id for r in table.rows] == [4, 1, 3, 2]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]


# ----- Swiss ------------------------------------------------------------------------------


async def test_swiss_avoids_rematches_while_it_can(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=3)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        await play_round(tsv, t.id, lower_id_wins)
    boards = [b for r in await tsv.tournaments.reading.bracket(t.id) for b in r]
    met = [frozenset((b.first_id, b.second_id)) for b in boards]
    assert len(met) == 6 and len(set(met)) == 6  # three rounds of 4: all six pairs, once


async def test_swiss_pairs_by_score_groups(tsv, verdict):
    t = await signed_up(tsv, "swiss", PLAYERS, swiss_rounds=2)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    await play_round(tsv, t.id, lower_id_wins)
    table = {r.user_id: r.points for r in (await tsv.tournaments.reading.standings(t.id)).rows}
    for board in await tsv.tournaments.reading.pairings(t.id):
        assert table[board.first_id] == table[board.second_id]


async def test_swiss_bye_goes_to_the_lowest_score_without_one(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4, 5], swiss_rounds=4)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    byes = []
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        boards = await tsv.tournaments.reading.pairings(t.id)
        (bye,) = [b.first_id for b in boards if b.second_id is None]
        table = await tsv.tournaments.reading.standings(t.id)
        standings = {r.user_id: r.points for r in table.rows}
        candidates = [p for p in standings if p not in byes]
        lowest = min(standings[p] - (1.0 if p == bye else 0.0) for p in candidates)
        # The bye's point is already counted: before it, the bye had the lowest score.
        assert standings[bye] - 1.0 == lowest
        assert bye not in byes
        byes.append(bye)
        await play_round(tsv, t.id, lower_id_wins)
    assert len(byes) == 4 and len(set(byes)) == 4


async def test_swiss_tie_breaks_buchholz_then_sonneborn_berger(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4, 5, 6], swiss_rounds=3)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        await play_round(tsv, t.id, lambda a, b: None if {a, b} == {3, 4} else min(a, b))
    table = await tsv.tournaments.reading.standings(t.id)
    assert table.tiebreaks == ("buchholz", "sonneborn_berger")
    keys = [(r.points, *r.tiebreaks) for r in table.rows]
    assert keys == sorted(keys, reverse=True)
    assert any(r.draws for r in table.rows)
    assert len({r.points for r in table.rows}) < len(table.rows)  # some ties were broken


# ----- elimination ------------------------------------------------------------------------


async def test_elimination_bracket_advancement(tsv, verdict):
    t = await signed_up(tsv, "elimination", PLAYERS)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    first = await tsv.tournaments.reading.pairings(t.id)
    # Seeds in joining order (nobody is rated yet): 1–8, 4–5, 2–7, 3–6.
    assert [(b.first_id, b.second_id) for b in first] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    upsets = {frozenset((1, 8)): 8, frozenset((4, 5)): 4, frozenset((2, 7)): 7,
              frozenset((3, 6)): 3}
    await play_round(tsv, t.id, lambda a, b: upsets[frozenset((a, b))])
    second = await tsv.tournaments.reading.pairings(t.id)
    assert [{b.first_id, b.second_id} for b in second] == [{8, 4}, {7, 3}]
    await play_round(tsv, t.id, lambda a, b: max(a, b))
    final = await tsv.tournaments.reading.pairings(t.id)
    assert [{b.first_id, b.second_id} for b in final] == [{8, 7}]
    await play_round(tsv, t.id, lambda a, b: 7)
    t = await tsv.tournaments.reading.get(t.id)
    assert t.status == "finished" and t.current_round == elimination.rounds_needed(8)
    table = await tsv.tournaments.reading.standings(t.id)
    assert [r.user_id for r in table.rows][:2] == [7, 8]
    assert [r.rank for r in table.rows] == [1, 2, 3, 3, 5, 5, 5, 5]


async def test_elimination_byes_go_to_the_top_seeds(tsv, verdict):
    t = await signed_up(tsv, "elimination", [1, 2, 3, 4, 5])
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    boards = await tsv.tournaments.reading.pairings(t.id)
    byes = [b.first_id for b in boards if b.second_id is None]
    assert sorted(byes) == [1, 2, 3]
    assert all(b.decided and b.method == "bye" for b in boards if b.second_id is None)
    (game,) = [b for b in boards if b.second_id is not None]
    assert {game.first_id, game.second_id} == {4, 5}
    # A bye counts as a win in the standings: a point, like the winner of the round's game.
    await decide(tsv, game.game_id, 4)
    rows = {r.user_id: r for r in (await tsv.tournaments.reading.standings(t.id)).rows}
    assert [rows[p].points for p in (1, 2, 3, 4)] == [1.0, 1.0, 1.0, 1.0]
    assert (rows[1].wins, rows[1].losses, rows[1].played) == (1, 0, 0)  # a bye is no game
    assert rows[5].points == 0.0 and rows[5].losses == 1


async def test_elimination_draw_is_replayed_with_seats_swapped(tsv, verdict):
    t = await signed_up(tsv, "elimination", [1, 2])
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    (board,) = await tsv.tournaments.reading.pairings(t.id)
    first_game = board.game_id
    await decide(tsv, first_game, None)
    (board,) = await tsv.tournaments.reading.pairings(t.id)
    assert not board.decided and board.attempts == 2 and board.game_id != first_game
    assert (await tsv.services.games.get_game(board.game_id)).seats == (2, 1)
    await decide(tsv, board.game_id, None)
    (board,) = await tsv.tournaments.reading.pairings(t.id)
    assert board.attempts == 3 and (await tsv.services.games.get_game(board.game_id)).seats == (1,
                                                                                                2)
    await decide(tsv, board.game_id, 2)
    t = await tsv.tournaments.reading.get(t.id)
    assert t.status == "finished"
    assert [r.user_id for r in (await tsv.tournaments.reading.standings(t.id)).rows] == [2, 1]


async def test_elimination_seeds_follow_ratings(tsv, verdict):
    # Player 4 beats player 3 twice outside the tournament: 4 is then rated above 1, 2, 3.
    for _ in range(2):
        challenge = await tsv.services.challenges.challenge("verdict", 4, opponent_id=3)
        game = await tsv.services.challenges.accept(challenge.id, 3)
        await tsv.services.play.move(game.id, 4, "win")
        await tsv.ratings.on_game_over(game.id)
    t = await signed_up(tsv, "elimination", [1, 2, 3, 4])
    t = await tsv.tournaments.signup.start(t.id, ORGANISER)
    seeds = {e.user_id: e.seed for e in t.entrants}
    assert seeds[4] == 1 and seeds[3] == 4
    boards = await tsv.tournaments.reading.pairings(t.id)
    assert (boards[0].first_id, boards[0].second_id) == (4, 3)


# ----- withdrawals, draws ---------------------------------------------------------------


async def test_withdrawal_forfeits_the_running_game_and_is_never_paired_again(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=3)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    boards = await tsv.tournaments.reading.pairings(t.id)
    board = next(b for b in boards if 4 in (b.first_id, b.second_id))
    t = (await tsv.tournaments.signup.leave(t.id, 4)).tournament
    assert next(e for e in t.entrants if e.user_id == 4).withdrawn
    game = await tsv.services.games.get_game(board.game_id)
    assert game.status == "finished" and game.resigned_seat == game.seats.index(4)
    (board,) = [b for b in await tsv.tournaments.reading.pairings(t.id, 1) if b.game_id == game.id]
    assert board.decided and board.winner != 4
    await play_round(tsv, t.id, lower_id_wins)
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        assert all(4 not in (b.first_id, b.second_id)
                   for b in await tsv.tournaments.reading.pairings(t.id))
        await play_round(tsv, t.id, lower_id_wins)
    table = await tsv.tournaments.reading.standings(t.id)
    assert next(r for r in table.rows if r.user_id == 4).withdrawn


async def test_round_robin_games_against_a_withdrawn_player_are_forfeits(tsv, verdict):
    t = await signed_up(tsv, "round_robin", [1, 2, 3, 4])
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    await play_round(tsv, t.id, lower_id_wins)
    t = (await tsv.tournaments.signup.kick(t.id, ORGANISER, 2)).tournament
    # Round 2 was already paired: 2's game there was resigned on their behalf.
    (resigned,) = [b for b in await tsv.tournaments.reading.pairings(t.id)
                   if 2 in (b.first_id, b.second_id)]
    assert resigned.method == "game" and resigned.winner != 2
    assert (await tsv.services.games.get_game(resigned.game_id)).resigned_seat is not None
    await play_round(tsv, t.id, lower_id_wins)
    (later,) = [b for b in await tsv.tournaments.reading.pairings(t.id, 3)
                if 2 in (b.first_id, b.second_id)]
    assert later.method == "forfeit" and later.game_id is None and later.winner != 2
    while (await tsv.tournaments.reading.get(t.id)).status == "running":
        await play_round(tsv, t.id, lower_id_wins)
    table = {r.user_id: r for r in (await tsv.tournaments.reading.standings(t.id)).rows}
    assert table[2].withdrawn and table[2].points == 1.0  # round 1 win over 3 or 4 stays


async def test_draws_score_half_a_point(tsv, verdict):
    t = await signed_up(tsv, "round_robin", [1, 2])
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    await play_round(tsv, t.id, lambda a, b: None)
    table = await tsv.tournaments.reading.standings(t.id)
    assert [(r.points, r.draws) for r in table.rows] == [(0.5, 1), (0.5, 1)]
    assert [r.rank for r in table.rows] == [1, 1]


# ----- recording, cancelling, restart ---------------------------------------------------


async def test_results_are_recorded_exactly_once(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=2)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    games = await round_games(tsv, t.id)
    await decide(tsv, games[0], None, notify=False)
    assert await tsv.tournaments.rounds.on_game_over(games[0]) is True
    assert await tsv.tournaments.rounds.on_game_over(games[0]) is False
    assert await tsv.tournaments.rounds.sync_finished_games() == 0
    assert await processed(tsv, "tournament") == 1
    await decide(tsv, games[1], 1)
    assert (await tsv.tournaments.reading.get(t.id)).current_round == 2
    for game_id in games:  # late duplicates change nothing
        assert await tsv.tournaments.rounds.on_game_over(game_id) is False
    assert len([k for k, _ in await outbox_kinds(tsv) if k == "tournament_round"]) == 2


async def test_unfinished_or_foreign_games_record_nothing(tsv, verdict):
    challenge = await tsv.services.challenges.challenge("verdict", 1, opponent_id=2)
    friendly = await tsv.services.challenges.accept(challenge.id, 2)
    await tsv.services.play.move(friendly.id, 1, "win")
    assert await tsv.tournaments.rounds.on_game_over(friendly.id) is False
    assert await tsv.tournaments.reading.forfeit_grace(friendly.id) is None
    t = await signed_up(tsv, "swiss", [1, 2], swiss_rounds=1, forfeit_grace_hours=36)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    (game_id,) = await round_games(tsv, t.id)
    assert await tsv.tournaments.rounds.on_game_over(game_id) is False  # still being played
    assert (await tsv.tournaments.reading.forfeit_grace(game_id)).total_seconds() == 36 * 3600


async def test_cancelled_tournament_stops(tsv, verdict):
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=3)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    await tsv.tournaments.signup.cancel(t.id, ORGANISER)
    games = await round_games(tsv, t.id)
    for game_id in games:
        await decide(tsv, game_id, (await tsv.services.games.get_game(game_id)).seats[0])
    t = await tsv.tournaments.reading.get(t.id)
    assert t.status == "cancelled" and t.current_round == 1
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.signup.cancel(t.id, ORGANISER)
    assert error.value.key == "errors.tournament.over"


async def test_concurrent_and_repeated_reports_pair_the_next_round_once(tsv, verdict):
    import asyncio

    t = await signed_up(tsv, "swiss", PLAYERS, swiss_rounds=2)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    games = await round_games(tsv, t.id)
    for game_id in games:
        await decide(tsv, game_id, (await tsv.services.games.get_game(game_id)).seats[0],
                     notify=False)
    reports = [tsv.tournaments.rounds.on_game_over(g) for g in games * 3]
    reports.append(tsv.tournaments.rounds.sync_finished_games())
    done = await asyncio.gather(*reports)
    assert sum(1 for d in done[:-1] if d is True) + done[-1] == len(games)
    t = await tsv.tournaments.reading.get(t.id)
    assert t.current_round == 2
    assert len(await tsv.tournaments.reading.pairings(t.id, 2)) == 4
    rounds = [p for k, p in await outbox_kinds(tsv) if k == "tournament_round"]
    assert rounds == [{"tournament_id": t.id, "round": 1}, {"tournament_id": t.id, "round": 2}]


async def test_the_game_service_hears_of_new_tournament_games(tsv, verdict):
    calls = []
    tsv.services.context.on_change = lambda: calls.append(1)  # the correspondence scheduler's hook
    t = await signed_up(tsv, "swiss", [1, 2, 3, 4], swiss_rounds=2)
    await tsv.tournaments.signup.start(t.id, ORGANISER)
    assert len(calls) == 1
    for game_id in await round_games(tsv, t.id):
        await decide(tsv, game_id, (await tsv.services.games.get_game(game_id)).seats[0],
                     notify=False)
        before = len(calls)
        await tsv.tournaments.rounds.on_game_over(game_id)  # the second pairs round 2
        assert len(calls) == before + 1


async def test_sign_up_is_capped(tsv, verdict, monkeypatch):
    from bot.services.tournaments import signup as module

    monkeypatch.setattr(module, "MAX_ENTRANTS", 3)
    t = await signed_up(tsv, "elimination", [1, 2, 3])
    with pytest.raises(TournamentError) as error:
        await tsv.tournaments.signup.join(t.id, 4)
    assert error.value.key == "errors.tournament.full"
    assert (await tsv.tournaments.reading.get(t.id)).players == (1, 2, 3)
