"""Answering a request for a review (``/review`` and the Review button under a game's result),
and the review's words in the reader's language.

The answer is private (ephemeral), in the language of the one who asked: a review is read by
one person at a time, and a review of a game in progress (against the AI) is for its player
alone. A stored review is drawn at once; otherwise the answer is deferred, its message shows
the progress (edited at most every ``bot.workers.review.PROGRESS_EVERY`` seconds), and becomes the
review when it is ready.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

import engines
from bot.core.errors import ServiceError
from bot.core.i18n import language_code, number, t
from bot.core.review import MISTAKE_LOSS, Review
from bot.discord.cogs._common import game_here
from bot.discord.replies import NO_PINGS, reply_error
from bot.services.review import ReviewSource
from bot.workers.review import Progress, ReviewBusy, follow, review_key, review_png
from render.review import ReviewTexts

if TYPE_CHECKING:
    from bot.discord.host import CogHost

log = logging.getLogger(__name__)


def loss_text(value: float, locale: Any) -> str:
    return number(round(value, 2), locale)


def player_lines(review: Review, names: Sequence[str], locale: Any) -> list[str]:
    return [t("review.player_line", locale, player=names[line.seat], count=line.mistakes,
              loss=loss_text(line.average_loss, locale)) for line in review.lines]


def captions(review: Review, names: Sequence[str], locale: Any) -> list[list[str]]:
    """Each mistake's caption: the move and who played it, the move and how much it lost,
    the AI's move instead."""
    found = []
    for mistake in review.mistakes:
        better = (t("review.caption_better", locale, move=mistake.better) if mistake.better
                  else t("review.caption_no_better", locale))
        found.append([
            t("review.caption_move", locale, number=mistake.ply, player=names[mistake.seat]),
            t("review.caption_played", locale, move=mistake.played,
              loss=loss_text(mistake.loss, locale)),
            better,
        ])
    return found


def review_texts(review: Review, source: ReviewSource, game_title: str, names: Sequence[str],
                 locale: Any) -> ReviewTexts:
    """Every word of the picture, in the reader's language."""
    notes = [t("review.note_scale", locale, half=number(0.5, locale))]
    if review.players > 2:
        notes.append(t("review.note_multi", locale))
    notes.append(t("review.note_mistake", locale, threshold=number(MISTAKE_LOSS, locale)))
    if not source.finished:
        notes.append(t("review.note_view", locale, player=names[source.perspective]))
    elif engines.get(review.game).name == "lppg":
        notes.append(t("review.note_full", locale))
    seats = range(review.players)
    return ReviewTexts(
        title=t("review.title", locale, id=source.game_id, game=game_title),
        notes=notes,
        axis_moves=t("review.axis_moves", locale),
        axis_score=t("review.axis_score", locale),
        ticks=[number(v, locale) for v in (0, 0.5, 1)],
        result=t("review.result" if review.finished else "review.now", locale),
        results=[number(round(review.result[s], 2), locale) for s in seats],
        player_lines=player_lines(review, names, locale),
        mistakes_heading=[t("review.mistakes_of", locale, player=names[s]) for s in seats],
        no_mistakes=t("review.no_mistakes", locale),
    )


def summary_text(review: Review, game_id: int, game_title: str, names: Sequence[str],
                 locale: Any) -> str:
    """The short text posted with the picture: a line per player."""
    lines = [t("review.ready", locale, id=game_id, game=game_title)]
    lines += [f"- {line}" for line in player_lines(review, names, locale)]
    return "\n".join(lines)


def progress_text(progress: Progress, game_id: int, locale: Any) -> str:
    if progress.better_total and progress.done >= progress.total:
        return t("review.progress_better", locale, id=game_id, total=progress.total,
                 done=progress.better_done, count=progress.better_total)
    return t("review.progress", locale, id=game_id, done=progress.done, total=progress.total)


async def answer_review(bot: CogHost, interaction: discord.Interaction,
                        game_id: int | None) -> None:
    """``/review [game]`` and the Review button: the review, privately, in the reader's
    language (see the module)."""
    info = await game_here(bot, interaction, game_id)
    if info is None:
        return
    locale = interaction.locale
    work = bot.reviews
    user = interaction.user.id
    try:
        source = await work.service.source(info.id, user)
        review = await work.service.stored(source)
    except ServiceError as error:
        await reply_error(interaction, error)
        return
    if review is None:
        try:
            with work.admit(user):
                job = work.job(source, user)
                await interaction.response.defer(ephemeral=True, thinking=True)

                async def report(progress: Progress) -> None:
                    await interaction.edit_original_response(
                        content=progress_text(progress, info.id, locale))

                await report(job.progress.snapshot())
                try:
                    review = await follow(job, report)
                except Exception:
                    log.exception("the review of game %s failed", info.id)
                    await interaction.edit_original_response(
                        content=t("review.failed", locale, id=info.id))
                    return
        except ReviewBusy as error:
            await reply_error(interaction, error)
            return
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    lang = language_code(locale)
    names = [await bot.display_name(uid) for uid in info.seats]
    title = engines.get(info.game).title
    png = await bot.heavy.run(
        review_key(source, names, lang), review_png, source, review, names,
        review_texts(review, source, title, names, lang), captions(review, names, lang), lang)
    await interaction.edit_original_response(
        content=summary_text(review, info.id, title, names, lang),
        attachments=[discord.File(io.BytesIO(png), filename=f"review-{info.game}-{info.id}.png")],
        allowed_mentions=NO_PINGS)
