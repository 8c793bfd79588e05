"""The texts the tournament commands post, in both languages."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.cogs.tournaments import (
    format_board,
    format_leaderboard,
    format_pairings,
    format_standings,
)
from bot.services.ratings import Leaderboard, RatingEntry
from bot.services.tournaments import Board, Entrant, StandingRow, Standings, Tournament

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def tournament(status="running", format="swiss", players=(1, 2, 3)):
    return Tournament(
        id=7, name="Winter Cup", guild_id=1, channel_id=2, organiser_id=9, game="alak",
        options={}, format=format, swiss_rounds=3, time_control="untimed",
        forfeit_grace_hours=24, status=status, current_round=2,
        entrants=tuple(Entrant(p, i + 1, p == 3, 2 if p == 3 else None)
                       for i, p in enumerate(players)),
        created_at=NOW, started_at=NOW, finished_at=None,
    )


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_boards_show_games_byes_results_and_forfeits(locale):
    playing = format_board(Board(2, 0, 1, 2, 40, None, None, 1), locale)
    assert "<@1>" in playing and "<@2>" in playing and "40" in playing
    bye = format_board(Board(2, 1, 3, None, None, 1.0, "bye", 0), locale)
    assert "<@3>" in bye and "<@2>" not in bye
    won = format_board(Board(1, 0, 1, 2, 40, 0.0, "game", 1), locale)
    assert "0–1" in won
    drawn = format_board(Board(1, 0, 1, 2, 40, 0.5, "game", 1), locale)
    assert "½–½" in drawn
    forfeit = format_board(Board(1, 0, 1, 2, None, 1.0, "forfeit", 0), locale)
    assert "1–0" in forfeit and forfeit != format_board(
        Board(1, 0, 1, 2, None, 1.0, "game", 0), locale)


def test_pairings_post_names_the_round_and_total():
    text = format_pairings(tournament(), 2, [Board(2, 0, 1, 2, 40, None, None, 1)], "en")
    assert text.splitlines()[0] == "**Winter Cup** (#7) — round 2 of 3"


def test_standings_list_tiebreaks_and_withdrawals_in_order():
    rows = (
        StandingRow(1, 1, 2.0, (3.0, 2.5), 2, 2, 0, 0, False),
        StandingRow(2, 3, 1.0, (4.0, 1.0), 2, 1, 0, 1, True),
    )
    text = format_standings(Standings(tournament(), rows, ("buchholz", "sonneborn_berger")),
                            "en")
    lines = text.splitlines()
    assert lines[1].startswith("1. <@1> — 2 pts") and "Buchholz 3, SB 2.5" in lines[1]
    assert lines[2].startswith("2. <@3>") and "(withdrawn)" in lines[2]
    final = format_standings(Standings(tournament("finished"), rows, ()), "fr")
    assert "classement final" in final.splitlines()[0]


def test_leaderboard_marks_provisional_ratings():
    entries = (
        RatingEntry(1, "alak", "glicko", 1712.4, 60.2, 30, False),
        RatingEntry(2, "alak", "glicko", 1650.0, 200.0, 2, True),
    )
    text = format_leaderboard(Leaderboard("alak", entries, ()), "en")
    lines = text.splitlines()
    assert lines[1] == "1. <@1> — 1712 ±60 (30 games)"
    assert lines[2].startswith("2. <@2> — 1650? ±200")
    empty = format_leaderboard(Leaderboard("alak", (), ()), "en")
    assert "Nobody" in empty
