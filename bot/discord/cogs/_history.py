"""The words of ``/history`` pages and the picture of ``/profile`` (``bot.discord.cogs.history``,
``bot.discord.cogs.tournaments``): what a page says, in the reader's language, and the chart drawn
in the heavy pool, cached until the player's next rated (or finished) game."""

from __future__ import annotations

import io
import logging
from datetime import date
from typing import TYPE_CHECKING, Any

import discord
from babel.dates import format_date

import engines
from bot.core.i18n import language_code, listed, number, t
from bot.core.names import player_name
from bot.services.history import (
    ChartData,
    FinishedGame,
    HistoryPage,
    HistoryService,
    games_per_month,
)
from bot.workers.heavy import HeavyBusy
from render.profile import ProfileTexts, RatingSeries, profile_png, window_months

if TYPE_CHECKING:
    from bot.discord.host import CogHost

log = logging.getLogger(__name__)


def rating_change(change: float, locale: Any) -> str:
    """``+12`` or ``−8`` (a true minus sign), ``±0``."""
    rounded = round(change)
    if rounded == 0:
        return "±0"
    return ("+" if rounded > 0 else "−") + number(abs(rounded), locale)


def game_line(game: FinishedGame, locale: Any) -> str:
    lang = language_code(locale)
    seats = (*game.opponents, *game.partners)
    names = listed([player_name(uid, lang, seats) for uid in game.opponents], lang)
    partners = (t("history.partners", lang, partners=listed(
        [player_name(uid, lang, seats) for uid in game.partners], lang))
        if game.partners else "")
    rating = ""
    if game.rating is not None:
        rating = t("history.rating", lang, after=number(round(game.rating.after), lang),
                   change=rating_change(game.rating.after - game.rating.before, lang))
    thread = f"<#{game.thread_id}>" if game.thread_id else t("history.no_thread", lang)
    return t("history.line", lang, id=game.game_id, game=engines.get(game.game).title,
             result=t(f"history.{game.result}", lang, opponents=names), partners=partners,
             date=format_date(game.ended_at, "d MMM y", locale=lang), rating=rating,
             thread=thread)


def page_text(page: HistoryPage, locale: Any) -> str:
    """A page of /history: a header and a line per game (at most ``PAGE_SIZE`` lines of at
    most about 200 characters: well inside Discord's 2,000)."""
    lang = language_code(locale)
    player = f"<@{page.user_id}>"
    if page.game is not None:
        header = t("history.header_game", lang, player=player, page=page.page + 1,
                   game=engines.get(page.game).title)
    else:
        header = t("history.header", lang, player=player, page=page.page + 1)
    if not page.games:
        return header + "\n" + t("history.empty" if page.page == 0 else "history.empty_page",
                                 lang)
    return "\n".join([header, *(game_line(game, lang) for game in page.games)])


# ----- the /profile picture ---------------------------------------------------------------------


def chart_series(chart: ChartData, locale: Any) -> list[RatingSeries]:
    """A line per (game, rating system), in the games' order: the rating before the first
    game of the window, then after each game; the legend says the game and the rating now."""
    lang = language_code(locale)
    systems: dict[tuple[str, str], list] = {}
    for step in chart.steps:
        points = systems.setdefault((step.game, step.system), [])
        if not points:
            points.append((step.at, *step.before))
        points.append((step.at, *step.after))
    order = list(engines.GAMES)
    found = []
    for (game, system), points in sorted(
            systems.items(), key=lambda item: (order.index(item[0][0])
                                               if item[0][0] in order else len(order),
                                               item[0][1] != "glicko")):
        title = engines.get(game).title
        two_ratings = (game, "glicko") in systems and (game, "skill") in systems
        label = (t("tournaments.profile.more_players", lang, game=title)
                 if system == "skill" and two_ratings else title)
        # The rating now in the legend: a line of a few games is short on a year's axis.
        label = f"{label} · {number(round(points[-1][1]), lang)}"
        found.append(RatingSeries(game, label, tuple(points),
                                  dashed=system == "skill" and two_ratings))
    return found


def chart_key(chart: ChartData, today: date, name: str, lang: str) -> tuple:
    """The picture's cache key: the player's rating version (a new rated game changes it) and
    the games finished in the window (an unrated game changes the bars), the day (the lines
    run to the day drawn: a picture of weeks ago would end them early), the name and the
    language."""
    newest = max((when for _, when in chart.ended), default=None)
    return ("profile", chart.user_id, chart.version, len(chart.ended), newest, today, name,
            lang)


async def profile_file(bot: CogHost, interaction: discord.Interaction, user_id: int,
                       locale: Any, *, private: bool) -> tuple[discord.File | None, str]:
    """The /profile picture of ``user_id`` (None when there is nothing to draw) and a note to
    add to the text ("" or why there is no picture). Drawing defers the interaction first
    (publicly unless ``private``); a cached picture is sent at once."""
    lang = language_code(locale)
    history = HistoryService(bot.services.store)
    # Drawn as of the end of today: the picture stays the same all day (a day is a pixel or
    # two of a year's axis).
    now = discord.utils.utcnow().replace(hour=23, minute=59, second=59, microsecond=0)
    months = window_months(now.date())
    chart = await history.chart(user_id, months[0])
    if chart.empty:
        return None, ""
    name = await bot.display_name(user_id, interaction.guild)
    key = chart_key(chart, now.date(), name, lang)
    png = bot.heavy.cached(key)
    if png is None:
        texts = ProfileTexts(t("history.chart_title", lang, player=name),
                             t("history.chart_rating", lang), t("history.chart_games", lang),
                             t("history.chart_no_ratings", lang))
        try:
            with bot.heavy.admit(interaction.user.id):
                if not interaction.response.is_done():
                    await interaction.response.defer(thinking=True, ephemeral=private)
                png = await bot.heavy.run(key, profile_png, chart_series(chart, lang),
                                          games_per_month(chart.ended, months), months, texts,
                                          lang, now)
        except HeavyBusy:
            return None, t("history.picture_busy", lang)
        except Exception:
            log.exception("the profile picture of %s could not be drawn", user_id)
            return None, ""
    return discord.File(io.BytesIO(png), filename=f"profile-{user_id}.png"), ""
