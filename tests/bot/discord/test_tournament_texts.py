"""The texts the tournament and rating commands post, in both languages."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from bot.core.events import TournamentForfeit
from bot.core.i18n import number, t
from bot.discord.cogs._tournament_texts import (
    forfeit_post,
    format_board,
    format_leaderboard,
    format_list,
    format_pairings,
    format_profile,
    format_standings,
    format_tournament,
    standings_header,
    which_text,
    withdrawal_text,
)
from bot.services.ratings import Leaderboard, Profile, RatingEntry
from bot.services.tournaments import Board, Entrant, StandingRow, Standings, Tournament
from bot.services.tournaments.models import Withdrawal

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def tournament(status="running", format="swiss", players=(1, 2, 3), *, current=2, completed=1,
               name="Winter Cup"):
    return Tournament(
        id=7, name=name, guild_id=1, channel_id=2, organiser_id=9, game="alak",
        options={}, format=format, swiss_rounds=3, time_control="untimed",
        forfeit_grace_hours=24, status=status, current_round=current,
        entrants=tuple(Entrant(p, i + 1, p == 3, 2 if p == 3 else None, p == 3)
                       for i, p in enumerate(players)),
        created_at=NOW, started_at=NOW, finished_at=None, completed_rounds=completed,
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
    match = format_pairings(tournament(format="lppg_match"), 4, [], "en")
    assert match.splitlines()[0] == "**Winter Cup** (#7) — round 4"  # no "of ?"


# ----- where the event stands -----------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_standings_say_the_last_completed_round_not_the_one_just_paired(locale):
    """Ruling: "after round n" names the last round whose every board is decided."""
    just_paired = standings_header(tournament(current=2, completed=1), locale)
    assert "1" in just_paired.split("—")[1] and "2" in just_paired.split("—")[1]
    assert just_paired != standings_header(tournament(current=2, completed=2), locale)
    signup = standings_header(tournament("signup", current=0, completed=0), locale)
    assert "0" not in signup.split("—")[1]
    first = standings_header(tournament(current=1, completed=0), locale)
    assert "0" not in first.split("—")[1]


def test_standings_headers_in_english():
    assert standings_header(tournament(current=2, completed=1), "en") == (
        "**Winter Cup** (#7) — standings after round 1 (round 2 is being played)")
    assert standings_header(tournament("signup", current=0, completed=0), "en") == (
        "**Winter Cup** (#7) — sign-up open: no round played yet")
    assert "no round completed" in standings_header(tournament(current=1, completed=0), "en")
    assert standings_header(tournament("finished", current=3, completed=3), "en").endswith(
        "final standings")
    assert "cancelled before" in standings_header(
        tournament("cancelled", current=1, completed=0), "en")
    assert standings_header(tournament("cancelled", current=3, completed=2), "en").endswith(
        "standings after round 2")


def test_standings_list_tiebreaks_and_withdrawals_in_order():
    rows = (
        StandingRow(1, 1, 2.0, (3.0, 2.5), 2, 2, 0, 0, False),
        StandingRow(None, 3, 1.0, (4.0, 1.0), 2, 1, 0, 1, True, True),
    )
    text = format_standings(Standings(tournament(), rows, ("buchholz", "sonneborn_berger")),
                            "en")
    lines = text.splitlines()
    assert lines[1].startswith("1. <@1> — 2 pts") and "Buchholz 3, SB 2.5" in lines[1]
    assert lines[2].startswith("– <@3> — 1 pt") and "(removed by the organiser)" in lines[2]
    left = dataclasses.replace(rows[1], removed=False)
    assert "(withdrew)" in format_standings(Standings(tournament(), (left,), ()), "en")
    final = format_standings(Standings(tournament("finished"), rows, ()), "fr")
    assert "classement final" in final.splitlines()[0]
    assert "(exclu par l'organisation)" in final and "SB" not in final


def test_french_standings_write_numbers_the_french_way():
    rows = (StandingRow(1, 1, 2.5, (3.5,), 3, 2, 1, 0, False),)
    text = format_standings(Standings(tournament(), rows, ("buchholz",)), "fr")
    assert "2,5 pts" in text and "Buchholz 3,5" in text
    assert number(2.5, "en") == "2.5" and number(2.0, "fr") == "2" and number(0.5, "fr") == "0,5"


@pytest.mark.parametrize("locale, won", [("en", "won"), ("fr", "victoires\u00a0: 2")])
def test_lppg_match_standings_show_the_target(locale, won):
    rows = (StandingRow(1, 1, 7.0, (), 3, 2, 0, 1, False),)
    text = format_standings(Standings(tournament(format="lppg_match"), rows, ()), locale)
    assert "7/10 points" in text.splitlines()[1] and won in text


# ----- names ----------------------------------------------------------------------------------


def test_names_show_their_markdown_as_typed():
    text = format_tournament(tournament(name="**Big** _Cup_ # 1"), "en")
    assert text.startswith(r"**\*\*Big\*\* \_Cup\_ # 1** (#7)")


def test_the_summary_counts_the_players_still_in_and_lists_who_left():
    text = format_tournament(tournament(players=(1, 2, 3)), "en")
    assert "Players (2): <@1>, <@2>" in text and "Left: <@3>" in text


# ----- plurals --------------------------------------------------------------------------------


@pytest.mark.parametrize("count, en, fr", [
    (0, "0 players", "0 joueur"), (1, "1 player", "1 joueur"), (2, "2 players", "2 joueurs"),
])
def test_counts_follow_each_languages_plural_rules(count, en, fr):
    assert t("tournaments.count.players", "en", count=count) == en
    assert t("tournaments.count.players", "fr", count=count) == fr


@pytest.mark.parametrize("points, en, fr", [
    (0, "0 pts", "0 pt"), (1, "1 pt", "1 pt"), (1.5, "1.5 pts", "1,5 pt"), (2, "2 pts", "2 pts"),
])
def test_points_follow_each_languages_plural_rules(points, en, fr):
    assert t("tournaments.count.points", "en", count=points) == en
    assert t("tournaments.count.points", "fr", count=points) == fr


# ----- lists, choices, withdrawals ------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_list_and_which_name_every_tournament(locale):
    both = [tournament(), dataclasses.replace(tournament("signup"), id=8, name="Spring")]
    text = format_list(both, locale, more=3)
    assert "Winter Cup" in text and "Spring" in text and "3" in text.splitlines()[-1]
    assert "#7" in text or "n°7" in text
    assert "Spring" in which_text(both, locale)
    assert "/tournament" in format_list([], "en") and "/tournoi" in format_list([], "fr")


def test_a_removal_is_said_as_a_removal_with_the_game_it_cost():
    running = tournament()
    removed = withdrawal_text(Withdrawal(running, 3, True, (41,)), 9, "en")
    assert removed == ("<@9> removed <@3> from **Winter Cup** (#7): they will not be paired "
                       "again. Their game in progress (#41) is lost by forfeit.")
    assert "resign" not in removed
    withdrew = withdrawal_text(Withdrawal(running, 3, False, ()), 3, "fr")
    assert "se retire" in withdrew and "forfait" not in withdrew
    # In French the game's number is written as French writes numbers: n°41, never #41.
    french = withdrawal_text(Withdrawal(running, 3, True, (41,)), 9, "fr")
    assert "(n°41)" in french and "#" not in french, french
    sign_up = withdrawal_text(Withdrawal(tournament("signup"), 3, True, ()), 9, "en")
    assert sign_up == "<@9> took <@3> off the sign-up of **Winter Cup** (#7)."


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_game_thread_says_why_the_game_was_lost(locale):
    forfeit = TournamentForfeit(game_id=41, seat=1, user_id=3, tournament_id=7, removed=True,
                                removed_by=9, version=12)
    removed = forfeit_post(forfeit, tournament(), locale)
    assert "<@9>" in removed and "<@3>" in removed and "Winter Cup" in removed
    withdrew = forfeit_post(dataclasses.replace(forfeit, removed=False, removed_by=None),
                            tournament(), locale)
    assert "<@9>" not in withdrew and withdrew != removed
    unknown = forfeit_post(dataclasses.replace(forfeit, removed_by=None), tournament(), locale)
    assert "<@9>" not in unknown and unknown not in (removed, withdrew)


# ----- ratings --------------------------------------------------------------------------------


def test_leaderboard_marks_provisional_ratings_and_says_whose_board_it_is():
    entries = (
        RatingEntry(1, "alak", "glicko", 1712.4, 60.2, 30, False),
        RatingEntry(2, "alak", "glicko", 1650.0, 200.0, 1, True),
    )
    text = format_leaderboard(Leaderboard("alak", entries, (), guild_id=5), "en")
    lines = text.splitlines()
    assert lines[0] == "**Alak** leaderboard — players of this server"
    assert lines[1] == "1. <@1> — 1712 ±60 (30 games)"
    assert lines[2] == "2. <@2> — 1650? ±200 (1 game)"
    everyone = format_leaderboard(Leaderboard("alak", entries, ()), "en")
    assert everyone.splitlines()[0] == "**Alak** leaderboard — everyone"
    assert "this server" in format_leaderboard(Leaderboard("alak", (), (), 5), "en")
    assert "Nobody" in format_leaderboard(Leaderboard("alak", (), ()), "en")


def test_a_profile_says_both_ranks():
    entries = (
        RatingEntry(1, "alak", "glicko", 1712.4, 60.2, 30, False, rank=4, server_rank=1),
        RatingEntry(1, "kolory", "skill", 1523.0, 300.0, 2, True, rank=9),
    )
    lines = format_profile(Profile(1, entries), "en", in_server=True).splitlines()
    assert lines[1] == "• Alak: 1712 ±60 (30 games) — #1 on this server, #4 among everyone"
    assert lines[2].startswith("• Kolory (more players): 1523? ±300 (2 games) — #9 among")
    assert "no rated game" in lines[2]
    french = format_profile(Profile(1, entries), "fr", in_server=True).splitlines()
    assert french[1] == ("• Alak\u00a0: 1712 ±60 (30 parties) — rang 1 sur ce serveur, "
                         "rang 4 au total")
    dm = format_profile(Profile(1, entries[:1]), "en", in_server=False)
    assert "this server" not in dm and "#4 among everyone" in dm
