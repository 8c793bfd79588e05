"""A game's rules as a small page: the very texts ``/rules`` shows in Discord
(``bot.core.rules``), every section in reading order, in the visitor's language. The texts
are written for Discord's chat, so they are shown as they are, escaped, their line breaks
kept (no second renderer of their marks)."""

from __future__ import annotations

from html import escape

from aiohttp import web

from bot.core import rules
from bot.core.i18n import t
from bot.web import pages
from bot.web.answers import language

#: The rules change with a release only: a browser may keep the page an hour.
CACHE = "public, max-age=3600"


def rules_html(game: str, lang: str) -> str:
    """Every section of ``game``'s rules in ``lang`` (English where a section lacks one)."""
    parts = [f"<h1>{escape(rules.title(game, lang))}</h1>",
             f'<p class="summary">{escape(rules.summary(game, lang))}</p>']
    for section_id in rules.SECTIONS:
        section = rules.section(game, section_id, lang)
        parts.append(f'<section id="{section_id}"><h2>{escape(section.title)}</h2>'
                     f'<p class="rules">{escape(section.body)}</p></section>')
    return pages.plain(rules.title(game, lang), "<main>" + "".join(parts) + "</main>", lang)


async def rules_page(request: web.Request) -> web.Response:
    """``GET /rules/<game>``: public, like ``/rules``; an unknown game is not found."""
    game = request.match_info["game"]
    lang = language(request)
    if game not in rules.GAMES:
        # The words of ``/rules`` for a game it does not know.
        text = t("rules.unknown_game", lang, game=game, games=", ".join(rules.GAMES))
        raise web.HTTPNotFound(text=pages.message(text, lang), content_type="text/html")
    return web.Response(content_type="text/html", text=rules_html(game, lang),
                        headers={"Cache-Control": CACHE, "Vary": "Accept-Language"})
