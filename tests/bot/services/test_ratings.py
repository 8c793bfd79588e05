"""Ratings of finished games: Glicko-2 for two players, openskill for more, exactly once."""

from __future__ import annotations

import pytest

from bot.core.competition.ratings import (
    PROVISIONAL_GAMES,
    Glicko,
    Skill,
    rate_multiplayer_game,
    rate_two_player_game,
)
from bot.services.ratings import side_ranks, two_player_score
from bot.store import open_store
from bot.store.ratings import rating_reads, rating_writes
from engines import Outcome
from tests.bot.services.conftest import start_game
from tests.bot.services.tourney import processed, services


async def verdict_game(s, first, second, verdict, guild_id=None):
    challenge = await s.services.challenges.challenge("verdict", first, opponent_id=second,
                                                      guild_id=guild_id)
    game = await s.services.challenges.accept(challenge.id, second)
    await s.services.play.move(game.id, first, verdict)
    return game.id


async def test_a_two_player_game_updates_both_glicko_ratings_once(tsv, verdict):
    game_id = await verdict_game(tsv, 1, 2, "win")
    assert await tsv.ratings.on_game_over(game_id) is True
    assert await tsv.ratings.on_game_over(game_id) is False
    assert await tsv.ratings.sync_finished_games() == 0
    winner, loser = rate_two_player_game(Glicko(), Glicko(), 1.0)
    ratings = await tsv.ratings.glicko_of("verdict", [1, 2, 3])
    assert ratings[1].rating == pytest.approx(winner.rating)
    assert ratings[2].rating == pytest.approx(loser.rating)
    assert ratings[1].rating > 1500 > ratings[2].rating
    assert ratings[1].games == ratings[2].games == 1
    assert ratings[3] == Glicko()  # unrated users get the default


async def test_draws_and_seat_order(tsv, verdict):
    await tsv.ratings.on_game_over(await verdict_game(tsv, 1, 2, "draw"))
    ratings = await tsv.ratings.glicko_of("verdict", [1, 2])
    assert ratings[1].rating == pytest.approx(1500) and ratings[2].rating == pytest.approx(1500)
    # Seat 1 winning is a loss for seat 0.
    await tsv.ratings.on_game_over(await verdict_game(tsv, 3, 4, "loss"))
    ratings = await tsv.ratings.glicko_of("verdict", [3, 4])
    assert ratings[4].rating > ratings[3].rating
    assert two_player_score(Outcome(frozenset({1}), (0, 1), "")) == 0.0
    assert two_player_score(Outcome(frozenset({0, 1}), (1, 1), "")) == 0.5


async def test_unfinished_and_self_play_games_are_not_rated(tsv, verdict):
    challenge = await tsv.services.challenges.challenge("verdict", 1, opponent_id=2)
    running = await tsv.services.challenges.accept(challenge.id, 2)
    assert await tsv.ratings.on_game_over(running.id) is False
    solo = await tsv.services.challenges.create_game("verdict", (5, 5))
    await tsv.services.play.move(solo.id, 5, "win")
    assert await tsv.ratings.on_game_over(solo.id) is False
    assert (await tsv.ratings.profile(5)).ratings == ()


async def test_kolory_with_three_players_uses_openskill(tsv):
    game = await start_game(tsv.services, "kolory", (1, 2, 3))
    await tsv.services.play.resign(game.id, 3)  # 1 and 2 share the win
    assert await tsv.ratings.on_game_over(game.id)
    board = await tsv.ratings.leaderboard("kolory")
    assert board.glicko == ()
    assert {e.user_id for e in board.skill} == {1, 2, 3}
    expected = rate_multiplayer_game([[Skill()], [Skill()], [Skill()]], [0, 0, 1])
    by_user = {e.user_id: e for e in board.skill}
    assert (by_user[3].value, by_user[3].deviation) == pytest.approx(expected[2][0].shown)
    assert by_user[1].value > by_user[3].value
    assert all(e.provisional and e.system == "skill" for e in board.skill)


async def test_team_games_rate_partners_together(tsv, tally):
    game = await start_game(tsv.services, "tally", (1, 2, 3, 4))
    await tsv.services.play.resign(game.id, 2)  # team 1+3 (seats 1, 3) loses
    await tsv.ratings.on_game_over(game.id)
    skills = {e.user_id: e for e in (await tsv.ratings.leaderboard("tally")).skill}
    assert skills[1].value == pytest.approx(skills[3].value)
    assert skills[2].value == pytest.approx(skills[4].value)
    assert skills[1].value > skills[2].value


def test_side_ranks_put_winners_first_then_scores():
    outcome = Outcome(frozenset({2}), (3.0, 5.0, 9.0, 3.0), "")
    assert side_ranks(outcome, [(0,), (1,), (2,), (3,)]) == [2, 1, 0, 2]


async def test_leaderboard_order_and_provisional_marks(tsv, verdict):
    for _ in range(PROVISIONAL_GAMES):
        await tsv.ratings.on_game_over(await verdict_game(tsv, 1, 2, "win"))
    await tsv.ratings.on_game_over(await verdict_game(tsv, 3, 2, "win"))
    board = await tsv.ratings.leaderboard("verdict")
    values = [e.value for e in board.glicko]
    assert values == sorted(values, reverse=True)
    by_user = {e.user_id: e for e in board.glicko}
    assert by_user[3].provisional and by_user[3].games == 1
    assert by_user[1].games == PROVISIONAL_GAMES
    assert by_user[1].provisional == (by_user[1].deviation > 110)
    profile = await tsv.ratings.profile(2)
    assert [(e.game, e.system, e.games) for e in profile.ratings] == [
        ("verdict", "glicko", PROVISIONAL_GAMES + 1)]


async def test_sync_rates_missed_games_in_the_order_they_ended(db, clock, verdict):
    store = await open_store(db.url)
    s = services(store, clock)
    first = await verdict_game(s, 1, 2, "win")
    second = await verdict_game(s, 2, 1, "win")
    await store.close()
    store = await open_store(db.url)
    try:
        s = services(store, clock)
        assert await s.ratings.sync_finished_games() == 2
        assert await s.ratings.sync_finished_games() == 0
        assert await processed(s, "rating") == 2
        a, b = rate_two_player_game(Glicko(), Glicko(), 1.0)  # game 1: user 1 wins
        b, a = rate_two_player_game(b, a, 1.0)  # game 2: user 2 wins
        ratings = await s.ratings.glicko_of("verdict", [1, 2])
        assert ratings[1].rating == pytest.approx(a.rating)
        assert ratings[2].rating == pytest.approx(b.rating)
        assert first < second
    finally:
        await store.close()


def test_skills_are_shown_on_the_glicko_scale():
    """Ruling: an openskill skill is shown as 1500 + 42 (mu − 25) ± 42 sigma, so a newcomer
    reads 1500 ±350 in every game, and one point of mu is worth 42 rating points."""
    assert Skill().shown == pytest.approx((Glicko().rating, Glicko().rd))
    assert Skill(mu=26.0, sigma=5.0).shown == pytest.approx((1542.0, 210.0))
    assert Skill(mu=20.0).shown[0] == pytest.approx(1290.0)


async def test_kolory_after_a_game_reads_near_1500_not_near_zero(tsv):
    game = await start_game(tsv.services, "kolory", (1, 2, 3))
    await tsv.services.play.resign(game.id, 3)
    await tsv.ratings.on_game_over(game.id)
    for entry in (await tsv.ratings.profile(1)).ratings:
        assert 1400 < entry.value < 1800 and 250 < entry.deviation <= 350


async def test_the_skill_leaderboard_is_ordered_by_the_value_shown(tsv, clock):
    """Like Glicko: by the value shown (mu), then the smaller deviation; not by openskill's
    conservative mu − 3 sigma, which would put 2 (28 − 6) above 1 (30 − 24)."""
    async with tsv.store.transaction() as tx:
        writes = rating_writes(tx)
        for user, mu, sigma in ((1, 30.0, 8.0), (2, 28.0, 2.0), (3, 28.0, 1.0)):
            await tx.ensure_user(user, clock())
            await writes.put_skill(user, "kolory", mu, sigma, 9, clock())
    board = await tsv.ratings.leaderboard("kolory")
    assert [e.user_id for e in board.skill] == [1, 3, 2]
    assert [e.value for e in board.skill] == sorted((e.value for e in board.skill),
                                                    reverse=True)
    ranks = [(await tsv.ratings.profile(u)).ratings[0].rank for u in (1, 2, 3)]
    assert ranks == [1, 3, 2]


# ----- leaderboards per server ----------------------------------------------------------------


async def test_a_servers_leaderboard_lists_the_players_who_finished_a_rated_game_there(
        tsv, verdict):
    """Ruling: one rating per player and game; a server's leaderboard keeps the players who
    finished a rated game of that game on that server; ``guild_id`` None is everyone."""
    await tsv.ratings.on_game_over(await verdict_game(tsv, 1, 2, "win", guild_id=5))
    await tsv.ratings.on_game_over(await verdict_game(tsv, 3, 4, "win", guild_id=7))
    await tsv.ratings.on_game_over(await verdict_game(tsv, 1, 3, "win", guild_id=7))
    await tsv.ratings.on_game_over(await verdict_game(tsv, 5, 6, "win"))  # a direct message
    here = await tsv.ratings.leaderboard("verdict", guild_id=5)
    assert [e.user_id for e in here.glicko] == [1, 2] and here.guild_id == 5
    there = await tsv.ratings.leaderboard("verdict", guild_id=7)
    assert {e.user_id for e in there.glicko} == {1, 3, 4}
    everyone = await tsv.ratings.leaderboard("verdict")
    assert {e.user_id for e in everyone.glicko} == {1, 2, 3, 4, 5, 6}
    assert everyone.guild_id is None
    # The same rating everywhere: player 1's two wins, in both servers' lists.
    assert {e.value for e in here.glicko if e.user_id == 1} == {
        e.value for e in there.glicko if e.user_id == 1}
    assert next(e for e in here.glicko if e.user_id == 1).games == 2


async def test_games_against_oneself_or_unfinished_put_nobody_on_a_servers_board(tsv, verdict):
    solo = await tsv.services.challenges.create_game("verdict", (8, 8), guild_id=5)
    await tsv.services.play.move(solo.id, 8, "win")
    await tsv.ratings.on_game_over(solo.id)
    challenge = await tsv.services.challenges.challenge("verdict", 8, opponent_id=9, guild_id=5)
    await tsv.services.challenges.accept(challenge.id, 9)  # still being played
    await tsv.ratings.on_game_over(await verdict_game(tsv, 8, 9, "win", guild_id=7))
    assert (await tsv.ratings.leaderboard("verdict", guild_id=5)).glicko == ()
    assert {e.user_id for e in (await tsv.ratings.leaderboard("verdict", guild_id=7)).glicko
            } == {8, 9}


async def test_a_profile_gives_the_rank_here_and_among_everyone(tsv, verdict):
    # Everyone: 1 (two wins) first, then 3, ...; on server 5 only 1 and 2 played.
    await tsv.ratings.on_game_over(await verdict_game(tsv, 3, 4, "win", guild_id=7))
    await tsv.ratings.on_game_over(await verdict_game(tsv, 1, 5, "win", guild_id=7))
    await tsv.ratings.on_game_over(await verdict_game(tsv, 1, 2, "win", guild_id=5))
    await tsv.ratings.on_game_over(await verdict_game(tsv, 2, 6, "win", guild_id=7))
    everyone = [e.user_id for e in (await tsv.ratings.leaderboard("verdict")).glicko]
    here = [e.user_id for e in (await tsv.ratings.leaderboard("verdict", guild_id=5)).glicko]
    assert here == [1, 2]
    for user in (1, 2, 3):
        (entry,) = (await tsv.ratings.profile(user, guild_id=5)).ratings
        assert entry.rank == everyone.index(user) + 1
        assert entry.server_rank == (here.index(user) + 1 if user in here else None)
    (entry,) = (await tsv.ratings.profile(2)).ratings
    assert entry.server_rank is None and entry.rank == everyone.index(2) + 1


async def test_each_rated_game_writes_a_history_row_per_player_with_the_rating(tsv, verdict,
                                                                                clock):
    reads = rating_reads(tsv.store)
    start = clock()
    assert await reads.rating_version(1) == 0
    first = await verdict_game(tsv, 1, 2, "win")
    await tsv.ratings.on_game_over(first)
    second = await verdict_game(tsv, 2, 1, "win")
    await tsv.ratings.on_game_over(second)
    history = await reads.history_of(1, start)
    assert [h.game_id for h in history] == [first, second]
    now = await tsv.ratings.glicko_of("verdict", [1, 2])
    # The rows hold the values before and after each game, the last one the current rating.
    assert (history[0].value_before, history[0].deviation_before) == (1500.0, 350.0)
    assert history[0].value == pytest.approx(history[1].value_before)
    assert (history[1].value, history[1].deviation) == pytest.approx(
        (now[1].rating, now[1].rd))
    assert all(h.system == "glicko" and h.game == "verdict" for h in history)
    version = await reads.rating_version(1)
    assert version == max(h.id for h in history)
    # Rating a game again writes nothing more; an unrated game neither.
    await tsv.ratings.on_game_over(second)
    solo = await tsv.services.challenges.create_game("verdict", (1, 1))
    await tsv.services.play.move(solo.id, 1, "win")
    await tsv.ratings.on_game_over(solo.id)
    assert await reads.rating_version(1) == version
    assert len(await reads.history_of(1, start)) == 2
    by_game = await reads.history_of_games(2, [first, second, solo.id])
    assert set(by_game) == {first, second}


async def test_multiplayer_games_write_skill_history(tsv):
    game = await start_game(tsv.services, "kolory", (1, 2, 3))
    await tsv.services.play.resign(game.id, 3)
    await tsv.ratings.on_game_over(game.id)
    rows = await rating_reads(tsv.store).history_of_games(3, [game.id])
    row = rows[game.id]
    assert row.system == "skill"
    assert (row.value_before, row.deviation_before) == pytest.approx(
        (Skill().mu, Skill().sigma))
    assert row.value < row.value_before  # the one who resigned lost skill


async def test_a_failed_rating_leaves_no_history(tsv, verdict, monkeypatch):
    game_id = await verdict_game(tsv, 1, 2, "win")

    from bot.store.ratings import RatingWrites
    real = RatingWrites.put_glicko
    calls = []

    async def broken_second(self, *args, **kwargs):
        # The first player's rating and history row are written; the second's fails.
        calls.append(args)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        await real(self, *args, **kwargs)

    monkeypatch.setattr(RatingWrites, "put_glicko", broken_second)
    with pytest.raises(RuntimeError):
        await tsv.ratings.on_game_over(game_id)
    assert len(calls) == 2
    # Nothing of the transaction stays: no history row for the first player either.
    assert await rating_reads(tsv.store).rating_version(1) == 0
    assert await rating_reads(tsv.store).rating_version(2) == 0


async def test_games_where_the_bot_is_not_are_casual_unless_asked_and_never_a_servers(tsv,
                                                                                  verdict):
    """Issue 28: a game in a DM, group DM or server without the bot (``place``
    "conversation") counts only if its challenge asked ``rated``; then for everyone's
    leaderboard, not the server's where it was played without the bot."""
    casual = await tsv.services.challenges.challenge("verdict", 1, opponent_id=2, guild_id=5,
                                                     place="conversation")
    game = await tsv.services.challenges.accept(casual.id, 2)
    await tsv.services.play.move(game.id, 1, "win")
    assert not await tsv.ratings.on_game_over(game.id)
    rated = await tsv.services.challenges.challenge("verdict", 3, opponent_id=4, guild_id=5,
                                                    place="conversation", rated=True)
    game = await tsv.services.challenges.accept(rated.id, 4)
    await tsv.services.play.move(game.id, 3, "win")
    assert await tsv.ratings.on_game_over(game.id)
    assert {e.user_id for e in (await tsv.ratings.leaderboard("verdict")).glicko} == {3, 4}
    assert (await tsv.ratings.leaderboard("verdict", guild_id=5)).glicko == ()
    # And a server's own game asked casual is not rated either.
    unrated = await tsv.services.challenges.challenge("verdict", 5, opponent_id=6, guild_id=5,
                                                      rated=False)
    game = await tsv.services.challenges.accept(unrated.id, 6)
    await tsv.services.play.move(game.id, 5, "win")
    assert not await tsv.ratings.on_game_over(game.id)
