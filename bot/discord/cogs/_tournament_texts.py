"""What the tournament and rating commands say: boards, pairings, standings, lists, ratings,
leaderboards, profiles and withdrawals, in the reader's language (``tournaments.*`` keys of the
catalogs). Plain functions of service values to text, so they are tested without Discord.

Tournament names are shown with their markdown escaped (the service already took mentions and
links out of them); players are mentions, which the messages send without pinging unless said.
Counts go through the language's plural rules (``t`` with ``count``) and numbers through its
format (``number``: "2.5" in English, "2,5" in French).
"""

from __future__ import annotations

from typing import Any

import discord

import engines
from bot.core.events import TournamentForfeit
from bot.core.i18n import number, t
from bot.core.names import player_name
from bot.services.aiseats import is_ai
from bot.services.ratings import GLICKO, Leaderboard, Profile, RatingEntry
from bot.services.tournaments import Board, Standings, Tournament
from bot.services.tournaments.models import LPPG_TARGET, Withdrawal

MAX_LINES = 40  # keep posts under Discord's 2000 characters


def mention(user_id: int | None, locale: Any = None, entrants: tuple[int, ...] = ()) -> str:
    """A player as a post names them: a person's mention, an AI entrant's name ("AI (hard)",
    in ``locale``), which is never a mention; among ``entrants`` (the tournament's), an AI
    that shares its level with another entrant gets its number ("AI 2 (easy)"), as at a
    table of both."""
    if user_id is None:
        return "-"
    return player_name(user_id, locale, entrants) if is_ai(user_id) else f"<@{user_id}>"


def shown_name(name: str) -> str:
    """A tournament's name inside a message: its markdown escaped, so it reads as typed."""
    return discord.utils.escape_markdown(name)


def game_title(name: str) -> str:
    return engines.get(name).title if name in engines.GAMES else name


# ----- tournaments ------------------------------------------------------------------------------


def format_board(board: Board, locale: Any, entrants: tuple[int, ...] = ()) -> str:
    """One board of a round; ``entrants``: the tournament's, which number its AI players."""
    if board.seats and board.first_id is None:  # a game of an LPPG match
        players = ", ".join(mention(u, locale, entrants) for u in board.seats)
        return t("tournaments.post.match_game", locale, round=board.round, players=players,
                 game=board.game_id)
    if board.second_id is None:
        return t("tournaments.post.bye", locale, board=board.board + 1,
                 player=mention(board.first_id, locale, entrants))
    first = mention(board.first_id, locale, entrants)
    second = mention(board.second_id, locale, entrants)
    if board.decided:
        score = {1.0: "1–0", 0.0: "0–1"}.get(board.first_score, "½–½")
        key = "tournaments.post.forfeit" if board.method == "forfeit" else "tournaments.post.result"
        return t(key, locale, board=board.board + 1, first=first, second=second, score=score)
    return t("tournaments.post.pairing", locale, board=board.board + 1, first=first,
             second=second, game=board.game_id)


def format_pairings(tournament: Tournament, round_number: int, boards: list[Board],
                    locale: Any) -> str:
    total = tournament.total_rounds
    params = {"name": shown_name(tournament.name), "id": tournament.id, "round": round_number}
    header = (t("tournaments.post.round_open", locale, **params) if total is None
              else t("tournaments.post.round", locale, total=total, **params))
    lines = [header, *(format_board(b, locale, tournament.players)
                       for b in boards[:MAX_LINES])]
    if not boards:
        lines.append(t("tournaments.post.no_pairings", locale))
    return "\n".join(lines)


def standings_header(tournament: Tournament, locale: Any) -> str:
    """Where the event stands: after the last completed round (a round just paired is not
    completed), none yet in sign-up, final when over."""
    done, current = tournament.completed_rounds, tournament.current_round
    params = {"name": shown_name(tournament.name), "id": tournament.id, "round": done,
              "current": current}
    if tournament.status == "finished":
        key = "final"
    elif tournament.status == "cancelled":
        key = "standings_cancelled" if done else "standings_cancelled_none"
    elif tournament.status == "signup":
        key = "standings_signup"
    elif done == 0:
        key = "standings_first"
    else:
        key = "standings" if current > done else "standings_after"
    return t(f"tournaments.post.{key}", locale, **params)


def format_standings(standings: Standings, locale: Any) -> str:
    tournament = standings.tournament
    lines = [standings_header(tournament, locale)]
    names = [t(f"tournaments.tiebreak.{name}", locale) for name in standings.tiebreaks]
    match = tournament.format == "lppg_match"
    for row in standings.rows[:MAX_LINES]:
        breaks = ", ".join(f"{n} {number(v, locale)}"
                           for n, v in zip(names, row.tiebreaks, strict=False))
        params = {"rank": "–" if row.rank is None else f"{row.rank}.",
                  "player": mention(row.user_id, locale, tournament.players),
                  "wins": row.wins, "draws": row.draws,
                  "losses": row.losses}
        if match:
            line = t("tournaments.post.standing_match", locale, points=number(row.points, locale),
                     target=LPPG_TARGET, **params)
        else:
            line = t("tournaments.post.standing", locale,
                     points=t("tournaments.count.points", locale, count=row.points), **params)
        if breaks:
            line += f" ({breaks})"
        if row.withdrawn:
            line += " " + t("tournaments.post.removed" if row.removed
                            else "tournaments.post.withdrawn", locale)
        lines.append(line)
    if not standings.rows:
        lines.append(t("tournaments.post.nobody", locale))
    return "\n".join(lines)


def format_tournament(tournament: Tournament, locale: Any) -> str:
    """One paragraph: name, game, format, status, time control, organiser, players (and
    those who left)."""
    active = tournament.active_players
    players = ", ".join(mention(u, locale, tournament.players)
                        for u in active) or t("tournaments.post.nobody", locale)
    text = t("tournaments.post.summary", locale, name=shown_name(tournament.name),
             id=tournament.id, game=game_title(tournament.game),
             format=t(f"tournaments.format.{tournament.format}", locale),
             status=t(f"tournaments.status.{tournament.status}", locale),
             organiser=mention(tournament.organiser_id), count=len(active), players=players,
             time_control=(t("tournaments.untimed", locale)
                           if tournament.time_control == "untimed" else tournament.time_control))
    gone = [e.user_id for e in tournament.entrants if e.withdrawn]
    if gone:
        text += "\n" + t("tournaments.post.summary_left", locale,
                         players=", ".join(mention(u, locale, tournament.players)
                                           for u in gone))
    return text


def list_line(tournament: Tournament, locale: Any) -> str:
    return t("tournaments.list.line", locale, id=tournament.id,
             name=shown_name(tournament.name), game=game_title(tournament.game),
             format=t(f"tournaments.format.{tournament.format}", locale),
             status=t(f"tournaments.status.{tournament.status}", locale),
             players=t("tournaments.count.players", locale,
                       count=len(tournament.active_players)))


def format_list(tournaments: list[Tournament], locale: Any, *, more: int = 0) -> str:
    """This server's open and running tournaments, one line each."""
    if not tournaments:
        return t("tournaments.none_here", locale)
    lines = [t("tournaments.list.header", locale),
             *(list_line(x, locale) for x in tournaments)]
    if more:
        lines.append(t("tournaments.list.more", locale, count=more))
    return "\n".join(lines)


def which_text(tournaments: list[Tournament], locale: Any) -> str:
    """The question a command asks when several tournaments could be meant."""
    return "\n".join([t("tournaments.which", locale),
                      *(list_line(x, locale) for x in tournaments)])


def choice_label(tournament: Tournament, locale: Any) -> str:
    """An autocomplete choice (plain text, at most 100 characters): number, name, game,
    status."""
    label = t("tournaments.choice", locale, id=tournament.id, name=tournament.name,
              game=game_title(tournament.game),
              status=t(f"tournaments.status.{tournament.status}", locale))
    return label if len(label) <= 100 else label[:99] + "…"


def withdrawal_text(withdrawal: Withdrawal, by: int, locale: Any) -> str:
    """What a ``leave`` or ``kick`` did, said as it happened: left the sign-up, withdrew, or
    was removed by ``by``; and the game it cost, if one was running."""
    info = withdrawal.tournament
    params = {"player": mention(withdrawal.user_id, locale, info.players), "by": mention(by),
              "name": shown_name(info.name), "id": info.id}
    if info.status == "signup":
        key = "kicked" if withdrawal.removed else "left"
    else:
        key = "removed" if withdrawal.removed else "withdrew"
    text = t(f"tournaments.{key}", locale, **params)
    if withdrawal.forfeited:
        text += " " + t("tournaments.forfeited", locale,
                        games=", ".join(t("bot.game.number", locale, id=g)
                                        for g in withdrawal.forfeited))
    return text


def forfeit_post(forfeit: TournamentForfeit, tournament: Tournament, locale: Any) -> str:
    """The game thread's line when a player left the tournament during the game."""
    removed_by = forfeit.removed_by
    if not forfeit.removed:
        key = "withdrew"
    else:
        key = "removed" if removed_by is not None else "removed_unknown"
    return t(f"tournaments.forfeit.{key}", locale,
             player=mention(forfeit.user_id, locale, tournament.players),
             by=mention(removed_by), name=shown_name(tournament.name), id=tournament.id)


# ----- ratings ----------------------------------------------------------------------------------


def format_rating(entry: RatingEntry, locale: Any) -> str:
    mark = "?" if entry.provisional else ""
    return t("tournaments.rating.value", locale, value=f"{entry.value:.0f}{mark}",
             deviation=f"{entry.deviation:.0f}",
             games=t("tournaments.count.games", locale, count=entry.games))


def format_leaderboard(board: Leaderboard, locale: Any) -> str:
    game = game_title(board.game)
    scope = "here" if board.guild_id is not None else "everyone"
    lines = [t(f"tournaments.leaderboard.header_{scope}", locale, game=game)]
    for system, entries in ((GLICKO, board.glicko), ("skill", board.skill)):
        if not entries:
            continue
        if board.glicko and board.skill:
            lines.append(t(f"tournaments.leaderboard.{system}", locale))
        for index, entry in enumerate(entries, start=1):
            lines.append(f"{index}. {mention(entry.user_id)} — {format_rating(entry, locale)}")
    if len(lines) == 1:
        lines.append(t(f"tournaments.leaderboard.empty_{scope}", locale, game=game))
    else:
        lines.append(t("tournaments.leaderboard.provisional", locale))
    return "\n".join(lines)


def format_profile(profile: Profile, locale: Any, *, in_server: bool) -> str:
    """A player's ratings, each with its rank among everyone and (typed in a server) on that
    server's leaderboard."""
    lines = [t("tournaments.profile.header", locale, player=mention(profile.user_id))]
    for entry in profile.ratings:
        game = game_title(entry.game)
        if entry.system != GLICKO:
            game = t("tournaments.profile.more_players", locale, game=game)
        if not in_server:
            ranks = t("tournaments.profile.rank", locale, rank=entry.rank)
        elif entry.server_rank is None:
            ranks = t("tournaments.profile.rank_not_here", locale, rank=entry.rank)
        else:
            ranks = t("tournaments.profile.ranks", locale, here=entry.server_rank,
                      rank=entry.rank)
        lines.append(t("tournaments.profile.line", locale, game=game,
                       rating=format_rating(entry, locale), ranks=ranks))
    if not profile.ratings:
        lines.append(t("tournaments.profile.unrated", locale))
    return "\n".join(lines)
