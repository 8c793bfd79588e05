"""A player's finished games page by page, and the data of the /profile picture."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from bot.services.history import (
    DRAWN,
    LOST,
    PAGE_SIZE,
    WON,
    HistoryService,
    games_per_month,
)
from tests.bot.services.conftest import start_game
from tests.bot.services.test_ratings import verdict_game


async def test_pages_list_results_opponents_and_rating_changes_last_first(tsv, verdict, clock):
    history = HistoryService(tsv.store, clock=clock)
    played = []
    for i in range(PAGE_SIZE + 2):
        verdict_text = ("win", "loss", "draw")[i % 3]
        game_id = await verdict_game(tsv, 1, 2 + i % 2, verdict_text, guild_id=10)
        await tsv.ratings.on_game_over(game_id)
        played.append(game_id)
        clock.now += timedelta(minutes=5)
    first = await history.page(1, guild_id=10, asker_id=9)
    assert [g.game_id for g in first.games] == played[::-1][:PAGE_SIZE]
    assert first.has_next
    second = await history.page(1, guild_id=10, asker_id=9, page=1)
    assert [g.game_id for g in second.games] == played[1::-1]
    assert not second.has_next
    results = {"win": WON, "loss": LOST, "draw": DRAWN}
    expected = [(results[("win", "loss", "draw")[i % 3]], (2 + i % 2,), ())
                for i in range(len(played))][::-1]
    shown = [(g.result, g.opponents, g.partners) for g in first.games + second.games]
    assert shown == expected
    assert {result for result, _, _ in shown} == {WON, LOST, DRAWN}
    change = second.games[1].rating
    assert change.before == pytest.approx(1500) and change.after > 1500
    # Another server's games are not listed there.
    assert (await history.page(1, guild_id=11, asker_id=1)).games == ()
    # Only one game's games.
    assert (await history.page(1, game="alak", guild_id=10, asker_id=1)).games == ()


async def test_in_a_direct_message_only_games_the_asker_played_are_listed(tsv, verdict, clock):
    history = HistoryService(tsv.store, clock=clock)
    with_bob = await verdict_game(tsv, 1, 2, "win", guild_id=10)
    with_carol = await verdict_game(tsv, 1, 3, "win", guild_id=10)
    assert [g.game_id for g in (await history.page(1, guild_id=None, asker_id=1)).games] == [
        with_carol, with_bob]
    assert [g.game_id for g in (await history.page(1, guild_id=None, asker_id=2)).games] == [
        with_bob]


async def test_unrated_and_team_games_and_aborted_ones(tsv, clock):
    history = HistoryService(tsv.store, clock=clock)
    game = await start_game(tsv.services, "lppg", (1, 2, 3, 4))
    await tsv.services.play.resign(game.id, 2)  # seats 1+3 lose: users 2 and 4
    page = await history.page(1, guild_id=None, asker_id=1)
    (only,) = page.games
    assert (only.result, only.partners, set(only.opponents)) == (WON, (3,), {2, 4})
    assert only.rating is None  # not rated yet
    running = await start_game(tsv.services, "alak", (1, 2))
    assert running.id not in [g.game_id for g in
                              (await history.page(1, guild_id=None, asker_id=1)).games]


async def test_chart_data_and_games_per_month(tsv, verdict, clock):
    history = HistoryService(tsv.store, clock=clock)
    since = clock().date().replace(day=1)
    empty = await history.chart(1, since)
    assert empty.empty and empty.version == 0
    game_id = await verdict_game(tsv, 1, 2, "win")
    await tsv.ratings.on_game_over(game_id)
    chart = await history.chart(1, since)
    assert chart.version > 0 and len(chart.steps) == 1
    assert chart.steps[0].before == (1500.0, 350.0) and chart.steps[0].after[0] > 1500
    assert chart.ended == (("verdict", chart.ended[0][1]),)
    months = [date(2026, 1, 1), date(2026, 2, 1)]
    when = chart.ended[0][1]
    counted = games_per_month([("alak", when.replace(year=2026, month=2, day=3)),
                               ("alak", when.replace(year=2026, month=2, day=5)),
                               ("polygo", when.replace(year=2025, month=2, day=5))], months)
    assert counted == {"alak": [0, 2]}
